import { describe, expect, it } from 'vitest';
import { erfc, lnGamma, log1pmx, regularizedGammaP, regularizedGammaQ } from '../../../src-shared/math/gamma.ts';

const rel = (ours: number, exact: number) => Math.abs(ours - exact) / Math.abs(exact);

describe('incomplete gamma functions', () => {
  it('equal 1 - e^-x at a = 1 and erfc(sqrt x) at a = 1/2 (closed forms)', () => {
    for (const x of [1e-12, 1e-3, 0.5, 1, 3, 10, 40]) {
      expect(rel(regularizedGammaQ(1, x), Math.exp(-x)), `Q(1,${x})`).toBeLessThan(1e-14);
      expect(rel(regularizedGammaP(1, x), -Math.expm1(-x)), `P(1,${x})`).toBeLessThan(1e-14);
    }
    // erfc(1) = 0.157299207050285130658..., erfc(3) = 2.20904969985854413727e-5 (DLMF 7.2, A&S table 7.1).
    expect(rel(regularizedGammaQ(0.5, 1), 0.15729920705028513066)).toBeLessThan(1e-14);
    expect(rel(regularizedGammaQ(0.5, 9), 2.2090496998585441373e-5)).toBeLessThan(1e-13);
    expect(rel(erfc(3), 2.2090496998585441373e-5)).toBeLessThan(1e-13);
  });

  it('match the finite Poisson sum for integer a, also where Temme is used', () => {
    // Q(n, x) = e^-x sum_{k<n} x^k / k!, summed in logs.
    const poissonQ = (n: number, x: number) => {
      let total = 0;
      for (let k = 0; k < n; k++) total += Math.exp(-x + k * Math.log(x) - lnGamma(k + 1));
      return total;
    };
    for (const [n, x] of [
      [5, 3],
      [30, 25],
      [100, 110],
      [400, 380],
      [2000, 2050],
    ]) {
      expect(rel(regularizedGammaQ(n, x), poissonQ(n, x)), `Q(${n},${x})`).toBeLessThan(1e-11);
      expect(Math.abs(regularizedGammaP(n, x) + regularizedGammaQ(n, x) - 1)).toBeLessThan(1e-14);
    }
  });

  it('computes ln(1 + x) - x without cancellation', () => {
    // ln(1 + 1e-5) - 1e-5 = -x^2/2 + x^3/3 - ... = -4.99996666675e-11
    expect(rel(log1pmx(1e-5), -1e-10 / 2 + 1e-15 / 3 - 1e-20 / 4)).toBeLessThan(1e-14);
    expect(rel(log1pmx(5), Math.log(6) - 5)).toBeLessThan(1e-15);
  });

  it('rejects arguments outside the domain', () => {
    expect(() => regularizedGammaP(0, 1)).toThrow(/a must be/);
    expect(() => regularizedGammaQ(1, -1)).toThrow(/x must be/);
  });
});
