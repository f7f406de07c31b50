/**
 * What a dice run's worker will need in memory, estimated from its settings before it starts,
 * so that settings that cannot fit in the worker's memory limit are refused when they are
 * checked instead of growing a worker to gigabytes (issue 21: `ga` with populationSize=100000
 * at N = 10^7 asks for 2 TB).
 *
 * The estimate counts what the settings make a worker hold, i.e. what scales with N (the
 * worker's own 60 MB or so, Node and the code, is left out: a limit too small for it is the
 * watchdog's to report):
 *   - the problem's evaluator (16 bytes per position) and one incremental evaluation state with
 *     its scratch (about 49 bytes per position measured at N = 10^6, counted as 56);
 *   - every sequence the solver holds at once, N bytes each plus SEQUENCE_OVERHEAD_BYTES for its
 *     evaluation: parents and offspring of the generational solvers (2 x populationSize for ga,
 *     nsga2, nsga3, whose automatic size comes from its reference directions), one batch of
 *     random search, and each subproblem of moead-ls and barrier-mo (an incremental state
 *     each).
 * The front of a multi-objective run is not counted: its size is whatever the run finds.
 * It is an estimate, not a bound: the worker's watchdog still enforces the limit.
 */
import { dasDennisCount } from './mo/operators.ts';
import { defaultSubproblemDivisions } from './mo/moead-ls.ts';
import { defaultDivisions } from './mo/nsga3.ts';
import type { ParamValue } from '../core/params.ts';

export const MB = 1024 * 1024;
/** The problem's evaluator, per position. */
export const EVALUATOR_BYTES_PER_POSITION = 16;
/** One incremental evaluation state and its scratch, per position. */
export const STATE_BYTES_PER_POSITION = 56;
/** One evaluated sequence besides its N bytes: objectives, constraints, the object. */
export const SEQUENCE_OVERHEAD_BYTES = 512;

export interface RunShape {
  solver: string;
  params: Readonly<Record<string, ParamValue>>;
  n: number;
  objectiveCount: number;
}

/** How many sequences the solver holds at once, and how many of them carry an incremental state. */
function held(shape: RunShape): { sequences: number; states: number; why: string | null } {
  const p = shape.params;
  const m = shape.objectiveCount;
  const int = (name: string) => (typeof p[name] === 'number' ? (p[name] as number) : 0);
  switch (shape.solver) {
    case 'ga':
    case 'nsga2': {
      const size = int('populationSize');
      return { sequences: 2 * size, states: 0, why: `populationSize ${size}: ${2 * size} sequences (parents and offspring)` };
    }
    case 'nsga3': {
      const size = int('populationSize') || Math.ceil(dasDennisCount(m, int('divisions') || defaultDivisions(m)) / 4) * 4;
      return { sequences: 2 * size, states: 0, why: `a population of ${size}: ${2 * size} sequences (parents and offspring)` };
    }
    case 'random': {
      const batch = int('batch');
      return { sequences: batch, states: 0, why: `batch ${batch}: ${batch} sequences at once` };
    }
    case 'moead-ls': {
      const count = dasDennisCount(m, int('maxDivisions') || defaultSubproblemDivisions(m));
      return { sequences: count, states: count, why: `${count} subproblems, an incremental state each` };
    }
    case 'barrier-mo': {
      const count = dasDennisCount(m, int('divisions'));
      return { sequences: count, states: count, why: `${count} subproblems, an incremental state each` };
    }
    default:
      return { sequences: 0, states: 0, why: null };
  }
}

/** Settings refused because their estimated memory exceeds the worker's limit; the message says by how much. */
export class MemoryLimitError extends Error {
  override readonly name = 'MemoryLimitError';
}

export interface MemoryEstimate {
  bytes: number;
  /** What makes it large, for the message ("populationSize 100000: 200000 sequences ..."), or null. */
  why: string | null;
}

/** The estimated peak memory a run's settings make its worker hold, in bytes. */
export function estimateRunMemory(shape: RunShape): MemoryEstimate {
  const n = shape.n;
  const { sequences, states, why } = held(shape);
  const bytes = EVALUATOR_BYTES_PER_POSITION * n + (1 + states) * STATE_BYTES_PER_POSITION * n + sequences * (n + SEQUENCE_OVERHEAD_BYTES);
  return { bytes, why };
}

/**
 * Null when the run fits its worker's memory limit (MB; null: no limit), else why not:
 * "needs about 1,907,349 MB (populationSize 100000: ...), more than the worker's memory
 * limit of 12,052 MB".
 */
export function memoryRefusal(shape: RunShape, limitMb: number | null): string | null {
  if (limitMb === null) return null;
  const estimate = estimateRunMemory(shape);
  if (estimate.bytes <= limitMb * MB) return null;
  const mb = (v: number) => `${Math.ceil(v).toLocaleString('en-US')} MB`;
  return `${shape.solver} at N = ${shape.n.toLocaleString('en-US')} needs about ${mb(estimate.bytes / MB)}${estimate.why ? ` (${estimate.why})` : ''}, more than the worker's memory limit of ${mb(limitMb)}`;
}
