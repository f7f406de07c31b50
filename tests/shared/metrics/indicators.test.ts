import { describe, expect, it } from 'vitest';
import { additiveEpsilon, bestSingleObjective, feasibilityRate, igd, igdPlus, spacing } from '../../../src-shared/metrics/indicators.ts';
import { diceHvNormalisation, normalisedHypervolume } from '../../../src-shared/problems/dice/hv-reference.ts';
import { trackConfig } from '../../../src-shared/problems/dice/config.ts';

describe('IGD and IGD+', () => {
  // Ishibuchi, Masuda, Tanigaki, Nojima, EMO 2015 (LNCS 9019), the worked example with
  // reference points Z and two sets A, B: IGD(A) = 3.707, IGD(B) = 2.591 (IGD prefers B),
  // IGD+(A) = 1.482, IGD+(B) = 2.260 (IGD+ prefers A, which dominates B).
  const Z = [
    [0, 10],
    [1, 6],
    [2, 2],
    [6, 1],
    [10, 0],
  ];
  const A = [
    [2, 4],
    [3, 3],
    [4, 2],
  ];
  const B = [
    [2, 8],
    [4, 4],
    [8, 2],
  ];
  it('reproduces the published values (printed with 3 decimals)', () => {
    const near = (v: number, published: number) => expect(Math.abs(v - published)).toBeLessThan(1e-3);
    near(igd(A, Z), 3.707);
    near(igd(B, Z), 2.591);
    near(igdPlus(A, Z), 1.482);
    near(igdPlus(B, Z), 2.26);
    // exact: IGD+(A) = (2 + 1 + sqrt 2 + 1 + 2) / 5
    expect(igdPlus(A, Z)).toBeCloseTo((6 + Math.SQRT2) / 5, 12);
  });
  it('is 0 for a set that weakly dominates the reference set', () => {
    expect(igdPlus(Z, Z)).toBe(0);
    expect(igdPlus([[0, 0]], Z)).toBe(0);
  });
  it('rejects empty and mismatched sets', () => {
    expect(() => igdPlus([], Z)).toThrow(/front is empty/);
    expect(() => igdPlus([[1, 2, 3]], Z)).toThrow(/front\[0\] has 3 objectives, expected 2/);
  });
});

describe('additive epsilon', () => {
  it('is the smallest shift that makes the front weakly dominate the reference set', () => {
    // For z = (0,10): min over A of max(a - z) = min(max(2,-6), max(3,-7), max(4,-8)) = 2;
    // z = (1,6): 1; z = (2,2): min(2,1,2) = 1; z = (6,1): min(3,2,1) = 1; z = (10,0): min(4,3,2) = 2.
    const Z = [
      [0, 10],
      [1, 6],
      [2, 2],
      [6, 1],
      [10, 0],
    ];
    expect(
      additiveEpsilon(
        [
          [2, 4],
          [3, 3],
          [4, 2],
        ],
        Z,
      ),
    ).toBe(2);
    expect(additiveEpsilon(Z, Z)).toBe(0);
    expect(additiveEpsilon([[-1, -1]], Z)).toBe(-1);
  });
});

describe('spacing (Schott)', () => {
  it('is 0 for evenly spaced points and matches a hand computation otherwise', () => {
    expect(
      spacing([
        [0, 3],
        [1, 2],
        [2, 1],
        [3, 0],
      ]),
    ).toBe(0);
    // nearest Manhattan distances: (0,4)->(1,2): 3; (1,2)->(0,4) 3; (3,0)->(1,2) 4. mean 10/3;
    // S = sqrt(((3-10/3)^2*2 + (4-10/3)^2) / 2) = sqrt((2/9 + 4/9) / 2) = sqrt(1/3)
    expect(
      spacing([
        [0, 4],
        [1, 2],
        [3, 0],
      ]),
    ).toBeCloseTo(Math.sqrt(1 / 3), 12);
    expect(spacing([[1, 1]])).toBe(0);
  });
});

describe('feasibility rate and best SO value', () => {
  const runs = [
    { objectives: [5], violation: 0 },
    { objectives: [3], violation: 0.2 },
    { objectives: [7], violation: 0 },
    { objectives: [1], violation: 4 },
  ];
  it('counts feasible solutions and takes the best feasible objective', () => {
    expect(feasibilityRate(runs)).toBe(0.5);
    expect(bestSingleObjective(runs)).toBe(5);
    expect(bestSingleObjective(runs.filter((r) => r.violation > 0))).toBeNull();
    expect(() => feasibilityRate([])).toThrow(/empty/);
  });
});

describe('dice HV normalisation', () => {
  it('uses ideal 0, a positive nadir per objective, and is reproducible', () => {
    const config = trackConfig('mo3', 120);
    const a = diceHvNormalisation(config, { samples: 200 });
    const b = diceHvNormalisation(config, { samples: 200 });
    expect(a).toEqual(b);
    expect(a.ideal).toEqual([0, 0, 0]);
    expect(a.reference).toEqual([1.1, 1.1, 1.1]);
    for (const v of a.nadir) expect(v).toBeGreaterThan(0);
    // a point at the nadir owns (1.1 - 1)^3, one at the ideal 1.1^3
    expect(normalisedHypervolume([a.nadir], a)).toBeCloseTo(0.1 ** 3, 12);
    expect(normalisedHypervolume([[0, 0, 0]], a)).toBeCloseTo(1.1 ** 3, 12);
    expect(normalisedHypervolume([], a)).toBe(0);
  });
});
