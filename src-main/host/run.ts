/**
 * What a run is, as the host and its workers exchange it: the request (problem, solver,
 * parameters, seed, termination), the live snapshots and the final result. Snapshots and
 * results are the solver framework's own plain-data types (src-shared/solvers/types.ts), so
 * they cross the process boundary as structured clones unchanged.
 */
import type { DiceConfig } from '../../src-shared/problems/dice/config.ts';
import type { HvNormalisation } from '../../src-shared/metrics/hv-reference.ts';
import type { ParamValue, SolverResult, Termination } from '../../src-shared/solvers/types.ts';

export type { Snapshot as RunSnapshot, SolverResult as RunResult, Termination } from '../../src-shared/solvers/types.ts';

export interface RunRequest {
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

export type RunStatus = 'queued' | 'running' | 'paused' | 'done' | 'failed' | 'cancelled';

/** How a run ended. `result` is present when done, and when cancelled after it had started. */
export interface RunOutcome {
  status: 'done' | 'failed' | 'cancelled';
  result: SolverResult | null;
  /** Why it failed or was cancelled; null when done. */
  reason: string | null;
}

