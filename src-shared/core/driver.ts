/**
 * The one stepping driver, for every kind of run (pymoo's Algorithm.run loop, with the host's
 * needs added): a run is a `Steppable` that does bounded slices of work; the driver decides
 * when it stops (budget, time, target, stall, or the run's own end), honours pause and
 * cancel between steps, keeps the clock free of paused time, throttles snapshots, and yields
 * to the host's event loop so that "pause" and "cancel" messages get through.
 *
 *   drive(run, termination, {onSnapshot, control})   async, for hosts (a worker process)
 *   driveSync(run, termination)                      the same loop without yielding
 *
 * A kind of run (src-shared/runtime/kinds/) builds its Steppable from a request; the worker,
 * the CLI's --inline runs, the benchmarks and the tests all go through these two functions.
 */
import { defaultYield, RunClock, type RunControl } from './control.ts';
import { terminationProgress, validateTermination, type StopReason, type Termination } from './termination.ts';

/** What every snapshot says, whatever the kind. */
export interface RunProgress {
  /** Seconds of running time (pauses excluded). */
  seconds: number;
  /** 0..1: the larger of the budget used and the run's own estimate; 1 once it has stopped. */
  progress: number;
  paused: boolean;
}

/** How a run ended, as the driver saw it. */
export interface RunEnd {
  seconds: number;
  stopReason: StopReason;
}

/** One run of some kind, advanced in steps. */
export interface Steppable<Snapshot, Result> {
  /** Units of work done so far (what termination.maxEvaluations counts). */
  readonly work: number;
  /**
   * The most work one step may do; absent: the driver sizes steps adaptively so that each
   * takes about one time slice (for runs whose results do not depend on how they are cut).
   */
  readonly maxStep?: number;
  /**
   * Does at most `limit` (>= 1) units of work. A run whose work waits on something outside
   * (a solver program answering through a pipe) returns a promise: `drive` awaits it, and
   * `driveSync` refuses such a run.
   */
  step(limit: number): void | Promise<void>;
  /** Whether the run has reached the termination's target (single objective). */
  targetReached?(target: number): boolean;
  /** Work count at the last improvement, for the stall rule (0 before any). */
  readonly lastImprovementAt?: number;
  /** True once the run has nothing more to do (solved, exhausted, its own step limit). */
  finished(): boolean;
  /** The run's own progress estimate, 0..1 (merged with the budget's). */
  progress?(): number;
  /**
   * Releases what the run holds outside this process (a solver program) once the loop is over:
   * with the stop reason before `result` (so the result can say how it ended), or with null
   * when a step failed. Only `drive` calls it; a run that has it is driven by `drive`.
   */
  close?(stopReason: StopReason | null): Promise<void>;
  snapshot(progress: RunProgress): Snapshot;
  result(end: RunEnd): Result;
}

export interface DriveOptions<Snapshot> {
  onSnapshot?: (snapshot: Snapshot) => void;
  control?: RunControl;
  /** The run's clock; pass the one the run itself reads (trace times), else a new one. */
  clock?: RunClock;
  /** Minimum milliseconds between two snapshots (default 200, about 5 per second). */
  snapshotInterval?: number;
  /** Yield to the host after about this many milliseconds of work (default 20). */
  sliceMilliseconds?: number;
  yieldToHost?: () => Promise<void>;
}

/** The driver's loop state: termination checks and step sizes, shared by drive and driveSync. */
class Loop<S, R> {
  stopReason: StopReason | null = null;
  private batch = 1;

  constructor(
    readonly run: Steppable<S, R>,
    readonly termination: Termination,
    readonly clock: RunClock,
    private readonly slice: number,
  ) {}

  /** Checks, in this order: target, budget, stall, time, the run's own end. */
  check(): boolean {
    const { run } = this;
    const t = this.termination;
    if (t.target !== undefined && run.targetReached?.(t.target)) this.stopReason = 'target';
    else if (t.maxEvaluations !== undefined && run.work >= t.maxEvaluations) this.stopReason = 'evaluations';
    else if (t.stallEvaluations !== undefined && run.work - (run.lastImprovementAt ?? 0) >= t.stallEvaluations) this.stopReason = 'stall';
    else if (t.maxSeconds !== undefined && this.clock.seconds() >= t.maxSeconds) this.stopReason = 'time';
    else if (run.finished()) this.stopReason = 'solver';
    return this.stopReason !== null;
  }

  /**
   * One step, sized by the run's maxStep or adaptively by time; never past the budget. Returns
   * the run's promise when its step waits on something outside (then it must have a maxStep).
   */
  step(): void | Promise<void> {
    const { run } = this;
    const remaining = this.termination.maxEvaluations === undefined ? Infinity : this.termination.maxEvaluations - run.work;
    if (run.maxStep !== undefined) return run.step(Math.min(run.maxStep, remaining));
    const t0 = this.clock.now();
    const pending = run.step(Math.min(this.batch, remaining));
    if (pending) throw new Error('a run whose steps wait (return a promise) must have a maxStep');
    const took = this.clock.now() - t0;
    if (took < this.slice / 2) this.batch = Math.min(this.batch * 2, 1 << 30);
    else if (took > this.slice * 2) this.batch = Math.max(1, this.batch >> 1);
  }

  progress(paused: boolean): RunProgress {
    const seconds = this.clock.seconds();
    const stopped = this.stopReason !== null && this.stopReason !== 'cancelled';
    const own = this.run.progress?.() ?? 0;
    return { seconds, progress: stopped ? 1 : Math.min(1, Math.max(terminationProgress(this.termination, this.run.work, seconds), own)), paused };
  }

  result(): R {
    return this.run.result({ seconds: this.clock.seconds(), stopReason: this.stopReason ?? 'cancelled' });
  }
}

/**
 * Runs to termination without yielding (benchmarks, tests, in-process runs) and returns the
 * result. `requireBudget`: see validateTermination.
 */
export function driveSync<S, R>(run: Steppable<S, R>, termination: Termination, options: { clock?: RunClock; requireBudget?: boolean } = {}): R {
  const loop = new Loop(run, validateTermination({ ...termination }, options.requireBudget ?? true), options.clock ?? new RunClock(), 20);
  while (!loop.check())
    if (loop.step()) throw new Error('this run waits on something outside (its steps return promises): drive it with drive(), not driveSync()');
  return loop.result();
}

/**
 * The driver for hosts: polls `control` between steps (pause waits for resume with the clock
 * stopped; cancel ends the run with stopReason "cancelled" and still returns its result),
 * sends a snapshot at most every `snapshotInterval` ms of running time plus one at the end,
 * and yields to the event loop about every `sliceMilliseconds`.
 */
export async function drive<S, R>(run: Steppable<S, R>, termination: Termination, options: DriveOptions<S> & { requireBudget?: boolean } = {}): Promise<R> {
  const clock = options.clock ?? new RunClock();
  const slice = options.sliceMilliseconds ?? 20;
  const interval = options.snapshotInterval ?? 200;
  const yieldToHost = options.yieldToHost ?? defaultYield;
  const { onSnapshot, control } = options;
  const loop = new Loop(run, validateTermination({ ...termination }, options.requireBudget ?? true), clock, slice);
  let sliceStart = clock.now();
  // Throttled on the run's clock (the seconds the snapshots carry), so consecutive snapshots
  // are at least `interval` apart in the time they report.
  let lastSnapshotSeconds = -Infinity;
  // Termination is checked before the first step and right after every step, so a run that
  // has just used its budget (or time) ends there, whatever message arrives next.
  const loopUntilStopped = async (): Promise<void> => {
    if (loop.check()) return;
    for (;;) {
      if (control?.cancelled) {
        loop.stopReason = 'cancelled';
        return;
      }
      if (control?.paused) {
        onSnapshot?.(run.snapshot(loop.progress(true)));
        clock.pause();
        await control.whenResumed();
        clock.resume();
        sliceStart = clock.now();
        continue;
      }
      const pending = loop.step();
      if (pending) {
        await pending;
        // Time spent waiting for the outside is not work that starves the host.
        sliceStart = clock.now();
      }
      if (loop.check()) break;
      if (onSnapshot && (clock.seconds() - lastSnapshotSeconds) * 1000 >= interval) {
        const progress = loop.progress(false);
        lastSnapshotSeconds = progress.seconds;
        onSnapshot(run.snapshot(progress));
      }
      if (clock.now() - sliceStart >= slice) {
        await yieldToHost();
        sliceStart = clock.now();
      }
    }
  };
  // Closing (ending a solver program politely) is not the run's time: the clock stops meanwhile.
  try {
    await loopUntilStopped();
  } catch (e) {
    clock.pause();
    await run.close?.(null);
    // What the run evaluated before it failed goes with the error: a competition scores a failed run on it.
    if (e instanceof Error) {
      try {
        (e as Error & { partialResult?: unknown }).partialResult = run.result({ seconds: clock.seconds(), stopReason: 'solver' });
      } catch {
        // a run that cannot say what it has: the failure alone
      }
    }
    throw e;
  }
  if (run.close) {
    clock.pause();
    await run.close(loop.stopReason ?? 'cancelled');
    clock.resume();
  }
  onSnapshot?.(run.snapshot(loop.progress(false)));
  return loop.result();
}

/**
 * The result a run had when it failed (drive() puts it on the error it rethrows: what the run
 * evaluated before the failure, with stopReason 'solver'), or null.
 */
export function partialResultOf(e: unknown): unknown {
  return e instanceof Error ? ((e as Error & { partialResult?: unknown }).partialResult ?? null) : null;
}
