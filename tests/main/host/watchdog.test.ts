// The host's health watchdog on its own (src-main/host/watchdog.ts), on a manual clock and a
// process state the test sets: which worker it gives up, why, and that its timer runs only
// while some worker is busy.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HealthWatchdog, type WatchedWorker } from '../../../src-main/host/watchdog.ts';
import type { ProcessState } from '../../../src-main/host/process-state.ts';

const MB = 1024 * 1024;
const worker = (pid: number, extra: Partial<WatchedWorker> = {}): WatchedWorker => ({
  pid,
  memoryLimitMb: 100,
  runSince: 0,
  lastHeard: 0,
  stoppedSince: null,
  ...extra,
});

function watchdogOver(workers: WatchedWorker[], states: Map<number, ProcessState>, runTimeoutMs: number | null = null) {
  const failed: [number | undefined, string][] = [];
  const dog = new HealthWatchdog(
    { stoppedGraceMs: 1000, heartbeatTimeoutMs: 5000, runTimeoutMs, watchIntervalMs: 50, processState: (pid) => states.get(pid)! },
    () => workers,
    (w, reason) => {
      failed.push([w.pid, reason]);
      workers.splice(workers.indexOf(w), 1);
    },
  );
  return { dog, failed };
}

afterEach(() => vi.useRealTimers());

describe('the health watchdog', () => {
  it('gives up a worker over its memory limit, stopped past the grace, silent where the system cannot tell, or past the wall time', () => {
    const workers = [
      worker(1),
      worker(2),
      worker(3, { memoryLimitMb: null, runSince: 5000 }),
      worker(4, { runSince: 0, lastHeard: 9000 }),
      worker(5, { lastHeard: 0 }),
    ];
    const states = new Map<number, ProcessState>([
      [1, { rssBytes: 101 * MB, stopped: false }],
      [2, { rssBytes: 10 * MB, stopped: true }],
      [3, { rssBytes: 10_000 * MB, stopped: false }],
      [4, { rssBytes: 10 * MB, stopped: false }],
      [5, { rssBytes: null, stopped: null }],
    ]);
    const { dog, failed } = watchdogOver(workers, states, 10_000);
    dog.check(100);
    expect(failed).toEqual([[1, 'memory limit exceeded: the worker used 101 MB, the limit is 100 MB']]);
    // Worker 2 has been stopped since 100: not yet past the 1 s grace at 1000, past it at 1100.
    dog.check(1000);
    expect(failed).toHaveLength(1);
    dog.check(1100);
    expect(failed[1]).toEqual([2, 'the worker was stopped (SIGSTOP) and did not continue within 1 s; it was killed']);
    // Worker 5 (the system cannot say) silent 5 s; worker 3 has no limit, however large it grows.
    dog.check(5000);
    expect(failed[2]).toEqual([5, 'the worker gave no sign of life for 5 s; it was killed']);
    dog.check(10_000);
    expect(failed[3]).toEqual([4, 'the run took longer than its wall-time limit of 10 s; it was killed']);
    expect(workers.map((w) => w.pid)).toEqual([3]);
    dog.dispose();
  });

  it('a stopped worker that continues starts its grace again', () => {
    const workers = [worker(1)];
    const states = new Map<number, ProcessState>([[1, { rssBytes: MB, stopped: true }]]);
    const { dog, failed } = watchdogOver(workers, states);
    dog.check(0);
    states.set(1, { rssBytes: MB, stopped: false });
    dog.check(900);
    states.set(1, { rssBytes: MB, stopped: true });
    dog.check(1500);
    dog.check(2400);
    expect(failed).toEqual([]);
    dog.check(2500);
    expect(failed).toHaveLength(1);
    dog.dispose();
  });

  it('its timer runs while some worker is busy, and stops with the last', () => {
    vi.useFakeTimers();
    const workers = [worker(1)];
    const states = new Map<number, ProcessState>([[1, { rssBytes: MB, stopped: false }]]);
    const { dog } = watchdogOver(workers, states);
    dog.update();
    expect(vi.getTimerCount()).toBe(1);
    dog.update();
    expect(vi.getTimerCount()).toBe(1);
    workers.length = 0;
    vi.advanceTimersByTime(60);
    expect(vi.getTimerCount()).toBe(0);
    workers.push(worker(2));
    dog.dispose();
    dog.update();
    expect(vi.getTimerCount()).toBe(0);
  });
});
