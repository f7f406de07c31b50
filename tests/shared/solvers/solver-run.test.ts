import { describe, expect, it } from 'vitest';
import { trackConfig } from '../../../src-shared/problems/dice/config.ts';
import { createDiceProblem, DiceProblem } from '../../../src-shared/problems/dice/problem.ts';
import { RunController } from '../../../src-shared/core/control.ts';
import { runOptionsFor } from '../../../src-shared/runtime/kinds/dice.ts';
import { executeRun, executeRunSync } from '../../../src-shared/runtime/kinds/index.ts';
import { defaultSolverFor, findSolver } from '../../../src-shared/solvers/registry.ts';
import { terminationProgress, validateTermination } from '../../../src-shared/core/termination.ts';
import type { Snapshot, SolverResult } from '../../../src-shared/solvers/types.ts';
import { solve, solveSync } from '../../helpers/solve.ts';
import { timeless } from './helpers.ts';

const so = new DiceProblem(trackConfig('so', 50));
const mo2 = new DiceProblem(trackConfig('mo2', 50));

/** The SO problem at N = 50 without constraints, logging every objective value it computes, in order. */
function countingProblem() {
  const base = new DiceProblem({ ...trackConfig('so', 50), constraints: [], lowerBounds: [], upperBounds: [] });
  const values: number[] = [];
  const problem = Object.create(base) as DiceProblem;
  problem.evaluate = (x, F, G) => {
    base.evaluate(x, F, G);
    values.push(F[0]);
  };
  return { problem, values };
}

/** 1-based positions of the strict new minima of `values` (the improvements of a minimisation). */
function newMinima(values: readonly number[]): number[] {
  let best = Infinity;
  return values.flatMap((v, i) => (v < best ? ((best = v), [i + 1]) : []));
}

/** A clock that only moves when the driver yields (100 ms per yield). */
function fakeTime() {
  const time = { t: 0 };
  return {
    time,
    options: { clock: () => time.t, yieldToHost: async () => void (time.t += 100), sliceMilliseconds: 0, maxStepEvaluations: 100 },
  };
}

describe('a solver run on the driver', () => {
  it('throttles snapshots to the interval and ends with a final one at progress 1', async () => {
    const { options } = fakeTime();
    const snaps: Snapshot[] = [];
    // GA steps: the initial population (100), then generations of 99 offspring (elitism 1),
    // 100 ms each: snapshots at t = 0, 300, 600, 900, plus the final one.
    const result = await solve(so, 'ga', {}, 1, { maxEvaluations: 1000 }, { ...options, onSnapshot: (s) => snaps.push(s), snapshotInterval: 250 });
    expect(snaps.map((s) => s.evaluations)).toEqual([100, 397, 694, 991, 1000]);
    expect(snaps.map((s) => s.seconds)).toEqual([0, 0.3, 0.6, 0.9, 1.0]);
    expect(snaps[0].progress).toBe(0.1);
    expect(snaps[snaps.length - 1].progress).toBe(1);
    expect(snaps[snaps.length - 1].best).toEqual(result.best);
    expect(result.seconds).toBe(1.0);
  });

  it('spaces snapshots by at least the interval in the seconds they report, even when every clock read moves time', async () => {
    // A clock that advances by an uneven step on every read (and 20 ms per yield): the time
    // between the throttle's reading and the snapshot's own reading varies, which once let two
    // snapshots report 199.94 ms apart.
    const time = { t: 0, reads: 0 };
    const steps = [1, 37, 3, 61, 11];
    const clock = () => (time.t += steps[time.reads++ % steps.length]);
    const snaps: Snapshot[] = [];
    await solve(
      so,
      'ga',
      {},
      1,
      { maxEvaluations: 3000 },
      {
        onSnapshot: (s) => snaps.push(s),
        clock,
        yieldToHost: async () => void (time.t += 20),
        sliceMilliseconds: 0,
        maxStepEvaluations: 100,
        snapshotInterval: 200,
      },
    );
    expect(snaps.length).toBeGreaterThan(3);
    for (let k = 1; k < snaps.length - 1; k++) expect(snaps[k].seconds - snaps[k - 1].seconds).toBeGreaterThanOrEqual(0.2 - 1e-12);
  });

  it('stops on the time budget, measured by the clock', async () => {
    const { options } = fakeTime();
    const result = await solve(so, 'ga', {}, 1, { maxSeconds: 0.5 }, options);
    expect(result.stopReason).toBe('time');
    // The sixth step runs at t = 500 ms and ends the run.
    expect(result.evaluations).toBe(100 + 5 * 99);
    expect(result.seconds).toBe(0.5);
  });

  it('cancels between steps and still returns what it found', async () => {
    const control = new RunController();
    const { options } = fakeTime();
    const result = await solve(
      so,
      'ils',
      {},
      1,
      { maxEvaluations: 100_000 },
      {
        ...options,
        onSnapshot: (s) => {
          if (s.evaluations >= 300) control.cancel();
        },
        control,
        snapshotInterval: 0,
      },
    );
    expect(result.stopReason).toBe('cancelled');
    expect(result.evaluations).toBe(300);
    expect(result.message).toContain('cancelled');
    expect(result.best).not.toBeNull();
  });

  it('pauses until resumed, leaving the paused time out of the clock, and finishes identically', async () => {
    const control = new RunController();
    const { time, options } = fakeTime();
    const snaps: Snapshot[] = [];
    const result = await solve(
      so,
      'ils',
      {},
      2,
      { maxEvaluations: 1000 },
      {
        ...options,
        onSnapshot: (s) => {
          snaps.push(s);
          if (s.evaluations === 200 && !s.paused) control.pause();
          if (s.paused)
            setTimeout(() => {
              time.t += 60_000;
              control.resume();
            }, 5);
        },
        control,
        snapshotInterval: 0,
      },
    );
    expect(snaps.filter((s) => s.paused).map((s) => s.evaluations)).toEqual([200]);
    expect(result.evaluations).toBe(1000);
    expect(result.seconds).toBeLessThan(2);
    const plain = solveSync(so, 'ils', {}, 2, { maxEvaluations: 1000 });
    expect(result.best).toEqual(plain.best);
    expect(result.bestFoundAt).toBe(plain.bestFoundAt);
  });

  it('stops at a target value with the evaluation that reached it', () => {
    const result = solveSync(so, 'ils', {}, 3, { maxEvaluations: 50_000, target: 0 });
    expect(result.stopReason).toBe('target');
    expect(result.success).toBe(true);
    expect(result.best!.objectives[0]).toBe(0);
    expect(result.bestFoundAt).toBeLessThanOrEqual(result.evaluations);
    expect(result.message).toMatch(/^best feasible f = 0 after \d+ evaluations \(target reached\)$/);
  });

  it('stops on stall exactly stallEvaluations after the last improvement, and not before', () => {
    // Random search, one candidate per step, on a problem that logs every objective value it
    // computes; without constraints every sequence is feasible, so an improvement is simply a
    // new minimum of the log, found independently of the driver's bookkeeping.
    const stall = 110;
    const stalled = countingProblem();
    const result = solveSync(stalled.problem, 'random', { batch: 1 }, 1, { maxEvaluations: 1_000_000, stallEvaluations: stall });
    expect(result.stopReason).toBe('stall');
    expect(result.evaluations).toBe(stalled.values.length);
    const improvements = newMinima(stalled.values);
    const last = improvements[improvements.length - 1];
    // Seed 1 improves at evaluations 1, 2, 6, 15, 19, 20, 113, 222 and 246: one gap of 109, just
    // under the stall length, which must not stop the run.
    expect(improvements).toEqual([1, 2, 6, 15, 19, 20, 113, 222, 246]);
    const gaps = improvements.map((at, k) => at - (k ? improvements[k - 1] : 0));
    expect(Math.max(...gaps)).toBe(stall - 1);
    expect(result.evaluations).toBe(last + stall);
    expect(result.bestFoundAt).toBe(last);
    expect(result.best!.objectives[0]).toBe(Math.min(...stalled.values));
    expect(result.message).toBe(`best feasible f = ${Math.min(...stalled.values)} after ${last + stall} evaluations (no improvement for ${stall})`);

    // The same run without the stall rule goes on past that point, drawing the same candidates.
    const control = countingProblem();
    const budget = result.evaluations + 5 * stall;
    const going = solveSync(control.problem, 'random', { batch: 1 }, 1, { maxEvaluations: budget });
    expect(going.stopReason).toBe('evaluations');
    expect(going.evaluations).toBe(budget);
    expect(control.values.slice(0, result.evaluations)).toEqual(stalled.values);
  });

  it('keeps a feasible non-dominated front for several objectives', () => {
    const result = solveSync(mo2, 'random', {}, 1, { maxEvaluations: 2000 });
    expect(result.success).toBe(true);
    expect(result.best).toBeNull();
    const front = result.front;
    expect(front.length).toBeGreaterThan(0);
    for (const a of front) {
      expect(a.feasible).toBe(true);
      for (const b of front) {
        if (a === b) continue;
        const dominates = a.objectives.every((v, k) => v <= b.objectives[k]);
        expect(dominates).toBe(false);
      }
    }
    const sorted = [...front].sort((a, b) => a.objectives[0] - b.objectives[0] || a.objectives[1] - b.objectives[1]);
    expect(front).toEqual(sorted);
    expect(result.trace[result.trace.length - 1].frontSize).toBe(front.length);
  });

  it('computes a costly front indicator only after 1,000 evaluations, at each doubling and at the end', () => {
    const mo5 = new DiceProblem(trackConfig('mo5', 50));
    const calls: number[] = [];
    let evaluationsSeen = 0;
    // The indicator: the front's size plus the sum of its first objectives (any exact function
    // of the front does), counting how often it runs.
    const indicator = (front: number[][]) => {
      calls.push(front.length);
      return front.length + front.reduce((sum, f) => sum + f[0], 0);
    };
    const options = { frontIndicator: indicator, frontIndicatorSchedule: 'doubling' as const, traceLimit: 10_000 };
    const result = solveSync(mo5, 'nsga2', {}, 4, { maxEvaluations: 20_000 }, options);
    expect(result.front.length).toBeGreaterThan(0);
    const withIndicator = result.trace.filter((t) => t.indicator !== null);
    // 1,000 then each doubling (>= 2,000, >= 4,000, ...) and the end: at most 1 + log2(20) + 1.
    expect(calls.length).toBe(withIndicator.length);
    expect(calls.length).toBeLessThanOrEqual(7);
    expect(withIndicator[0].evaluations).toBeGreaterThanOrEqual(1000);
    for (let k = 1; k < withIndicator.length - 1; k++) {
      expect(withIndicator[k].evaluations).toBeGreaterThanOrEqual(2 * withIndicator[k - 1].evaluations);
      evaluationsSeen = withIndicator[k].evaluations;
    }
    expect(evaluationsSeen).toBeLessThan(20_000);
    // Points before 1,000 evaluations carry none; the last point carries the final front's.
    expect(result.trace.filter((t) => t.evaluations < 1000).every((t) => t.indicator === null)).toBe(true);
    const last = result.trace[result.trace.length - 1];
    expect(last.evaluations).toBe(20_000);
    expect(last.indicator).toBe(indicator(result.front.map((f) => f.objectives)));
    // The schedule depends on evaluation counts only: the same seed gives the same trace.
    const untimed = (trace: typeof result.trace) => trace.map((t) => ({ ...t, seconds: 0 }));
    expect(untimed(solveSync(mo5, 'nsga2', {}, 4, { maxEvaluations: 20_000 }, options).trace)).toEqual(untimed(result.trace));
  });

  it('thins a multi-objective trace but keeps its first and last points; a single-objective one keeps every improvement', () => {
    const mo2n200 = new DiceProblem(trackConfig('mo2', 200));
    const full = solveSync(mo2n200, 'nsga2', {}, 1, { maxEvaluations: 20_000 });
    const result = solveSync(mo2n200, 'nsga2', {}, 1, { maxEvaluations: 20_000 }, { traceLimit: 3 });
    expect(full.trace.length).toBeGreaterThan(7);
    expect(result.trace.length).toBeLessThanOrEqual(7);
    expect(result.trace[0].evaluations).toBe(full.trace[0].evaluations);
    expect(result.trace[result.trace.length - 1].evaluations).toBe(20_000);
    // The exact record is not thinned.
    expect(result.frontLog).toEqual(full.frontLog);
    const so840 = new DiceProblem(trackConfig('so', 840));
    const soFull = solveSync(so840, 'hill-climbing', {}, 1, { maxEvaluations: 20_000 });
    const soLimited = solveSync(so840, 'hill-climbing', {}, 1, { maxEvaluations: 20_000 }, { traceLimit: 3 });
    expect(soLimited.trace.length).toBeGreaterThan(7);
    expect(soLimited.trace.map((t) => t.evaluations)).toEqual(soFull.trace.map((t) => t.evaluations));
  });

  it('reports "no feasible solution found" when nothing is feasible', () => {
    // Lower percent points of 1 demand chi_1 >= q(1) = Infinity: never satisfiable.
    const config = { ...trackConfig('so', 50), constraints: [1], lowerBounds: [1], upperBounds: [1] };
    const result = solveSync(new DiceProblem(config), 'random', {}, 1, { maxEvaluations: 200 });
    expect(result.success).toBe(false);
    expect(result.message).toMatch(/^no feasible solution found after 200 evaluations \(budget used\)/);
    expect(result.best!.feasible).toBe(false);
    expect(result.firstFeasibleAt).toBeNull();
  });
});

describe("the tests' runs are the worker's", () => {
  // tests/helpers/solve.ts drives a SolverRun as the dice kind of run does; here it meets the
  // worker's own entry (executeRun / executeRunSync of a request) on the same request.
  it.each([
    ['so', 'ils', { maxEvaluations: 3000, target: 0 }],
    ['mo2', 'nsga2', { maxEvaluations: 2000 }],
    ['mo5', 'barrier-mo', { maxEvaluations: 2500 }],
  ] as const)('%s %s: solveSync, solve, executeRunSync and executeRun give the same result', async (track, solver, termination) => {
    const config = trackConfig(track, 50);
    const request = { kind: 'dice', solver, params: {}, seed: 3, config, termination } as const;
    const noYield = () => Promise.resolve();
    const workerResult = executeRunSync(request);
    const worker = timeless(workerResult);
    expect(timeless(await executeRun(request, { yieldToHost: noYield }))).toEqual(worker);
    expect(timeless(solveSync(createDiceProblem(config), solver, {}, 3, termination, runOptionsFor(request)))).toEqual(worker);
    expect(timeless(await solve(createDiceProblem(config), solver, {}, 3, termination, { ...runOptionsFor(request), yieldToHost: noYield }))).toEqual(worker);
    // Without the request's front indicator only the trace's indicators differ.
    const noIndicator = (r: SolverResult) => timeless({ ...r, trace: r.trace.map((t) => ({ ...t, indicator: null })) });
    expect(noIndicator(solveSync(createDiceProblem(config), solver, {}, 3, termination))).toEqual(noIndicator(workerResult));
  });
});

describe('run errors', () => {
  it('names unknown solvers and lists the known ones', () => {
    expect(() => findSolver('gaa')).toThrow(/unknown solver "gaa" \(known: random, .*ga.*ils/);
  });

  it('refuses a single-objective solver on several objectives', () => {
    expect(() => solveSync(mo2, 'ga', {}, 1, { maxEvaluations: 10 })).toThrow('solver ga is single-objective; this problem has 2 objectives');
  });

  it('refuses a target on several objectives and a non-integer seed', () => {
    expect(() => solveSync(mo2, 'random', {}, 1, { maxEvaluations: 10, target: 0 })).toThrow('target applies to single-objective problems only');
    expect(() => solveSync(so, 'random', {}, 1.5, { maxEvaluations: 10 })).toThrow('seed must be an integer, got 1.5');
  });

  it('validates the termination', () => {
    expect(() => validateTermination({})).toThrow('termination maxEvaluations: or maxSeconds must be given');
    expect(() => validateTermination({ maxEvaluations: 0 })).toThrow('termination maxEvaluations: must be a positive integer, got 0');
    expect(() => validateTermination({ maxSeconds: -1 })).toThrow('termination maxSeconds: must be a positive number, got -1');
    expect(() => validateTermination({ maxEvaluations: 5, stallEvaluations: 2.5 })).toThrow('termination stallEvaluations');
    expect(terminationProgress({ maxEvaluations: 100, maxSeconds: 10 }, 25, 5)).toBe(0.5);
    expect(terminationProgress({ maxEvaluations: 100 }, 150, 0)).toBe(1);
  });

  it('has the strong solver as the single-objective default', () => {
    expect(defaultSolverFor('so').name).toBe('barrier-ls');
    expect(defaultSolverFor(null, 1).name).toBe('barrier-ls');
  });
});
