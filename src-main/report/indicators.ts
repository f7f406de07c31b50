/**
 * The value of one run on one metric, exactly as `compareExperiment` defines it
 * (src-shared/experiments/compare.ts, docs/stats.md). compare only returns the per-solver
 * summaries; the report also needs each run's value (box plots, the CSV of runs, the median
 * run). tests/main/report checks that these values summarise to compare's numbers.
 */
import type { MetricName } from '../../src-shared/experiments/compare.ts';
import type { RunSpec } from '../../src-shared/experiments/grid.ts';
import type { InstanceSpec } from '../../src-shared/experiments/spec.ts';
import { nonDominatedIndices } from '../../src-shared/metrics/dominance.ts';
import { normalisedHypervolume } from '../../src-shared/problems/dice/hv-reference.ts';
import { normalise, normalisedReferencePoint } from '../../src-shared/metrics/hypervolume.ts';
import { additiveEpsilon, igdPlus, spacing } from '../../src-shared/metrics/indicators.ts';
import type { SolverResult } from '../../src-shared/solvers/types.ts';

const FRONT_METRICS: ReadonlySet<MetricName> = new Set<MetricName>(['hv', 'igd+', 'epsilon', 'spacing']);

/** Whether `metric` has values on an instance with `objectives` objectives. */
export function metricApplies(metric: MetricName, objectives: number): boolean {
  if (metric === 'best') return objectives === 1;
  if (FRONT_METRICS.has(metric)) return objectives >= 2;
  return true;
}

/** Whether the run evaluated a feasible solution (compare's `feasibility`). */
export function foundFeasible(result: SolverResult): boolean {
  return result.firstFeasibleAt != null || result.front.length > 0 || result.best?.feasible === true;
}

/** Normalised hypervolume of a run's feasible front under the instance's stored normalisation. */
export function runHypervolume(result: SolverResult, normalisation: { ideal: number[]; nadir: number[] }): number {
  const m = normalisation.ideal.length;
  return normalisedHypervolume(
    result.front.map((s) => s.objectives),
    { ideal: normalisation.ideal, nadir: normalisation.nadir, reference: normalisedReferencePoint(m), method: '' },
  );
}

/**
 * The metric's value for every run of one instance that has a result (done runs), by run id;
 * null where the run has no value. `runs` are the instance's grid runs.
 */
export function instanceMetricValues(
  metric: MetricName,
  instance: InstanceSpec,
  objectives: number,
  runs: readonly RunSpec[],
  results: ReadonlyMap<string, SolverResult>,
): Map<string, number | null> {
  const values = new Map<string, number | null>();
  if (!metricApplies(metric, objectives)) {
    for (const run of runs) if (results.has(run.id)) values.set(run.id, null);
    return values;
  }
  const norm = instance.normalisation ?? null;
  const fronts = new Map<string, number[][]>();
  if (FRONT_METRICS.has(metric)) {
    if (!norm) throw new Error(`instance ${instance.name} has no normalisation`);
    for (const run of runs) {
      const result = results.get(run.id);
      if (result)
        fronts.set(
          run.id,
          normalise(
            result.front.map((s) => s.objectives),
            norm.ideal,
            norm.nadir,
          ),
        );
    }
  }
  let referenceSet: number[][] = [];
  if (metric === 'igd+' || metric === 'epsilon') {
    const union = [...fronts.values()].flat();
    referenceSet = nonDominatedIndices(union).map((i) => union[i]);
  }
  for (const run of runs) {
    const result = results.get(run.id);
    if (!result) continue;
    let value: number | null;
    if (metric === 'best') value = result.best && result.best.feasible ? result.best.objectives[0] : null;
    else if (metric === 'feasibility') value = foundFeasible(result) ? 1 : 0;
    else if (metric === 'hv') value = runHypervolume(result, norm!);
    else {
      const front = fronts.get(run.id)!;
      if (metric === 'spacing') value = front.length >= 2 ? spacing(front) : null;
      else if (!front.length || !referenceSet.length) value = null;
      else value = metric === 'epsilon' ? additiveEpsilon(front, referenceSet) : igdPlus(front, referenceSet);
    }
    values.set(run.id, value);
  }
  return values;
}
