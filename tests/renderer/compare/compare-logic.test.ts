// The comparison view's pure parts on hand-made data: the +/−/= marks against a baseline (the
// pair's p Holm-adjusted by hand over the comparisons with the baseline, A12 turned round when
// the baseline is the pair's first solver; tests/shared/experiments/baseline-marks.test.ts checks
// the rule against scipy), the best per
// instance, the totals; the metrics that apply; traces read as step functions; the median-HV run
// for odd and even run counts; thinning of evaluation points.
import { describe, expect, it } from 'vitest';
import type { Comparison, ExperimentRunResult } from '../../../src-shared/api.ts';
import type { InstanceComparison, PairTest } from '../../../src-shared/experiments/compare.ts';
import { validateSpec } from '../../../src-shared/experiments/spec.ts';
import { summarize } from '../../../src-shared/stats/summary.ts';
import { a12 } from '../../../src-shared/stats/a12.ts';
import { holmAdjust } from '../../../src-shared/stats/holm.ts';
import { mannWhitney } from '../../../src-shared/stats/mann-whitney.ts';
import type { TracePoint } from '../../../src-shared/solvers/types.ts';
import { instanceConfig } from '../../../src-shared/experiments/spec.ts';
import { metricValues } from '../../../src-shared/experiments/compare.ts';
import { diceHvNormalisation } from '../../../src-shared/problems/dice/hv-reference.ts';
import { plannedRuns } from '../../../src-main/experiments/runner.ts';
import { runInline } from '../../../src-main/app/experiment-executor.ts';
import {
  applicableMetrics,
  baselineTable,
  unreachableNotes,
  convergenceOf,
  formatP,
  formatStat,
  hvMaximum,
  logView,
  markTotals,
  medianHvRuns,
  thin,
  traceValueAt,
} from '../../../src-renderer/views/compare/compare.ts';
import { boxplotOption, logScaleOf } from '../../../src-renderer/views/compare/charts.ts';

const pair = (a: string, b: string, p: number, pHolm: number, a12: number): PairTest => ({ a, b, u: 0, p, pHolm, method: 'exact', a12, magnitude: 'large' });
const column = (label: string, values: number[] | null) => ({
  label,
  runs: values?.length ?? 0,
  withoutValue: 0,
  missing: 0,
  summary: values ? summarize(values) : null,
});

function comparison(instances: InstanceComparison[], higherIsBetter = true): Comparison {
  return {
    experiment: 'x',
    metric: higherIsBetter ? 'hv' : 'igd+',
    higherIsBetter,
    aggregate: 'median',
    instances,
    skipped: [],
    friedman: null,
    friedmanNote: 'n/a',
  };
}

describe('baselineTable: +/−/= against the baseline from compare’s pair tests', () => {
  const inst: InstanceComparison = {
    instance: 'i',
    objectives: 2,
    normalisation: null,
    solvers: [column('A', [1, 2, 3]), column('B', [4, 5, 6]), column('C', [1, 2, 2]), column('D', [0, 0, 1])],
    pairs: [
      // Holm over the three comparisons with A: 0.001 · 3 = 0.003, 0.002 · 2 = 0.004, 0.03 · 1.
      // B beats A: significant after Holm.
      pair('A', 'B', 0.001, 0.004, 0.1),
      // C against A: 0.03, significant over the comparisons with A (over all six pairs, the
      // pHolm compare gives, 0.09 would not be), A better.
      pair('A', 'C', 0.03, 0.09, 0.7),
      // D against A: significant, A better (A is the pair's a, so D's A12 is 1 - 0.95).
      pair('A', 'D', 0.002, 0.01, 0.95),
      pair('B', 'C', 0.5, 1, 0.5),
      pair('B', 'D', 0.5, 1, 0.5),
      pair('C', 'D', 0.5, 1, 0.5),
    ],
  };
  it('marks by the Holm p and turns A12 round to "this solver better than the baseline"', () => {
    const [row] = baselineTable(comparison([inst]), 'A');
    expect(row.cells.map((c) => c.mark)).toEqual([null, '+', '−', '−']);
    expect(row.cells.map((c) => c.pHolm)).toEqual([null, 0.003, 0.03, 0.004]);
    expect(row.cells.map((c) => c.a12)).toEqual([null, 1 - 0.1, 1 - 0.7, 1 - 0.95]);
    expect(row.cells[1].pair).toBe(inst.pairs[0]);
    // Higher is better: B has the best median.
    expect(row.cells.map((c) => c.best)).toEqual([false, true, false, false]);
  });
  it('against another baseline, from the pairs where that baseline is second', () => {
    const [row] = baselineTable(comparison([inst]), 'D');
    // A vs D: A12 0.95 for A, significant: A better than D. Holm over the comparisons with D:
    // 0.002 · 3 = 0.006, then max(0.006, 0.5 · 2) = 1 and max(1, 0.5 · 1) = 1.
    expect(row.cells.map((c) => c.mark)).toEqual(['+', '=', '=', null]);
    expect(row.cells.map((c) => c.pHolm)).toEqual([0.006, 1, 1, null]);
  });
  it('an A12 of exactly 0.5 is "=" even when the p-value is small; lower-is-better picks the smallest median', () => {
    const tie: InstanceComparison = { ...inst, solvers: [column('A', [3, 3]), column('B', [1, 1])], pairs: [pair('A', 'B', 0.001, 0.001, 0.5)] };
    const [row] = baselineTable(comparison([tie], false), 'A');
    expect(row.cells.map((c) => c.mark)).toEqual([null, '=']);
    expect(row.cells.map((c) => c.best)).toEqual([false, true]);
  });
  it('a solver without values has no mark; totals count the marks per solver over the instances', () => {
    const empty: InstanceComparison = {
      ...inst,
      instance: 'j',
      solvers: [column('A', [1]), column('B', null), column('C', [0]), column('D', [9])],
      pairs: [pair('A', 'C', 0.5, 0.5, 0.5), pair('A', 'D', 0.01, 0.03, 0.0)],
    };
    const rows = baselineTable(comparison([inst, empty]), 'A');
    // Two comparisons with A (B has no values): 0.01 · 2 = 0.02, max(0.02, 0.5 · 1) = 0.5.
    expect(rows[1].cells.map((c) => c.mark)).toEqual([null, null, '=', '+']);
    expect(rows[1].cells.map((c) => c.pHolm)).toEqual([null, null, 0.5, 0.02]);
    expect(markTotals(rows, ['A', 'B', 'C', 'D'])).toEqual({
      A: { '+': 0, '−': 0, '=': 0 },
      B: { '+': 1, '−': 0, '=': 0 },
      C: { '+': 0, '−': 1, '=': 1 },
      D: { '+': 1, '−': 1, '=': 0 },
    });
  });
});

describe('marks that cannot be + or −: too few runs for the rank-sum test', () => {
  /** An instance as compareExperiment builds it: every pair tested by mannWhitney, Holm over all pairs. */
  function tested(instance: string, samples: Record<string, number[]>): InstanceComparison {
    const labels = Object.keys(samples);
    const raw: Omit<PairTest, 'pHolm'>[] = [];
    for (let i = 0; i < labels.length; i++)
      for (let j = i + 1; j < labels.length; j++) {
        const t = mannWhitney(samples[labels[i]], samples[labels[j]]);
        raw.push({ a: labels[i], b: labels[j], u: t.u1, p: t.p, method: t.method, a12: a12(samples[labels[i]], samples[labels[j]]), magnitude: 'large' });
      }
    const holm = holmAdjust(raw.map((r) => r.p));
    return {
      instance,
      objectives: 2,
      normalisation: null,
      solvers: labels.map((l) => column(l, samples[l])),
      pairs: raw.map((r, k) => ({ ...r, pHolm: holm[k] })),
    };
  }

  it('with 3 seeds every mark is "=" even for runs that never overlap, and the note says why and how many seeds can tell', () => {
    const three = tested('mo2-n24', { A: [0.1, 0.2, 0.3], B: [0.4, 0.5, 0.6], C: [0.7, 0.8, 0.9] });
    const c = comparison([three, { ...three, instance: 'mo3-n24' }]);
    const rows = baselineTable(c, 'A');
    expect(rows[0].cells.map((cell) => [cell.mark, cell.cannotDiffer])).toEqual([
      [null, false],
      ['=', true],
      ['=', true],
    ]);
    expect(three.pairs.map((p) => p.pHolm)).toEqual([0.30000000000000004, 0.30000000000000004, 0.30000000000000004]);
    // The marks' family is the 2 comparisons with A: 0.1 · 2 = 0.2; 5 runs each reach 2 · 2 / C(10, 5) = 0.016 (4: 2 · 2 / C(8, 4) = 0.057).
    expect(unreachableNotes(c, rows, 'A')).toEqual([
      'With 3 runs per solver, the rank-sum test cannot reach p < 0.05 (its smallest p is 0.1, 0.2 after Holm over 2 comparisons with A), so every mark on every instance is "=" whatever the runs found. 5 runs per solver (seeds) can show a difference at 0.05.',
    ]);
  });
  it('with 5 seeds the same separation is significant, and there is no note', () => {
    const five = tested('so-n24', { A: [1, 2, 3, 4, 5], B: [6, 7, 8, 9, 10], C: [11, 12, 13, 14, 15] });
    const rows = baselineTable(comparison([five]), 'A');
    expect(rows[0].cells.map((cell) => [cell.mark, cell.cannotDiffer])).toEqual([
      [null, false],
      ['+', false],
      ['+', false],
    ]);
    expect(unreachableNotes(comparison([five]), rows, 'A')).toEqual([]);
  });
  it('two solvers with 3 and 4 runs: one pair, smallest p 2/35', () => {
    const c = comparison([tested('i', { A: [1, 2, 3], B: [4, 5, 6, 7] })]);
    expect(unreachableNotes(c, baselineTable(c, 'A'), 'A')).toEqual([
      'With 3 and 4 runs, the rank-sum test cannot reach p < 0.05 (its smallest p is 0.0571), so every mark on i is "=" whatever the runs found. 4 runs per solver (seeds) can show a difference at 0.05.',
    ]);
  });
});

describe('applicableMetrics', () => {
  const base = { name: 'e', solvers: [{ name: 'random' }], seeds: [1], budget: { evaluations: 10 } };
  it('SO instances: best and feasibility; MO: the front metrics and feasibility; both: all', () => {
    expect(applicableMetrics(validateSpec({ ...base, instances: [{ name: 's', track: 'so' }] }))).toEqual(['feasibility', 'best']);
    expect(applicableMetrics(validateSpec({ ...base, instances: [{ name: 'm', track: 'mo3' }] }))).toEqual(['hv', 'igd+', 'epsilon', 'spacing', 'feasibility']);
    expect(
      applicableMetrics(
        validateSpec({
          ...base,
          instances: [
            { name: 's', track: 'so' },
            { name: 'm', track: 'mo2' },
          ],
        }),
      ),
    ).toEqual(['hv', 'igd+', 'epsilon', 'spacing', 'feasibility', 'best']);
  });
});

const point = (evaluations: number, fields: Partial<TracePoint>): TracePoint => ({
  evaluations,
  seconds: 0,
  best: null,
  violation: 0,
  feasible: false,
  frontSize: null,
  indicator: null,
  ...fields,
});

describe('traceValueAt: a trace as a step function', () => {
  const so = [point(10, { best: 50, violation: 3, feasible: false }), point(40, { best: 20, feasible: true }), point(90, { best: 5, feasible: true })];
  it('one objective: +Infinity before the first feasible point, then the last best at or before', () => {
    expect([0, 10, 39, 40, 89, 90, 1000].map((e) => traceValueAt(so, e, true))).toEqual([Infinity, Infinity, Infinity, 20, 20, 5, 5]);
  });
  it('several objectives: 0 while the front is empty, the last recorded indicator, null where it is not known yet', () => {
    const mo = [
      point(10, { frontSize: 0 }),
      point(20, { frontSize: 3, feasible: true }),
      point(40, { frontSize: 4, feasible: true, indicator: 0.5 }),
      point(80, { frontSize: 6, feasible: true }),
    ];
    expect([5, 10, 20, 39, 40, 79, 80, 500].map((e) => traceValueAt(mo, e, false))).toEqual([0, 0, null, null, 0.5, 0.5, 0.5, 0.5]);
  });
});

describe('convergenceOf', () => {
  const result = (label: string, seed: number, trace: TracePoint[]) =>
    ({ id: `${label}${seed}`, instance: 'i', label, solver: 'random', seed, status: 'done', error: null, result: { trace } }) as unknown as ExperimentRunResult;
  it('quartiles of the runs at every trace point of the instance; a run not feasible yet counts as the worst, so an infinite median is no point', () => {
    const runs = [
      result('A', 1, [point(10, { best: 9, feasible: true }), point(30, { best: 1, feasible: true })]),
      result('A', 2, [point(20, { best: 5, feasible: true })]),
      result('A', 3, [point(10, { best: 7, feasible: false }), point(40, { best: 3, feasible: true })]),
      result('A', 4, [point(10, { best: 8, feasible: true })]),
      { ...result('B', 1, []), status: 'failed', result: null } as ExperimentRunResult,
    ];
    const c = convergenceOf('i', true, runs, ['A', 'B']);
    expect(c.evaluations).toEqual([10, 20, 30, 40]);
    const [a, b] = c.bands;
    // At 10: {9, ∞, ∞, 8} -> sorted 8, 9, ∞, ∞: q1 8.75, median ∞ (no point), q3 ∞.
    expect([a.q1[0], a.median[0], a.q3[0]]).toEqual([8.75, null, null]);
    // At 20: {9, 5, ∞, 8}: 5, 8, 9, ∞ -> q1 7.25, median 8.5, q3 ∞.
    expect([a.q1[1], a.median[1], a.q3[1]]).toEqual([7.25, 8.5, null]);
    // At 40: {1, 5, 3, 8}: 1, 3, 5, 8 -> 2.5, 4, 5.75.
    expect([a.q1[3], a.median[3], a.q3[3]]).toEqual([2.5, 4, 5.75]);
    expect(a.runs).toBe(4);
    expect(b).toMatchObject({ runs: 0, median: [null, null, null, null] });
  });
  it("several objectives: each run's front log gives its hypervolume from its first evaluation (barrier-mo read 0 until 1,000, its trace's first point), ending on compare's own value", async () => {
    const spec = validateSpec({
      name: 'logs',
      instances: [{ name: 'mo2-n40', track: 'mo2', n: 40 }],
      solvers: [{ name: 'barrier-mo' }, { name: 'nsga2', params: { populationSize: 20 } }],
      seeds: [1, 2, 3],
      budget: { evaluations: 3000 },
    });
    const norm = diceHvNormalisation(instanceConfig(spec.instances[0]));
    const stored = { ...spec, instances: [{ ...spec.instances[0], normalisation: norm }] };
    const runs = plannedRuns(stored);
    const results: ExperimentRunResult[] = [];
    for (const run of runs) {
      const outcome = await runInline(run);
      expect(outcome.status).toBe('done');
      results.push({
        id: run.id,
        instance: run.instance,
        label: run.label,
        solver: run.solver,
        seed: run.seed,
        status: 'done',
        error: null,
        result: outcome.result,
      });
    }
    const barrier = results.filter((r) => r.label === 'barrier-mo');
    // The cause: barrier-mo's trace starts at the end of its first step, though its archive filled from the first evaluations.
    for (const r of barrier) {
      expect(r.result!.trace[0].evaluations).toBeGreaterThanOrEqual(999);
      expect(r.result!.frontLog!.insertions[0][0]).toBeLessThan(100);
    }
    const c = convergenceOf('mo2-n40', false, results, ['barrier-mo', 'nsga2'], undefined, norm);
    const [b, g] = c.bands;
    const early = c.evaluations.findIndex((e) => e >= 100);
    expect(c.evaluations[early]).toBeLessThan(1000);
    expect(b.median[early]).toBeGreaterThan(0);
    // Without the logs (the trace alone) it read 0 there.
    const traceOnly = convergenceOf('mo2-n40', false, results, ['barrier-mo', 'nsga2']);
    expect(traceOnly.bands[0].median[traceOnly.evaluations.findIndex((e) => e >= 100)]).toBe(0);
    // An archive's hypervolume never falls.
    for (const band of [b, g]) for (let k = 1; k < band.median.length; k++) expect(band.median[k]!).toBeGreaterThanOrEqual(band.median[k - 1]! - 1e-12);
    // At the end, every solver's median is the median of compare's own values (the final fronts under the instance's normalisation).
    const values = metricValues(stored, new Map(results.map((r) => [r.id, { id: r.id, result: r.result }])), 'hv').instances[0];
    values.solvers.forEach((column, i) => {
      const finals = column.runs.map((r) => r.value!).sort((x, y) => x - y);
      expect([b, g][i].median.at(-1)).toBeCloseTo(finals[1], 12);
    });
  }, 120_000);

  it('thins the evaluation points evenly, first and last kept', () => {
    expect(thin([1, 2, 3], 5)).toEqual([1, 2, 3]);
    expect(thin([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 3)).toEqual([0, 5, 10]);
    expect(
      thin(
        Array.from({ length: 1000 }, (_, i) => i),
        240,
      ),
    ).toHaveLength(240);
  });
});

describe('box plots on a log scale', () => {
  it('lower-is-better values as themselves, 0 at a floor a decade under the smallest positive one; the hypervolume as its gap to 1.1^M; none for a rate', () => {
    expect(logView('feasibility', 2)).toBeNull();
    expect(logView('best', 1)).toEqual({ kind: 'values' });
    expect(logView('hv', 3)).toEqual({ kind: 'gap', max: 1.1 ** 3 });
    expect(hvMaximum(2)).toBeCloseTo(1.21, 15);
    expect(hvMaximum(3)).toBeCloseTo(1.331, 15);
    // f = 0 (a perfect run), 0.5, 3, 120: the floor is 0.01, a decade under 0.5's.
    const best = logScaleOf({ kind: 'values' }, [0, 0.5, 3, 120]);
    expect(best.floor).toBeCloseTo(0.01, 15);
    expect(best.atFloor).toBe(1);
    expect([0, 0.5, 3, 120].map(best.map)).toEqual([best.floor, 0.5, 3, 120]);
    const hv = logScaleOf({ kind: 'gap', max: 1.21 }, [1.21, 1.2, 0.4]);
    expect(hv.atFloor).toBe(1);
    expect(hv.map(0.4)).toBeCloseTo(0.81, 12);
    expect(hv.map(1.2)).toBeCloseTo(0.01, 12);
    expect(hv.floor).toBeCloseTo(0.001, 15);
    const inst: InstanceComparison = {
      instance: 'i',
      objectives: 2,
      normalisation: null,
      solvers: [column('good', [1.2, 1.21, 1.205]), column('random', [0.3, 0.4, 0.5])],
      pairs: [],
    };
    const option = boxplotOption(inst, null, 'HV', undefined, { kind: 'gap', max: 1.21 }) as {
      yAxis: { type: string; inverse: boolean };
      series: { data: { value: number[] }[] }[];
    };
    expect(option.yAxis).toMatchObject({ type: 'log', inverse: true });
    // The good solver's box spans a decade (gaps 0.001 to 0.01) instead of a hair at the top of a linear axis.
    expect(option.series[0].data[0].value[0]).toBeCloseTo(hv.floor, 12);
    expect(option.series[0].data[0].value[4]).toBeCloseTo(0.01, 12);
    // Random's box: the gaps of its quartiles, ascending (HV 0.5 the smallest gap).
    expect(option.series[0].data[1].value).toEqual([0.71, 0.76, 0.81, 0.86, 0.91].map((v) => expect.closeTo(v, 12)));
  });
});

describe('medianHvRuns', () => {
  const values = (hv: (number | null)[]) => ({
    instance: 'i',
    objectives: 2,
    normalisation: null,
    solvers: [{ label: 'A', missing: 0, runs: hv.map((value, k) => ({ id: `r${k + 1}`, seed: k + 1, value })) }],
  });
  it('rank ceil(n/2) by hypervolume: the median of an odd count, the lower middle of an even one, ties by seed; runs without a value left out', () => {
    expect(medianHvRuns(values([0.9, 0.1, 0.5]))).toEqual([{ label: 'A', id: 'r3', seed: 3, hv: 0.5, of: 3 }]);
    expect(medianHvRuns(values([0.9, 0.1, 0.5, 0.7]))[0]).toMatchObject({ id: 'r3', hv: 0.5, of: 4 });
    expect(medianHvRuns(values([0.4, 0.4, null]))[0]).toMatchObject({ id: 'r1', of: 2 });
    expect(medianHvRuns(values([null]))).toEqual([]);
  });
});

describe('numbers', () => {
  it('statistics to 4 significant digits, p-values to 3', () => {
    expect([formatStat(0.123456), formatStat(1234.5678), formatStat(0), formatStat(2e-5), formatStat(null), formatStat(Infinity)]).toEqual([
      '0.1235',
      '1235',
      '0',
      '2.00e-5',
      '–',
      '∞',
    ]);
    expect([formatP(0.04567), formatP(1), formatP(0.0001234), formatP(null)]).toEqual(['0.0457', '1', '1.2e-4', '–']);
  });
});
