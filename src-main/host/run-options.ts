/**
 * The driver options a worker runs with, in one place so that an in-process run (tests,
 * benchmarks) can use exactly the same ones and get a bit-identical result.
 *
 * Multi-objective runs with M = 2 or 3 record the normalised hypervolume of the feasible front
 * in the trace (TracePoint.indicator), under the dice normalisation of
 * src-shared/metrics/hv-reference.ts (or the one given with the request). For M >= 4 the
 * indicator stays null: exact hypervolume at every improvement would cost more than the run.
 */
import { diceHvNormalisation, normalisedHypervolume, type HvNormalisation } from '../../src-shared/metrics/hv-reference.ts';
import type { RunOptions } from '../../src-shared/solvers/run.ts';
import type { RunRequest } from './run.ts';

export const TRACE_HYPERVOLUME_MAX_OBJECTIVES = 3;

export function runOptionsFor(request: RunRequest): RunOptions {
  const options: RunOptions = { snapshotInterval: request.snapshotIntervalMs ?? 200 };
  const m = request.config.objectives.length;
  if (request.traceHypervolume !== false && m >= 2 && m <= TRACE_HYPERVOLUME_MAX_OBJECTIVES) {
    const norm: HvNormalisation = request.hvNormalisation ?? diceHvNormalisation(request.config);
    options.frontIndicator = (front) => normalisedHypervolume(front, norm);
  }
  return options;
}
