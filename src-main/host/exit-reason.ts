/** Why a worker process ended, in words a run's failure reason can give. */
import type { WorkerExit } from './spawner.ts';

/** A human-readable reason for a worker's end. */
export function describeExit(exit: WorkerExit, memoryLimitMb: number | null): string {
  const lastLine = exit.output
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .pop();
  if (/heap out of memory|Allocation failed|ERR_WORKER_OUT_OF_MEMORY|OOM/i.test(exit.output))
    return `the worker ran out of memory${memoryLimitMb !== null ? ` (limit ${memoryLimitMb} MB)` : ''}`;
  if (exit.signal) return `the worker was killed (${exit.signal})`;
  if (exit.code === 0) return 'the worker exited before the run ended';
  return `the worker crashed (exit code ${exit.code})${lastLine ? `: ${lastLine}` : ''}`;
}
