import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Project } from '../../../src-main/project/store.ts';
import { mannWhitney } from '../../../src-shared/stats/mann-whitney.ts';
import { a12 } from '../../../src-shared/stats/a12.ts';
import { median } from '../../../src-shared/stats/summary.ts';
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
  await runCli(['project', 'new', 'p.saikoro'], { cwd });
  await runCli(['experiment', 'add', 'p.saikoro', '--spec', 'so.json'], { cwd });
  await runCli(['experiment', 'add', 'p.saikoro', '--spec', 'mo.json'], { cwd });
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
    expect(hv.stdout).toMatch(/normalisation: ideal \[0\.0000, 0\.0000\], nadir \[[\d.]+, [\d.]+\], reference 1\.1 per objective \(ideal 0; nadir = median objective of 1000 uniformly random sequences/);
    expect(hv.stdout).toContain('Friedman: not computed (needs at least 2 instances with values for every solver, has 1)');
    expect((await runCli(['compare', 'p.saikoro', 'mo', '--metric', 'igd+'], { cwd })).code).toBe(0);
  });

  it('names bad input (exit 1) and usage errors (exit 2)', async () => {
    const wrongKind = await runCli(['compare', 'p.saikoro', 'mo', '--metric', 'best'], { cwd });
    expect(wrongKind.code).toBe(1);
    expect(wrongKind.stderr).toContain('metric best applies to no instance of experiment mo: mo2-n12 has 2 objectives');
    const unknown = await runCli(['compare', 'p.saikoro', 'nope', '--metric', 'hv'], { cwd });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no experiment named "nope" (has: cmp, mo)');
    expect((await runCli(['compare', 'missing.saikoro', 'cmp', '--metric', 'hv'], { cwd })).stderr).toContain('missing.saikoro: no such file');
    expect((await runCli(['compare', 'p.saikoro', 'cmp'], { cwd })).code).toBe(2);
    const badMetric = await runCli(['compare', 'p.saikoro', 'cmp', '--metric', 'gd'], { cwd });
    expect(badMetric.code).toBe(2);
    expect(badMetric.stderr).toContain('--metric: must be one of hv, igd+, best, got "gd"');
  });
});
