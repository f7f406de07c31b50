// @vitest-environment happy-dom
// The Pareto explorer against the real main side, on an experiment run on real workers: it shows
// every stored point of the instance (counted here from getExperimentResults), a brushed region
// selects exactly the stored points inside it, a point opens in the evaluator with its sequence
// and the instance's config (the dice store is the contract), hidden runs leave the selection,
// a live app run is shown from its snapshot and again with sequences once it ends; the hash
// names the source.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { nextTick } from 'vue';
import ExploreView from '../../../src-renderer/views/explore/ExploreView.vue';
import { applyConfigToDice, hashOfSource, sourceFromHash, useExploreStore, type ExploreSource } from '../../../src-renderer/stores/explore.ts';
import { useDiceStore } from '../../../src-renderer/stores/dice.ts';
import { useRunsStore } from '../../../src-renderer/stores/runs.ts';
import { useProjectStore } from '../../../src-renderer/stores/project.ts';
import { rectRanges } from '../../../src-renderer/logic/explore/selection.ts';
import type { ExperimentRunResult } from '../../../src-shared/api.ts';
import { diceConfig, trackConfig } from '../../../src-shared/problems/dice/config.ts';
import { realApp, runExperimentToEnd, type RealApp } from '../real-app.ts';
import { waitFor } from '../../main/processes.ts';
import { mountView, textOf, type Mounted } from '../project/mount.ts';

const SPEC = {
  name: 'fronts',
  instances: [
    { name: 'mo2-n30', track: 'mo2', n: 30 },
    { name: 'mo3-n30', track: 'mo3', n: 30 },
  ],
  solvers: [{ name: 'random' }, { name: 'nsga2', params: { populationSize: 20 } }],
  seeds: [1, 2],
  budget: { evaluations: 600 },
};

let env: RealApp;
let view: Mounted | null = null;
let results: ExperimentRunResult[];

async function runToEnd(name: string) {
  expect(await runExperimentToEnd(env.api, name)).toMatchObject({ status: 'done', failed: 0 });
}

/** The stored points of an instance, as the explorer should show them: each run's front, or its best when the front is empty. */
function storedPoints(instance: string) {
  return results
    .filter((r) => r.instance === instance && r.result)
    .flatMap((r) => (r.result!.front.length ? r.result!.front : r.result!.best ? [r.result!.best] : []).map((s) => ({ ...s, run: r })));
}

beforeAll(async () => {
  env = realApp({ parallelism: 2 });
  await env.api.createProject('explore.saikoro');
  await env.api.addExperiment(SPEC);
  await runToEnd('fronts');
  results = await env.api.getExperimentResults('fronts');
}, 120_000);
afterAll(() => env.dispose());
afterEach(() => {
  view?.unmount();
  view = null;
});

function open(hash: string) {
  view = mountView(ExploreView, env.api, hash);
  return view.app.runWithContext(() => useExploreStore());
}

describe('a stored experiment', () => {
  it('shows every stored point of the instance, with the instance normalisation', async () => {
    const explore = open('#/explore/fronts');
    await waitFor('the front', () => explore.data);
    const stored = storedPoints('mo2-n30');
    expect(explore.data!.count).toBe(stored.length);
    expect(explore.data!.runs.length).toBe(4);
    expect(explore.data!.objectiveNames).toEqual(['f1 (F1–F7)', 'f2 (F8–F15)']);
    const instance = (await env.api.getProject())!.experiments[0].spec.instances[0];
    expect(explore.data!.normalisation).toEqual({ ideal: instance.normalisation!.ideal, nadir: instance.normalisation!.nadir });
    await nextTick();
    expect(textOf('explore-counts')).toContain(`${stored.length} of ${stored.length} solutions shown · M = 2 · 4 runs`);
    // M = 2: the second view offers the attainment surfaces and the EAF difference.
    expect(document.querySelector('[data-testid="explore-tab-attainment"]')).not.toBeNull();
    expect(document.querySelector('[data-testid="explore-tab-matrix"]')).toBeNull();
  });

  it('a brushed region selects exactly the stored points inside it, listed with their values', async () => {
    const explore = open('#/explore/fronts');
    await waitFor('the front', () => explore.data);
    const stored = storedPoints('mo2-n30');
    const f1 = stored.map((s) => s.objectives[0]).sort((a, b) => a - b);
    const f2 = stored.map((s) => s.objectives[1]).sort((a, b) => a - b);
    const x: [number, number] = [f1[Math.floor(f1.length * 0.2)], f1[Math.floor(f1.length * 0.8)]];
    const y: [number, number] = [f2[0], f2[Math.floor(f2.length * 0.7)]];
    explore.selectRegion('scatter', rectRanges(0, 1, x, y));
    const inside = stored.filter((s) => s.objectives[0] >= x[0] && s.objectives[0] <= x[1] && s.objectives[1] >= y[0] && s.objectives[1] <= y[1]);
    expect(inside.length).toBeGreaterThan(0);
    expect(explore.selection!.indices.length).toBe(inside.length);
    expect(Array.from(explore.selection!.indices, (i) => explore.data!.x[i]).sort()).toEqual(inside.map((s) => s.x).sort());
    await nextTick();
    expect(document.querySelector('[data-testid="selection-count"]')?.getAttribute('data-count')).toBe(String(inside.length));
    expect(textOf('selection-region')).toMatch(/^f1 \(F1–F7\) in \[.*\]; f2 \(F8–F15\) in \[.*\]$/);

    // Hiding a solver's runs drops its points from the selection.
    const nsga2 = inside.filter((s) => s.run.label === 'nsga2').length;
    explore.setSolver('nsga2', false);
    await nextTick();
    expect(explore.selection!.indices.length).toBe(inside.length - nsga2);
  });

  it('a point opens in the evaluator: its sequence and the instance config, through the dice store', async () => {
    const explore = open('#/explore/fronts?instance=mo3-n30');
    await waitFor('the front', () => explore.data);
    expect(explore.data!.objectiveCount).toBe(3);
    await nextTick();
    expect(document.querySelector('[data-testid="explore-tab-matrix"]')).not.toBeNull();
    const i = explore.data!.count - 1;
    expect(explore.openInEvaluator(i)).toBe(true);
    const dice = view!.app.runWithContext(() => useDiceStore());
    expect(dice.sequence).toBe(explore.data!.x[i]);
    expect(dice.track).toBe('mo3');
    expect(dice.config).toEqual(trackConfig('mo3', 30));
    expect(window.location.hash).toBe('#/dice');
    expect(dice.undoLabel).toBe('open from the explorer');
    // Where it came from: the experiment and instance, the run's solver, seed and stored id.
    const run = explore.data!.runs[explore.data!.run[i]];
    expect(dice.originNow).toEqual({
      source: 'experiment fronts · mo3-n30',
      solver: run.solver,
      seed: run.seed,
      run: run.id,
      what: explore.data!.feasible[i] ? 'a solution of its final front' : 'its best solution (infeasible: the run found no feasible one)',
      x: explore.data!.x[i],
      edited: 0,
    });
    expect(run.id).toMatch(/^[0-9a-f]{32}$/);
  });

  it('back through the navigation (#/explore), what was shown stays and the address names it', async () => {
    const explore = open('#/explore/fronts?instance=mo3-n30');
    await waitFor('the front', () => explore.data);
    const shown = explore.data;
    window.location.hash = '#/explore';
    window.dispatchEvent(new HashChangeEvent('hashchange'));
    await nextTick();
    expect(explore.data).toBe(shown);
    expect(window.location.hash).toBe('#/explore/fronts?instance=mo3-n30');
  });

  it("with nothing chosen, offers the project's multi-objective experiments, and one click shows it", async () => {
    const explore = open('#/explore');
    await view!.app.runWithContext(() => useProjectStore()).refresh();
    await nextTick();
    // The experiment by name; the app's own multi-objective runs (here the experiment's) by count.
    expect(textOf('explore-hint')).toMatch(/^Choose a front above, or show\s*fronts; \d+ runs? of this app (is|are) in the list too\.$/);
    document.querySelector<HTMLButtonElement>('[data-testid="explore-pick-fronts"]')!.click();
    expect(window.location.hash).toBe('#/explore/fronts');
    window.dispatchEvent(new HashChangeEvent('hashchange'));
    await waitFor('the front', () => explore.data);
    expect(explore.source).toMatchObject({ kind: 'experiment', name: 'fronts' });
    await nextTick();
    expect(document.querySelector('[data-testid="explore-hint"]')).toBeNull();
  });

  it('says so for an experiment that is not there', async () => {
    const explore = open('#/explore/nothing');
    await waitFor('the error', () => explore.error);
    expect(explore.error).toBe('the project has no experiment nothing');
  });
});

describe('an app run', () => {
  it('is shown from its latest snapshot while it runs, and with its sequences when it ends', async () => {
    view = mountView(ExploreView, env.api, '#/explore');
    const runs = view.app.runWithContext(() => useRunsStore());
    const explore = view.app.runWithContext(() => useExploreStore());
    const started = await runs.start({
      kind: 'dice',
      config: { ...trackConfig('mo2', 30) },
      solver: 'nsga2',
      params: { populationSize: 20 },
      seed: 4,
      evaluations: 2000,
    });
    window.location.hash = `#/explore/run/${started.runId}`;
    window.dispatchEvent(new HashChangeEvent('hashchange'));
    await waitFor('the front', () => explore.data);
    await waitFor(
      'the finished run with sequences',
      () => explore.data!.x.every((x) => x !== null) && explore.data!.count > 0 && explore.snapshotEvaluations === null,
      { withinMs: 30_000 },
    );
    const result = runs.get(started.runId)!.result as { front: { x: string }[] };
    expect(explore.data!.x).toEqual(result.front.map((s) => s.x));
    expect(explore.data!.runs).toEqual([{ id: started.runId, solver: 'nsga2', seed: 4 }]);
  });
});

describe('the hash and the dice store', () => {
  it('names the source and back', () => {
    const sources: ExploreSource[] = [
      { kind: 'experiment', name: 'mo3', instance: null },
      { kind: 'experiment', name: 'mo3', instance: 'n 50' },
      { kind: 'run', runId: 'run-a1-7' },
      { kind: 'synthetic', points: 100_000, objectives: 3, seed: 2 },
    ];
    for (const s of sources) expect(sourceFromHash(hashOfSource(s))).toEqual(s);
    expect(sourceFromHash('#/explore')).toBeNull();
    expect(sourceFromHash('#/dice/mo3')).toBeNull();
    expect(sourceFromHash('#/explore/synthetic/abc')).toBeNull();
    expect(sourceFromHash('#/explore/synthetic/2000000')).toBeNull();
    // An experiment may be called "run" or "synthetic": one segment names an experiment.
    expect(sourceFromHash('#/explore/run')).toEqual({ kind: 'experiment', name: 'run', instance: null });
  });

  it('a custom config reaches the dice store: bands, constrained d and their percent points', () => {
    view = mountView(ExploreView, env.api, '#/explore');
    const dice = view.app.runWithContext(() => useDiceStore());
    const config = diceConfig({
      track: 'mo2',
      n: 40,
      constraints: [1, 3],
      lowerBounds: [0.05, 0.2],
      upperBounds: [0.95, 0.8],
      gamma: trackConfig('mo2', 40).gamma.map((g) => g * 2),
    });
    expect(applyConfigToDice(dice, config, 'mo2')).toBe(true);
    expect(dice.config).toEqual(config);
    expect(applyConfigToDice(dice, { ...config, objectives: [[1, 2], [3]] }, null)).toBe(false);
  });
});
