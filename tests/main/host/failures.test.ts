// How the host reads a worker's end, with stand-in worker processes (plain `node -e` scripts)
// that misbehave in one specific way: run out of V8 heap, ignore a cancel, crash.
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { hasEnded, waitFor } from '../processes.ts';
import { SolverHost } from '../../../src-main/host/pool.ts';
import { describeExit } from '../../../src-main/host/exit-reason.ts';
import { processState as readProcessState } from '../../../src-main/host/process-state.ts';
import type { DiceRunRequest } from '../../../src-shared/runtime/kinds/index.ts';
import { childChannel, nodeSpawner, type WorkerSpawner } from '../../../src-main/host/spawner.ts';
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
// Busy in one synchronous step that allocates outside V8's heap (Buffers): neither the heap limit
// nor the worker's own watchdog (it never yields) can stop it.
const ALLOCATE_OFF_HEAP = `process.send({ type: 'ready', pid: process.pid }); process.on('message', (m) => { if (m.type !== 'start') return; process.send({ type: 'started', runId: m.runId }); setTimeout(() => { const keep = []; for (;;) keep.push(Buffer.alloc(8e6, 1)); }, 50); });`;
// Takes the run and never answers again (a hung solver): silent, busy.
const SILENT = `process.send({ type: 'ready', pid: process.pid }); process.on('message', (m) => { if (m.type === 'start') { process.send({ type: 'started', runId: m.runId }); for (;;) {} } });`;
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
    // Running: the worker has the run, and ignores what comes next.
    await new Promise<void>((resolve) => {
      const l = run.onStatus((s) => s === 'running' && (l.dispose(), resolve()));
      if (run.status === 'running') resolve();
    });
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
    for (const run of runs)
      expect(await run.outcome).toEqual({ status: 'failed', result: null, reason: 'could not start a worker: utilityProcess.fork before app ready' });
    expect(host.workerCount).toBe(0);
  });

  it('the host watches memory from outside: a worker busy in one long step that grows past the limit is killed', async () => {
    host = new SolverHost({ spawn: scriptSpawner(ALLOCATE_OFF_HEAP), parallelism: 1, memoryLimitMb: 300, watchIntervalMs: 100 });
    const run = host.start(request);
    const outcome = await run.outcome;
    expect(outcome.status).toBe('failed');
    expect(outcome.reason).toMatch(/^memory limit exceeded: the worker used \d+ MB, the limit is 300 MB$/);
    const used = Number(/used (\d+) MB/.exec(outcome.reason!)![1]);
    // Caught within a few watch intervals of crossing the limit (8 MB per allocation).
    expect(used).toBeGreaterThan(300);
    expect(used).toBeLessThan(2000);
    expect(host.workerCount).toBe(0);
  });

  it('a worker stopped with SIGSTOP fails its run after the grace period and is killed; the other runs go on', async () => {
    host = new SolverHost({ spawn: nodeSpawner(), parallelism: 2, stoppedGraceMs: 1000, watchIntervalMs: 100 });
    const endless = {
      kind: 'nqueens' as const,
      method: 'neural' as const,
      n: 10,
      params: { update: 'sync', clamp: 3, kickLength: 0, maxSteps: 1_000_000_000 },
      seed: 1,
    };
    const stopped = host.start(endless);
    const other = host.start(request);
    await waitFor('the run to start in its worker', () => stopped.pid !== undefined && stopped.status === 'running');
    const pid = stopped.pid!;
    process.kill(pid, 'SIGSTOP');
    const outcome = await stopped.outcome;
    expect(outcome).toEqual({ status: 'failed', result: null, reason: 'the worker was stopped (SIGSTOP) and did not continue within 1 s; it was killed' });
    expect((await other.outcome).status).toBe('done');
    expect(await hasEnded(pid)).toBe(true);
  });

  it('a run past its wall-time limit fails and its worker is killed', async () => {
    host = new SolverHost({ spawn: scriptSpawner(SILENT), parallelism: 1, runTimeoutMs: 600, watchIntervalMs: 100 });
    const run = host.start(request);
    expect(await run.outcome).toEqual({ status: 'failed', result: null, reason: 'the run took longer than its wall-time limit of 600 ms; it was killed' });
  });

  it('where the system cannot say a worker is stopped, silence past the heartbeat timeout counts as hung', async () => {
    host = new SolverHost({
      spawn: scriptSpawner(SILENT),
      parallelism: 1,
      heartbeatTimeoutMs: 500,
      watchIntervalMs: 100,
      processState: () => ({ rssBytes: null, stopped: null }),
    });
    expect(await host.start(request).outcome).toEqual({ status: 'failed', result: null, reason: 'the worker gave no sign of life for 500 ms; it was killed' });
  });

  it('a real worker busy and silent is not taken for stopped where the system can tell', async () => {
    // The real state says running: a long silent step is work, not a hang.
    // The real process state, and when the watchdog looked at it.
    const looks: number[] = [];
    host = new SolverHost({
      spawn: scriptSpawner(SILENT),
      parallelism: 1,
      heartbeatTimeoutMs: 200,
      watchIntervalMs: 50,
      processState: (pid) => (looks.push(Date.now()), readProcessState(pid)),
    });
    const run = host.start(request);
    await waitFor('the run to start', () => run.status === 'running');
    const since = Date.now();
    // The watchdog looked at the worker silent for three heartbeat timeouts, and let it be.
    await waitFor('a look 600 ms into the silence', () => looks.some((t) => t - since >= 600), { withinMs: 10_000 });
    expect(run.isFinished).toBe(false);
    run.cancel();
  });

  it('describes exits', () => {
    expect(describeExit({ code: null, signal: 'SIGTERM', output: '' }, null)).toBe('the worker was killed (SIGTERM)');
    expect(describeExit({ code: 0, signal: null, output: '' }, null)).toBe('the worker exited before the run ended');
    expect(describeExit({ code: 134, signal: null, output: 'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory\n' }, 64)).toBe(
      'the worker ran out of memory (limit 64 MB)',
    );
  });
});
