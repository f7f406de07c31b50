/**
 * Messages between the solver host (main side) and a worker process. Both ends exchange
 * structured clones (Node: `serialization: 'advanced'`; Electron: MessagePort semantics), so
 * typed arrays and Maps survive the trip; functions and class prototypes do not.
 */
import type { AnyRunResult, AnyRunSnapshot, RunRequest } from '../../src-shared/runtime/kinds/index.ts';
import type { HvNormalisation } from '../../src-shared/problems/dice/hv-reference.ts';
import type { DiceConfig } from '../../src-shared/problems/dice/config.ts';
import type { ProgramProcesses } from './program-kill.ts';

export type HostMessage =
  /** Sent once after spawning: the worker's resident-memory limit for its runs. */
  | { type: 'init'; memoryLimitMb: number | null }
  /** A run of any kind (src-shared/runtime/kinds/). */
  | { type: 'start'; runId: string; request: RunRequest }
  | { type: 'pause'; runId: string }
  | { type: 'resume'; runId: string }
  | { type: 'cancel'; runId: string }
  /**
   * Compute the default hypervolume normalisation of a dice config (hv-reference.ts: 1000
   * random sequences, minutes at N = 10^7), so the main side never does. Answered by
   * 'normalisation' with the same `id`.
   */
  | { type: 'normalise'; id: string; config: DiceConfig };

export type WorkerMessage =
  /** The worker has loaded and listens for messages. */
  | { type: 'ready'; pid: number }
  /** Sent every second while the worker's event loop turns: it is alive. */
  | { type: 'heartbeat' }
  | { type: 'started'; runId: string }
  /** The snapshot of the run's kind. */
  | { type: 'snapshot'; runId: string; snapshot: AnyRunSnapshot }
  | { type: 'paused'; runId: string }
  | { type: 'resumed'; runId: string }
  /** The result of the run's kind. */
  | { type: 'done'; runId: string; result: AnyRunResult }
  /** Cancelled between steps; `result` holds what was found so far. */
  | { type: 'cancelled'; runId: string; result: AnyRunResult | null }
  /**
   * The run failed inside the worker (bad parameters, an exception in the solver, the memory
   * watchdog). With `fatal` the worker exits after sending this.
   */
  /** `result`: what the run had evaluated when it failed (a program that exited with an error, hung, flooded), when there is one. */
  | { type: 'failed'; runId: string; reason: string; fatal: boolean; result?: AnyRunResult }
  /**
   * The run's solver program has started (its process group leader and marker,
   * program-kill.ts), or with `processes` null, has ended: the host kills a program that
   * still runs before it kills the worker.
   */
  | { type: 'program'; runId: string; processes: ProgramProcesses | null }
  /** The normalisation asked for by 'normalise' (exactly diceHvNormalisation's numbers), or why it failed. */
  | { type: 'normalisation'; id: string; normalisation: HvNormalisation | null; reason: string | null };

export function isWorkerMessage(value: unknown): value is WorkerMessage {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}
