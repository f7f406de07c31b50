// A run's trace records every improvement of the best at the evaluation that found it (issue 26:
// before, one point per improving step of up to 1,000 evaluations, thinned when long, so a run
// whose first feasible solution came at evaluation 18 showed its first point at 999), and a
// multi-objective run logs every insertion into its front, from which the front at any
// evaluation is rebuilt. The oracle is the problem's own log of every counted evaluation
// (tests/shared/solvers/helpers.ts), in order, independent of the run's bookkeeping.
import { describe, expect, it } from 'vitest';
import { createDiceProblem } from '../../../src-shared/problems/dice/problem.ts';
import { trackConfig } from '../../../src-shared/problems/dice/config.ts';
import { executeRunSync } from '../../../src-shared/runtime/kinds/index.ts';
import { frontLogCheckpoints, frontLogFrontAt, nextFrontLogCheckpoint, type FrontLog } from '../../../src-shared/solvers/front-log.ts';
import { hypervolume } from '../../../src-shared/metrics/hypervolume.ts';
import type { SolverResult } from '../../../src-shared/solvers/types.ts';
import { solveSync } from '../../helpers/solve.ts';
import { CountingProblem, type Logged } from './helpers.ts';

/** Feasibility first, then f; two infeasible points by violation only (the order results keep). */
function better(a: Logged, b: Logged): boolean {
  if (a.violation <= 0 && b.violation <= 0) return a.F[0] < b.F[0];
  if (a.violation <= 0) return true;
  if (b.violation <= 0) return false;
  return a.violation < b.violation;
}

/** Every strict improvement of the best in a log of evaluations: [evaluation (1-based), f, violation, feasible]. */
function improvements(log: readonly Logged[]): [number, number, number, boolean][] {
  const out: [number, number, number, boolean][] = [];
  let best: Logged | null = null;
  log.forEach((e, i) => {
    if (best === null || better(e, best)) {
      best = e;
      out.push([i + 1, e.F[0], e.violation, e.violation <= 0]);
    }
  });
  return out;
}

/** The trace's improvements (every point but a final one that repeats the last best). */
function tracedImprovements(result: SolverResult): [number, number, number, boolean][] {
  const points = result.trace.map((t) => [t.evaluations, t.best!, t.violation, t.feasible] as [number, number, number, boolean]);
  const last = points[points.length - 1];
  const before = points[points.length - 2];
  if (before && last[1] === before[1] && last[2] === before[2]) points.pop();
  return points;
}

/** The non-dominated feasible points among the first t logged evaluations, for each t asked (ascending). */
function trueFronts(log: readonly Logged[], ts: readonly number[]): Map<number, number[][]> {
  const weakly = (a: number[], b: number[]) => a.every((v, k) => v <= b[k]);
  const out = new Map<number, number[][]>();
  let members: number[][] = [];
  let i = 0;
  for (const t of ts) {
    for (; i < t; i++) {
      const e = log[i];
      if (e.violation > 0 || members.some((m) => weakly(m, e.F))) continue;
      members = members.filter((m) => !weakly(e.F, m));
      members.push(e.F);
    }
    out.set(t, members.slice());
  }
  return out;
}

function trueFrontAt(log: readonly Logged[], t: number): number[][] {
  return trueFronts(log, [t]).get(t)!;
}

const sortVectors = (points: number[][]) => [...points].sort((a, b) => a.reduce((d, v, k) => d || v - b[k], 0));

describe('a single-objective trace', () => {
  it('holds every improvement at its exact evaluation: hill climbing (internal evaluations) at N = 840', () => {
    const problem = new CountingProblem('so', 840);
    const result = solveSync(problem, 'hill-climbing', {}, 1, { maxEvaluations: 20_000 });
    expect(problem.log.length).toBe(20_000);
    const expected = improvements(problem.log);
    // The run: its first feasible solution is the 18th evaluation, found inside the first step.
    const firstFeasible = expected.find((p) => p[3])![0];
    expect(firstFeasible).toBe(18);
    expect(result.firstFeasibleAt).toBe(18);
    expect(result.trace.find((t) => t.feasible)!.evaluations).toBe(18);
    expect(tracedImprovements(result)).toEqual(expected);
    expect(expected.length).toBeGreaterThan(100);
    expect(result.trace.at(-1)!.evaluations).toBe(20_000);
    expect(result.bestFoundAt).toBe(expected.at(-1)![0]);
    expect(result.traceExact).toBe(true);
    expect(result.frontLog).toBeUndefined();
  });

  it('holds every improvement at its exact evaluation: random search (candidates in batches of 100)', () => {
    const problem = new CountingProblem('so', 840);
    const result = solveSync(problem, 'random', {}, 1, { maxEvaluations: 3000 });
    const expected = improvements(problem.log);
    expect(tracedImprovements(result)).toEqual(expected);
    // More than one improvement inside the first step of 100: the old trace kept one of them.
    expect(expected.filter((p) => p[0] <= 100).length).toBeGreaterThan(1);
    expect(result.trace.find((t) => t.feasible)!.evaluations).toBe(result.firstFeasibleAt);
  });

  it('does not depend on the step size', () => {
    const config = trackConfig('so', 200);
    const untimed = (r: SolverResult) => r.trace.map((t) => ({ ...t, seconds: 0 }));
    const a = solveSync(createDiceProblem(config), 'annealing', {}, 4, { maxEvaluations: 5000 }, { maxStepEvaluations: 7 });
    const b = solveSync(createDiceProblem(config), 'annealing', {}, 4, { maxEvaluations: 5000 }, { maxStepEvaluations: 1000 });
    expect(untimed(a)).toEqual(untimed(b));
  });
});

describe('a multi-objective front log', () => {
  it('rebuilds the front after every evaluation, and its hypervolume for any reference point', () => {
    const problem = new CountingProblem('mo2', 60);
    const result = solveSync(problem, 'nsga2', {}, 2, { maxEvaluations: 1500 });
    const log = result.frontLog!;
    expect(log.compacted).toBeNull();
    expect(log.insertions.length).toBeGreaterThan(20);
    expect(log.insertions.every((row, i) => row.length === 3 && (i === 0 || row[0] >= log.insertions[i - 1][0]))).toBe(true);
    for (let t = 0; t <= 1500; t += t < 200 ? 1 : 37) expect(sortVectors(frontLogFrontAt(log, t))).toEqual(sortVectors(trueFrontAt(problem.log, t)));
    expect(sortVectors(frontLogFrontAt(log, 1500))).toEqual(sortVectors(result.front.map((s) => s.objectives)));
    // Any reference point: the log's hypervolume is the true front's.
    const worst = problem.log.reduce((m, e) => e.F.map((v, k) => Math.max(v, m[k])), [0, 0]);
    for (const scale of [0.3, 0.7, 1.01])
      for (const t of [100, 400, 1500]) {
        const reference = worst.map((v) => v * scale);
        expect(hypervolume(frontLogFrontAt(log, t), reference)).toBe(hypervolume(trueFrontAt(problem.log, t), reference));
      }
  });

  it('barrier-mo (internal evaluations, M = 3): the log gives the true front at every evaluation', () => {
    const problem = new CountingProblem('mo3', 60);
    const result = solveSync(problem, 'barrier-mo', {}, 1, { maxEvaluations: 1200 });
    expect(problem.log.length).toBe(1200);
    for (let t = 0; t <= 1200; t += 7) expect(sortVectors(frontLogFrontAt(result.frontLog!, t))).toEqual(sortVectors(trueFrontAt(problem.log, t)));
  });

  it('compacted: exact up to exactUntil and at every checkpoint; in between, between the checkpoint before and the truth', () => {
    const problem = new CountingProblem('mo2', 200);
    const complete = solveSync(new CountingProblem('mo2', 200), 'nsga2', {}, 3, { maxEvaluations: 6000 }).frontLog!;
    const result = solveSync(problem, 'nsga2', {}, 3, { maxEvaluations: 6000 }, { frontLogLimit: 200 });
    const log: FrontLog = result.frontLog!;
    expect(complete.compacted).toBeNull();
    expect(log.compacted).not.toBeNull();
    const { exactUntil, perDecade } = log.compacted!;
    expect(log.insertions.length).toBeLessThan(complete.insertions.length);
    expect(exactUntil).toBeGreaterThan(0);
    const ts = Array.from({ length: 6001 }, (_, t) => t);
    const truth = trueFronts(problem.log, ts);
    const worst = problem.log.reduce((m, e) => e.F.map((v, k) => Math.max(v, m[k])), [0, 0]);
    const hv = (front: number[][]) => hypervolume(front, worst);
    const checkpoints = [...frontLogCheckpoints(6000, perDecade), 6000];
    for (const c of checkpoints) expect(sortVectors(frontLogFrontAt(log, c))).toEqual(sortVectors(truth.get(c)!));
    for (let t = 0; t <= exactUntil; t++) expect(sortVectors(frontLogFrontAt(log, t))).toEqual(sortVectors(truth.get(t)!));
    let inexact = 0;
    for (let t = exactUntil + 1; t <= 6000; t += 3) {
      const before = checkpoints.filter((c) => c <= t).at(-1)!;
      const rebuilt = hv(frontLogFrontAt(log, t));
      const exact = hv(truth.get(t)!);
      expect(rebuilt).toBeLessThanOrEqual(exact);
      expect(rebuilt).toBeGreaterThanOrEqual(hv(frontLogFrontAt(log, before)));
      if (rebuilt < exact) inexact++;
    }
    // The compaction did drop something that shows between checkpoints (else this test proves little).
    expect(inexact).toBeGreaterThan(0);
  });

  it('the checkpoint ladder: ceil(10^(i / p)), without repeats', () => {
    // Python's math.ceil(10 ** (i / p)) over i = 0, 1, ...
    expect(frontLogCheckpoints(100, 20)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 13, 15, 16, 18, 20, 23, 26, 29, 32, 36, 40, 45, 51, 57, 64, 71, 80, 90, 100,
    ]);
    expect(frontLogCheckpoints(1000, 1)).toEqual([1, 10, 100, 1000]);
    expect(frontLogCheckpoints(40, 2)).toEqual([1, 4, 10, 32]);
    expect([1, 2, 7, 11, 100, 101, 5000].map((a) => nextFrontLogCheckpoint(a, 20))).toEqual([1, 2, 7, 12, 100, 113, 5012]);
    // Each sparser ladder is part of the denser one, so what was exact stays exact.
    const dense = new Set(frontLogCheckpoints(1e6, 20));
    for (const p of [10, 5, 2, 1]) expect(frontLogCheckpoints(1e6, p).every((c) => dense.has(c))).toBe(true);
  });

  it('is the same for executeRunSync (a worker) as for the test helper, and absent for one objective', () => {
    const config = trackConfig('mo5', 40);
    const a = executeRunSync({
      kind: 'dice',
      solver: 'barrier-mo',
      params: {},
      seed: 1,
      config,
      termination: { maxEvaluations: 800 },
      traceHypervolume: false,
    });
    const b = solveSync(createDiceProblem(config), 'barrier-mo', {}, 1, { maxEvaluations: 800 });
    expect(a.frontLog).toEqual(b.frontLog);
    expect(a.frontLog!.insertions.every((row) => row.length === 6)).toBe(true);
  });
});
