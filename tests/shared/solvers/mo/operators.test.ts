import { describe, expect, it } from 'vitest';
import { dasDennis, dasDennisCount, twoPointCrossover, uniformMutation } from '../../../../src-shared/solvers/mo/operators.ts';
import { defaultDivisions, hyperplaneIntercepts } from '../../../../src-shared/solvers/mo/nsga3.ts';
import { Random } from '../../../../src-shared/random.ts';
import { createDiceProblem } from '../../../../src-shared/problems/dice/problem.ts';
import { trackConfig } from '../../../../src-shared/problems/dice/config.ts';

describe('Das-Dennis reference directions', () => {
  it('has C(H + M - 1, M - 1) points, as in Deb & Jain 2014 (Table I: 91 for M = 3, H = 12; 210 for M = 5, H = 6)', () => {
    expect(dasDennis(3, 12)).toHaveLength(91);
    expect(dasDennis(5, 6)).toHaveLength(210);
    expect(dasDennisCount(3, 12)).toBe(91);
    expect(dasDennisCount(5, 6)).toBe(210);
    expect(dasDennisCount(7, 4)).toBe(210);
    expect(dasDennisCount(10, 3)).toBe(220); // Deb & Jain's 275 for M = 10 are 220 (H = 3) + 55 (H = 2)
    expect(dasDennisCount(7, defaultDivisions(7))).toBe(210);
  });

  it('gives distinct vectors of multiples of 1/H on the unit simplex', () => {
    for (const [m, h] of [
      [2, 5],
      [3, 4],
      [4, 3],
      [7, 2],
    ]) {
      const w = dasDennis(m, h);
      expect(new Set(w.map((v) => v.join())).size).toBe(w.length);
      for (const v of w) {
        expect(v.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
        for (const x of v) expect(Math.abs(x * h - Math.round(x * h))).toBeLessThan(1e-9);
      }
    }
    expect(dasDennis(2, 2)).toEqual([
      [1, 0],
      [0.5, 0.5],
      [0, 1],
    ]);
    expect(() => dasDennis(3, 0)).toThrow(/divisions must be a positive integer/);
  });
});

describe('variation operators', () => {
  it('two-point crossover exchanges one segment and keeps the multiset of genes per position', () => {
    const random = Random.fromSeed(9);
    for (let t = 0; t < 50; t++) {
      const x = Uint8Array.from({ length: 20 }, () => 1);
      const y = Uint8Array.from({ length: 20 }, () => 2);
      twoPointCrossover(x, y, random);
      for (let i = 0; i < 20; i++) expect(x[i] + y[i]).toBe(3);
      // x holds 2s in one contiguous segment at most
      const s = Array.from(x).join('');
      expect(s).toMatch(/^1*2*1*$/);
    }
  });

  it('uniform mutation changes about rate * N positions and stays within the faces', () => {
    const problem = createDiceProblem(trackConfig('mo2', 1000));
    const random = Random.fromSeed(1);
    const x = new Uint8Array(1000).fill(1);
    uniformMutation(x, 0.3, problem, random);
    const redrawnToOther = x.filter((v) => v !== 1).length; // a redraw keeps 1 with probability 1/6
    expect(redrawnToOther).toBeGreaterThan(0.3 * 1000 * (5 / 6) * 0.8);
    expect(redrawnToOther).toBeLessThan(0.3 * 1000 * (5 / 6) * 1.2);
    for (const v of x) expect(v >= 1 && v <= 6).toBe(true);
  });
});

describe('NSGA-III normalisation (Deb & Jain 2014, Sec. IV-C)', () => {
  it('finds the intercepts of the plane through the extreme points', () => {
    // points on the plane x/2 + y/4 + z/8 = 1, including its three axis points
    const points = [
      [2, 0, 0],
      [0, 4, 0],
      [0, 0, 8],
      [1, 2, 0],
      [0.5, 1, 2],
      [1, 0, 4],
    ];
    const a = hyperplaneIntercepts(points);
    expect(a[0]).toBeCloseTo(2, 9);
    expect(a[1]).toBeCloseTo(4, 9);
    expect(a[2]).toBeCloseTo(8, 9);
  });
  it('falls back to the worst values when the hyperplane is degenerate', () => {
    // every extreme point is the same vector: singular system
    expect(
      hyperplaneIntercepts([
        [1, 1, 1],
        [2, 2, 2],
      ]),
    ).toEqual([2, 2, 2]);
    // a zero range becomes 1
    expect(
      hyperplaneIntercepts([
        [0, 0],
        [0, 0],
      ]),
    ).toEqual([1, 1]);
  });
});
