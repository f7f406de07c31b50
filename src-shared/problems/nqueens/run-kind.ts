/**
 * N-Queens as a kind of run on the solver host: the request a worker receives and the result it
 * sends back.
 */
import type { ParamValue, StopReason } from '../../solvers/types.ts';

export type NqueensMethod = 'neural' | 'minconflicts';
export const NQUEENS_METHODS: readonly NqueensMethod[] = ['neural', 'minconflicts'];

/**
 * An N-Queens run: one of the two methods of src-shared/problems/nqueens/solvers.ts
 * (`nqueens-neural`, `nqueens-minconflicts`) on an N x N board.
 */
export interface NqueensRunRequest {
  kind: 'nqueens';
  method: NqueensMethod;
  n: number;
  /**
   * The method's parameters by their framework names (see describeNqueensSolvers: A, B,
   * C, kick, kickEvery, kickLength, update, threshold, clamp, maxSteps / samples, greedyTries,
   * noise, maxSteps); missing ones take their defaults, bad ones fail the run with the reason.
   * `maxSteps` is the method's own step limit: a run that reaches it unsolved reports its
   * failure mode.
   */
  params: Record<string, ParamValue>;
  seed: number;
  /** The run's budget on top of the method's step limit: steps and wall seconds (pauses excluded). */
  limits?: { steps?: number; seconds?: number };
  /** Minimum milliseconds between snapshots; 200 by default. */
  snapshotIntervalMs?: number;
  /** Resident-memory limit of the worker for this run, in MB; overrides the host's limit. */
  memoryLimitMb?: number;
}

/**
 * How an N-Queens run ended. The first six fields are `saikoro nqueens --json`'s. `queens[r]` is
 * the 0-based column of the queen in row r, present only when solved, and then confirmed by
 * verifySolution (a recount independent of the solver's counters).
 */
export interface NqueensResult {
  n: number;
  method: NqueensMethod;
  solved: boolean;
  steps: number;
  seconds: number;
  queens: number[] | null;
  kind: 'nqueens';
  seed: number;
  /** Every parameter, defaults filled in. */
  params: Record<string, ParamValue>;
  /** 'solver': solved or the method's step limit; 'evaluations' / 'time': the limits; 'cancelled'. */
  stopReason: StopReason;
  /** Why an unsolved run failed (network: loop, oscillation, stall, wander; min-conflicts: pairs left). */
  failure?: string;
  message: string;
}

