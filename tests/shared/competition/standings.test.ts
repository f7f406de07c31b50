// The standings (issue 26): per problem every run of every entrant ranked together by the score
// order, entrants by the mean rank of their runs (ties share the mean rank), averaged over the
// suite; the Friedman test and Holm-corrected pairs against scipy's numbers
// (tests/fixtures/competition/friedman-scipy.json, made by friedman-scipy.py beside it).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { computeStandings, rankProblem, rankScores, type ProblemScores } from '../../../src-shared/competition/standings.ts';
import type { RunScore, SoScore } from '../../../src-shared/competition/score.ts';

const so = (f: number | null, violation: number | null = f === null ? 1 : 0, at: number | null = 10): SoScore => ({
  kind: 'so',
  f,
  violation,
  at,
  evaluations: 100,
});
const scipy = JSON.parse(readFileSync(new URL('../../fixtures/competition/friedman-scipy.json', import.meta.url), 'utf8')) as {
  entrants: string[];
  ranks: number[][];
  averageRanks: number[];
  chiSquare: number;
  p: number;
  imanDavenport: number;
  imanDavenportP: number;
  pairwise: { a: string; b: string; rankDifference: number; z: number; p: number; pHolm: number }[];
};

/** Seven problems whose scores give the fixture's rank table (one run each). */
const problems: ProblemScores[] = [
  { problem: 'p1', runs: { A: [so(1)], B: [so(2)], C: [so(3)], D: [so(4)] } },
  { problem: 'p2', runs: { A: [so(2)], B: [so(1)], C: [so(3, 0, 7)], D: [so(3, 0, 7)] } },
  { problem: 'p3', runs: { A: [so(1)], B: [so(3)], C: [so(2)], D: [so(4)] } },
  // A tie on f broken by the evaluation for C and D, not for A and B.
  { problem: 'p4', runs: { A: [so(1, 0, 5)], B: [so(1, 0, 5)], C: [so(2, 0, 1)], D: [so(2, 0, 2)] } },
  { problem: 'p5', runs: { A: [so(2)], B: [so(1)], C: [so(4)], D: [so(3)] } },
  // Only C found a feasible solution; A and B by violation; D has no result.
  { problem: 'p6', runs: { A: [so(null, 1)], B: [so(null, 2)], C: [so(10)], D: [null] } },
  { problem: 'p7', runs: { A: [so(1)], B: [so(2)], C: [so(3)], D: [so(4)] } },
];

describe('ranks', () => {
  it('rankScores: mid-ranks in the score order, ties (equal f and evaluation) sharing the mean', () => {
    expect(rankScores([so(3), so(1), so(3), null, so(null, 0.5), so(1, 0, 3)])).toEqual([3.5, 2, 3.5, 6, 5, 1]);
  });

  it('rankProblem: all runs of all entrants ranked together, entrants by the mean rank of their runs', () => {
    const places = rankProblem({ problem: 'p', runs: { X: [so(1), so(5)], Y: [so(2), so(3)], Z: [null, so(4)] } }, ['X', 'Y', 'Z']);
    // Runs in order: X f=1 (1), Y 2 (2), Y 3 (3), Z 4 (4), X 5 (5), Z none (6).
    expect(places.X).toEqual({ rank: 2, runRank: 3, best: so(1), median: so(1), runs: 2 });
    expect(places.Y).toEqual({ rank: 1, runRank: 2.5, best: so(2), median: so(2), runs: 2 });
    expect(places.Z).toEqual({ rank: 3, runRank: 5, best: so(4), median: so(4), runs: 2 });
    const tied = rankProblem({ problem: 'p', runs: { X: [so(1), so(4)], Y: [so(2), so(3)], Z: [so(5), so(6), so(7)] } }, ['X', 'Y', 'Z']);
    expect([tied.X.rank, tied.Y.rank, tied.Z.rank]).toEqual([1.5, 1.5, 3]);
    expect(tied.Z.median).toEqual(so(6));
  });

  it('refuses runs of someone who is not an entrant, an entrant without runs, and repeated names', () => {
    expect(() => rankProblem({ problem: 'p', runs: { X: [so(1)], W: [so(2)] } }, ['X'])).toThrow(/problem p: runs of W, who is not an entrant/);
    expect(() => rankProblem({ problem: 'p', runs: { X: [so(1)] } }, ['X', 'Y'])).toThrow(/problem p: entrant Y has no runs/);
    expect(() => computeStandings(['X', 'X'], [])).toThrow(/an entrant is named twice/);
    expect(() => computeStandings(['X'], [problems[0], problems[0]])).toThrow(/a problem is given twice/);
  });
});

describe('the standings', () => {
  const result = computeStandings(scipy.entrants, problems);

  it("each problem's ranks are the fixture's table, averaged over the suite", () => {
    for (const [b, p] of problems.entries())
      expect(scipy.entrants.map((e) => result.standings.find((s) => s.entrant === e)!.problems[p.problem].rank)).toEqual(scipy.ranks[b]);
    const byName = Object.fromEntries(result.standings.map((s) => [s.entrant, s]));
    scipy.entrants.forEach((e, j) => expect(byName[e].averageRank).toBeCloseTo(scipy.averageRanks[j], 14));
    // Best first: A (1.5), B (1.93), C (2.86), D (3.71).
    expect(result.standings.map((s) => [s.entrant, s.rank])).toEqual([
      ['A', 1],
      ['B', 2],
      ['C', 3],
      ['D', 4],
    ]);
  });

  it("Friedman, Iman-Davenport and Holm-corrected pairs equal scipy's", () => {
    expect(result.friedman).not.toBeNull();
    expect(result.friedman!.problems).toBe(7);
    expect(result.friedman!.entrants).toBe(4);
    expect(result.friedman!.chiSquare).toBeCloseTo(scipy.chiSquare, 12);
    expect(result.friedman!.p).toBeCloseTo(scipy.p, 12);
    expect(result.friedman!.imanDavenport).toBeCloseTo(scipy.imanDavenport, 10);
    expect(result.friedman!.imanDavenportP).toBeCloseTo(scipy.imanDavenportP, 10);
    expect(result.pairwise).toHaveLength(6);
    for (const expected of scipy.pairwise) {
      const got = result.pairwise.find((c) => c.a === expected.a && c.b === expected.b)!;
      expect(got.rankDifference).toBeCloseTo(expected.rankDifference, 14);
      expect(got.z).toBeCloseTo(expected.z, 12);
      expect(got.p).toBeCloseTo(expected.p, 12);
      expect(got.pHolm).toBeCloseTo(expected.pHolm, 12);
    }
  });

  it('tied averages share the position; no test with one problem or one entrant', () => {
    const even = computeStandings(
      ['X', 'Y', 'Z'],
      [
        { problem: 'a', runs: { X: [so(1)], Y: [so(2)], Z: [so(3)] } },
        { problem: 'b', runs: { X: [so(2)], Y: [so(1)], Z: [so(3)] } },
      ],
    );
    expect(even.standings.map((s) => [s.entrant, s.rank, s.averageRank])).toEqual([
      ['X', 1.5, 1.5],
      ['Y', 1.5, 1.5],
      ['Z', 3, 3],
    ]);
    expect(even.friedman).not.toBeNull();
    const one = computeStandings(['X', 'Y'], [{ problem: 'a', runs: { X: [so(1)], Y: [so(2)] } }]);
    expect(one.friedman).toBeNull();
    expect(one.pairwise).toEqual([]);
    const alone = computeStandings(
      ['X'],
      problems.slice(0, 2).map((p) => ({ problem: p.problem, runs: { X: p.runs.A } })),
    );
    expect(alone.standings).toEqual([
      { entrant: 'X', rank: 1, averageRank: 1, problems: { p1: expect.objectContaining({ rank: 1 }), p2: expect.objectContaining({ rank: 1 }) } },
    ]);
    expect(alone.friedman).toBeNull();
  });

  it('mixes tracks: a multi-objective problem ranks by hypervolume', () => {
    const mo = (hv: number, at: number | null): RunScore => ({ kind: 'mo', hv, at, frontSize: 3, evaluations: 100 });
    const mixed = computeStandings(
      ['X', 'Y'],
      [
        { problem: 'so-n840-i1', runs: { X: [so(5)], Y: [so(4)] } },
        { problem: 'mo2-n840-i1', runs: { X: [mo(0.8, 90)], Y: [mo(0.7, 10)] } },
        { problem: 'mo3-n840-i1', runs: { X: [mo(0.8, 90)], Y: [mo(0.8, 10)] } },
      ],
    );
    expect(mixed.standings.map((s) => [s.entrant, s.averageRank])).toEqual([
      ['Y', 4 / 3],
      ['X', 5 / 3],
    ]);
  });
});
