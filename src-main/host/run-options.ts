/**
 * The driver options a worker runs with, in one place so that an in-process run (tests,
 * benchmarks) can use exactly the same ones and get a bit-identical result.
 *
 * Multi-objective runs record the normalised hypervolume of the feasible front in the trace
 * (TracePoint.indicator), under the dice normalisation of src-shared/metrics/hv-reference.ts
 * (or the one given with the request). With M = 2 or 3 at every trace point; with M >= 4,
 * where exact hypervolume at every improvement would cost more than the run, on the
 * 'doubling' schedule (after 1,000 evaluations, then after each doubling, and at the end).
 */
import { diceHvNormalisation, normalisedHypervolume, type HvNormalisation } from '../../src-shared/metrics/hv-reference.ts';
import type { RunOptions } from '../../src-shared/solvers/run.ts';
import type { RunRequest } from './run.ts';

/** The largest M whose trace has the hypervolume at every point (beyond: at doublings). */
export const TRACE_HYPERVOLUME_MAX_OBJECTIVES = 3;

export function runOptionsFor(request: RunRequest): RunOptions {
  const options: RunOptions = { snapshotInterval: request.snapshotIntervalMs ?? 200 };
  const m = request.config.objectives.length;
  if (request.traceHypervolume !== false && m >= 2) {
    const norm: HvNormalisation = request.hvNormalisation ?? diceHvNormalisation(request.config);
    options.frontIndicator = (front) => normalisedHypervolume(front, norm);
    options.frontIndicatorSchedule = m <= TRACE_HYPERVOLUME_MAX_OBJECTIVES ? 'every' : 'doubling';
  }
  return options;
}
