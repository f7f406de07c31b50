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

export type { NqueensMethod, NqueensRunRequest, NqueensResult } from '../../src-shared/problems/nqueens/run-kind.ts';
export { NQUEENS_METHODS } from '../../src-shared/problems/nqueens/run-kind.ts';
import type { NqueensRunRequest, NqueensResult } from '../../src-shared/problems/nqueens/run-kind.ts';

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

