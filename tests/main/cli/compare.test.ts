import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Project } from '../../../src-main/project/store.ts';
import { mannWhitney } from '../../../src-shared/stats/mann-whitney.ts';
import { a12 } from '../../../src-shared/stats/a12.ts';
import { median, summarize } from '../../../src-shared/stats/summary.ts';
import { nonDominatedIndices } from '../../../src-shared/metrics/dominance.ts';
import { normalise } from '../../../src-shared/metrics/hypervolume.ts';
import { additiveEpsilon, spacing } from '../../../src-shared/metrics/indicators.ts';
import { diceHvNormalisation, formatHvNormalisation } from '../../../src-shared/problems/dice/hv-reference.ts';
import { trackConfig } from '../../../src-shared/problems/dice/config.ts';
import { runCli } from './io.ts';

let cwd: string;
beforeAll(async () => {
  cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-cli-compare-'));
  const spec = {
    name: 'cmp',
    instances: [
      { name: 'so-n12', track: 'so', n: 12 },
      { name: 'so-n20', track: 'so', n: 20 },
      { name: 'mo2-n12', track: 'mo2', n: 12 },
    ],
    solvers: [{ name: 'random' }, { name: 'steepest' }],
    seeds: { count: 4 },
    budget: { evaluations: 300 },
  };
  // steepest is single-objective: give the MO instance its own experiment.
  const mo = { ...spec, name: 'mo', instances: [spec.instances[2]], solvers: [{ name: 'random' }, { name: 'nsga2', params: { populationSize: 20 } }] };
  fs.writeFileSync(path.join(cwd, 'so.json'), JSON.stringify({ ...spec, instances: spec.instances.slice(0, 2) }));
  fs.writeFileSync(path.join(cwd, 'mo.json'), JSON.stringify(mo));
  // Three seeds, in a project of their own: too few for the rank-sum test to reach p < 0.05.
  fs.writeFileSync(path.join(cwd, 'few.json'), JSON.stringify({ ...mo, name: 'few', seeds: { count: 3 } }));
  await runCli(['project', 'new', 'p.saikoro'], { cwd });
  await runCli(['experiment', 'add', 'p.saikoro', '--spec', 'so.json'], { cwd });
  await runCli(['experiment', 'add', 'p.saikoro', '--spec', 'mo.json'], { cwd });
  await runCli(['project', 'new', 'few.saikoro'], { cwd });
  await runCli(['experiment', 'add', 'few.saikoro', '--spec', 'few.json'], { cwd });
  expect((await runCli(['experiment', 'run', 'few.saikoro', '--inline'], { cwd })).code).toBe(0);
  const r = await runCli(['experiment', 'run', 'p.saikoro', '--inline'], { cwd });
  expect(r.code).toBe(0);
  // The normalisation stored at `add` is a function of the config: adding again changes nothing.
  expect((await runCli(['experiment', 'add', 'p.saikoro', '--spec', 'mo.json'], { cwd })).stdout).toContain('already in p.saikoro with this spec');
});
afterAll(() => {
  fs.rmSync(cwd, { recursive: true, force: true });
});

describe('saikoro compare', () => {
  it('reports, per instance, the same statistics as the stats module on the stored values', async () => {
    const r = await runCli(['compare', 'p.saikoro', 'cmp', '--metric', 'best', '--json'], { cwd });
    expect(r.code).toBe(0);
    const c = JSON.parse(r.stdout);
    const project = Project.open(path.join(cwd, 'p.saikoro'), { readOnly: true });
    const runs = project.runs();
    project.close();
    for (const inst of c.instances) {
      const values = (solver: string) =>
        runs.filter((x) => x.instance === inst.instance && x.solver === solver && x.result!.best!.feasible).map((x) => x.result!.best!.objectives[0]);
      const random = values('random');
      const steepest = values('steepest');
      expect(inst.solvers[0].summary?.median ?? null).toBe(random.length ? median(random) : null);
      expect(inst.solvers[0].runs).toBe(4);
      if (random.length && steepest.length) {
        expect(inst.pairs[0].p).toBeCloseTo(mannWhitney(random, steepest).p, 12);
        // lower is better: A12 = P(random < steepest)
        expect(inst.pairs[0].a12).toBeCloseTo(a12(steepest, random), 12);
      }
    }
    expect(c.friedman.instances).toHaveLength(2);
  });

  it('prints tables, with the HV normalisation of each instance', async () => {
    const best = await runCli(['compare', 'p.saikoro', 'cmp', '--metric', 'best'], { cwd });
    expect(best.stdout).toContain('# cmp: best (lower is better)');
    expect(best.stdout).toMatch(/\| solver +\| n +\| median/);
    expect(best.stdout).toContain('## Friedman over 2 instances (so-n12, so-n20)');
    const hv = await runCli(['compare', 'p.saikoro', 'mo', '--metric', 'hv'], { cwd });
    expect(hv.code).toBe(0);
    // The same one-line form as the Solve view's caption (formatHvNormalisation), of the
    // normalisation diceHvNormalisation computes for the instance's config.
    const norm = diceHvNormalisation(trackConfig('mo2', 12));
    expect(hv.stdout).toContain(`normalisation: ${formatHvNormalisation(norm)} (ideal 0; nadir = median objective of 1000 uniformly random sequences`);
    expect(hv.stdout).toMatch(/normalisation: ideal \(0, 0\), nadir \([\d.]+, [\d.]+\), reference \(1\.1, 1\.1\) \(/);
    expect(hv.stdout).toContain('Friedman: not computed (needs at least 2 instances with values for every solver, has 1)');
    expect((await runCli(['compare', 'p.saikoro', 'mo', '--metric', 'igd+'], { cwd })).code).toBe(0);
    // Four seeds can show a difference (2 / C(8, 4) = 0.029): no note.
    expect(hv.stdout).not.toContain('note:');
  });

  it('says when too few runs make every pair unable to reach p < 0.05, and how many runs could', async () => {
    const few = await runCli(['compare', 'few.saikoro', 'few', '--metric', 'hv'], { cwd });
    expect(few.code).toBe(0);
    const c = JSON.parse((await runCli(['compare', 'few.saikoro', 'few', '--metric', 'hv', '--json'], { cwd })).stdout);
    // The exact test's smallest p with 3 and 3 runs is 2 / C(6, 3) = 0.1: the one pair's p is at least that.
    expect(c.instances[0].pairs[0].p).toBeGreaterThanOrEqual(0.1);
    expect(few.stdout).toContain(
      'note: With 3 runs per solver, the rank-sum test cannot reach p < 0.05 (its smallest p is 0.1), so no pair can be significant; 4 runs per solver can be.\n',
    );
  });

  it('epsilon, spacing and feasibility: the stored fronts through the library indicators', async () => {
    const project = Project.open(path.join(cwd, 'p.saikoro'), { readOnly: true });
    const runs = project.runs();
    project.close();
    const eps = JSON.parse((await runCli(['compare', 'p.saikoro', 'mo', '--metric', 'epsilon', '--json'], { cwd })).stdout);
    const spc = JSON.parse((await runCli(['compare', 'p.saikoro', 'mo', '--metric', 'spacing', '--json'], { cwd })).stdout);
    expect([eps.higherIsBetter, spc.higherIsBetter]).toEqual([false, false]);
    const inst = eps.instances[0];
    const mine = runs.filter((x) => x.instance === 'mo2-n12');
    const front = (x: (typeof mine)[number]) =>
      normalise(
        x.result!.front.map((s) => s.objectives),
        inst.normalisation.ideal,
        inst.normalisation.nadir,
      );
    const union = mine.flatMap(front);
    const reference = nonDominatedIndices(union).map((i) => union[i]);
    for (const [k, solver] of ['random', 'nsga2'].entries()) {
      const fronts = mine.filter((x) => x.solver === solver).map(front);
      expect(fronts).toHaveLength(4);
      const e = fronts.filter((f) => f.length).map((f) => additiveEpsilon(f, reference));
      expect(eps.instances[0].solvers[k].summary).toEqual(summarize(e));
      expect(Math.min(...e)).toBeGreaterThanOrEqual(0); // R holds each front's own non-dominated points
      const sp = fronts.filter((f) => f.length >= 2).map((f) => spacing(f));
      expect(spc.instances[0].solvers[k].withoutValue).toBe(4 - sp.length);
      expect(spc.instances[0].solvers[k].summary).toEqual(sp.length ? summarize(sp) : null);
    }
    expect(spc.instances[0].solvers.some((s: { summary: unknown }) => s.summary)).toBe(true);
    // Feasibility on the SO experiment: the share of runs with a feasible solution is the mean.
    const feas = await runCli(['compare', 'p.saikoro', 'cmp', '--metric', 'feasibility', '--json'], { cwd });
    const f = JSON.parse(feas.stdout);
    expect(f).toMatchObject({ higherIsBetter: true, aggregate: 'mean', skipped: [] });
    for (const i of f.instances)
      for (const s of i.solvers) {
        const found = runs.filter((x) => x.instance === i.instance && x.solver === s.label).map((x): number => (x.result!.firstFeasibleAt !== null ? 1 : 0));
        expect(s.summary.mean).toBeCloseTo(found.reduce((a, b) => a + b, 0) / 4, 12);
      }
    const text = await runCli(['compare', 'p.saikoro', 'cmp', '--metric', 'feasibility'], { cwd });
    expect(text.stdout).toContain('# cmp: feasibility (higher is better)');
    expect(text.stdout).not.toContain('normalisation:');
    expect(text.stdout).toContain('## Friedman over 2 instances (so-n12, so-n20), on the per-instance means');
    const epsText = await runCli(['compare', 'p.saikoro', 'mo', '--metric', 'epsilon'], { cwd });
    expect(epsText.stdout).toContain('# mo: epsilon (lower is better)');
    expect(epsText.stdout).toContain('normalisation: ');
  });

  it('reads a project written before the rename (spec key normalization): same comparison, add and merge see the same spec', async () => {
    // The experiment as the older version stored it: the same spec with the key "normalization".
    const current = Project.open(path.join(cwd, 'p.saikoro'), { readOnly: true });
    const spec = current.experiment('mo')!.spec;
    current.close();
    expect(spec.instances[0].normalisation).toBeDefined();
    const oldSpec = JSON.parse(JSON.stringify(spec).replaceAll('"normalisation"', '"normalization"'));
    const old = Project.create(path.join(cwd, 'old.saikoro'));
    old.addExperiment(oldSpec);
    old.close();
    // Adding the spec file again is a no-op (it was refused as a different spec), and the
    // stored spec is left as it was.
    const add = await runCli(['experiment', 'add', 'old.saikoro', '--spec', 'mo.json'], { cwd });
    expect([add.code, add.stdout]).toEqual([0, 'experiment mo is already in old.saikoro with this spec (8 runs)\n']);
    // Merging the new project's runs (and its spec in the new spelling) in: the same experiment.
    const merge = await runCli(['merge', 'old.saikoro', 'p.saikoro'], { cwd });
    expect(merge.code).toBe(0);
    const reopened = Project.open(path.join(cwd, 'old.saikoro'), { readOnly: true });
    expect(reopened.experiments().map((e) => e.name)).toEqual(['mo', 'cmp']);
    expect(JSON.stringify(reopened.experiment('mo')!.spec)).toContain('"normalization"');
    reopened.close();
    for (const metric of ['hv', 'igd+', 'epsilon', 'spacing', 'feasibility']) {
      const before = await runCli(['compare', 'old.saikoro', 'mo', '--metric', metric, '--json'], { cwd });
      const now = await runCli(['compare', 'p.saikoro', 'mo', '--metric', metric, '--json'], { cwd });
      expect(before.code).toBe(0);
      expect(JSON.parse(before.stdout)).toEqual(JSON.parse(now.stdout));
    }
    const text = await runCli(['compare', 'old.saikoro', 'mo', '--metric', 'hv'], { cwd });
    expect(text.stdout).toContain(`normalisation: ${formatHvNormalisation(diceHvNormalisation(trackConfig('mo2', 12)))}`);
    // The other way: the old experiment merged into a new project is written in the new spelling.
    await runCli(['project', 'new', 'fresh.saikoro'], { cwd });
    expect((await runCli(['merge', 'fresh.saikoro', 'old.saikoro'], { cwd })).code).toBe(0);
    const fresh = Project.open(path.join(cwd, 'fresh.saikoro'), { readOnly: true });
    expect(fresh.experiment('mo')!.spec).toEqual(spec);
    fresh.close();
  });

  it('names bad input (exit 1) and usage errors (exit 2)', async () => {
    const soSpacing = await runCli(['compare', 'p.saikoro', 'cmp', '--metric', 'spacing'], { cwd });
    expect(soSpacing.code).toBe(1);
    expect(soSpacing.stderr).toContain(
      'metric spacing applies to no instance of experiment cmp: so-n12 (track so) is single-objective; spacing needs at least 2 objectives (use best or feasibility)',
    );
    const soEpsilon = await runCli(['compare', 'p.saikoro', 'cmp', '--metric', 'epsilon'], { cwd });
    expect(soEpsilon.code).toBe(1);
    expect(soEpsilon.stderr).toContain('so-n20 (track so) is single-objective; epsilon needs at least 2 objectives');
    const wrongKind = await runCli(['compare', 'p.saikoro', 'mo', '--metric', 'best'], { cwd });
    expect(wrongKind.code).toBe(1);
    expect(wrongKind.stderr).toContain(
      'metric best applies to no instance of experiment mo: mo2-n12 (track mo2) has 2 objectives; "best" is for single-objective instances',
    );
    const unknown = await runCli(['compare', 'p.saikoro', 'nope', '--metric', 'hv'], { cwd });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no experiment named "nope" (has: cmp, mo)');
    expect((await runCli(['compare', 'missing.saikoro', 'cmp', '--metric', 'hv'], { cwd })).stderr).toContain('missing.saikoro: no such file');
    expect((await runCli(['compare', 'p.saikoro', 'cmp'], { cwd })).code).toBe(2);
    const badMetric = await runCli(['compare', 'p.saikoro', 'cmp', '--metric', 'gd'], { cwd });
    expect(badMetric.code).toBe(2);
    expect(badMetric.stderr).toContain('--metric: must be one of hv, igd+, epsilon, spacing, feasibility, best, got "gd"');
  });
});
