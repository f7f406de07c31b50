// The one driver: termination order, pause accounting that never counts paused time,
// throttled snapshots on the run's own clock, cancel, adaptive step sizes. A synthetic run and
// both real kinds, with a clock the test moves by hand.
import { describe, expect, it } from 'vitest';
import { RunClock, RunController } from '../../../src-shared/core/control.ts';
import { drive, driveSync, type RunEnd, type RunProgress, type Steppable } from '../../../src-shared/core/driver.ts';
import { executeRun, type NqueensSnapshot } from '../../../src-shared/runtime/kinds/index.ts';
import { trackConfig } from '../../../src-shared/problems/dice/config.ts';
import type { Snapshot } from '../../../src-shared/solvers/types.ts';

/** A clock the test owns: ms only move when told to. */
function manualClock() {
  let now = 0;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

/** Counts work; each unit of work takes `msPerUnit` on the clock. Stops by itself at `own`. */
class Counter implements Steppable<{ work: number } & RunProgress, { work: number } & RunEnd> {
  work = 0;
  steps: number[] = [];
  lastImprovementAt = 0;
  constructor(
    private readonly clock: { advance(ms: number): void },
    private readonly msPerUnit: number,
    private readonly own = Infinity,
    readonly maxStep?: number,
  ) {}
  step(limit: number) {
    const n = Math.min(limit, this.own - this.work);
    this.steps.push(n);
    this.work += n;
    this.clock.advance(n * this.msPerUnit);
    if (this.work <= 10) this.lastImprovementAt = this.work;
  }
  targetReached(target: number) {
    return this.work >= target;
  }
  finished() {
    return this.work >= this.own;
  }
  snapshot(p: RunProgress) {
    return { work: this.work, ...p };
  }
  result(end: RunEnd) {
    return { work: this.work, ...end };
  }
}

describe('driveSync: when a run stops', () => {
  it('at its budget exactly, in steps no larger than maxStep', () => {
    const clock = manualClock();
    const run = new Counter(clock, 0, Infinity, 7);
    const r = driveSync(run, { maxEvaluations: 50 }, { clock: new RunClock(clock.now) });
    expect(r).toEqual({ work: 50, seconds: 0, stopReason: 'evaluations' });
    expect(run.steps).toEqual([7, 7, 7, 7, 7, 7, 7, 1]);
  });

  it('target before budget, stall after, then time, then the run itself', () => {
    const clock = manualClock();
    expect(driveSync(new Counter(clock, 0, Infinity, 5), { maxEvaluations: 20, target: 20 }, { clock: new RunClock(clock.now) }).stopReason).toBe('target');
    // Improvements stop at 10: the stall rule fires 25 later, at 35, before the budget of 100.
    expect(driveSync(new Counter(clock, 0, Infinity, 5), { maxEvaluations: 100, stallEvaluations: 25 }, { clock: new RunClock(clock.now) })).toMatchObject({
      work: 35,
      stopReason: 'stall',
    });
    // 1 ms per unit: 2 seconds of running time after 2000 units.
    expect(driveSync(new Counter(clock, 1, Infinity, 100), { maxSeconds: 2 }, { clock: new RunClock(clock.now) })).toMatchObject({
      work: 2000,
      seconds: 2,
      stopReason: 'time',
    });
    expect(driveSync(new Counter(clock, 0, 42, 10), {}, { clock: new RunClock(clock.now), requireBudget: false })).toMatchObject({
      work: 42,
      stopReason: 'solver',
    });
  });

  it('sizes steps by time when the run has no maxStep: doubling while fast, halving when slow', () => {
    const clock = manualClock();
    const run = new Counter(clock, 1, Infinity);
    driveSync(run, { maxEvaluations: 300 }, { clock: new RunClock(clock.now) });
    // Slice 20 ms: 1, 2, 4, 8 take under 10 ms and double; 16 takes 16 ms and stays; then more 16s.
    expect(run.steps.slice(0, 6)).toEqual([1, 2, 4, 8, 16, 16]);
    expect(run.steps.reduce((a, b) => a + b, 0)).toBe(300);
  });

  it('refuses a termination without a budget unless the kind ends by itself', () => {
    expect(() => driveSync(new Counter(manualClock(), 0, 5), {})).toThrow(/maxEvaluations: or maxSeconds must be given/);
  });
});

describe('drive: pause, cancel and snapshots', () => {
  it('never counts paused time: a 3 s limit still allows 3 s of running after a long pause', async () => {
    const clock = manualClock();
    const control = new RunController();
    const run = new Counter(clock, 1, Infinity, 100);
    const snapshots: ({ work: number } & RunProgress)[] = [];
    let yields = 0;
    const done = drive(
      run,
      { maxSeconds: 3 },
      {
        clock: new RunClock(clock.now),
        control,
        snapshotInterval: 0,
        onSnapshot: (s) => snapshots.push(s),
        yieldToHost: async () => {
          yields++;
          if (yields === 5) {
            // Paused after 500 units (0.5 s), for 60 s of wall time.
            control.pause();
            setTimeout(() => {
              clock.advance(60_000);
              control.resume();
            }, 0);
          }
        },
      },
    );
    const r = await done;
    expect(r.stopReason).toBe('time');
    expect(r.work).toBe(3000);
    expect(r.seconds).toBe(3);
    const paused = snapshots.filter((s) => s.paused);
    expect(paused).toHaveLength(1);
    expect(paused[0]).toMatchObject({ work: 500, seconds: 0.5, paused: true });
    // Seconds never jump by the pause.
    for (let i = 1; i < snapshots.length; i++) expect(snapshots[i].seconds - snapshots[i - 1].seconds).toBeLessThanOrEqual(0.1 + 1e-9);
  });

  it('sends snapshots at least the interval apart in the seconds they report, and one at the end', async () => {
    const clock = manualClock();
    const snapshots: ({ work: number } & RunProgress)[] = [];
    await drive(
      new Counter(clock, 3, Infinity, 10),
      { maxEvaluations: 1000 },
      { clock: new RunClock(clock.now), snapshotInterval: 200, onSnapshot: (s) => snapshots.push(s), yieldToHost: () => Promise.resolve() },
    );
    const times = snapshots.map((s) => s.seconds);
    for (let i = 1; i < times.length - 1; i++) expect(times[i] - times[i - 1]).toBeGreaterThanOrEqual(0.2 - 1e-12);
    expect(snapshots.at(-1)).toMatchObject({ work: 1000, progress: 1, seconds: 3 });
    // 3 s of running time at one snapshot per 0.2 s (or more, as steps of 30 ms fall): at most 16.
    expect(snapshots.length).toBeGreaterThanOrEqual(10);
    expect(snapshots.length).toBeLessThanOrEqual(16);
  });

  it('a cancel ends the run between steps with its result so far; a run that already ended reports its own end', async () => {
    const clock = manualClock();
    const control = new RunController();
    let yields = 0;
    const r = await drive(
      new Counter(clock, 1, Infinity, 50),
      { maxEvaluations: 10_000 },
      {
        clock: new RunClock(clock.now),
        control,
        yieldToHost: async () => {
          if (++yields === 3) control.cancel();
        },
      },
    );
    expect(r.stopReason).toBe('cancelled');
    expect(r.work).toBe(150);
    const ended = new RunController();
    ended.cancel();
    const own = await drive(new Counter(clock, 0, 0, 5), {}, { clock: new RunClock(clock.now), control: ended, requireBudget: false });
    expect(own.stopReason).toBe('solver');
  });
});

describe('both kinds of run on the driver', () => {
  it('N-Queens: a pause is not counted against limits.seconds (it was before: a 30 s limit stopped after 60 s, mostly paused)', async () => {
    // The real clock, plus the 30 s the pause lasts (so the test takes about one second).
    let offset = 0;
    const clock = () => performance.now() + offset;
    const control = new RunController();
    const snapshots: NqueensSnapshot[] = [];
    const result = await executeRun(
      {
        kind: 'nqueens',
        method: 'neural',
        n: 30,
        params: { update: 'sync', kickLength: 0, maxSteps: 10_000_000 },
        seed: 1,
        limits: { seconds: 1 },
        snapshotIntervalMs: 100,
      },
      {
        clock,
        control,
        onSnapshot: (s) => {
          snapshots.push(s);
          if (snapshots.length === 3) {
            control.pause();
            setTimeout(() => {
              offset += 30_000;
              control.resume();
            }, 0);
          }
        },
        yieldToHost: () => Promise.resolve(),
      },
    );
    expect(offset).toBe(30_000);
    expect(result.solved).toBe(false);
    expect(result.stopReason).toBe('time');
    // One second of running time, give or take the step that crosses it.
    expect(result.seconds).toBeGreaterThanOrEqual(1);
    expect(result.seconds).toBeLessThan(1.1);
    expect(snapshots.filter((s) => s.paused)).toHaveLength(1);
  });

  it('dice: snapshots carry the front indicator for M <= 3, computed in the run', async () => {
    const snapshots: Snapshot[] = [];
    const result = await executeRun(
      {
        kind: 'dice',
        solver: 'nsga2',
        params: { populationSize: 20 },
        seed: 3,
        config: trackConfig('mo2', 40),
        termination: { maxEvaluations: 400 },
        snapshotIntervalMs: 0,
      },
      { onSnapshot: (s) => snapshots.push(s), yieldToHost: () => Promise.resolve() },
    );
    const last = snapshots.at(-1)!;
    expect(last.front.length).toBe(result.front.length);
    expect(last.indicator).toBe(result.trace.at(-1)!.indicator);
    expect(last.indicator).toBeGreaterThan(0);
  });
});

/** The Counter, but every step waits (as a solver program's does), and it records its close. */
class WaitingCounter extends Counter {
  closed: (string | null)[] = [];
  closedAtWork: number | null = null;
  failAt: number | null = null;
  override step(limit: number): Promise<void> {
    return Promise.resolve().then(() => {
      if (this.failAt !== null && this.work >= this.failAt) throw new Error('the program broke');
      super.step(limit);
    });
  }
  async close(stopReason: string | null): Promise<void> {
    this.closed.push(stopReason);
    this.closedAtWork = this.work;
  }
}

describe('drive: runs whose steps wait (solver programs)', () => {
  it('awaits each step, keeps the exact budget and the maxStep, and closes with the stop reason before the result', async () => {
    const clock = manualClock();
    const run = new WaitingCounter(clock, 1, Infinity, 7);
    const r = await drive(run, { maxEvaluations: 50 }, { clock: new RunClock(clock.now), yieldToHost: async () => {} });
    expect(r).toEqual({ work: 50, seconds: 0.05, stopReason: 'evaluations' });
    expect(run.steps).toEqual([7, 7, 7, 7, 7, 7, 7, 1]);
    expect(run.closed).toEqual(['evaluations']);
    expect(run.closedAtWork).toBe(50);
  });

  it('closes with the cancel, and with null when a step fails (the error goes on)', async () => {
    const clock = manualClock();
    const control = new RunController();
    const cancelled = new WaitingCounter(clock, 0, Infinity, 5);
    control.cancel();
    expect((await drive(cancelled, { maxEvaluations: 50 }, { control, clock: new RunClock(clock.now) })).stopReason).toBe('cancelled');
    expect(cancelled.closed).toEqual(['cancelled']);
    const broken = new WaitingCounter(clock, 0, Infinity, 5);
    broken.failAt = 10;
    await expect(drive(broken, { maxEvaluations: 50 }, { clock: new RunClock(clock.now), yieldToHost: async () => {} })).rejects.toThrow('the program broke');
    expect(broken.closed).toEqual([null]);
    expect(broken.work).toBe(10);
  });

  it('driveSync refuses a run whose steps wait, and a waiting run needs a maxStep', async () => {
    const clock = manualClock();
    expect(() => driveSync(new WaitingCounter(clock, 0, Infinity, 5), { maxEvaluations: 50 }, { clock: new RunClock(clock.now) })).toThrow(
      'this run waits on something outside (its steps return promises): drive it with drive(), not driveSync()',
    );
    await expect(drive(new WaitingCounter(clock, 0), { maxEvaluations: 50 }, { clock: new RunClock(clock.now) })).rejects.toThrow(
      'a run whose steps wait (return a promise) must have a maxStep',
    );
  });
});
