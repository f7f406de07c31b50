/**
 * What a run is, as the host and its workers exchange it: a request of some kind (the kinds are
 * in src-shared/runtime/kinds/: dice, nqueens), the live snapshots and the final result, all
 * plain data that crosses the process boundary as structured clones. This file adds what only
 * the host knows: a run's status and how it ended.
 */
import type { AnyRunResult } from '../../src-shared/runtime/kinds/index.ts';

export type {
  AnyRunResult,
  AnyRunSnapshot,
  DiceRunRequest,
  NqueensMethod,
  NqueensResult,
  NqueensRunRequest,
  NqueensSnapshot,
  ResultOf,
  RunKindName,
  RunRequest,
  SnapshotOf,
} from '../../src-shared/runtime/kinds/index.ts';
export type { RunStatus } from '../../src-shared/runtime/run-api.ts';

/** How a run ended. `result` is present when done, and when cancelled after it had started. */
export interface RunOutcome<Result = AnyRunResult> {
  status: 'done' | 'failed' | 'cancelled';
  result: Result | null;
  /** Why it failed or was cancelled; null when done. */
  reason: string | null;
}
