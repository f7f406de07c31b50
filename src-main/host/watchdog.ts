/**
 * The solver host's health watchdog: it looks at every busy worker from outside, every
 * `watchIntervalMs` while some worker is busy, and gives up on one whose resident memory is over
 * its run's limit (a worker busy in one long step cannot run its own watchdog), that a signal
 * has stopped (SIGSTOP) for too long, that has been silent for too long where the system cannot
 * say it is stopped, or whose run is past its wall-time limit. Giving up is the pool's to do
 * (`fail`: the run fails with the reason and the worker is killed); the watchdog only decides.
 *
 * Ownership: the watchdog owns its interval timer, running only while `busy()` is not empty;
 * dispose() clears it.
 */
import type { Disposable } from '../../src-shared/base/disposable.ts';
import type { ProcessState } from './process-state.ts';

/** What the watchdog sees of a busy worker; it keeps `stoppedSince` itself. */
export interface WatchedWorker {
  /** The worker's process id (undefined: not known, not watched). */
  readonly pid: number | undefined;
  /** The memory limit of its run in MB (null: none). */
  readonly memoryLimitMb: number | null;
  /** When its run was assigned, and when the worker was last heard from (any message). */
  readonly runSince: number;
  readonly lastHeard: number;
  /** Since when the system says the worker is stopped (SIGSTOP), or null. */
  stoppedSince: number | null;
}

export interface WatchdogOptions {
  /** A worker stopped by a signal this long (ms) is given up. */
  stoppedGraceMs: number;
  /** Where the system cannot say a worker is stopped: silence this long (ms) counts as stopped. */
  heartbeatTimeoutMs: number;
  /** A run that takes longer than this (ms of wall time, pauses included) is given up; null: no limit. */
  runTimeoutMs: number | null;
  /** How often the busy workers are looked at (ms). */
  watchIntervalMs: number;
  /** What the system says of a process. */
  processState: (pid: number) => ProcessState;
}

const MB = 1024 * 1024;

export class HealthWatchdog<W extends WatchedWorker> implements Disposable {
  private timer: NodeJS.Timeout | null = null;
  private disposed = false;

  constructor(
    private readonly options: WatchdogOptions,
    /** The workers busy with a run now. */
    private readonly busy: () => W[],
    /** Gives up on a worker: its run fails with `reason` and it is killed. */
    private readonly fail: (worker: W, reason: string) => void,
  ) {}

  /** Starts the timer when some worker is busy, stops it when none is (call after every change). */
  update(): void {
    const busy = this.busy().length > 0;
    if (busy && !this.timer && !this.disposed) {
      this.timer = setInterval(() => this.check(), this.options.watchIntervalMs);
      this.timer.unref?.();
    } else if (!busy && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  /** One look at every busy worker (the timer's tick). */
  check(now: number = Date.now()): void {
    const { stoppedGraceMs, heartbeatTimeoutMs, runTimeoutMs, processState } = this.options;
    for (const worker of [...this.busy()]) {
      const pid = worker.pid;
      if (pid === undefined) continue;
      const state = processState(pid);
      const limit = worker.memoryLimitMb;
      if (limit !== null && state.rssBytes !== null && state.rssBytes > limit * MB) {
        this.fail(worker, `memory limit exceeded: the worker used ${Math.ceil(state.rssBytes / MB)} MB, the limit is ${limit} MB`);
        continue;
      }
      if (state.stopped) worker.stoppedSince ??= now;
      else worker.stoppedSince = null;
      if (worker.stoppedSince !== null && now - worker.stoppedSince >= stoppedGraceMs) {
        this.fail(worker, `the worker was stopped (SIGSTOP) and did not continue within ${formatSeconds(stoppedGraceMs)}; it was killed`);
        continue;
      }
      // Where the system cannot tell, a worker silent this long (no heartbeat: stopped, or hung) is given up.
      if (state.stopped === null && now - worker.lastHeard >= heartbeatTimeoutMs) {
        this.fail(worker, `the worker gave no sign of life for ${formatSeconds(heartbeatTimeoutMs)}; it was killed`);
        continue;
      }
      if (runTimeoutMs !== null && now - worker.runSince >= runTimeoutMs) {
        this.fail(worker, `the run took longer than its wall-time limit of ${formatSeconds(runTimeoutMs)}; it was killed`);
      }
    }
    this.update();
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}

function formatSeconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Number((ms / 1000).toFixed(1))} s`;
}
