import { describe, expect, it } from 'vitest';
import { friedman, friedmanPairwise, friedmanStatisticFromRanks, imanDavenport } from '../../../src-shared/stats/friedman.ts';
import { holmAdjust } from '../../../src-shared/stats/holm.ts';

describe('Friedman test', () => {
  // J. Demšar, "Statistical Comparisons of Classifiers over Multiple Data Sets", JMLR 7:1-30,
  // 2006, §3.2.2: four variants of C4.5 on 14 data sets have average ranks 3.143, 2.000,
  // 2.893 and 1.964, giving chi2_F = 9.28 and F_F = 3.69.
  const demsarRanks = [3.143, 2.0, 2.893, 1.964];

  it("reproduces Demšar's chi2_F = 9.28 and F_F = 3.69", () => {
    const chi2 = friedmanStatisticFromRanks(demsarRanks, 14);
    expect(chi2).toBeCloseTo(9.28, 2);
    expect(imanDavenport(chi2, 14, 4)).toBeCloseTo(3.69, 2);
  });

  it("gives Demšar's post-hoc z for C4.5 vs C4.5+m+cf: (3.143 - 1.964) / sqrt(4·5 / (6·14)) = 2.416", () => {
    const pairs = friedmanPairwise(demsarRanks, 14);
    const pair = pairs.find((p) => p.i === 0 && p.j === 3)!;
    expect(pair.z).toBeCloseTo(2.416, 2);
    expect(pair.p).toBeCloseTo(0.0157, 3);
    expect(pairs).toHaveLength(6);
    // Holm never lowers a p-value and keeps the order of the raw p-values.
    for (const p of pairs) expect(p.pHolm).toBeGreaterThanOrEqual(p.p);
  });

  // The example of the scipy.stats.friedmanchisquare documentation (pulse before, immediately
  // after and 5 minutes after exercise, 7 subjects); scipy 1.17.1 gives
  // statistic = 10.57142857142857, p = 0.005063414171757498 (with its tie correction).
  it('matches scipy.stats.friedmanchisquare on its documentation example, ties included', () => {
    const before = [72, 96, 88, 92, 74, 76, 82];
    const after = [120, 120, 132, 120, 101, 96, 112];
    const later = [76, 95, 104, 96, 84, 72, 76];
    const blocks = before.map((_, b) => [before[b], after[b], later[b]]);
    const r = friedman(blocks);
    expect(r.chiSquare).toBeCloseTo(10.57142857142857, 10);
    expect(r.p).toBeCloseTo(0.005063414171757498, 10);
  });

  it('ranks the best treatment 1 and flips with higherIsBetter', () => {
    const data = [
      [1, 2, 3],
      [1, 3, 2],
      [1, 2, 3],
    ];
    expect(friedman(data).averageRanks).toEqual([1, 7 / 3, 8 / 3]);
    expect(friedman(data, { higherIsBetter: true }).averageRanks).toEqual([3, 5 / 3, 4 / 3]);
  });

  it('refuses ragged or too small tables', () => {
    expect(() => friedman([[1, 2]])).toThrow(/at least 2 blocks/);
    expect(() => friedman([[1], [2]])).toThrow(/at least 2 treatments/);
    expect(() => friedman([[1, 2], [1]])).toThrow(/block 1 has 1 values/);
  });
});

describe('Holm adjustment', () => {
  // Holm (1979): sorted p_(i) times (m - i + 1), made monotone. Worked by hand for
  // p = (0.01, 0.04, 0.03, 0.005): 0.005·4 = 0.02, 0.01·3 = 0.03, 0.03·2 = 0.06,
  // max(0.04·1, 0.06) = 0.06.
  it('adjusts a hand-worked example', () => {
    const adjusted = holmAdjust([0.01, 0.04, 0.03, 0.005]);
    [0.03, 0.06, 0.06, 0.02].forEach((v, i) => expect(adjusted[i]).toBeCloseTo(v, 15));
  });
  it('caps at 1 and refuses values outside [0, 1]', () => {
    expect(holmAdjust([0.6, 0.7])).toEqual([1, 1]);
    expect(() => holmAdjust([1.5])).toThrow(/p-value 0/);
  });
});
