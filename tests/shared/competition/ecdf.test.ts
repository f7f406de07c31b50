// Runtime ECDFs from the runs' records (issue 26, COCO's post-processing): hand-computed cases,
// the invariants, and runtimes that equal the ones read off the problem's own log of every
// evaluation, for two different target ladders computed from the same stored results (no rerun).
import { describe, expect, it } from 'vitest';
import {
  bestKnownHypervolume,
  ecdfAt,
  ecdfCsv,
  firstHits,
  hypervolumeSteps,
  moTargets,
  reaches,
  resultHypervolumeSteps,
  runtimeEcdf,
  soSteps,
  soTargets,
  type Steps,
} from '../../../src-shared/competition/ecdf.ts';
import { scoreReference } from '../../../src-shared/competition/score-reference.ts';
import { evaluatedFront, scoreRun, type SoScore } from '../../../src-shared/competition/score.ts';
import { hypervolume, normalise } from '../../../src-shared/metrics/hypervolume.ts';
import type { SolverResult } from '../../../src-shared/solvers/types.ts';
import { solveSync } from '../../helpers/solve.ts';
import { CountingProblem, type Logged } from '../solvers/helpers.ts';

/** A stored result as a project keeps it (JSON), so nothing but the record is used. */
const stored = (r: SolverResult): SolverResult => JSON.parse(JSON.stringify(r));

/** Oracle: the first evaluation (1-based) whose feasible f reaches the target, from the problem's log. */
function logHitSo(log: readonly Logged[], target: number): number | null {
  const i = log.findIndex((e) => e.violation <= 0 && reaches(e.F[0], target, 'min'));
  return i < 0 ? null : i + 1;
}

/** Oracle: the hypervolume of the true front (all feasible points so far) after each evaluation. */
function logHypervolumes(log: readonly Logged[], norm: { ideal: number[]; nadir: number[]; reference: number[] }): number[] {
  const out: number[] = [];
  let points: number[][] = [];
  let last = 0;
  log.forEach((e) => {
    if (e.violation <= 0) {
      points = [...points, e.F];
      last = hypervolume(normalise(points, norm.ideal, norm.nadir), norm.reference);
    }
    out.push(last);
  });
  return out;
}

describe('steps, targets, first hits (hand-computed)', () => {
  const steps: Steps = { sense: 'min', evaluations: [3, 10, 50], values: [9, 5, 2], end: 100, inexact: null };

  it('the first evaluation that reaches each target', () => {
    expect(firstHits(steps, [10, 9, 6, 5, 4, 2, 1])).toEqual([3, 3, 10, 10, 50, 50, null]);
    expect(firstHits({ ...steps, sense: 'max', values: [0.1, 0.4, 0.45] }, [0.05, 0.1, 0.3, 0.45, 0.5])).toEqual([3, 3, 10, 50, null]);
    expect(firstHits({ ...steps, evaluations: [], values: [] }, [1])).toEqual([null]);
    // Within a rounding: 0.1 + 0.2 reaches 0.3.
    expect(firstHits({ sense: 'min', evaluations: [7], values: [0.1 + 0.2], end: 7, inexact: null }, [0.3])).toEqual([7]);
  });

  it('ladders: best + scale * 10^(-k/p), then best; hypervolume targets at or below 0 left out', () => {
    expect(soTargets(100, 1000, { perDecade: 1, decades: 2 })).toEqual([1100, 200, 110, 100]);
    expect(soTargets(0, 50)).toHaveLength(22);
    expect(soTargets(0, 50)[0]).toBe(50);
    expect(soTargets(0, 50)[20]).toBeCloseTo(0.005, 15);
    const mo = moTargets(0.5, { perDecade: 1, decades: 2 });
    expect(mo).toHaveLength(3);
    expect(mo[0]).toBeCloseTo(0.4, 15);
    expect(mo[1]).toBeCloseTo(0.49, 15);
    expect(mo[2]).toBe(0.5);
    expect(moTargets(1.5)).toHaveLength(27);
    expect(() => soTargets(1, 0)).toThrow(/positive scale/);
    expect(() => soTargets(1, 10, { perDecade: 0, decades: 1 })).toThrow(/whole numbers perDecade >= 1/);
    expect(() => moTargets(-1)).toThrow(/at least 0/);
  });

  it('runtimeEcdf: per solver, the fraction of (run, target) pairs reached by each evaluation', () => {
    const ecdfs = runtimeEcdf([
      { solver: 'S', problem: 'p1', hits: [3, 10, null] },
      { solver: 'T', problem: 'p1', hits: [1, 1, 1] },
      { solver: 'S', problem: 'p2', hits: [5, null, null] },
    ]);
    expect(ecdfs).toEqual([
      {
        solver: 'S',
        runs: 2,
        pairs: 6,
        reached: 3,
        points: [
          { evaluations: 3, fraction: 1 / 6 },
          { evaluations: 5, fraction: 2 / 6 },
          { evaluations: 10, fraction: 3 / 6 },
        ],
      },
      { solver: 'T', runs: 1, pairs: 3, reached: 3, points: [{ evaluations: 1, fraction: 1 }] },
    ]);
    expect([0, 3, 4, 5, 9, 10, 1e9].map((e) => ecdfAt(ecdfs[0], e))).toEqual([0, 1 / 6, 1 / 6, 2 / 6, 2 / 6, 3 / 6, 3 / 6]);
    expect(ecdfCsv([{ ...ecdfs[0], solver: 'S, "fast"' }, ecdfs[1]])).toBe(
      [
        'solver,evaluations,fraction,reached,pairs',
        `"S, ""fast""",3,${1 / 6},1,6`,
        `"S, ""fast""",5,${2 / 6},2,6`,
        '"S, ""fast""",10,0.5,3,6',
        'T,1,1,3,3',
        '',
      ].join('\n'),
    );
  });
});

describe('from real runs: exact runtimes, redone with other targets without a rerun', () => {
  it('one objective: every runtime equals the first evaluation of the log that reached the target', () => {
    // Solvers whose result's best is the best they evaluated (barrier-ls, tabu and steepest
    // descent keep only the points they move to: docs/solvers.md, "Traces").
    const runs = (['random', 'hill-climbing', 'ils'] as const).map((solver, s) => {
      const problem = new CountingProblem('so', 840);
      const result = stored(solveSync(problem, solver, {}, s + 1, { maxEvaluations: 6000 }));
      return { solver, problem, result };
    });
    const config = runs[0].problem.config;
    const scores = runs.map((r) => scoreRun({ config, track: 'so', budget: 6000, result: r.result }).score as SoScore);
    const best = Math.min(...scores.map((s) => s.f!));
    const scale = scoreReference('so', 840).nadir[0];
    for (const ladder of [undefined, { perDecade: 10, decades: 3 }]) {
      const targets = soTargets(best, scale, ladder);
      const hits = runs.map((r) => ({ solver: r.solver, problem: 'so-n840-i0', hits: firstHits(soSteps(r.result), targets) }));
      runs.forEach((r, i) => expect(hits[i].hits).toEqual(targets.map((t) => logHitSo(r.problem.log, t))));
      // The best run reaches the hardest target (the best known f) at its bestFoundAt.
      const winner = scores.findIndex((s) => s.f === best);
      expect(hits[winner].hits.at(-1)).toBe(scores[winner].at);
      for (const e of runtimeEcdf(hits)) {
        for (let i = 1; i < e.points.length; i++) {
          expect(e.points[i].evaluations).toBeGreaterThan(e.points[i - 1].evaluations);
          expect(e.points[i].fraction).toBeGreaterThan(e.points[i - 1].fraction);
        }
        expect(e.points.at(-1)!.fraction).toBeCloseTo(e.reached / e.pairs, 15);
        expect(e.pairs).toBe(targets.length);
        expect(e.reached).toBe(hits.find((h) => h.solver === e.solver)!.hits.filter((h) => h !== null).length);
      }
    }
  });

  it("several objectives: the hypervolume after every insertion is the true front's, so are the runtimes", () => {
    const norm = scoreReference('mo3', 60);
    const runs = (['nsga2', 'barrier-mo'] as const).map((solver) => {
      const problem = new CountingProblem('mo3', 60);
      return { solver, problem, result: stored(solveSync(problem, solver, {}, 2, { maxEvaluations: 2500 })) };
    });
    const fronts = runs.map((r) => evaluatedFront(r.problem.config, r.result));
    const best = bestKnownHypervolume(fronts, norm);
    expect(best).toBeGreaterThan(
      Math.max(...runs.map((r) => (scoreRun({ config: r.problem.config, track: 'mo3', budget: 2500, result: r.result }).score as { hv: number }).hv)) - 1e-12,
    );
    for (const r of runs) {
      const steps = resultHypervolumeSteps(r.result, norm)!;
      expect(steps.inexact).toBeNull();
      const truth = logHypervolumes(r.problem.log, norm);
      // At each step's evaluation, and just before it, the step function is the truth.
      steps.evaluations.forEach((at, i) => {
        expect(steps.values[i]).toBeCloseTo(truth[at - 1], 12);
        if (at > 1) expect(i === 0 ? 0 : steps.values[i - 1]).toBeCloseTo(truth[at - 2], 12);
      });
      expect(steps.values.at(-1)).toBeCloseTo(truth.at(-1)!, 12);
      for (const ladder of [undefined, { perDecade: 2, decades: 3 }]) {
        const targets = moTargets(best, ladder);
        const expected = targets.map((t) => {
          const i = truth.findIndex((v) => reaches(v, t, 'max'));
          return i < 0 ? null : i + 1;
        });
        expect(firstHits(steps, targets)).toEqual(expected);
      }
    }
  });

  it('a compacted log says so; an older result has no hypervolume steps and an inexact trace', () => {
    const problem = new CountingProblem('mo2', 200);
    const result = solveSync(problem, 'nsga2', {}, 3, { maxEvaluations: 6000 }, { frontLogLimit: 200 });
    expect(resultHypervolumeSteps(result, scoreReference('mo2', 200))!.inexact).toMatch(
      /^a compacted front log: exact up to evaluation \d+ and at ceil\(10\^\(i\/\d+\)\) evaluations/,
    );
    const { frontLog, ...older } = result;
    expect(frontLog).toBeDefined();
    expect(resultHypervolumeSteps(older, scoreReference('mo2', 200))).toBeNull();
    const so = solveSync(new CountingProblem('so', 100), 'random', {}, 1, { maxEvaluations: 300 });
    expect(soSteps({ ...so, traceExact: undefined }).inexact).toMatch(/before exact traces/);
    expect(hypervolumeSteps({ insertions: [], compacted: null }, 0, scoreReference('mo2', 200))).toEqual({
      sense: 'max',
      evaluations: [],
      values: [],
      end: 0,
      inexact: null,
    });
  });
});
