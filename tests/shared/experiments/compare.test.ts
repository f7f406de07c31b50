import { describe, expect, it } from 'vitest';
import { compareExperiment, metricValues, type StoredRun } from '../../../src-shared/experiments/compare.ts';
import { expandGrid } from '../../../src-shared/experiments/grid.ts';
import { validateSpec, type ExperimentSpec } from '../../../src-shared/experiments/spec.ts';
import type { SolverResult } from '../../../src-shared/solvers/types.ts';
import { summarize } from '../../../src-shared/stats/summary.ts';

const norm = { ideal: [0, 0], nadir: [1, 1] };
const spec = validateSpec({
  name: 'cmp',
  instances: [
    { name: 'a', track: 'mo2', n: 20, normalisation: norm },
    { name: 'b', track: 'mo2', n: 30, normalisation: norm },
    { name: 's', track: 'so', n: 20 },
  ],
  solvers: [
    { name: 'random', label: 'A' },
    { name: 'random', label: 'B', params: { batch: 7 } },
  ],
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
    expect(c.skipped).toEqual([{ instance: 's', reason: 's (track so) is single-objective; hv needs at least 2 objectives (use best or feasibility)' }]);
    const a = c.instances[0];
    expect(a.normalisation).toEqual(norm);
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

  it('reads a spec stored before the rename (instances[].normalization) and compares the same', () => {
    // As a project written before stores it: the raw JSON, never validated again on reading.
    const old = JSON.parse(JSON.stringify(spec).replaceAll('"normalisation"', '"normalization"')) as ExperimentSpec;
    expect(old.instances[0]).toEqual({ name: 'a', track: 'mo2', n: 20, normalization: norm });
    expect(expandGrid(old).map((r) => r.id)).toEqual(expandGrid(spec).map((r) => r.id));
    for (const metric of ['hv', 'igd+', 'epsilon', 'spacing', 'feasibility', 'best'] as const)
      expect(compareExperiment(old, stored(), metric)).toEqual(compareExperiment(spec, stored(), metric));
    expect(compareExperiment(old, stored(), 'hv').instances[0].normalisation).toEqual(norm);
  });

  it('refuses a metric that fits no instance', () => {
    const soOnly = validateSpec({ ...spec, instances: [{ name: 's', track: 'so', n: 20 }] });
    expect(() => compareExperiment(soOnly, new Map(), 'hv')).toThrow(/metric hv applies to no instance of experiment cmp/);
    for (const metric of ['epsilon', 'spacing'] as const)
      expect(() => compareExperiment(soOnly, new Map(), metric)).toThrow(
        `metric ${metric} applies to no instance of experiment cmp: s (track so) is single-objective; ${metric} needs at least 2 objectives (use best or feasibility)`,
      );
    const moOnly = validateSpec({ ...spec, instances: [spec.instances[0]] });
    expect(() => compareExperiment(moOnly, new Map(), 'best')).toThrow('a (track mo2) has 2 objectives; "best" is for single-objective instances');
    expect(() => compareExperiment(spec, new Map(), 'gd' as never)).toThrow('unknown metric "gd"');
  });
});

// Fronts with several points, raw objectives; normalised = raw / 2 (ideal 0, nadir 2).
const spec2 = validateSpec({
  name: 'ind',
  instances: [
    { name: 'c', track: 'mo2', n: 20, normalisation: { ideal: [0, 0], nadir: [2, 2] } },
    { name: 's', track: 'so', n: 20 },
  ],
  solvers: [
    { name: 'random', label: 'A' },
    { name: 'random', label: 'B', params: { batch: 7 } },
  ],
  seeds: [1, 2, 3],
  budget: { evaluations: 100 },
});
// Normalised: A1 {(0,1), (.5,.5), (1,0)}, A2 {(0,1), (.2,.6), (1,0)}, A3 {(.5,.5)},
//             B1 {(0,.8), (.8,0)}, B2 {} (no feasible solution), B3 {(.4,.4)}.
const fronts2: Record<string, number[][][]> = {
  A: [
    [
      [0, 2],
      [1, 1],
      [2, 0],
    ],
    [
      [0, 2],
      [0.4, 1.2],
      [2, 0],
    ],
    [[1, 1]],
  ],
  B: [
    [
      [0, 1.6],
      [1.6, 0],
    ],
    [],
    [[0.8, 0.8]],
  ],
};
// SO instance: B's second seed never finds a feasible solution.
const feasibleSo: Record<string, boolean[]> = { A: [true, true, true], B: [true, false, true] };

function result2(objectives: number[][], best: { value: number; feasible: boolean } | null): SolverResult {
  const feasible = objectives.length > 0 || best?.feasible === true;
  return {
    front: objectives.map((o) => ({ x: '1', objectives: o, constraints: [], feasible: true, violation: 0 })),
    best: best && { x: '1', objectives: [best.value], constraints: [3], feasible: best.feasible, violation: best.feasible ? 0 : 0.5 },
    firstFeasibleAt: feasible ? 10 : null,
  } as unknown as SolverResult;
}

function stored2(): Map<string, StoredRun> {
  const map = new Map<string, StoredRun>();
  for (const run of expandGrid(spec2)) {
    const i = [1, 2, 3].indexOf(run.seed);
    const result =
      run.instance === 's'
        ? result2([], { value: 4, feasible: feasibleSo[run.label][i] })
        : result2(fronts2[run.label][i], fronts2[run.label][i].length ? null : { value: 9, feasible: false });
    map.set(run.id, { id: run.id, result });
  }
  return map;
}

describe('metricValues: the per-run values compareExperiment summarises', () => {
  it('gives each done run its value (null without one) by instance and solver, in seed order; missing runs are counted', () => {
    const runs = stored2();
    const gone = expandGrid(spec2).find((r) => r.instance === 'c' && r.label === 'A' && r.seed === 3)!;
    runs.delete(gone.id);
    const v = metricValues(spec2, runs, 'spacing');
    expect(v.skipped.map((s) => s.instance)).toEqual(['s']);
    const [A, B] = v.instances[0].solvers;
    // Normalised A1 {(0,1), (.5,.5), (1,0)}: nearest Manhattan distances 1, 1, 1, so spacing 0;
    // A2 {(0,1), (.2,.6), (1,0)}: 0.6, 0.6, 1.4 (mean 2.6 / 3).
    expect(A.runs.map((r) => r.seed)).toEqual([1, 2]);
    expect(A.runs[0].value).toBeCloseTo(0, 12);
    expect(A.runs[1].value).toBeCloseTo(Math.sqrt((2 * (0.6 - 2.6 / 3) ** 2 + (1.4 - 2.6 / 3) ** 2) / 2), 12);
    expect(A.missing).toBe(1);
    // B2 has an empty front and B3 a single point: no spacing.
    expect(B.runs.map((r) => [r.seed, r.value === null])).toEqual([
      [1, false],
      [2, true],
      [3, true],
    ]);
    for (const metric of ['hv', 'igd+', 'epsilon', 'spacing', 'feasibility'] as const) {
      const c = compareExperiment(spec2, runs, metric);
      const values = metricValues(spec2, runs, metric).instances[0].solvers;
      c.instances[0].solvers.forEach((column, k) => {
        const list = values[k].runs.flatMap((r) => (r.value === null ? [] : [r.value]));
        expect([column.runs, column.withoutValue, column.missing]).toEqual([values[k].runs.length, values[k].runs.length - list.length, values[k].missing]);
        expect(column.summary).toEqual(list.length ? summarize(list) : null);
      });
    }
  });
});

describe('compareExperiment: epsilon, spacing, feasibility', () => {
  it('computes the additive epsilon indicator against the non-dominated union of the normalised fronts', () => {
    const c = compareExperiment(spec2, stored2(), 'epsilon');
    expect(c.higherIsBetter).toBe(false);
    expect(c.skipped.map((s) => s.instance)).toEqual(['s']);
    const [A, B] = c.instances[0].solvers;
    // R = non-dominated union = {(0,.8), (.2,.6), (.4,.4), (.8,0)}.
    // eps = max over z in R of min over a of max_k (a_k - z_k):
    //   A1: z=(0,.8) -> .2 [(0,1)], (.2,.6) -> .3 [(.5,.5)], (.4,.4) -> .1, (.8,0) -> .2 [(1,0)]: 0.3
    //   A2: .2 [(0,1) or (.2,.6)], 0 [(.2,.6)], .2 [(.2,.6)], .2 [(1,0)]: 0.2
    //   A3: max(.5, .3, .1, .5) = 0.5
    //   B1: 0, .2 [(0,.8)], .4 [either], 0: 0.4;  B2: empty, no value;  B3: max(.4, .2, 0, .4) = 0.4
    expect(A.summary!.min).toBeCloseTo(0.2, 12);
    expect(A.summary!.median).toBeCloseTo(0.3, 12);
    expect(A.summary!.max).toBeCloseTo(0.5, 12);
    expect(B).toMatchObject({ runs: 3, withoutValue: 1, missing: 0 });
    expect(B.summary!.min).toBeCloseTo(0.4, 12);
    expect(B.summary!.max).toBeCloseTo(0.4, 12);
    // Lower is better, so A12 = P(A < B) + ½P(A = B): A's .3 and .2 beat both .4s, .5 beats none: 4/6.
    expect(c.instances[0].pairs[0].a12).toBeCloseTo(2 / 3, 12);
    // B's tie: the exact permutation test given the ties; 7 of the C(5, 3) = 10 splits put U at
    // least as far from n1 n2 / 2 = 3 as the observed U1 = 2.
    expect(c.instances[0].pairs[0].method).toBe('exact');
    expect(c.instances[0].pairs[0].p).toBeCloseTo(0.7, 14);
  });

  it('matches the existing fixture: one-point fronts against R = {(.1,.1)}', () => {
    const c = compareExperiment(spec, stored(), 'epsilon');
    const [A, B] = c.instances[0].solvers;
    // eps = max(a_1 - .1, a_2 - .1): A = .4, .5, .4; B = 0, .1, .2.
    expect(A.summary!.median).toBeCloseTo(0.4, 12);
    expect(A.summary!.max).toBeCloseTo(0.5, 12);
    expect(B.summary!.min).toBeCloseTo(0, 12);
    expect(B.summary!.median).toBeCloseTo(0.1, 12);
  });

  it("computes Schott's spacing of the normalised front; fronts with fewer than 2 points have no value", () => {
    const c = compareExperiment(spec2, stored2(), 'spacing');
    expect(c.higherIsBetter).toBe(false);
    const [A, B] = c.instances[0].solvers;
    // Manhattan nearest-neighbour distances d_i, S = sqrt(sum (d_i - mean)^2 / (n - 1)):
    //   A1: d = 1, 1, 1 -> S = 0
    //   A2: d((0,1),(.2,.6)) = .6, d((.2,.6),(1,0)) = 1.4 -> d = .6, .6, 1.4, mean 13/15,
    //       deviations -4/15, -4/15, 8/15 -> S = sqrt((96/225)/2) = 4·sqrt(3)/15 ≈ 0.4619
    //       (on the raw objectives it would be twice that)
    //   A3: one point, no value;  B1: d = 1.6, 1.6 -> S = 0;  B2, B3: fewer than 2 points.
    expect(A).toMatchObject({ runs: 3, withoutValue: 1 });
    expect(A.summary!.n).toBe(2);
    expect(A.summary!.min).toBe(0);
    expect(A.summary!.max).toBeCloseTo((4 * Math.sqrt(3)) / 15, 12);
    expect(B).toMatchObject({ runs: 3, withoutValue: 2 });
    expect(B.summary).toMatchObject({ n: 1, median: 0 });
    // The old fixture has only one-point fronts: no values at all, no pair test.
    const old = compareExperiment(spec, stored(), 'spacing');
    expect(old.instances[0].solvers.map((s) => [s.withoutValue, s.summary])).toEqual([
      [3, null],
      [3, null],
    ]);
    expect(old.instances[0].pairs).toEqual([]);
  });

  it('scores feasibility 1/0 per run on SO and MO instances and ranks solvers by the mean', () => {
    const c = compareExperiment(spec2, stored2(), 'feasibility');
    expect(c).toMatchObject({ higherIsBetter: true, aggregate: 'mean', skipped: [] });
    expect(c.instances.map((i) => i.instance)).toEqual(['c', 's']);
    for (const inst of c.instances) {
      const [A, B] = inst.solvers;
      expect(A.summary).toMatchObject({ n: 3, mean: 1, median: 1 });
      // B: 1, 0, 1 -> mean 2/3 (the share of runs with a feasible solution), median 1.
      expect(B.summary).toMatchObject({ n: 3, median: 1 });
      expect(B.summary!.mean).toBeCloseTo(2 / 3, 12);
      expect(B.withoutValue).toBe(0);
      // Higher is better: A12 = P(A > B) + ½P(A = B) over 9 pairs,
      // A's three 1s against B's (1, 0, 1): 3·(½ + 1 + ½) / 9 = 2/3.
      expect(inst.pairs[0].a12).toBeCloseTo(2 / 3, 12);
    }
    // On the medians A and B would tie (1 = 1); on the means A ranks first on both instances:
    // chi2_F = 12·2/(2·3)·(1² + 2² − 2·3²/4) = 2.
    expect(c.friedman!.averageRanks).toEqual([1, 2]);
    expect(c.friedman!.chiSquare).toBeCloseTo(2, 12);
    // hv, igd+, epsilon and best keep the median.
    expect(compareExperiment(spec, stored(), 'hv').aggregate).toBe('median');
  });

  it('counts a run as feasible from firstFeasibleAt, or from a feasible best / non-empty front when the field is absent', () => {
    // The first fixture has no firstFeasibleAt: every run has a front (MO) or a feasible best (SO).
    const c = compareExperiment(spec, stored(), 'feasibility');
    for (const inst of c.instances) for (const s of inst.solvers) expect(s.summary).toMatchObject({ n: 3, mean: 1 });
    const runs = stored();
    const run = expandGrid(spec).find((r) => r.instance === 's' && r.label === 'A' && r.seed === 1)!;
    runs.set(run.id, {
      id: run.id,
      result: {
        front: [],
        best: { x: '1', objectives: [5], constraints: [2], feasible: false, violation: 0.2 },
        firstFeasibleAt: null,
      } as unknown as SolverResult,
    });
    const s = compareExperiment(spec, runs, 'feasibility').instances[2];
    expect(s.solvers[0].summary!.mean).toBeCloseTo(2 / 3, 12);
  });
});
