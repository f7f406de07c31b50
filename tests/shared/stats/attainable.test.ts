// The smallest p the rank-sum test can give, and the runs a significance level needs: checked
// against the test itself (mannWhitney on two samples that do not overlap, the most extreme U)
// and against the counts C(n1 + n2, n1) (Mann & Whitney 1947: each arrangement equally likely,
// two arrangements, U = 0 and U = n1·n2, as extreme).
import { describe, expect, it } from 'vitest';
import { cannotDiffer, runsNeeded, smallestHolmP, smallestRankSumP } from '../../../src-shared/stats/attainable.ts';
import { mannWhitney } from '../../../src-shared/stats/mann-whitney.ts';

const apart = (n1: number, n2: number) =>
  mannWhitney(
    Array.from({ length: n1 }, (_, i) => i),
    Array.from({ length: n2 }, (_, i) => 100 + i),
  ).p;

describe('smallestRankSumP', () => {
  it('is 2 / C(n1 + n2, n1) for the exact test: 3 and 3 runs give 0.1, so p < 0.05 cannot happen', () => {
    expect(smallestRankSumP(3, 3)).toBeCloseTo(0.1, 15);
    expect(smallestRankSumP(4, 4)).toBeCloseTo(2 / 70, 15);
    expect(smallestRankSumP(5, 5)).toBeCloseTo(2 / 252, 15);
    expect(smallestRankSumP(2, 3)).toBeCloseTo(0.2, 15);
    expect(smallestRankSumP(1, 1)).toBe(1);
  });
  it('is what mannWhitney answers for samples that do not overlap, exact and normal alike', () => {
    for (const [n1, n2] of [
      [2, 2],
      [3, 3],
      [3, 5],
      [4, 4],
      [10, 12],
      [25, 25],
      [26, 26],
      [30, 40],
    ])
      expect(smallestRankSumP(n1, n2), `${n1} and ${n2}`).toBeCloseTo(apart(n1, n2), 12);
  });
});

describe('runsNeeded', () => {
  it('one comparison at 0.05 needs 4 runs per solver (p 0.029); at 0.01, 5 (p 0.0079)', () => {
    expect(runsNeeded(0.05, 1)).toBe(4);
    expect(runsNeeded(0.01, 1)).toBe(5);
  });
  it('Holm over 3 pairs (3 solvers) at 0.05 needs 5: 3 × 2/70 = 0.086 with 4', () => {
    expect(smallestHolmP(4, 4, 3)).toBeCloseTo(6 / 70, 15);
    expect(smallestHolmP(5, 5, 3)).toBeCloseTo(6 / 252, 15);
    expect(runsNeeded(0.05, 3)).toBe(5);
    // 6 solvers: 15 pairs; 2/C(10,5)·15 = 0.119, 2/C(12,6)·15 = 0.032.
    expect(runsNeeded(0.05, 15)).toBe(6);
  });
  it('cannotDiffer says when the marks are "=" whatever the runs found', () => {
    expect(cannotDiffer(3, 3, 1, 0.05)).toBe(true);
    expect(cannotDiffer(4, 4, 1, 0.05)).toBe(false);
    expect(cannotDiffer(4, 4, 3, 0.05)).toBe(true);
    // 4 and 3 runs: 2 / C(7, 3) = 2/35 = 0.057.
    expect(cannotDiffer(4, 3, 1, 0.05)).toBe(true);
  });
});
