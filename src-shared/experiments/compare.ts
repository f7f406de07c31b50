/**
 * Comparison of the solvers of an experiment on one metric: per instance, a summary per
 * solver and pairwise Mann-Whitney U tests (Holm-corrected within the instance) with the
 * Vargha-Delaney A12 effect size; across instances, a Friedman test on the per-instance
 * medians with Holm-corrected post-hoc comparisons (Demšar 2006).
 *
 * Metrics (the value of one run; docs/stats.md):
 * - `best` (SO instances): the best feasible objective value, lower is better; a run without a
 *   feasible solution has no value.
 * - `hv` (MO): normalised hypervolume of the feasible front, higher is better; an empty front
 *   has HV 0.
 * - `igd+` (MO): IGD+ of the normalised front against the reference set R = the non-dominated
 *   union of every normalised front of that instance in the experiment (every solver and
 *   seed); lower is better; an empty front has no value.
 * - `epsilon` (MO): additive epsilon indicator I_eps+(front, R) with the same normalised front
 *   and the same R as igd+: the smallest eps such that every point of R is weakly dominated
 *   by a front point shifted by -eps. Lower is better; since R contains the front's own
 *   non-dominated points it is never negative, and 0 exactly when the front contains all of R.
 *   An empty front has no value.
 * - `spacing` (MO): Schott's spacing of the normalised feasible front; lower is better (0 =
 *   evenly spaced); a front with fewer than 2 points has no value (spacing needs a nearest
 *   neighbour, and scoring a lone point 0 would reward collapsed fronts).
 * - `feasibility` (SO and MO): 1 if the run evaluated at least one feasible solution, else 0
 *   (`firstFeasibleAt` of the stored result; a result only keeps the best solution and the
 *   feasible front, not a final population, so a finer rate is not stored). Higher is better.
 *   The per-instance mean is the share of runs that found a feasible solution, so the
 *   Friedman test ranks the solvers by that mean, not by the (0 or 1) median.
 */
import { nonDominatedIndices } from '../metrics/dominance.ts';
import { normalise, normalisedReferencePoint } from '../metrics/hypervolume.ts';
import { normalisedHypervolume } from '../problems/dice/hv-reference.ts';
import { additiveEpsilon, igdPlus, spacing } from '../metrics/indicators.ts';
import type { SolverResult } from '../solvers/types.ts';
import { a12, a12Magnitude, type EffectMagnitude } from '../stats/a12.ts';
import { friedman, type FriedmanResult } from '../stats/friedman.ts';
import { holmAdjust } from '../stats/holm.ts';
import { mannWhitney } from '../stats/mann-whitney.ts';
import { summarize, type Summary } from '../stats/summary.ts';
import { expandGrid } from './grid.ts';
import { upgradeSpec } from './normalisation.ts';
import { instanceConfig, solverLabel, type ExperimentSpec, type InstanceSpec } from './spec.ts';

export const METRICS = ['hv', 'igd+', 'epsilon', 'spacing', 'feasibility', 'best'] as const;
export type MetricName = (typeof METRICS)[number];

/** Metrics for which a higher value is better. */
const HIGHER_IS_BETTER: ReadonlySet<MetricName> = new Set<MetricName>(['hv', 'feasibility']);
/** Metrics computed on the normalised front of a multi-objective instance. */
const FRONT_METRICS: ReadonlySet<MetricName> = new Set<MetricName>(['hv', 'igd+', 'epsilon', 'spacing']);
/** Metrics against the reference set of the instance (non-dominated union of all fronts). */
const REFERENCE_METRICS: ReadonlySet<MetricName> = new Set<MetricName>(['igd+', 'epsilon']);

/** Whether `metric` is computed on normalised objectives (so the normalisation is shown). */
export function usesNormalisation(metric: MetricName): boolean {
  return FRONT_METRICS.has(metric);
}

export interface StoredRun {
  id: string;
  result: SolverResult | null;
}

export interface SolverColumn {
  label: string;
  /** Runs of this solver on the instance found done in the store. */
  runs: number;
  /** Of those, runs without a value (no feasible solution / empty front). */
  withoutValue: number;
  /** Grid runs not (yet) done. */
  missing: number;
  summary: Summary | null;
}

export interface PairTest {
  a: string;
  b: string;
  u: number;
  p: number;
  pHolm: number;
  method: 'exact' | 'normal';
  /** Probability that a run of `a` is better than one of `b` (ties ½). */
  a12: number;
  magnitude: EffectMagnitude;
}

export interface InstanceComparison {
  instance: string;
  objectives: number;
  normalisation: InstanceSpec['normalisation'] | null;
  /** A competition's hidden instance: its normalisation is not shown until the reveal (docs/competition.md). */
  hidden?: true;
  solvers: SolverColumn[];
  pairs: PairTest[];
}

export interface Comparison {
  experiment: string;
  metric: MetricName;
  higherIsBetter: boolean;
  /** The per-instance statistic the Friedman test ranks: the median, or the mean for feasibility. */
  aggregate: 'median' | 'mean';
  instances: InstanceComparison[];
  /** Instances left out because the metric does not apply to them. */
  skipped: { instance: string; reason: string }[];
  friedman: (FriedmanResult & { labels: string[]; instances: string[] }) | null;
  /** Why there is no Friedman test. */
  friedmanNote: string | null;
}

export class CompareError extends Error {}

function applies(metric: MetricName, objectives: number, track: string): string | null {
  if (metric === 'best' && objectives !== 1)
    return `(track ${track}) has ${objectives} objectives; "best" is for single-objective instances (use hv, igd+, epsilon, spacing or feasibility)`;
  if (FRONT_METRICS.has(metric) && objectives < 2)
    return `(track ${track}) is single-objective; ${metric} needs at least 2 objectives (use best or feasibility)`;
  return null;
}

/** Whether the run evaluated a feasible solution (see `feasibility` above). */
function foundFeasible(result: SolverResult): boolean {
  // firstFeasibleAt is set by the driver on the first feasible evaluation; the other two are
  // implied by it (SO best by feasibility-first order, MO feasible front) and cover results
  // stored without the field.
  return result.firstFeasibleAt != null || result.front.length > 0 || result.best?.feasible === true;
}

/** The value of one done run on a metric; null when it has none (see the header). */
export interface RunMetricValue {
  id: string;
  seed: number;
  value: number | null;
}

/** One instance's per-run values, per solver in the spec's order. */
export interface InstanceMetricValues {
  instance: string;
  objectives: number;
  normalisation: InstanceSpec['normalisation'] | null;
  solvers: { label: string; runs: RunMetricValue[]; missing: number }[];
}

export interface MetricValues {
  instances: InstanceMetricValues[];
  /** Instances left out because the metric does not apply to them. */
  skipped: { instance: string; reason: string }[];
}

/**
 * The value of every done run on `metric`, per instance and solver: what compareExperiment
 * summarises and tests (the app's box plots show these points). Grid runs without a stored
 * result count as missing.
 */
export function metricValues(storedSpec: ExperimentSpec, stored: ReadonlyMap<string, StoredRun>, metric: MetricName): MetricValues {
  const spec = upgradeSpec(storedSpec);
  if (!(METRICS as readonly string[]).includes(metric)) throw new CompareError(`unknown metric "${metric}" (one of ${METRICS.join(', ')})`);
  const grid = expandGrid(spec);
  const labels = spec.solvers.map(solverLabel);
  const out: MetricValues = { instances: [], skipped: [] };
  for (const instance of spec.instances) {
    const config = instanceConfig(instance);
    const m = config.objectives.length;
    const reason = applies(metric, m, instance.track ?? 'so');
    if (reason) {
      out.skipped.push({ instance: instance.name, reason: `${instance.name} ${reason}` });
      continue;
    }
    const onFront = FRONT_METRICS.has(metric);
    const norm = instance.normalisation ?? null;
    if (onFront && !norm) throw new CompareError(`instance ${instance.name} has no normalisation; add the experiment again to store one`);
    const runs = grid.filter((r) => r.instance === instance.name);
    const fronts = new Map<string, number[][]>();
    for (const run of runs) {
      const result = stored.get(run.id)?.result;
      if (result && onFront)
        fronts.set(
          run.id,
          normalise(
            result.front.map((s) => s.objectives),
            norm!.ideal,
            norm!.nadir,
          ),
        );
    }
    let referenceSet: number[][] = [];
    if (REFERENCE_METRICS.has(metric)) {
      const union = [...fronts.values()].flat();
      referenceSet = nonDominatedIndices(union).map((i) => union[i]);
    }
    const valueOf = (id: string, result: SolverResult): number | null => {
      if (metric === 'best') return result.best && result.best.feasible ? result.best.objectives[0] : null;
      if (metric === 'feasibility') return foundFeasible(result) ? 1 : 0;
      const front = fronts.get(id)!;
      if (metric === 'hv')
        return normalisedHypervolume(
          result.front.map((s) => s.objectives),
          { ideal: norm!.ideal, nadir: norm!.nadir, reference: normalisedReferencePoint(m), method: '' },
        );
      if (metric === 'spacing') return front.length >= 2 ? spacing(front) : null;
      if (!front.length || !referenceSet.length) return null;
      return metric === 'epsilon' ? additiveEpsilon(front, referenceSet) : igdPlus(front, referenceSet);
    };
    const solvers = labels.map((label) => {
      const column = { label, runs: [] as RunMetricValue[], missing: 0 };
      for (const run of runs.filter((r) => r.label === label)) {
        const result = stored.get(run.id)?.result;
        if (!result) column.missing++;
        else column.runs.push({ id: run.id, seed: run.seed, value: valueOf(run.id, result) });
      }
      return column;
    });
    out.instances.push({ instance: instance.name, objectives: m, normalisation: norm, solvers });
  }
  return out;
}

/** Compares the solvers of a stored spec (as any version stored it: the older `normalization` key too) on `metric`. */
export function compareExperiment(storedSpec: ExperimentSpec, stored: ReadonlyMap<string, StoredRun>, metric: MetricName): Comparison {
  const spec = upgradeSpec(storedSpec);
  const { instances, skipped } = metricValues(spec, stored, metric);
  const higherIsBetter = HIGHER_IS_BETTER.has(metric);
  const aggregate = metric === 'feasibility' ? 'mean' : 'median';
  const labels = spec.solvers.map(solverLabel);
  const comparison: Comparison = { experiment: spec.name, metric, higherIsBetter, aggregate, instances: [], skipped, friedman: null, friedmanNote: null };
  for (const instance of instances) {
    const values = new Map<string, number[]>();
    const solvers: SolverColumn[] = instance.solvers.map(({ label, runs, missing }) => {
      const list = runs.flatMap((r) => (r.value === null ? [] : [r.value]));
      values.set(label, list);
      return { label, runs: runs.length, withoutValue: runs.length - list.length, missing, summary: list.length ? summarize(list) : null };
    });
    const raw: Omit<PairTest, 'pHolm'>[] = [];
    for (let i = 0; i < labels.length; i++)
      for (let j = i + 1; j < labels.length; j++) {
        const x = values.get(labels[i])!;
        const y = values.get(labels[j])!;
        if (!x.length || !y.length) continue;
        const test = mannWhitney(x, y);
        const effect = higherIsBetter ? a12(x, y) : a12(y, x);
        raw.push({ a: labels[i], b: labels[j], u: test.u1, p: test.p, method: test.method, a12: effect, magnitude: a12Magnitude(effect) });
      }
    const adjusted = holmAdjust(raw.map((r) => r.p));
    comparison.instances.push({
      instance: instance.instance,
      objectives: instance.objectives,
      normalisation: instance.normalisation,
      solvers,
      pairs: raw.map((r, k) => ({ ...r, pHolm: adjusted[k] })),
    });
  }
  if (comparison.instances.length === 0)
    throw new CompareError(`metric ${metric} applies to no instance of experiment ${spec.name}: ${comparison.skipped.map((s) => s.reason).join('; ')}`);
  const complete = comparison.instances.filter((c) => c.solvers.every((s) => s.summary));
  if (labels.length < 2) comparison.friedmanNote = 'one solver: nothing to rank';
  else if (complete.length < 2) comparison.friedmanNote = `needs at least 2 instances with values for every solver, has ${complete.length}`;
  else {
    const table = complete.map((c) => c.solvers.map((s) => s.summary![aggregate]));
    comparison.friedman = { ...friedman(table, { higherIsBetter }), labels, instances: complete.map((c) => c.instance) };
  }
  return comparison;
}
