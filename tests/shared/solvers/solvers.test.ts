import { describe, expect, it } from 'vitest';
import { trackConfig } from '../../../src-shared/problems/dice/config.ts';
import { evaluateDice } from '../../../src-shared/problems/dice/evaluate.ts';
import { DiceProblem } from '../../../src-shared/problems/dice/problem.ts';
import { randomDiceConfig } from '../../../src-shared/problems/dice/random-config.ts';
import type { Problem } from '../../../src-shared/core/problem.ts';
import { describeSolvers, solvers } from '../../../src-shared/solvers/registry.ts';
import { solveSync } from '../../helpers/solve.ts';
import type { SolverInfo, SolverResult } from '../../../src-shared/solvers/types.ts';
import { CountingProblem, timeless } from './helpers.ts';

const BUDGET = 1500;
const N = 50;

function problemFor(info: SolverInfo): CountingProblem {
  return new CountingProblem(info.objectives === 'multi' ? 'mo2' : 'so', N);
}

function runSolver(
  info: SolverInfo,
  seed: number,
  extra: { maxStepEvaluations?: number; blind?: boolean } = {},
): { result: SolverResult; problem: CountingProblem } {
  const problem = problemFor(info);
  const result = solveSync(problem, info.name, {}, seed, { maxEvaluations: BUDGET }, extra);
  return { result, problem };
}

function expectFullEvaluation(record: { x: string; objectives: number[]; constraints: number[]; feasible: boolean }, problem: CountingProblem) {
  const full = evaluateDice(record.x, problem.config);
  expect(record.objectives).toEqual(full.objectives);
  expect(record.constraints).toEqual(full.constraints);
  expect(record.feasible).toBe(full.feasible);
}

// Every solver, sighted and blind (the solver sees the blind problem of
// src-shared/problems/dice/blind.ts and learns the bands; the checks are the same).
const modes = solvers.flatMap((s) => [[s.name, 'sighted', s, false] as const, [s.name, 'blind', s, true] as const]);

describe.each(modes)('solver %s (%s)', (_name, _mode, info, blind) => {
  const run = (i: SolverInfo, seed: number, extra: { maxStepEvaluations?: number } = {}) => runSolver(i, seed, { ...extra, blind });
  it('gives a bit-identical result for the same seed, and a different one for another seed', () => {
    const a = run(info, 11).result;
    const b = run(info, 11).result;
    const c = run(info, 12).result;
    expect(timeless(a)).toEqual(timeless(b));
    expect(JSON.stringify(timeless(c))).not.toEqual(JSON.stringify(timeless(a)));
  });

  it('does not depend on how the driver cuts the run into steps', () => {
    const small = run(info, 5, { maxStepEvaluations: 7 }).result;
    const large = run(info, 5, { maxStepEvaluations: 1000 }).result;
    expect(small.best).toEqual(large.best);
    expect(small.front).toEqual(large.front);
    expect(small.bestFoundAt).toBe(large.bestFoundAt);
    expect(small.firstFeasibleAt).toBe(large.firstFeasibleAt);
    expect(small.evaluations).toBe(large.evaluations);
  });

  it('spends exactly the budget, every evaluation accounted for', () => {
    const { result, problem } = run(info, 3);
    expect(result.evaluations).toBe(BUDGET);
    expect(result.stopReason).toBe('evaluations');
    // The single-objective solvers build states and reset them only for new sequences, so
    // every full evaluation, state built, reset and peek is a counted evaluation; the only
    // other counted ones are ILS's perturbation commits, bounded by the commits. (MO solvers
    // may rebuild states of already evaluated solutions, which are not new candidates.)
    if (info.objectives !== 'multi') {
      expect(problem.counted()).toBeLessThanOrEqual(result.evaluations);
      expect(result.evaluations - problem.counted()).toBeLessThanOrEqual(problem.sets);
      if (info.name !== 'ils') expect(problem.counted()).toBe(result.evaluations);
    }
  });

  it('reports values equal to a fresh full evaluation, and a trace that agrees with them', () => {
    const { result, problem } = run(info, 4);
    expect(result.success).toBe(true);
    if (info.objectives === 'multi') {
      expect(result.front.length).toBeGreaterThan(0);
      for (const s of result.front) expectFullEvaluation(s, problem);
    } else {
      expectFullEvaluation(result.best!, problem);
      // The trace holds the solver's own (often incremental) values: they must be exact.
      const last = result.trace[result.trace.length - 1];
      expect(last.best).toBe(result.best!.objectives[0]);
      expect(last.violation).toBe(result.best!.violation);
      expect(result.bestFoundAt).toBeGreaterThanOrEqual(1);
      expect(result.bestFoundAt).toBeLessThanOrEqual(result.evaluations);
    }
    expect(JSON.parse(JSON.stringify(result))).toEqual(result);
  });
});

describe('tiny and unconstrained problems', () => {
  it.each(modes)('%s (%s) runs on N = 1, 2, 3 and without constraints', (_name, _mode, info, blind) => {
    for (const n of [1, 2, 3]) {
      const tiny = new CountingProblem(info.objectives === 'multi' ? 'mo2' : 'so', n);
      const result = solveSync(tiny, info.name, {}, 1, { maxEvaluations: 300 }, { blind });
      expect(result.evaluations).toBeLessThanOrEqual(300);
      const record = result.best ?? result.front[0];
      expect(record.x).toHaveLength(n);
    }
    const free = new DiceProblem({ ...trackConfig(info.objectives === 'multi' ? 'mo2' : 'so', 30), constraints: [], lowerBounds: [], upperBounds: [] });
    const result = solveSync(free, info.name, {}, 1, { maxEvaluations: 300 }, { blind });
    expect(result.success).toBe(true);
  });
});

describe('blind runs', () => {
  // On the public config the learner's prior is the truth: it is never surprised, aims as a
  // sighted solver does, and every solver gives its sighted result bit for bit.
  it.each(solvers.map((s) => [s.name, s] as const))('%s gives its sighted result on the public config', (_name, info) => {
    const track = info.objectives === 'multi' ? 'mo2' : 'so';
    const sighted = solveSync(new DiceProblem(trackConfig(track, 60)), info.name, {}, 9, { maxEvaluations: 2000 });
    const blind = solveSync(new DiceProblem(trackConfig(track, 60)), info.name, {}, 9, { maxEvaluations: 2000 }, { blind: true });
    expect(timeless(blind)).toEqual(timeless(sighted));
  });

  // Off the public config, the solvers that never read the bands give their sighted result;
  // the three that aim with them (ils, barrier-ls, barrier-mo) aim with what they learn.
  const aiming = new Set(['ils', 'barrier-ls', 'barrier-mo']);
  it.each(solvers.map((s) => [s.name, s] as const))('%s on a secret config: sighted result unless it aims with the bands', (_name, info) => {
    const config = randomDiceConfig(4, info.objectives === 'multi' ? 'mo2' : 'so', 60);
    const sighted = solveSync(new DiceProblem(config), info.name, {}, 9, { maxEvaluations: 4000 });
    const blind = solveSync(new DiceProblem(config), info.name, {}, 9, { maxEvaluations: 4000 }, { blind: true });
    if (aiming.has(info.name)) expect(JSON.stringify(timeless(blind))).not.toEqual(JSON.stringify(timeless(sighted)));
    else expect(timeless(blind)).toEqual(timeless(sighted));
  });

  it('refuses a blind run off the dice problem', () => {
    const other = { ...new DiceProblem(trackConfig('so', 10)), name: 'other', evaluate: () => {} } as unknown as Problem;
    expect(() => solveSync(other, 'random', {}, 1, { maxEvaluations: 10 }, { blind: true })).toThrow(/a blind run needs the dice problem, not other/);
  });
});

describe('registry', () => {
  it('describes every solver with documented, serializable parameters', () => {
    const described = describeSolvers();
    expect(described.map((d) => d.name)).toEqual(solvers.map((s) => s.name));
    expect(new Set(described.map((d) => d.name)).size).toBe(described.length);
    for (const d of described) {
      expect(d.summary.length).toBeGreaterThan(10);
      for (const p of d.params) expect(p.description.length).toBeGreaterThan(10);
    }
    expect(JSON.parse(JSON.stringify(described))).toEqual(described);
  });
});
