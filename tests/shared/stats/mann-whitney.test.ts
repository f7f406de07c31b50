import { describe, expect, it } from 'vitest';
import { mannWhitney, mannWhitneyCounts, mannWhitneyExactCdf, tiedUCounts } from '../../../src-shared/stats/mann-whitney.ts';
import { rankWithTies } from '../../../src-shared/stats/ranks.ts';

function binomial(n: number, k: number): number {
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
  return r;
}

describe('Mann-Whitney exact null distribution', () => {
  it('has C(m+n, m) arrangements, is symmetric, and P(U = 0) = 1 / C(m+n, m)', () => {
    for (const [m, n] of [
      [3, 3],
      [4, 7],
      [8, 8],
      [10, 12],
    ]) {
      const counts = mannWhitneyCounts(m, n);
      expect(counts.length).toBe(m * n + 1);
      expect(counts.reduce((s, c) => s + c, 0)).toBe(binomial(m + n, m));
      for (let u = 0; u <= m * n; u++) expect(counts[u]).toBe(counts[m * n - u]);
      expect(mannWhitneyExactCdf(0, m, n)).toBeCloseTo(1 / binomial(m + n, m), 15);
    }
  });

  it('matches a brute-force enumeration of all arrangements for m = 4, n = 5', () => {
    const brute = new Array<number>(21).fill(0);
    for (let mask = 0; mask < 1 << 9; mask++) {
      if (mask.toString(2).split('1').length - 1 !== 4) continue;
      // positions 0..8 in increasing order; bits set are x's; U counts y's below each x
      let u = 0;
      let ys = 0;
      for (let p = 0; p < 9; p++) (mask >> p) & 1 ? (u += ys) : ys++;
      brute[u]++;
    }
    expect(mannWhitneyCounts(4, 5)).toEqual(brute);
  });

  // Critical values of U for a two-sided test at alpha = 0.05 from the standard table
  // (e.g. Siegel & Castellan, Nonparametric Statistics for the Behavioral Sciences, 2nd ed.,
  // Table J; the same values appear in most introductory statistics texts): the largest u
  // with P(U <= u) <= 0.025.
  it.each([
    [5, 5, 2],
    [8, 8, 13],
    [10, 10, 23],
    [20, 20, 127],
    [6, 9, 10],
  ])('critical U for n1 = %i, n2 = %i is %i', (m, n, critical) => {
    expect(mannWhitneyExactCdf(critical, m, n)).toBeLessThanOrEqual(0.025);
    expect(mannWhitneyExactCdf(critical + 1, m, n)).toBeGreaterThan(0.025);
  });

  it('P(U <= 2) for n1 = n2 = 5 is 4/252 (Mann & Whitney 1947, Table I)', () => {
    expect(mannWhitneyExactCdf(2, 5, 5)).toBeCloseTo(4 / 252, 15);
  });
});

describe('mannWhitney', () => {
  // The example in the scipy.stats.mannwhitneyu documentation (ages of male and female
  // students, from Conover, Practical Nonparametric Statistics): U1 = 17, exact p = 1/9;
  // asymptotic p = 0.11134688653314041 (scipy 1.17.1, continuity correction).
  const males = [19, 22, 16, 29, 24];
  const females = [20, 11, 17, 12];

  it('gives the exact p-value of the scipy documentation example', () => {
    const r = mannWhitney(males, females);
    expect(r.method).toBe('exact');
    expect(r.u1).toBe(17);
    expect(r.u2).toBe(3);
    expect(r.p).toBeCloseTo(0.1111111111111111, 14);
  });

  it('gives the normal-approximation p-value of the same example', () => {
    const r = mannWhitney(males, females, { method: 'normal' });
    expect(r.p).toBeCloseTo(0.11134688653314041, 12);
  });

  it('is symmetric in its samples', () => {
    const a = mannWhitney(males, females);
    const b = mannWhitney(females, males);
    expect(b.u1).toBe(a.u2);
    expect(b.p).toBeCloseTo(a.p, 14);
  });

  it('gives the tie-corrected normal approximation on request (scipy 1.17.1: U = 27, p = 0.05165568880802359)', () => {
    const x = [1.1, 2.2, 2.2, 3.0, 4.5, 4.5, 4.5, 6.0, 7.1, 8.0];
    const y = [2.2, 3.0, 3.0, 5.5, 6.0, 8.0, 9.1, 9.1, 10.2, 11.0, 12.5];
    const r = mannWhitney(x, y, { method: 'normal' });
    expect(r.method).toBe('normal');
    expect(r.u1).toBe(27);
    expect(r.p).toBeCloseTo(0.05165568880802359, 12);
  });

  it('is exact with ties for small samples: equals a brute-force count over every split of the pooled values', () => {
    // Integer scores with many ties, as the dice objectives give them.
    const x = [3, 5, 5, 7, 9, 9];
    const y = [5, 7, 7, 9, 11, 11, 12];
    const pooled = [...x, ...y];
    const n1 = x.length;
    const u = (first: number[], second: number[]) => first.reduce((s, a) => s + second.reduce((t, b) => t + (a > b ? 1 : a === b ? 0.5 : 0), 0), 0);
    const mu = (n1 * y.length) / 2;
    const observed = Math.abs(u(x, y) - mu);
    let total = 0;
    let extreme = 0;
    for (let mask = 0; mask < 1 << pooled.length; mask++) {
      let bits = 0;
      for (let m = mask; m; m &= m - 1) bits++;
      if (bits !== n1) continue;
      const a = pooled.filter((_, i) => mask & (1 << i));
      const b = pooled.filter((_, i) => !(mask & (1 << i)));
      total++;
      if (Math.abs(u(a, b) - mu) >= observed - 1e-9) extreme++;
    }
    expect(total).toBe(1716); // C(13, 6)
    const r = mannWhitney(x, y);
    expect(r.method).toBe('exact');
    expect(r.u1).toBe(u(x, y));
    expect(r.p).toBeCloseTo(extreme / total, 14);
    // Its distribution has C(13, 6) arrangements in all.
    const counts = tiedUCounts(rankWithTies(pooled).ranks, n1);
    expect(counts.reduce((s, c) => s + c, 0)).toBe(1716);
    // Large tied samples still use the normal approximation.
    expect(mannWhitney([...x, ...x, ...x, ...x], [...y, ...y, ...y, ...y]).method).toBe('normal');
  });

  it('gives p = 1 when every value is tied', () => {
    expect(mannWhitney([3, 3, 3], [3, 3]).p).toBe(1);
  });

  it('refuses empty samples, NaN and the exact method with ties beyond 50 values', () => {
    expect(() => mannWhitney([], [1])).toThrow(/sample x is empty/);
    expect(() => mannWhitney([1, NaN], [1])).toThrow(/x\[1\]/);
    const big = Array.from({ length: 26 }, (_, i) => i % 5);
    expect(() => mannWhitney(big, big, { method: 'exact' })).toThrow(/exact test with ties takes n1 \+ n2 <= 50, got 52/);
  });
});
