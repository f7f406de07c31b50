import { describe, expect, it } from 'vitest';
import { quantile, summarize } from '../../../src-shared/stats/summary.ts';
import { a12, a12Magnitude } from '../../../src-shared/stats/a12.ts';
import { mannWhitney } from '../../../src-shared/stats/mann-whitney.ts';
import { normalCdf } from '../../../src-shared/stats/jstat.ts';

describe('summaries', () => {
  // numpy 1.x/2.x: np.percentile([3,1,4,1,5,9,2,6], [25,50,75]) = [1.75, 3.5, 5.25],
  // np.std(..., ddof=1) = 2.748376143938713 (the R quantile type 7 convention).
  it('matches numpy percentiles and sample standard deviation', () => {
    const s = summarize([3, 1, 4, 1, 5, 9, 2, 6]);
    expect(s).toMatchObject({ n: 8, min: 1, max: 9, q1: 1.75, median: 3.5, q3: 5.25, iqr: 3.5, mean: 3.875 });
    expect(s.sd).toBeCloseTo(2.748376143938713, 12);
  });
  it('handles one value and refuses empty or non-finite samples', () => {
    expect(summarize([4])).toMatchObject({ median: 4, sd: 0, iqr: 0 });
    expect(() => summarize([])).toThrow(/at least one value/);
    expect(() => quantile([1, Infinity], 0.5)).toThrow(/value 1/);
  });
});

describe('Vargha-Delaney A12', () => {
  it('is P(X > Y) + P(X = Y)/2 counted over all pairs', () => {
    const x = [1, 2, 2, 5, 7];
    const y = [2, 3, 4];
    let wins = 0;
    for (const a of x) for (const b of y) wins += a > b ? 1 : a === b ? 0.5 : 0;
    expect(a12(x, y)).toBeCloseTo(wins / 15, 15);
    expect(a12(x, y) + a12(y, x)).toBeCloseTo(1, 15);
    expect(a12(x, y)).toBeCloseTo(mannWhitney(x, y).u1 / 15, 15);
  });

  it('is 1 for complete separation and 0.5 for identical samples', () => {
    expect(a12([5, 6, 7], [1, 2])).toBe(1);
    expect(a12([1, 2, 3], [1, 2, 3])).toBe(0.5);
  });

  // Vargha & Delaney (2000), p. 106: A = .56, .64 and .71 correspond to Cohen's d of 0.2, 0.5
  // and 0.8 for normal populations with equal variance, where A = Phi(d / sqrt 2).
  it("maps Cohen's d to A as in Vargha & Delaney's thresholds", () => {
    expect(normalCdf(0.2 / Math.SQRT2)).toBeCloseTo(0.56, 2);
    expect(normalCdf(0.5 / Math.SQRT2)).toBeCloseTo(0.64, 2);
    expect(normalCdf(0.8 / Math.SQRT2)).toBeCloseTo(0.71, 2);
  });

  it('labels magnitudes with the thresholds .56, .64, .71 (and their mirror images)', () => {
    expect(a12Magnitude(0.55)).toBe('negligible');
    expect(a12Magnitude(0.56)).toBe('small');
    expect(a12Magnitude(0.64)).toBe('medium');
    expect(a12Magnitude(0.71)).toBe('large');
    expect(a12Magnitude(0.29)).toBe('large');
    expect(a12Magnitude(0.4)).toBe('small');
  });
});
