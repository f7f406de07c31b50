/**
 * Pause, resume and cancel from the host, polled by the driver between steps, and the run's
 * clock, which never counts paused time.
 */

/** What the driver polls between steps. RunController is the standard implementation. */
export interface RunControl {
  readonly cancelled: boolean;
  readonly paused: boolean;
  /** Resolves when the run is resumed or cancelled. */
  whenResumed(): Promise<void>;
}

export class RunController implements RunControl {
  cancelled = false;
  paused = false;
  private waiters: (() => void)[] = [];

  pause(): void {
    if (!this.cancelled) this.paused = true;
  }

  resume(): void {
    this.paused = false;
    this.release();
  }

  cancel(): void {
    this.cancelled = true;
    this.paused = false;
    this.release();
  }

  whenResumed(): Promise<void> {
    if (!this.paused || this.cancelled) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private release(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }
}

interface HostGlobals {
  performance?: { now(): number };
  setTimeout?: (callback: () => void, ms: number) => unknown;
}
const host = globalThis as unknown as HostGlobals;

/** Milliseconds: performance.now where there is one, else Date.now. */
export const defaultClock = (): number => (host.performance ? host.performance.now() : Date.now());
/** Lets the host's event loop run (messages, timers): setTimeout 0. */
export const defaultYield = (): Promise<void> => new Promise((resolve) => (host.setTimeout ? host.setTimeout(resolve, 0) : resolve()));

/** A run's running time: wall time since it started, minus every pause. */
export class RunClock {
  private readonly startedAt: number;
  private pausedMs = 0;
  private pausedSince: number | null = null;

  constructor(readonly now: () => number = defaultClock) {
    this.startedAt = now();
  }

  /** Seconds of running time (pauses excluded, including one in progress). */
  seconds(): number {
    const pausing = this.pausedSince === null ? 0 : this.now() - this.pausedSince;
    return (this.now() - this.startedAt - this.pausedMs - pausing) / 1000;
  }

  pause(): void {
    if (this.pausedSince === null) this.pausedSince = this.now();
  }

  resume(): void {
    if (this.pausedSince === null) return;
    this.pausedMs += this.now() - this.pausedSince;
    this.pausedSince = null;
  }
}
