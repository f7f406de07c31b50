import { describe, expect, it } from 'vitest';
import { compareExperiment, type StoredRun } from '../../../src-shared/experiments/compare.ts';
import { expandGrid } from '../../../src-shared/experiments/grid.ts';
import { validateSpec } from '../../../src-shared/experiments/spec.ts';
import type { SolverResult } from '../../../src-shared/solvers/types.ts';

const norm = { ideal: [0, 0], nadir: [1, 1] };
const spec = validateSpec({
  name: 'cmp',
  instances: [
    { name: 'a', track: 'mo2', n: 20, normalization: norm },
    { name: 'b', track: 'mo2', n: 30, normalization: norm },
    { name: 's', track: 'so', n: 20 },
  ],
  solvers: [{ name: 'random', label: 'A' }, { name: 'random', label: 'B', params: { batch: 7 } }],
  seeds: [1, 2, 3],
  budget: { evaluations: 100 },
});

// Fronts per solver and seed (normalised = raw, since ideal 0 and nadir 1).
const fronts: Record<string, number[][][]> = {
  A: [[[0.5, 0.5]], [[0.6, 0.5]], [[0.5, 0.4]]],
  B: [[[0.1, 0.1]], [[0.2, 0.1]], [[0.1, 0.3]]],
};
const bestSo: Record<string, number[]> = { A: [5, 6, 7], B: [1, 2, 2] };

function fakeResult(objectives: number[][], best: number | null): SolverResult {
  return {
    front: objectives.map((o) => ({ x: '1', objectives: o, constraints: [], feasible: true, violation: 0 })),
    best: best === null ? null : { x: '1', objectives: [best], constraints: [], feasible: true, violation: 0 },
  } as unknown as SolverResult;
}

function stored(): Map<string, StoredRun> {
  const map = new Map<string, StoredRun>();
  for (const run of expandGrid(spec)) {
    const i = [1, 2, 3].indexOf(run.seed);
    const result = run.instance === 's' ? fakeResult([], bestSo[run.label][i]) : fakeResult(fronts[run.label][i], null);
    map.set(run.id, { id: run.id, result });
  }
  return map;
}

describe('compareExperiment', () => {
  it('computes normalised HV per run, summaries, the exact Mann-Whitney test and A12', () => {
    const c = compareExperiment(spec, stored(), 'hv');
    expect(c.higherIsBetter).toBe(true);
    expect(c.skipped).toEqual([{ instance: 's', reason: 's is single-objective; hv is for multi-objective instances (use best)' }]);
    const a = c.instances[0];
    expect(a.normalization).toEqual(norm);
    // HV against (1.1, 1.1): A = 0.6², 0.5·0.6, 0.6·0.7; B = 1.0², 0.9·1.0, 1.0·0.8.
    expect(a.solvers[0].summary!.median).toBeCloseTo(0.36, 12);
    expect(a.solvers[0].summary!.mean).toBeCloseTo((0.36 + 0.3 + 0.42) / 3, 12);
    expect(a.solvers[1].summary!.median).toBeCloseTo(0.9, 12);
    // Complete separation of 3 vs 3: exact two-sided p = 2 / C(6, 3) = 0.1; A is never better.
    expect(a.pairs).toHaveLength(1);
    expect(a.pairs[0]).toMatchObject({ a: 'A', b: 'B', u: 0, method: 'exact', a12: 0, magnitude: 'large' });
    expect(a.pairs[0].p).toBeCloseTo(0.1, 12);
  });

  it('computes IGD+ against the non-dominated union of all fronts of the instance', () => {
    const c = compareExperiment(spec, stored(), 'igd+');
    const [A, B] = c.instances[0].solvers;
    // Reference set {(0.1, 0.1)}: B's IGD+ are 0, 0.1, 0.2; A's first is sqrt(0.4² + 0.4²).
    expect(B.summary!.median).toBeCloseTo(0.1, 12);
    expect(B.summary!.min).toBeCloseTo(0, 12);
    expect(A.summary!.min).toBeCloseTo(Math.hypot(0.4, 0.3), 12);
    expect(A.summary!.max).toBeCloseTo(Math.hypot(0.5, 0.4), 12);
    expect(c.instances[0].pairs[0].a12).toBe(0);
  });

  it('runs Friedman over the instances on the medians', () => {
    const c = compareExperiment(spec, stored(), 'hv');
    // B ranks 1 and A ranks 2 on both instances: chi2_F = 12·2/(2·3)·(1² + 2² − 2·3²/4) = 2.
    expect(c.friedman!.averageRanks).toEqual([2, 1]);
    expect(c.friedman!.chiSquare).toBeCloseTo(2, 12);
    expect(c.friedman!.p).toBeCloseTo(0.15729920705028513, 10);
    expect(c.friedman!.instances).toEqual(['a', 'b']);
  });

  it('uses the best feasible value on SO instances and counts missing runs', () => {
    const runs = stored();
    const missing = expandGrid(spec).find((r) => r.instance === 's' && r.label === 'B')!;
    runs.delete(missing.id);
    const c = compareExperiment(spec, runs, 'best');
    expect(c.skipped.map((s) => s.instance)).toEqual(['a', 'b']);
    const [A, B] = c.instances[0].solvers;
    expect(A.summary!.median).toBe(6);
    expect(B).toMatchObject({ runs: 2, missing: 1, withoutValue: 0 });
    expect(c.friedman).toBeNull();
    expect(c.friedmanNote).toContain('needs at least 2 instances');
  });

  it('refuses a metric that fits no instance', () => {
    const soOnly = validateSpec({ ...spec, instances: [{ name: 's', track: 'so', n: 20 }] });
    expect(() => compareExperiment(soOnly, new Map(), 'hv')).toThrow(/metric hv applies to no instance of experiment cmp/);
  });
});
