import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { chi2Quantile, normalQuantile } from '../../../src-shared/math/chi2.ts';
import { regularizedGammaP, regularizedGammaQ } from '../../../src-shared/math/gamma.ts';
import { blockQuantile } from '../../../src-shared/problems/dice/chi2.ts';

// scipy.stats.chi2.ppf(p, 6^d - 1), d = 1..12, 21 percent points each (copied from ../shared/golden).
const rows: { d: number; df: number; p: number; q: number }[] = readFileSync(
  fileURLToPath(new URL('../../fixtures/chi2-quantiles.jsonl', import.meta.url)),
  'utf8',
)
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line));

describe('chi-square quantiles against scipy chi2.ppf', () => {
  it('has all 252 rows, d = 1..12', () => {
    expect(rows).toHaveLength(252);
    expect(new Set(rows.map((r) => r.d))).toEqual(new Set([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]));
  });

  it('matches every row to 1e-12 relative', () => {
    const misses = rows.map((r) => ({ ...r, ours: chi2Quantile(r.df, r.p) })).filter((r) => !(Math.abs(r.ours - r.q) <= 1e-12 * r.q));
    expect(misses).toEqual([]);
  });

  it('inverts P: the returned q brackets p within q(1 -+ 1e-13)', () => {
    // A bracket rather than |P(q) - p|: deep in the tail of a huge df, P moves by
    // ~1e5 ulps per ulp of q, so the tail error of a correctly rounded q can be 1e-11.
    const cdf = (df: number, q: number) => regularizedGammaP(df / 2, q / 2);
    const upperTail = (df: number, q: number) => regularizedGammaQ(df / 2, q / 2);
    for (const df of [1, 2, 7, 35, 1295, 1e6, 2176782335]) {
      for (const p of [1e-6, 0.01, 0.3, 0.5, 0.7, 0.99]) {
        const q = chi2Quantile(df, p);
        if (p <= 0.5) {
          expect(cdf(df, q * (1 - 1e-13)), `df=${df} p=${p}`).toBeLessThan(p);
          expect(cdf(df, q * (1 + 1e-13)), `df=${df} p=${p}`).toBeGreaterThan(p);
        } else {
          expect(upperTail(df, q * (1 - 1e-13)), `df=${df} p=${p}`).toBeGreaterThan(1 - p);
          expect(upperTail(df, q * (1 + 1e-13)), `df=${df} p=${p}`).toBeLessThan(1 - p);
        }
      }
    }
  });

  it('maps p = 0 to 0 and p = 1 to Infinity, and rejects p outside [0, 1]', () => {
    expect(chi2Quantile(5, 0)).toBe(0);
    expect(chi2Quantile(5, 1)).toBe(Infinity);
    expect(() => chi2Quantile(5, 1.5)).toThrow(/p must be in \[0, 1\]/);
    expect(() => chi2Quantile(0, 0.5)).toThrow(/df must be/);
  });

  it('caches block quantiles per (d, p) with df = 6^d - 1', () => {
    const row = rows.find((r) => r.d === 12 && r.p === 0.9)!;
    expect(blockQuantile(12, 0.9)).toBe(chi2Quantile(row.df, 0.9));
    expect(Math.abs(blockQuantile(12, 0.9) - row.q)).toBeLessThanOrEqual(1e-12 * row.q);
  });
});

describe('normal quantile', () => {
  it('matches textbook values', () => {
    // Abramowitz & Stegun table 26.5: z_0.975 = 1.959963984540054, z_0.999 = 3.090232306167814.
    expect(normalQuantile(0.975)).toBeCloseTo(1.959963984540054, 13);
    expect(normalQuantile(0.999)).toBeCloseTo(3.090232306167814, 12);
    expect(normalQuantile(0.5)).toBe(0);
    expect(normalQuantile(0.025)).toBeCloseTo(-1.959963984540054, 13);
  });
});
