/**
 * How one run is executed: in worker processes through the solver host (the default, so a
 * crashing or runaway solver cannot take the runner down), or inline in this process through
 * the same driver in-process (tests, verification): executeRunSync, which gives the worker's result.
 */
import { executeRunSync } from '../../src-shared/runtime/kinds/index.ts';
import type { SolverResult } from '../../src-shared/solvers/types.ts';
import { requestOf, type RunSpec } from '../../src-shared/experiments/grid.ts';
import { SolverHost } from '../host/pool.ts';
import { nodeSpawner, type WorkerSpawner } from '../host/spawner.ts';

export interface RunOutcome {
  /** 'cancelled': stopped on request; such a run is not stored (it stays missing). */
  status: 'done' | 'failed' | 'cancelled';
  result: SolverResult | null;
  error: string | null;
  startedAt: Date;
  finishedAt: Date;
}

export interface Executor {
  /** Runs one grid point; never rejects (a failure is an outcome). `onProgress` gets 0..1. */
  execute(run: RunSpec, onProgress?: (fraction: number) => void): Promise<RunOutcome>;
  /** Stops everything in flight. */
  dispose(): void;
}

export function runInline(run: RunSpec): RunOutcome {
  const startedAt = new Date();
  try {
    const result = executeRunSync(requestOf(run));
    return { status: 'done', result, error: null, startedAt, finishedAt: new Date() };
  } catch (e) {
    return { status: 'failed', result: null, error: (e as Error).message, startedAt, finishedAt: new Date() };
  }
}

export function inlineExecutor(): Executor {
  return {
    execute: async (run) => {
      // Let progress output and signals through between runs.
      await new Promise((resolve) => setImmediate(resolve));
      return runInline(run);
    },
    dispose: () => {},
  };
}

export function hostExecutor(options: { jobs: number; spawn?: WorkerSpawner; memoryLimitMb?: number | null; runTimeoutMs?: number | null }): Executor {
  const host = new SolverHost({ spawn: options.spawn ?? nodeSpawner(), parallelism: options.jobs, memoryLimitMb: options.memoryLimitMb ?? null, runTimeoutMs: options.runTimeoutMs ?? null });
  return {
    async execute(run, onProgress) {
      let startedAt = new Date();
      const handle = host.start(requestOf(run, onProgress ? 500 : 60_000));
      const listeners = [
        handle.onStatus((status) => {
          if (status === 'running') startedAt = new Date();
        }),
        handle.onSnapshot((snapshot) => onProgress?.(snapshot.progress)),
      ];
      const outcome = await handle.outcome;
      for (const l of listeners) l.dispose();
      const finishedAt = new Date();
      if (outcome.status === 'done' && outcome.result) return { status: 'done', result: outcome.result, error: null, startedAt, finishedAt };
      // Stopped on request (the executor disposed, as a second Ctrl-C does): no result, not a failure.
      if (outcome.status === 'cancelled') return { status: 'cancelled', result: null, error: outcome.reason ?? 'cancelled', startedAt, finishedAt };
      return { status: 'failed', result: null, error: outcome.reason ?? outcome.status, startedAt, finishedAt };
    },
    dispose: () => host.dispose(),
  };
}
