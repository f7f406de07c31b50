// @vitest-environment happy-dom
// The Solve view against a fake main side that plans requests with the real application layer:
// the HV normalisation (with RunStarted, or from getRun at the first snapshot when startRun
// answered before it was computed) is shown under the hypervolume chart; a failed start shows its reason and nothing of the previous
// run; parameters are shown rounded, with sizes derived at setup; every front member can be
// reached (no silent cap); a reload finds the run still going.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApp, nextTick, type App as VueApp } from 'vue';
import { createPinia, setActivePinia } from 'pinia';
import SolveView from '../../src-renderer/views/solve/SolveView.vue';
import { provideApi } from '../../src-renderer/api/index.ts';
import { useSolveStore } from '../../src-renderer/stores/solve.ts';
import type { DiceRunStarted, RunInfo, SolverResult } from '../../src-shared/api.ts';
import { diceHvNormalisation, formatHvNormalisation } from '../../src-shared/problems/dice/hv-reference.ts';
import { trackConfig } from '../../src-shared/problems/dice/config.ts';
import { describeSolvers } from '../../src-shared/solvers/registry.ts';
import { fakeRunApi } from './fake-run-api.ts';

const caption = () => document.querySelector('[data-testid="hv-normalisation"]');
const text = (id: string) => document.querySelector(`[data-testid="${id}"]`)?.textContent?.replace(/\s+/g, ' ').trim() ?? null;

let app: VueApp;
let env: ReturnType<typeof fakeRunApi>;
let solve: ReturnType<typeof useSolveStore>;

function mount() {
  document.body.innerHTML = '<div id="app"></div>';
  app = createApp(SolveView);
  provideApi(app, env.api);
  const pinia = createPinia();
  app.use(pinia);
  setActivePinia(pinia);
  app.mount('#app');
  solve = app.runWithContext(() => useSolveStore());
}

beforeEach(() => {
  env = fakeRunApi({ listSolvers: async () => describeSolvers() });
  mount();
});
afterEach(() => app.unmount());

const settle = async () => {
  await new Promise((r) => setTimeout(r, 0));
  await nextTick();
};

async function startRun(track: 'so' | 'mo2' | 'mo3' | 'mo7', n: number, solver = '', params: Record<string, number> = {}) {
  solve.track = track;
  solve.n = n;
  solve.selectSolver(solver);
  solve.params = params;
  await solve.start();
  await settle();
}

function finish(runId: string, result: Partial<SolverResult>) {
  env.finish({
    runId,
    kind: 'dice',
    status: 'done',
    reason: null,
    result: { trace: [], front: [], best: null, message: 'done', objectiveCount: 2, ...result } as SolverResult,
  });
}

describe('Solve view: HV normalisation caption', () => {
  it('a mo2 run shows ideal, nadir and reference point under the hypervolume chart, as RunStarted carries them', async () => {
    expect(caption()).toBeNull();
    await startRun('mo2', 840);
    const started = env.infos.get('run-test-1')!.started as DiceRunStarted;
    const norm = diceHvNormalisation(trackConfig('mo2', 840));
    expect(started.hvNormalisation).toEqual(norm);
    // diceHvNormalisation(mo2, N = 840): nadir = medians of 1000 random sequences (seed 2020),
    // 539.2857... and 940.5, shown to 4 significant digits.
    expect(caption()?.textContent?.trim()).toBe('HV normalised: ideal (0, 0), nadir (539.3, 940.5), reference (1.1, 1.1)');
    expect(caption()?.textContent?.trim()).toBe(`HV normalised: ${formatHvNormalisation(norm)}`);
    expect(caption()?.getAttribute('title')).toBe(norm.method);
    expect(caption()?.closest('section')?.querySelector('.card-title')?.textContent).toContain('normalised hypervolume');

    // Snapshots bring the front's hypervolume as the worker computed it; the chart takes it as is.
    env.snapshot({
      runId: 'run-test-1',
      kind: 'dice',
      snapshot: {
        evaluations: 100,
        seconds: 0.1,
        progress: 0.1,
        paused: false,
        feasibleFound: true,
        best: null,
        front: [
          [300, 500],
          [500, 300],
        ],
        indicator: 0.42,
      },
    });
    await nextTick();
    expect(solve.current!.points.at(-1)).toEqual({ evaluations: 100, value: 0.42, secondary: 2 });
    expect(caption()?.textContent?.trim()).toBe('HV normalised: ideal (0, 0), nadir (539.3, 940.5), reference (1.1, 1.1)');
  });

  it('a mo3 run shows three coordinates, an M = 7 run (HV from the final trace) seven; a single-objective run none', async () => {
    await startRun('mo3', 100);
    expect(caption()?.textContent?.trim()).toBe('HV normalised: ideal (0, 0, 0), nadir (15.48, 51, 60), reference (1.1, 1.1, 1.1)');
    finish('run-test-1', { objectiveCount: 3 });
    await startRun('so', 50);
    expect(caption()).toBeNull();
    finish('run-test-2', { objectiveCount: 1 });
    await startRun('mo7', 50);
    expect(caption()?.textContent?.trim()).toBe(
      'HV normalised: ideal (0, 0, 0, 0, 0, 0, 0), nadir (3.6, 4.8, 5, 1, 4, 12, 12), reference (1.1, 1.1, 1.1, 1.1, 1.1, 1.1, 1.1)',
    );
  });
});

describe('Solve view: what a run shows', () => {
  it("a failed start shows its reason, not the previous run's solver and M", async () => {
    await startRun('mo2', 60, 'nsga3');
    expect(text('solve-run-params')).toMatch(/^nsga3 · /);
    finish('run-test-1', {});
    await settle();
    await startRun('mo2', 60, 'nsga3', { populationSize: 2 });
    expect(text('solve-status')).toBe('Not started');
    // The reason is at the field it is about (it was only in the status card).
    expect(text('solve-error-params.populationSize')).toBe('must be 0 (automatic) or at least 4, got 2');
    expect(document.querySelector('[data-testid="solve-param-populationSize"]')!.getAttribute('aria-invalid')).toBe('true');
    expect(text('solve-message')).toBe('Not started: parameter populationSize is marked above.');
    expect(text('solve-run-params')).toBeNull();
    expect(caption()).toBeNull();
    // Editing the form clears it.
    solve.params = { populationSize: 8 };
    await settle();
    expect(text('solve-error-params.populationSize')).toBeNull();
  });

  it('a refused N, seed or budget is named at its field', async () => {
    await startRun('so', 0);
    expect(text('solve-error-n')).toBe('must be at least 1, got 0');
    expect(document.querySelector('[data-testid="solve-n"]')!.getAttribute('aria-invalid')).toBe('true');
    expect(text('solve-message')).toBe('Not started: N is marked above.');
    solve.n = 50;
    solve.evaluations = 0;
    await solve.start();
    await settle();
    expect(text('solve-error-n')).toBeNull();
    expect(text('solve-error-evaluations')).toBe('must be an integer from 1 to 1000000000, got 0');
    solve.evaluations = 1000;
    solve.seed = -1;
    await solve.start();
    await settle();
    expect(text('solve-error-seed')).toBe('must be an integer from 0 to 2^53 - 1, got -1');
    expect(text('solve-status')).toBe('Not started');
  });

  it("parameters are shown rounded, and NSGA-III's automatic population as the size it uses", async () => {
    await startRun('so', 840, 'ga');
    // mutationRate = 1/N = 0.0011904761904761906
    expect(text('solve-run-params')).toContain('mutationRate=0.00119');
    finish('run-test-1', { objectiveCount: 1 });
    await startRun('mo3', 60, 'nsga3');
    // M = 3 with 12 divisions: 91 reference directions, rounded up to a multiple of 4.
    expect(text('solve-run-params')).toContain('populationSize=92');
    expect(text('solve-run-params')).not.toContain('populationSize=0');
  });

  it('a finished single-objective run says at which evaluation its best was found (local searches stop at a step boundary)', async () => {
    await startRun('so', 50);
    const best = { x: '1'.repeat(50), objectives: [0], constraints: [], feasible: true, violation: 0 };
    finish('run-test-1', {
      objectiveCount: 1,
      best,
      bestFoundAt: 52,
      evaluations: 1000,
      message: 'best feasible f = 0 after 1000 evaluations (target reached)',
    });
    await settle();
    expect(text('solve-best')).toBe('f = 0');
    expect(text('solve-best-found')).toBe('· found at evaluation 52 of 1,000');
  });

  it('the front table reaches every member: no cap, the count in the title, arrow keys and Enter open any row', async () => {
    await startRun('mo2', 60, 'nsga2');
    const front = Array.from({ length: 120 }, (_, i) => ({
      x: String(1 + (i % 6)).repeat(60),
      objectives: [i, 119 - i],
      constraints: [],
      feasible: true,
      violation: 0,
    }));
    finish('run-test-1', { front, objectiveCount: 2 });
    await settle();
    expect(document.querySelector('.card-title')?.textContent).toBeDefined();
    const title = [...document.querySelectorAll('.card-title')].find((h) => h.textContent?.trim().startsWith('Front'))!;
    expect(title.textContent).toContain('120 members');
    const table = document.querySelector<HTMLElement>('[data-testid="front-table"]')!;
    expect(table.getAttribute('aria-rowcount')).toBe('120');
    // Only the rows in view are rendered; End moves to the last member and Enter opens it.
    expect(table.querySelectorAll('tbody tr[aria-rowindex]').length).toBeLessThan(120);
    table.dispatchEvent(new KeyboardEvent('keydown', { key: 'End', bubbles: true }));
    await nextTick();
    table.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    await nextTick();
    expect(window.location.hash).toBe('#/dice');
  });

  it('after a reload the form follows the Solve run, not a newer run of an experiment session', async () => {
    solve.evaluations = 5000;
    solve.seed = 9;
    await startRun('so', 60);
    finish('run-test-1', { objectiveCount: 1 });
    // An experiment session's run (the monitor's), newer, with other settings: the main side lists it too.
    const mine = env.infos.get('run-test-1')!;
    const started = {
      ...(mine.started as DiceRunStarted),
      runId: 'run-session-1',
      createdAt: '2026-12-01T01:00:00.000Z',
      track: 'mo2' as const,
      n: 24,
      solver: 'nsga2',
      seed: 3,
      evaluations: 600,
      objectiveCount: 2,
      experiment: { name: 'small', id: 'abc', instance: 'mo2-n24', label: 'nsga2' },
    };
    env.infos.set('run-session-1', { ...mine, runId: 'run-session-1', started, status: 'running', result: null, snapshot: null } as RunInfo);
    app.unmount();
    mount();
    await settle();
    expect([solve.track, solve.n, solve.solver, solve.evaluations, solve.seed]).toEqual(['so', 60, 'barrier-ls', 5000, 9]);
    expect(solve.current!.runId).toBe('run-test-1');
    expect(solve.diceRuns.map((r) => r.runId)).toEqual(['run-test-1']);
  });

  it('after a reload the view finds the run still going, with its history, pause and cancel', async () => {
    solve.evaluations = 5000;
    solve.seed = 9;
    await startRun('so', 60);
    for (let k = 1; k <= 3; k++)
      env.snapshot({
        runId: 'run-test-1',
        kind: 'dice',
        snapshot: {
          evaluations: 1000 * k,
          seconds: k,
          progress: k / 20,
          paused: false,
          feasibleFound: true,
          best: { x: '1'.repeat(60), objectives: [100 - k], constraints: [], feasible: true, violation: 0 },
          front: [],
          indicator: null,
        },
      });
    app.unmount();
    mount();
    await settle();
    expect(text('solve-status')).toBe('Running');
    expect(solve.current!.points.map((p) => p.value)).toEqual([99, 98, 97]);
    // The form says what the run shown runs.
    expect([solve.track, solve.n, solve.solver, solve.evaluations, solve.seed]).toEqual(['so', 60, 'barrier-ls', 5000, 9]);
    expect(text('solve-best')).toBe('f = 97');
    document.querySelector<HTMLElement>('[data-testid="solve-pause"]')!.click();
    await settle();
    expect(env.pauses).toEqual([['run-test-1', true]]);
    document.querySelector<HTMLElement>('[data-testid="solve-cancel"]')!.click();
    await settle();
    expect(env.cancelled).toEqual(['run-test-1']);
  });
});
