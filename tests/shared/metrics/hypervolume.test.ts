import { describe, expect, it } from 'vitest';
import { hypervolume, normalise, normalisedReferencePoint, simplexPoints } from '../../../src-shared/metrics/hypervolume.ts';
import { normalisedHypervolume } from '../../../src-shared/problems/dice/hv-reference.ts';
import { Random } from '../../../src-shared/random.ts';

/**
 * Brute force: compress the coordinates of each axis, walk every cell of the resulting grid and
 * add the cell's volume when some point weakly dominates its lower corner. Exact for any set.
 */
function gridHypervolume(points: number[][], ref: number[]): number {
  const m = ref.length;
  const axes = ref.map((r, k) => [...new Set([...points.map((p) => p[k]).filter((v) => v < r), r])].sort((a, b) => a - b));
  let volume = 0;
  const corner = new Array<number>(m).fill(0);
  const walk = (k: number, size: number): void => {
    if (k === m) {
      if (points.some((p) => p.every((v, j) => v <= corner[j]))) volume += size;
      return;
    }
    const axis = axes[k];
    for (let i = 0; i + 1 < axis.length; i++) {
      corner[k] = axis[i];
      walk(k + 1, size * (axis[i + 1] - axis[i]));
    }
  };
  walk(0, 1);
  return volume;
}

/** Inclusion–exclusion over every subset (2^n terms): exact, only for small n. */
function inclusionExclusion(points: number[][], ref: number[]): number {
  const n = points.length;
  let total = 0;
  for (let mask = 1; mask < 1 << n; mask++) {
    let box = 1;
    let bits = 0;
    for (let k = 0; k < ref.length; k++) {
      let worst = -Infinity;
      for (let i = 0; i < n; i++) if (mask & (1 << i)) worst = Math.max(worst, points[i][k]);
      box *= Math.max(0, ref[k] - worst);
    }
    for (let b = mask; b; b &= b - 1) bits++;
    total += bits % 2 ? box : -box;
  }
  return total;
}

function randomIntegerSet(random: Random, n: number, m: number, max: number): number[][] {
  return Array.from({ length: n }, () => Array.from({ length: m }, () => random.int(0, max)));
}

describe('hypervolume (WFG)', () => {
  it('matches the value published in the pygmo documentation', () => {
    // https://esa.github.io/pygmo2/tutorials/hypervolume_advanced.html :
    // hypervolume([[1,0,1],[1,1,0],[-1,2,2]]).compute([5,5,5]) == 114.0
    expect(
      hypervolume(
        [
          [1, 0, 1],
          [1, 1, 0],
          [-1, 2, 2],
        ],
        [5, 5, 5],
      ),
    ).toBe(114);
  });

  it('gives r^M - 1 for the M unit vectors against (r, ..., r)', () => {
    // The union of the boxes [e_k, r] is [0, r]^M minus [0, 1)^M, so its volume is r^M - 1.
    for (let m = 2; m <= 8; m++) {
      const points = Array.from({ length: m }, (_, k) => Array.from({ length: m }, (_, j) => (j === k ? 1 : 0)));
      expect(hypervolume(points, new Array(m).fill(2))).toBeCloseTo(2 ** m - 1, 9);
      expect(hypervolume(points, new Array(m).fill(3))).toBeCloseTo(3 ** m - 1, 9);
    }
  });

  it('handles trivial inputs', () => {
    expect(hypervolume([], [1, 1, 1])).toBe(0);
    expect(hypervolume([[0.5]], [1])).toBe(0.5);
    expect(hypervolume([[1, 2, 3, 4]], [2, 4, 6, 8])).toBe(1 * 2 * 3 * 4);
    // points on or beyond the reference point add nothing
    expect(
      hypervolume(
        [
          [1, 5],
          [5, 1],
          [6, 0],
        ],
        [5, 5],
      ),
    ).toBe(0);
    expect(
      hypervolume(
        [
          [1, 1],
          [1, 1],
          [2, 2],
        ],
        [3, 3],
      ),
    ).toBe(4);
  });

  it('equals the grid brute force on random small integer sets, M = 2..7 (with duplicates and dominated points)', () => {
    const random = Random.fromSeed(11);
    const sizes: Record<number, [number, number]> = { 2: [12, 9], 3: [12, 7], 4: [10, 6], 5: [9, 5], 6: [7, 4], 7: [6, 4] };
    for (let m = 2; m <= 7; m++) {
      const [n, max] = sizes[m];
      for (let trial = 0; trial < 6; trial++) {
        const points = randomIntegerSet(random, n, m, max);
        const ref = new Array(m).fill(max + 1);
        expect(hypervolume(points, ref)).toBe(gridHypervolume(points, ref));
      }
    }
  });

  it('equals inclusion-exclusion on random real sets, M = 3..8, n up to 12', () => {
    const random = Random.fromSeed(5);
    for (let m = 3; m <= 8; m++) {
      for (const n of [5, 8, 12]) {
        const points = Array.from({ length: n }, () => Array.from({ length: m }, () => random.float()));
        const ref = Array.from({ length: m }, () => 1 + random.float() * 0.2);
        const exact = inclusionExclusion(points, ref);
        expect(Math.abs(hypervolume(points, ref) - exact)).toBeLessThan(1e-12 * Math.max(1, exact));
      }
    }
  });

  it('is invariant to the order of points and objectives, and to adding dominated points', () => {
    const random = Random.fromSeed(3);
    for (const m of [4, 5, 7]) {
      const points = simplexPoints(60, m, m);
      const ref = normalisedReferencePoint(m);
      const base = hypervolume(points, ref);
      const shuffled = random.shuffle(points.map((p) => [...p]));
      expect(hypervolume(shuffled, ref)).toBeCloseTo(base, 12);
      const perm = random.shuffle(Array.from({ length: m }, (_, k) => k));
      expect(
        hypervolume(
          points.map((p) => perm.map((k) => p[k])),
          ref,
        ),
      ).toBeCloseTo(base, 12);
      const dominated = points.slice(0, 20).map((p) => p.map((v) => v + 0.01));
      expect(hypervolume([...points, ...dominated], ref)).toBeCloseTo(base, 12);
      // removing a point never increases HV, and the volume stays inside the reference box
      expect(hypervolume(points.slice(1), ref)).toBeLessThanOrEqual(base + 1e-12);
      // no simplex point dominates a point with sum < 1, a region of volume 1/M!
      let factorial = 1;
      for (let k = 2; k <= m; k++) factorial *= k;
      expect(base).toBeLessThan(1.1 ** m - 1 / factorial);
      expect(base).toBeGreaterThan(0);
    }
  });

  it('normalises by ideal and nadir before measuring against (1.1, ..., 1.1)', () => {
    expect(normalise([[10, 200]], [0, 100], [20, 300])).toEqual([[0.5, 0.5]]);
    expect(normalisedReferencePoint(2)).toEqual([1.1, 1.1]);
    const norm = { ideal: [0, 100], nadir: [20, 300], reference: normalisedReferencePoint(2), method: '' };
    expect(normalisedHypervolume([[10, 200]], norm)).toBeCloseTo(0.6 * 0.6, 12);
    // a zero range only shifts
    expect(normalise([[3, 1]], [3, 0], [3, 2])).toEqual([[0, 0.5]]);
  });

  it('rejects malformed input with a clear message', () => {
    expect(() => hypervolume([[1, 2]], [3, 3, 3])).toThrow(/point 0 has 2 objectives, the reference point has 3/);
    expect(() => hypervolume([[1, NaN]], [3, 3])).toThrow(/point 0 objective 1 is not a finite number/);
    expect(() => hypervolume([[1, 1]], [3, Infinity])).toThrow(/reference point coordinate 1/);
    expect(() => hypervolume([], [])).toThrow(/no objectives/);
  });
});
