/**
 * Runs sweep jobs off the UI thread: receives {jobs}, posts one SweepOutcome per job as it
 * finishes, then {done: true}. The page cancels by terminating the worker.
 */
import { runSweepJob, type SweepJob } from './sweep.ts';

export type SweepMessage = { kind: 'outcome'; outcome: ReturnType<typeof runSweepJob> } | { kind: 'done' } | { kind: 'error'; message: string };

// Typed by hand: the renderer's tsconfig has the DOM lib, not the worker lib.
const scope = self as unknown as { postMessage(message: SweepMessage): void; onmessage: ((e: MessageEvent<{ jobs: SweepJob[] }>) => void) | null };
scope.onmessage = (e: MessageEvent<{ jobs: SweepJob[] }>) => {
  try {
    for (const job of e.data.jobs) scope.postMessage({ kind: 'outcome', outcome: runSweepJob(job) } satisfies SweepMessage);
    scope.postMessage({ kind: 'done' } satisfies SweepMessage);
  } catch (err) {
    scope.postMessage({ kind: 'error', message: (err as Error).message } satisfies SweepMessage);
  }
};
