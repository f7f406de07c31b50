/**
 * What a run is, as the host and its workers exchange it: the request (problem, solver,
 * parameters, seed, termination), the live snapshots and the final result. Snapshots and
 * results are the solver framework's own plain-data types (src-shared/solvers/types.ts), so
 * they cross the process boundary as structured clones unchanged.
 *
 * Two kinds of run: the dice problem (`RunRequest`, `kind` 'dice' or left out, as before) and
 * N-Queens (`NqueensRunRequest`, `kind: 'nqueens'`). `AnyRunRequest` is the union the
 * protocol carries; `SnapshotOf` / `ResultOf` give a request's snapshot and result types.
 */
import type { DiceConfig } from '../../src-shared/problems/dice/config.ts';
import type { HvNormalisation } from '../../src-shared/metrics/hv-reference.ts';
import type { NqueensSnapshot } from '../../src-shared/problems/nqueens/solvers.ts';
import type { ParamValue, Snapshot, SolverResult, StopReason, Termination } from '../../src-shared/solvers/types.ts';

export type { Snapshot as RunSnapshot, SolverResult as RunResult, Termination } from '../../src-shared/solvers/types.ts';
export type { NqueensSnapshot } from '../../src-shared/problems/nqueens/solvers.ts';

/** A dice run. `kind` may be left out (every dice request written before N-Queens runs has none). */
export interface RunRequest {
  kind?: 'dice';
  /** A solver name from the solver registry (src-shared/solvers/registry.ts). */
  solver: string;
  /** Solver parameters; missing ones take their defaults, bad ones fail the run with the reason. */
  params: Record<string, ParamValue>;
  seed: number;
  config: DiceConfig;
  termination: Termination;
  /** Minimum milliseconds between snapshots; 200 (about 5 per second) by default. */
  snapshotIntervalMs?: number;
  /**
   * M = 2 or 3: the normalisation of the hypervolume recorded in the trace; by default the
   * dice normalisation of the config (see run-options.ts).
   */
  hvNormalisation?: HvNormalisation;
  /** Record that hypervolume in the trace (default true); benchmarks turn it off to time the solver alone. */
  traceHypervolume?: boolean;
  /** Resident-memory limit of the worker for this run, in MB; overrides the host's limit. */
  memoryLimitMb?: number;
}

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

export type AnyRunRequest = RunRequest | NqueensRunRequest;
export type SnapshotOf<R extends AnyRunRequest> = R extends NqueensRunRequest ? NqueensSnapshot : Snapshot;
export type ResultOf<R extends AnyRunRequest> = R extends NqueensRunRequest ? NqueensResult : SolverResult;
export type AnyRunSnapshot = Snapshot | NqueensSnapshot;
export type AnyRunResult = SolverResult | NqueensResult;

export type RunStatus = 'queued' | 'running' | 'paused' | 'done' | 'failed' | 'cancelled';

/** How a run ended. `result` is present when done, and when cancelled after it had started. */
export interface RunOutcome<Result = SolverResult> {
  status: 'done' | 'failed' | 'cancelled';
  result: Result | null;
  /** Why it failed or was cancelled; null when done. */
  reason: string | null;
}

