// How the host reads a worker's end, with stand-in worker processes (plain `node -e` scripts)
// that misbehave in one specific way: run out of V8 heap, ignore a cancel, crash.
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { hasEnded } from '../processes.ts';
import { describeExit, SolverHost } from '../../../src-main/host/pool.ts';
import type { DiceRunRequest } from '../../../src-main/host/run.ts';
import { childChannel, type WorkerSpawner } from '../../../src-main/host/spawner.ts';
import { trackConfig } from '../../../src-shared/problems/dice/config.ts';

/** A spawner whose "worker" is `script`, run by node with the memory limit as a V8 flag. */
function scriptSpawner(script: string): WorkerSpawner {
  return (options) => {
    const flags = options.memoryLimitMb === null ? [] : [`--max-old-space-size=${options.memoryLimitMb}`];
    return childChannel(spawn(process.execPath, [...flags, '-e', script], { stdio: ['ignore', 'pipe', 'pipe', 'ipc'] }));
  };
}

const ALLOCATE = `process.on('message', () => { const keep = []; for (;;) keep.push(new Array(1e5).fill(Math.random())); });`;
const IGNORE_CANCEL = `process.send({ type: 'ready', pid: process.pid }); process.on('message', (m) => { if (m.type === 'start') process.send({ type: 'started', runId: m.runId }); });`;
const CRASH = `process.on('message', (m) => { if (m.type === 'start') { console.error('something broke in the solver'); process.exit(3); } });`;

const request: DiceRunRequest = { kind: 'dice', solver: 'random', params: {}, seed: 1, config: trackConfig('so', 20), termination: { maxEvaluations: 10 } };

let host: SolverHost | null = null;
afterEach(() => {
  host?.dispose();
  host = null;
});

describe('worker failures', () => {
  it('reports a worker that exhausts its V8 heap limit as out of memory', async () => {
    host = new SolverHost({ spawn: scriptSpawner(ALLOCATE), parallelism: 1, memoryLimitMb: 32 });
    const outcome = await host.start(request).outcome;
    expect(outcome).toEqual({ status: 'failed', result: null, reason: 'the worker ran out of memory (limit 32 MB)' });
    expect(host.workerCount).toBe(0);
  });

  it('kills a worker that does not stop within the grace period after cancel', async () => {
    host = new SolverHost({ spawn: scriptSpawner(IGNORE_CANCEL), parallelism: 1, cancelGraceMs: 200 });
    const run = host.start(request);
    await new Promise<void>((resolve) => {
      const l = run.onStatus((s) => s === 'running' && (l.dispose(), resolve()));
      if (run.status === 'running') resolve();
    });
    await new Promise((r) => setTimeout(r, 300));
    const pid = run.pid!;
    run.cancel();
    const outcome = await run.outcome;
    expect(outcome).toEqual({ status: 'cancelled', result: null, reason: 'cancelled (worker did not stop within 200 ms and was killed)' });
    expect(host.workerCount).toBe(0);
    expect(await hasEnded(pid)).toBe(true);
  });

  it('reports a crash with its exit code and last line of output, then runs the next run on a new worker', async () => {
    host = new SolverHost({ spawn: scriptSpawner(CRASH), parallelism: 1 });
    const a = host.start(request);
    const b = host.start(request);
    expect(await a.outcome).toEqual({ status: 'failed', result: null, reason: 'the worker crashed (exit code 3): something broke in the solver' });
    expect((await b.outcome).reason).toBe('the worker crashed (exit code 3): something broke in the solver');
  });

  it('fails the runs with the reason when a worker cannot be started', async () => {
    host = new SolverHost({
      spawn: () => {
        throw new Error('utilityProcess.fork before app ready');
      },
      parallelism: 2,
    });
    const runs = [host.start(request), host.start(request), host.start(request)];
    for (const run of runs) expect(await run.outcome).toEqual({ status: 'failed', result: null, reason: 'could not start a worker: utilityProcess.fork before app ready' });
    expect(host.workerCount).toBe(0);
  });

  it('describes exits', () => {
    expect(describeExit({ code: null, signal: 'SIGTERM', output: '' }, null)).toBe('the worker was killed (SIGTERM)');
    expect(describeExit({ code: 0, signal: null, output: '' }, null)).toBe('the worker exited before the run ended');
    expect(describeExit({ code: 134, signal: null, output: 'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory\n' }, 64)).toBe(
      'the worker ran out of memory (limit 64 MB)',
    );
  });
});
