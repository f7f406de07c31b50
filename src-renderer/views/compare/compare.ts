/**
 * The comparison view's data, as pure functions the tests import. The numbers come from
 * compareExperiment (the API's answer: `saikoro compare --json`); the rest is derived from it or
 * from the stored results (getExperimentResults), never recomputed another way:
 *
 * - the +/−/= marks against a baseline are the report's, by the one rule of
 *   src-shared/experiments/baseline-marks.ts: compareExperiment's pair p Holm-adjusted over the
 *   instance's comparisons with the baseline (not over all pairs) below 0.05, A12 says which way;
 * - the per-run points of the box plots are metricValues (src-shared/experiments/compare.ts),
 *   the values compareExperiment summarises;
 * - the convergence bands are quantiles (quantileOfSorted, the one definition) of the runs'
 *   stored traces read as step functions; with several objectives, of the hypervolume of the
 *   front each run's front log rebuilds at each point (the exact record; frontLogFrontAt), under
 *   the instance's normalisation as the table's, where a run has one;
 * - the median-HV run of a solver is the one at rank ceil(n/2) of its runs by hypervolume.
 */
import type { Comparison, ExperimentRunResult, ExperimentSpec, MetricName } from '../../../src-shared/api.ts';
import { METRICS, type InstanceComparison, type InstanceMetricValues, type PairTest, type RunMetricValue } from '../../../src-shared/experiments/compare.ts';
import { instanceConfig } from '../../../src-shared/experiments/spec.ts';
import { quantileOfSorted, type Summary } from '../../../src-shared/stats/summary.ts';
import { floorSentence, runsNeeded } from '../../../src-shared/stats/attainable.ts';
import { baselineMarks, MARK_SIGNIFICANCE, markRule } from '../../../src-shared/experiments/baseline-marks.ts';
import type { SolverResult, TracePoint } from '../../../src-shared/solvers/types.ts';
import { formatIndicator } from '../../logic/dice/labels.ts';
import type { FrontLog } from '../../../src-shared/solvers/front-log.ts';
import { normalisedHypervolume } from '../../../src-shared/problems/dice/hv-reference.ts';
import { normalisedReferencePoint } from '../../../src-shared/metrics/hypervolume.ts';

export const METRIC_LABELS: Record<MetricName, string> = {
  hv: 'Hypervolume (HV)',
  'igd+': 'IGD+',
  epsilon: 'Additive ε',
  spacing: 'Spacing',
  feasibility: 'Feasibility rate',
  best: 'Best f',
};

/**
 * The most a normalised hypervolume can be with M objectives: the box from the ideal (0) to the
 * reference point (1.1 in every objective), 1.1^M (1.331 for M = 3), reached only by a front
 * holding a solution at the ideal, every objective 0.
 */
export function hvMaximum(m: number): number {
  return normalisedReferencePoint(m).reduce((p, v) => p * v, 1);
}

/**
 * What a log scale of a metric's box plots shows: the values themselves ('values': metrics where
 * lower is better, from 0 up), or for the hypervolume the gap to its maximum ('gap', max - HV,
 * drawn upside down so that better stays up: good solvers near the maximum are told apart
 * instead of flattened next to a random search); null where a log means nothing (a rate).
 */
export type LogView = { kind: 'values' } | { kind: 'gap'; max: number };
export function logView(metric: MetricName, objectives: number): LogView | null {
  if (metric === 'feasibility') return null;
  if (metric === 'hv') return { kind: 'gap', max: hvMaximum(objectives) };
  return { kind: 'values' };
}

/** The significance level of the +/−/= marks (the report's: baseline-marks.ts). */
export const SIGNIFICANCE = MARK_SIGNIFICANCE;

/** The marks' rule in words, printed under the table (the report's caption says the same). */
export { markRule };

/** The metrics that apply to at least one instance of the experiment, in compare's order. */
export function applicableMetrics(spec: ExperimentSpec): MetricName[] {
  const counts = spec.instances.map((i) => instanceConfig(i).objectives.length);
  const single = counts.some((m) => m === 1);
  const multi = counts.some((m) => m >= 2);
  return METRICS.filter((m) => (m === 'feasibility' ? true : m === 'best' ? single : multi));
}

export type Mark = '+' | '−' | '=';

export interface BaselineCell {
  label: string;
  summary: Summary | null;
  withoutValue: number;
  missing: number;
  /** The best aggregate (median; mean for feasibility) of the instance. */
  best: boolean;
  /** compareExperiment's test of this solver and the baseline (null for the baseline itself). */
  pair: PairTest | null;
  /** The pair's p, Holm-adjusted over the instance's comparisons with the baseline (what the mark reads). */
  pHolm: number | null;
  /** P(a run of this solver is better than one of the baseline): the pair's A12, turned round when the baseline is its `a`. */
  a12: number | null;
  /** Against the baseline: + better, − worse, = no significant difference; null for the baseline or without values. */
  mark: Mark | null;
  /** The pair has too few runs for any outcome to be significant: its "=" says nothing (attainable.ts). */
  cannotDiffer: boolean;
  /** How many comparisons with the baseline the instance has (the Holm family of the marks). */
  comparisons: number;
}

export interface BaselineRow {
  instance: string;
  cells: BaselineCell[];
}

/** One row per instance: each solver's summary, the best marked, and +/−/= against `baseline` (baselineMarks, the report's rule). */
export function baselineTable(c: Comparison, baseline: string): BaselineRow[] {
  const better = (a: number, b: number) => (c.higherIsBetter ? a > b : a < b);
  return c.instances.map((inst) => {
    const aggregates = inst.solvers.map((s) => (s.summary ? s.summary[c.aggregate] : null));
    let best: number | null = null;
    for (const a of aggregates) if (a !== null && (best === null || better(a, best))) best = a;
    const marks = baselineMarks(inst, baseline, SIGNIFICANCE);
    return {
      instance: inst.instance,
      cells: inst.solvers.map((s, k) => {
        const m = marks[k];
        const mark: Mark | null = m.mark === '-' ? '−' : m.mark;
        return {
          label: s.label,
          summary: s.summary,
          withoutValue: s.withoutValue,
          missing: s.missing,
          best: aggregates[k] !== null && aggregates[k] === best,
          pair: m.pair,
          pHolm: m.pHolm,
          a12: m.a12,
          mark,
          cannotDiffer: m.cannotDiffer,
          comparisons: m.comparisons,
        };
      }),
    };
  });
}

/**
 * Why marks are "=" whatever the runs found, one sentence per case: with so few runs the
 * rank-sum test's smallest p (2 / C(n1 + n2, n1), times the Holm family's size) is not below the
 * significance level, and how many runs per solver would let a difference show (attainable.ts).
 */
export function unreachableNotes(c: Comparison, rows: readonly BaselineRow[], baseline: string, alpha = SIGNIFICANCE): string[] {
  const groups = new Map<string, { instances: string[]; n1: number; n2: number; comparisons: number }>();
  c.instances.forEach((inst, k) => {
    const flagged = rows[k].cells.filter((cell) => cell.cannotDiffer);
    if (!flagged.length) return;
    // The smallest sample sizes of the instance's flagged pairs say the most.
    let n1 = Infinity;
    let n2 = Infinity;
    for (const cell of flagged) {
      const a = cell.summary!.n;
      const b = inst.solvers.find((s) => s.label === (cell.pair!.a === cell.label ? cell.pair!.b : cell.pair!.a))!.summary!.n;
      if (Math.min(a, b) < Math.min(n1, n2) || (Math.min(a, b) === Math.min(n1, n2) && Math.max(a, b) < Math.max(n1, n2)))
        [n1, n2] = [Math.min(a, b), Math.max(a, b)];
    }
    const comparisons = flagged[0].comparisons;
    const key = `${n1}|${n2}|${comparisons}|${flagged.length === rows[k].cells.filter((cell) => cell.pair).length}`;
    const group = groups.get(key) ?? { instances: [], n1, n2, comparisons };
    group.instances.push(inst.instance);
    groups.set(key, group);
  });
  return [...groups.entries()].map(([key, g]) => {
    const all = key.endsWith('true');
    const where = g.instances.length === c.instances.length && c.instances.length > 1 ? 'on every instance' : `on ${g.instances.join(', ')}`;
    return (
      `${floorSentence(g.n1, g.n2, g.comparisons, alpha, `comparisons with ${baseline}`)}, so ${all ? 'every mark' : 'the marks of those pairs'} ${where} ${all ? 'is' : 'are'} "=" whatever the runs found. ` +
      `${runsNeeded(alpha, g.comparisons)} runs per solver (seeds) can show a difference at ${alpha}.`
    );
  });
}

/** Per solver: how many instances it is better (+), worse (−) or not different (=) than the baseline. */
export function markTotals(rows: readonly BaselineRow[], labels: readonly string[]): Record<string, Record<Mark, number>> {
  const totals: Record<string, Record<Mark, number>> = {};
  for (const label of labels) totals[label] = { '+': 0, '−': 0, '=': 0 };
  for (const row of rows) for (const cell of row.cells) if (cell.mark) totals[cell.label][cell.mark]++;
  return totals;
}

// ---- convergence ------------------------------------------------------------------------------

/**
 * A run's indicator at `evaluations`, its trace read as a step function (the last value at or
 * before the point). One objective: the best feasible f, +Infinity while no feasible solution
 * was found (worst); several: the normalised hypervolume the trace recorded, 0 while the front
 * is empty, null where it is not known (M >= 4 records it only at doublings).
 */
export function traceValueAt(trace: readonly TracePoint[], evaluations: number, single: boolean): number | null {
  return traceValuesAt(trace, [evaluations], single)[0];
}

/** traceValueAt at each of `points` (ascending), in one pass over the trace. */
export function traceValuesAt(trace: readonly TracePoint[], points: readonly number[], single: boolean): (number | null)[] {
  const out: (number | null)[] = [];
  let k = 0;
  let last: TracePoint | null = null;
  let lastIndicator: number | null = null;
  for (const e of points) {
    for (; k < trace.length && trace[k].evaluations <= e; k++) {
      last = trace[k];
      if (last.indicator !== null) lastIndicator = last.indicator;
    }
    if (single) out.push(last && last.feasible && last.best !== null ? last.best : Infinity);
    else out.push(lastIndicator !== null ? lastIndicator : !last || !last.frontSize ? 0 : null);
  }
  return out;
}

/**
 * The normalised hypervolume of a run's front after each of `points` evaluations (ascending),
 * rebuilt from its front log (every insertion into its archive, with the evaluation that made
 * it) in one walk: exact from the first evaluation, where a trace has its first point only at
 * the end of the solver's first step (barrier-mo's at 1,000: its line read 0 until then).
 * 0 while the front is empty.
 */
export function frontLogHvAt(log: FrontLog, points: readonly number[], norm: { ideal: readonly number[]; nadir: readonly number[] }): number[] {
  const m = norm.ideal.length;
  const box = { ideal: [...norm.ideal], nadir: [...norm.nadir], reference: normalisedReferencePoint(m), method: '' };
  const members: number[][] = [];
  const out: number[] = [];
  let k = 0;
  let value = 0;
  let changed = false;
  for (const e of points) {
    for (; k < log.insertions.length && log.insertions[k][0] <= e; k++) {
      const f = log.insertions[k].slice(1);
      if (members.some((a) => a.every((v, j) => v <= f[j]))) continue;
      let w = 0;
      for (const a of members) if (!(f.every((v, j) => v <= a[j]) && f.some((v, j) => v < a[j]))) members[w++] = a;
      members.length = w;
      members.push(f);
      changed = true;
    }
    if (changed) value = normalisedHypervolume(members, box);
    changed = false;
    out.push(value);
  }
  return out;
}

/** Evaluation points at which the hypervolume of M >= 4 is rebuilt from logs (each costs a hypervolume per run). */
export const CONVERGENCE_POINTS_HIGH_M = 48;

export interface ConvergenceBand {
  label: string;
  /** Runs with a trace. */
  runs: number;
  /** Per evaluation point; null where the quantile is not finite or no run has a value. */
  q1: (number | null)[];
  median: (number | null)[];
  q3: (number | null)[];
}

export interface Convergence {
  instance: string;
  single: boolean;
  evaluations: number[];
  bands: ConvergenceBand[];
}

/** At most this many evaluation points per chart (evenly spaced picks of the runs' trace points). */
export const CONVERGENCE_POINTS = 240;

/** Up to `limit` of the sorted values, evenly spaced, the first and the last included. */
export function thin(sorted: readonly number[], limit: number): number[] {
  if (sorted.length <= limit) return [...sorted];
  const out: number[] = [];
  for (let k = 0; k < limit; k++) out.push(sorted[Math.round((k * (sorted.length - 1)) / (limit - 1))]);
  return [...new Set(out)];
}

/**
 * The median and quartiles over seeds of each solver's indicator, at the evaluation counts of
 * the instance's trace points and front-log insertions (every solver's, so the lines share their
 * x values). With several objectives and `normalisation` (the instance's, as the table uses), a
 * run with a front log gives the exact hypervolume at each point (frontLogHvAt); one without,
 * its trace.
 */
export function convergenceOf(
  instance: string,
  single: boolean,
  results: readonly ExperimentRunResult[],
  labels: readonly string[],
  limit = CONVERGENCE_POINTS,
  normalisation: { ideal: readonly number[]; nadir: readonly number[] } | null = null,
): Convergence {
  const mine = results.filter((r) => r.instance === instance && r.status === 'done' && r.result);
  const logOf = (r: SolverResult): FrontLog | null => (!single && normalisation && r.frontLog ? r.frontLog : null);
  const points = new Set<number>();
  for (const r of mine) {
    for (const t of r.result!.trace) points.add(t.evaluations);
    for (const row of logOf(r.result!)?.insertions ?? []) points.add(row[0]);
  }
  const m = normalisation?.ideal.length ?? 0;
  const usesLogs = mine.some((r) => logOf(r.result!) !== null);
  const evaluations = thin(
    [...points].sort((a, b) => a - b),
    usesLogs && m >= 4 ? Math.min(limit, CONVERGENCE_POINTS_HIGH_M) : limit,
  );
  const finite = (v: number) => (Number.isFinite(v) ? v : null);
  const bands = labels.map((label) => {
    const perRun = mine
      .filter((r) => r.label === label)
      .map((r) => {
        const log = logOf(r.result!);
        return log ? frontLogHvAt(log, evaluations, normalisation!) : traceValuesAt(r.result!.trace, evaluations, single);
      });
    const band: ConvergenceBand = { label, runs: perRun.length, q1: [], median: [], q3: [] };
    for (let k = 0; k < evaluations.length; k++) {
      const values = perRun.map((v) => v[k]).filter((v): v is number => v !== null);
      values.sort((a, b) => a - b);
      band.q1.push(values.length ? finite(quantileOfSorted(values, 0.25)) : null);
      band.median.push(values.length ? finite(quantileOfSorted(values, 0.5)) : null);
      band.q3.push(values.length ? finite(quantileOfSorted(values, 0.75)) : null);
    }
    return band;
  });
  return { instance, single, evaluations, bands };
}

// ---- fronts -----------------------------------------------------------------------------------

export interface MedianRun {
  label: string;
  id: string;
  seed: number;
  hv: number;
  /** Runs of the solver with a hypervolume. */
  of: number;
}

/**
 * Each solver's median-HV run on an instance: its runs sorted by hypervolume (ties by seed),
 * the one at rank ceil(n/2) (the median itself for odd n, the lower of the two middle runs for
 * even n). `values` are metricValues for 'hv'.
 */
export function medianHvRuns(values: InstanceMetricValues): MedianRun[] {
  const out: MedianRun[] = [];
  for (const solver of values.solvers) {
    const runs = solver.runs.filter((r): r is RunMetricValue & { value: number } => r.value !== null).sort((a, b) => a.value - b.value || a.seed - b.seed);
    if (!runs.length) continue;
    const pick = runs[Math.ceil(runs.length / 2) - 1];
    out.push({ label: solver.label, id: pick.id, seed: pick.seed, hv: pick.value, of: runs.length });
  }
  return out;
}

// ---- numbers ----------------------------------------------------------------------------------

/** A statistic to 4 significant digits (the title of its cell has it in full): formatIndicator, the app's one format of such values. */
export const formatStat = formatIndicator;

/** A p-value: 3 significant digits, small ones in exponent form. */
export function formatP(p: number | null | undefined): string {
  if (p === null || p === undefined) return '–';
  if (p < 1e-3) return p.toExponential(1);
  return String(Number(p.toPrecision(3)));
}
