import { describe, expect, it } from 'vitest';
import { mean, median, quantile, quantileOfSorted, summarize } from '../../../src-shared/stats/summary.ts';
import { a12, a12Magnitude } from '../../../src-shared/stats/a12.ts';
import { normalCdf } from '../../../src-shared/stats/jstat.ts';
import { Random } from '../../../src-shared/random.ts';

describe('summaries', () => {
  // By hand: sorted [1, 1, 2, 3, 4, 5, 6, 9]; definition 7 puts the p-quantile at h = 7p:
  // q1 at h = 1.75 -> 1 + 0.75 (2 - 1) = 1.75, median at 3.5 -> 3.5, q3 at 5.25 -> 5.25.
  // Mean 31/8; squared deviations sum to 52.875, so sd = sqrt(52.875 / 7). numpy agrees:
  // np.percentile([3,1,4,1,5,9,2,6], [25,50,75]) = [1.75, 3.5, 5.25], np.std(ddof=1) = 2.748376143938713.
  it('matches hand-computed percentiles and sample standard deviation', () => {
    const s = summarize([3, 1, 4, 1, 5, 9, 2, 6]);
    expect(s).toEqual({ n: 8, mean: 3.875, sd: Math.sqrt(52.875 / 7), min: 1, q1: 1.75, median: 3.5, q3: 5.25, max: 9, iqr: 3.5 });
    expect(s.sd).toBeCloseTo(2.748376143938713, 12);
  });

  it('computes quantiles by linear interpolation between order statistics (Hyndman & Fan type 7)', () => {
    const v = [10, 40, 20, 30]; // sorted 10 20 30 40, h = 3p
    expect(quantile(v, 0)).toBe(10);
    expect(quantile(v, 1)).toBe(40);
    expect(quantile(v, 0.5)).toBe(25); // h = 1.5
    expect(quantile(v, 0.1)).toBeCloseTo(13, 12); // h = 0.3 -> 10 + 0.3 * 10
    expect(quantile(v, 0.9)).toBeCloseTo(37, 12); // h = 2.7 -> 30 + 0.7 * 10
    expect(quantile(v, 2 / 3)).toBeCloseTo(30, 12); // h = 2, an order statistic
    expect(median([7, 1, 3])).toBe(3);
    expect(median([7, 1, 3, 5])).toBe(4);
    expect(v).toEqual([10, 40, 20, 30]); // the input is not sorted in place
  });

  it('has the textbook mean and standard deviation of 2, 4, 4, 4, 5, 5, 7, 9', () => {
    // Mean 5; squared deviations 9+1+1+1+0+0+4+16 = 32; sample sd sqrt(32/7).
    const s = summarize([2, 4, 4, 4, 5, 5, 7, 9]);
    expect(mean([2, 4, 4, 4, 5, 5, 7, 9])).toBe(5);
    expect(s.mean).toBe(5);
    expect(s.sd).toBeCloseTo(Math.sqrt(32 / 7), 14);
    expect([s.q1, s.median, s.q3, s.iqr]).toEqual([4, 4.5, 5.5, 1.5]); // h = 1.75, 3.5, 5.25
  });

  it('handles one value and refuses empty or non-finite samples, naming the value', () => {
    expect(summarize([4])).toEqual({ n: 1, mean: 4, sd: 0, min: 4, q1: 4, median: 4, q3: 4, max: 4, iqr: 0 });
    expect(() => summarize([])).toThrow('summarize: needs at least one value');
    expect(() => mean([])).toThrow('mean: needs at least one value');
    expect(() => quantile([1, Infinity], 0.5)).toThrow('quantile: value 1 is not a finite number (Infinity)');
    expect(() => quantile([1, 2], 1.5)).toThrow('quantile: p must be in [0, 1], got 1.5');
    expect(() => summarize([1, NaN])).toThrow('summarize: value 1 is not a finite number (NaN)');
  });
});

describe('quantileOfSorted: the one quantile helper', () => {
  it("gives NumPy's linear, higher and midpoint quantiles", () => {
    // np.quantile([1, 2, 3, 4], [.25, .5, .75], method=...): linear 1.75 2.5 3.25,
    // higher 2 3 4, midpoint 1.5 2.5 3.5; at p = 0 and 1 every method gives min and max.
    const q = (method: 'linear' | 'higher' | 'midpoint') => [0, 0.25, 0.5, 0.75, 1].map((p) => quantileOfSorted([1, 2, 3, 4], p, method));
    expect(q('linear')).toEqual([1, 1.75, 2.5, 3.25, 4]);
    expect(q('higher')).toEqual([1, 2, 3, 4, 4]);
    expect(q('midpoint')).toEqual([1, 1.5, 2.5, 3.5, 4]);
    expect(quantileOfSorted([5], 0.3)).toBe(5);
    expect(quantileOfSorted([], 0.5)).toBeNaN();
    expect(quantileOfSorted(Float64Array.of(1, 3), 0.5)).toBe(2);
  });

  it('treats +Infinity as a censored value: a quantile on or towards it is Infinity', () => {
    expect(quantileOfSorted([1, 2, 3, Infinity], 0.5)).toBe(2.5);
    expect(quantileOfSorted([1, 2, 3, Infinity], 0.75)).toBe(Infinity);
    expect(quantileOfSorted([1, Infinity, Infinity], 0.5)).toBe(Infinity);
    expect(quantileOfSorted([Infinity, Infinity], 0.5)).toBe(Infinity);
    expect(quantileOfSorted([1, 2, Infinity], 0.5)).toBe(2);
  });

  it('gives, bit for bit, the numbers of the code it replaced', () => {
    // Values spread over many orders of magnitude, so that x + (y - x)/2 and (x + y)/2 differ.
    const random = Random.fromSeed(2024);
    let linearDiffers = 0;
    for (let trial = 0; trial < 2000; trial++) {
      const n = random.int(1, 40);
      const sorted = Array.from({ length: n }, () => random.float() * 10 ** random.int(-3, 3)).sort((a, b) => a - b);
      const m = n >> 1;
      // summary.ts before: type 7 in one formula.
      for (const p of [0, 0.1, 0.25, 0.5, 0.75, 0.9, 1]) {
        const h = (n - 1) * p;
        const lo = Math.floor(h);
        const hi = Math.min(lo + 1, n - 1);
        expect(quantileOfSorted(sorted, p)).toBe(sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]));
      }
      // hv-reference.ts (stored HV nadirs) and bench/nqueens.ts before: the mean of the middle two.
      const midpoint = n % 2 ? sorted[(n - 1) / 2] : (sorted[m - 1] + sorted[m]) / 2;
      expect(quantileOfSorted(sorted, 0.5, 'midpoint')).toBe(midpoint);
      if (quantileOfSorted(sorted, 0.5) !== midpoint) linearDiffers++;
      // annealing.ts (its start temperature) and bench/hv.ts before: the upper middle value.
      expect(quantileOfSorted(sorted, 0.5, 'higher')).toBe(sorted[m]);
      if (n % 2) expect(quantileOfSorted(sorted, 0.5)).toBe(sorted[m]);
      // Integers (bench/nqueens.ts step counts): linear and midpoint agree exactly.
      const ints = sorted.map((v) => Math.round(v * 1000));
      expect(quantileOfSorted(ints, 0.5)).toBe(quantileOfSorted(ints, 0.5, 'midpoint'));
    }
    // Why the nadirs keep 'midpoint': the type-7 formula differs from it in the last bit.
    expect(linearDiffers).toBeGreaterThan(0);
  });
});

/** Vargha & Delaney's definition, counted over all n1·n2 pairs: P(X > Y) + P(X = Y) / 2. */
function bruteA12(x: readonly number[], y: readonly number[]): number {
  let wins = 0;
  for (const a of x) for (const b of y) wins += a > b ? 1 : a === b ? 0.5 : 0;
  return wins / (x.length * y.length);
}

/** The standard normal quantile, by bisection on the CDF (only to build test samples). */
function normalQuantile(p: number): number {
  let lo = -10;
  let hi = 10;
  for (let k = 0; k < 100; k++) {
    const mid = (lo + hi) / 2;
    if (normalCdf(mid) < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

describe('Vargha-Delaney A12', () => {
  it('is P(X > Y) + P(X = Y)/2 counted over all pairs, on random samples with many ties', () => {
    const random = Random.fromSeed(12);
    for (let trial = 0; trial < 200; trial++) {
      const x = Array.from({ length: random.int(1, 12) }, () => random.int(0, 6));
      const y = Array.from({ length: random.int(1, 12) }, () => random.int(0, 6) + (trial % 3) - 1);
      expect(a12(x, y), `${x} vs ${y}`).toBeCloseTo(bruteA12(x, y), 12);
      expect(a12(x, y) + a12(y, x)).toBeCloseTo(1, 12);
    }
  });

  it('gives hand-counted values on small samples', () => {
    // x = 1 2 2 5 7, y = 2 3 4: pairs won 0 + 0.5 + 0.5 + 3 + 3 = 7 of 15.
    expect(a12([1, 2, 2, 5, 7], [2, 3, 4])).toBeCloseTo(7 / 15, 15);
    // Every pair tied: one half.
    expect(a12([3, 3], [3, 3, 3])).toBe(0.5);
    // 10 beats none of 10 20 30 (half a tie), 25 beats two, 35 beats three: 3.5 of 9.
    expect(a12([10, 25, 35], [10, 20, 30])).toBeCloseTo(5.5 / 9, 15);
    expect(a12([5], [4])).toBe(1);
    expect(a12([4], [5])).toBe(0);
  });

  // The tortoise and the hare (Wikipedia, "Mann-Whitney U test", illustration of calculation
  // methods): finishing order T H H H H H T T T T T H, U_T = 11 and U_H = 25 out of 36 pairs.
  // A12 of the finishing places (larger = slower) is the hare's U over 36 for the tortoise.
  it('reproduces the tortoise-and-hare Mann-Whitney example: U_T = 11, U_H = 25', () => {
    const order = 'THHHHHTTTTTH';
    const places = (who: string) => [...order].flatMap((c, i) => (c === who ? [i + 1] : []));
    expect(a12(places('T'), places('H'))).toBeCloseTo(25 / 36, 15);
    expect(a12(places('H'), places('T'))).toBeCloseTo(11 / 36, 15);
  });

  it('is 1 for complete separation, 0.5 for identical samples, and invariant under monotone transforms', () => {
    expect(a12([5, 6, 7], [1, 2])).toBe(1);
    expect(a12([1, 2], [5, 6, 7])).toBe(0);
    expect(a12([1, 2, 3], [1, 2, 3])).toBe(0.5);
    const x = [0.3, 1.7, 2.2, 2.2, 5];
    const y = [0.1, 2.2, 3.5];
    const value = a12(x, y);
    expect(a12(x.map(Math.exp), y.map(Math.exp))).toBe(value);
    expect(
      a12(
        x.map((v) => 3 * v - 7),
        y.map((v) => 3 * v - 7),
      ),
    ).toBe(value);
    // Reversing the order (negating) swaps the roles.
    expect(
      a12(
        x.map((v) => -v),
        y.map((v) => -v),
      ),
    ).toBeCloseTo(1 - value, 15);
    // The order of the values inside a sample does not matter.
    expect(a12([...x].reverse(), [...y].reverse())).toBe(value);
  });

  // Vargha & Delaney (2000), p. 106: for normal populations with equal variance, A = Phi(d / sqrt 2),
  // and Cohen's d = 0.2, 0.5, 0.8 correspond to A = .56, .64, .71. Our A12 on evenly spaced
  // normal quantiles (a stand-in for the populations) shifted by d must give those values.
  it("gives Vargha & Delaney's A = .56, .64, .71 for normal samples shifted by d = 0.2, 0.5, 0.8", () => {
    const n = 2000;
    const base = Array.from({ length: n }, (_, i) => normalQuantile((i + 0.5) / n));
    const published: [number, number][] = [
      [0.2, 0.56],
      [0.5, 0.64],
      [0.8, 0.71],
    ];
    for (const [d, a] of published) {
      const value = a12(
        base.map((v) => v + d),
        base,
      );
      expect(Math.abs(value - normalCdf(d / Math.SQRT2)), `d = ${d}`).toBeLessThan(2e-3);
      expect(Math.round(value * 100) / 100, `d = ${d}`).toBe(a);
    }
    expect(a12(base, base)).toBe(0.5);
  });

  it('refuses empty samples', () => {
    expect(() => a12([], [1])).toThrow('a12: both samples need at least one value');
    expect(() => a12([1], [])).toThrow('a12: both samples need at least one value');
  });

  it('labels magnitudes with the thresholds .56, .64, .71 (and their mirror images)', () => {
    expect(a12Magnitude(0.5)).toBe('negligible');
    expect(a12Magnitude(0.55)).toBe('negligible');
    expect(a12Magnitude(0.45)).toBe('negligible');
    expect(a12Magnitude(0.56)).toBe('small');
    expect(a12Magnitude(0.44)).toBe('small');
    expect(a12Magnitude(0.63)).toBe('small');
    expect(a12Magnitude(0.64)).toBe('medium');
    expect(a12Magnitude(0.36)).toBe('medium');
    expect(a12Magnitude(0.7)).toBe('medium');
    expect(a12Magnitude(0.71)).toBe('large');
    expect(a12Magnitude(0.29)).toBe('large');
    expect(a12Magnitude(1)).toBe('large');
    expect(a12Magnitude(0)).toBe('large');
    expect(a12Magnitude(0.4)).toBe('small');
  });
});
