// The competition's score of a run (issue 26): recomputed from the stored sequences with the
// exact evaluator, never from the numbers the result claims. Expected values come from the EC-Comp
// 2020 reference evaluator (tests/fixtures/eccomp2020-reference.jsonl), from a brute-force
// hypervolume and from the problem's own log of every evaluation.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { trackConfig } from '../../../src-shared/problems/dice/config.ts';
import { compareScores, scoreKey, scoreRun, type MoScore, type RunScore, type SoScore } from '../../../src-shared/competition/score.ts';
import { scoreReference } from '../../../src-shared/competition/score-reference.ts';
import type { SolutionRecord, SolverResult } from '../../../src-shared/solvers/types.ts';
import { solveSync } from '../../helpers/solve.ts';
import { CountingProblem } from '../solvers/helpers.ts';

interface Golden {
  id: string;
  x: string;
  objectives: number[];
  constraints: number[];
}
const golden = new Map(
  readFileSync(new URL('../../fixtures/eccomp2020-reference.jsonl', import.meta.url), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Golden)
    .map((g) => [g.id, g]),
);
const so50 = trackConfig('so', 50);

/** Total normalised violation from the reference's g_d: sum of g_d * floor(N / d) / 6^d (docs/solvers.md). */
function referenceViolation(g: Golden): number {
  return g.constraints.reduce((s, v, i) => s + (v * Math.floor(50 / (i + 1))) / 6 ** (i + 1), 0);
}

/** A result claiming `claimed` for the stored sequence x (what the run says, not what x is). */
function soResult(x: string, claimed: Partial<SolutionRecord>, bestFoundAt: number, evaluations = 1000): SolverResult {
  const best: SolutionRecord = { x, objectives: [0], constraints: new Array(12).fill(0), feasible: true, violation: 0, ...claimed };
  return {
    solver: 'forged',
    params: {},
    seed: 1,
    track: 'so',
    n: 50,
    objectiveCount: 1,
    termination: { maxEvaluations: evaluations },
    evaluations,
    seconds: 0,
    success: true,
    message: '',
    stopReason: 'evaluations',
    best,
    bestFoundAt,
    firstFeasibleAt: 1,
    front: [],
    trace: [],
  };
}

describe('a single-objective score', () => {
  it("is the exact evaluator's f of the stored best sequence, with bestFoundAt, whatever the result claims", () => {
    const g = golden.get('20201-348')!;
    expect(g.x).toHaveLength(50);
    const honest = scoreRun({ config: so50, track: 'so', budget: 1000, result: soResult(g.x, { objectives: g.objectives }, 417) });
    expect(honest.score).toEqual({ kind: 'so', f: expect.closeTo(13.48, 12), violation: 0, at: 417, evaluations: 1000 });
    expect(honest.problem).toBeNull();
    // Claiming f = 0 changes nothing but the report of the contradiction.
    const forged = scoreRun({ config: so50, track: 'so', budget: 1000, result: soResult(g.x, { objectives: [0] }, 417) });
    expect(forged.score).toEqual(honest.score);
    expect(forged.problem).toMatch(/^result\.best\.objectives\[0\]: stored 0, the sequence evaluates to 13\.4/);
  });

  it("an infeasible best: f is null and the violation is the reference's, normalised", () => {
    const g = golden.get('20201-340')!;
    expect(g.constraints[0]).toBeGreaterThan(0);
    const { score } = scoreRun({ config: so50, track: 'so', budget: 1000, result: soResult(g.x, { feasible: true, violation: 0 }, 9) });
    expect(score.kind).toBe('so');
    expect((score as SoScore).f).toBeNull();
    expect((score as SoScore).violation).toBeCloseTo(referenceViolation(g), 9);
    expect((score as SoScore).at).toBe(9);
  });

  it('no result, or a result with no solution, scores as nothing', () => {
    expect(scoreRun({ config: so50, track: 'so', budget: 10, result: null }).score).toEqual({ kind: 'so', f: null, violation: null, at: null, evaluations: 0 });
    const empty = { ...soResult('1'.repeat(50), {}, 1), best: null, bestFoundAt: null, evaluations: 0 };
    expect(scoreRun({ config: so50, track: 'so', budget: 10, result: empty }).score).toEqual({
      kind: 'so',
      f: null,
      violation: null,
      at: null,
      evaluations: 0,
    });
  });

  it('orders feasible by f then by the evaluation that reached it, then infeasible by violation, then nothing', () => {
    const so = (f: number | null, violation: number | null, at: number | null): SoScore => ({ kind: 'so', f, violation, at, evaluations: 100 });
    const ordered: (RunScore | null)[] = [
      so(3, 0, 10),
      so(3, 0, 20),
      so(3, 0, null),
      so(4, 0, 1),
      so(null, 0.5, 50),
      so(null, 0.5, 60),
      so(null, 2, 1),
      so(null, null, null),
      null,
    ];
    const shuffled = [ordered[5], ordered[8], ordered[0], ordered[7], ordered[3], ordered[1], ordered[6], ordered[2], ordered[4]];
    expect([...shuffled].sort(compareScores)).toEqual(ordered);
    // A rounding is not a difference: 0.1 + 0.2 and 0.3 tie on f, so the evaluation decides.
    expect(compareScores(so(0.1 + 0.2, 0, 5), so(0.3, 0, 7))).toBeLessThan(0);
    expect(compareScores(so(0.1 + 0.2, 0, 7), so(0.3, 0, 5))).toBeGreaterThan(0);
    expect(scoreKey(0.1 + 0.2)).toBe(scoreKey(0.3));
    expect(compareScores(so(3, 0, 10), so(3, 0, 10))).toBe(0);
  });
});

/** Hypervolume of 2-D points (minimised) against a reference point, by summing the staircase's rectangles. */
function hv2(points: number[][], reference: number[]): number {
  const inside = points.filter((p) => p[0] < reference[0] && p[1] < reference[1]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let volume = 0;
  let ceiling = reference[1];
  for (const p of inside) {
    if (p[1] >= ceiling) continue;
    volume += (reference[0] - p[0]) * (ceiling - p[1]);
    ceiling = p[1];
  }
  return volume;
}

describe('a multi-objective score', () => {
  it("is the hypervolume of the re-evaluated front against the track's reference, reached at the last insertion that adds to it", () => {
    const problem = new CountingProblem('mo2', 60);
    const result = solveSync(problem, 'nsga2', {}, 4, { maxEvaluations: 3000 });
    const reference = scoreReference('mo2', 60);
    const { score, problem: contradiction } = scoreRun({ config: problem.config, track: 'mo2', budget: 3000, result });
    expect(contradiction).toBeNull();
    const normalise = (f: number[]) => f.map((v, k) => v / reference.nadir[k]);
    const expected = hv2(
      result.front.map((s) => normalise(s.objectives)),
      [1.1, 1.1],
    );
    expect(expected).toBeGreaterThan(0);
    expect((score as MoScore).hv).toBeCloseTo(expected, 12);
    expect((score as MoScore).frontSize).toBe(result.front.length);
    // The oracle: the first evaluation after which the true front (every feasible point evaluated so far) has that volume.
    let front: number[][] = [];
    let reached: number | null = null;
    problem.log.forEach((e, i) => {
      if (reached !== null || e.violation > 0) return;
      front = [...front, normalise(e.F)];
      if (Math.abs(hv2(front, [1.1, 1.1]) - expected) <= 1e-12) reached = i + 1;
    });
    expect(reached).not.toBeNull();
    expect((score as MoScore).at).toBe(reached);
  });

  it('ignores the objectives a result claims for its front, and drops what is not feasible or not on a front once re-evaluated', () => {
    const config = trackConfig('mo2', 60);
    const result = solveSync(new CountingProblem('mo2', 60), 'random', {}, 2, { maxEvaluations: 2000 });
    const honest = scoreRun({ config, track: 'mo2', budget: 2000, result }).score as MoScore;
    const forged = structuredClone(result);
    forged.front[0].objectives = [0, 0];
    const scored = scoreRun({ config, track: 'mo2', budget: 2000, result: forged });
    expect(scored.score).toEqual(honest);
    expect(scored.problem).toMatch(/^result\.front\[0\]\.objectives\[\d\]: stored 0, the sequence evaluates to /);
    // An infeasible sequence (all ones) and a copy of a front point add nothing.
    const padded = structuredClone(result);
    padded.front.push({ ...padded.front[0], x: '1'.repeat(60) }, structuredClone(padded.front[0]));
    expect((scoreRun({ config, track: 'mo2', budget: 2000, result: padded }).score as MoScore).hv).toBe(honest.hv);
    expect((scoreRun({ config, track: 'mo2', budget: 2000, result: padded }).score as MoScore).frontSize).toBe(honest.frontSize);
  });

  it('orders by hypervolume, then by the evaluation that reached it; without a front log the evaluation is unknown (last)', () => {
    const mo = (hv: number, at: number | null): MoScore => ({ kind: 'mo', hv, at, frontSize: 1, evaluations: 10 });
    const ordered = [mo(0.9, 400), mo(0.9, 500), mo(0.9, null), mo(0.5, 1), mo(0, null), null];
    expect([ordered[3], ordered[5], ordered[1], ordered[4], ordered[0], ordered[2]].sort(compareScores)).toEqual(ordered);
    const config = trackConfig('mo2', 60);
    const result = solveSync(new CountingProblem('mo2', 60), 'random', {}, 2, { maxEvaluations: 500 });
    const { frontLog, ...older } = result;
    expect(frontLog).toBeDefined();
    expect((scoreRun({ config, track: 'mo2', budget: 500, result: older }).score as MoScore).at).toBeNull();
    expect(() => compareScores(mo(1, 1), { kind: 'so', f: 1, violation: 0, at: 1, evaluations: 1 })).toThrow(/cannot compare a mo score with a so score/);
  });
});
