import { describe, expect, it } from 'vitest';
import {
  compareConstrained,
  compareDominance,
  constrainedNonDominatedSort,
  crowdingDistance,
  dominates,
  nonDominatedIndices,
  nonDominatedRanks,
  nonDominatedSort,
  weaklyDominates,
} from '../../../src-shared/metrics/dominance.ts';
import { Random } from '../../../src-shared/random.ts';

/** Ranks by definition: peel off the points no remaining point dominates. */
function peelRanks(points: number[][]): number[] {
  const ranks = new Array<number>(points.length).fill(-1);
  let left = points.map((_, i) => i);
  for (let r = 0; left.length; r++) {
    const front = left.filter((i) => !left.some((j) => dominates(points[j], points[i])));
    for (const i of front) ranks[i] = r;
    left = left.filter((i) => ranks[i] === -1);
  }
  return ranks;
}

describe('Pareto dominance', () => {
  it('compares vectors', () => {
    expect(compareDominance([1, 2], [2, 3])).toBe(-1);
    expect(compareDominance([2, 3], [1, 2])).toBe(1);
    expect(compareDominance([1, 3], [2, 2])).toBe(0);
    expect(compareDominance([1, 2], [1, 2])).toBe(0);
    expect(dominates([1, 2], [1, 3])).toBe(true);
    expect(dominates([1, 2], [1, 2])).toBe(false);
    expect(weaklyDominates([1, 2], [1, 2])).toBe(true);
  });

  it('constrained domination: feasibility first, then smaller violation, then Pareto', () => {
    expect(compareConstrained([9, 9], 0, [0, 0], 0.5)).toBe(-1); // feasible beats infeasible
    expect(compareConstrained([0, 0], 0.5, [9, 9], 0)).toBe(1);
    expect(compareConstrained([9, 9], 0.1, [0, 0], 0.5)).toBe(-1); // smaller violation wins
    expect(compareConstrained([0, 0], 0.5, [9, 9], 0.5)).toBe(0); // equal violation: no domination
    expect(compareConstrained([1, 1], 0, [2, 2], 0)).toBe(-1); // both feasible: Pareto
    expect(compareConstrained([1, 3], 0, [2, 2], 0)).toBe(0);
  });
});

describe('non-dominated sorting', () => {
  it('matches the textbook example: fronts of a small 2-objective set', () => {
    // Hand-checked: (1,5),(2,3),(4,1) are mutually non-dominated; (3,4) is dominated only by
    // (2,3); (5,5) by several points of both earlier fronts.
    const points = [
      [5, 5],
      [1, 5],
      [3, 4],
      [2, 3],
      [4, 1],
      [3, 4],
    ];
    expect(nonDominatedSort(points)).toEqual([[1, 3, 4], [2, 5], [0]]);
    expect(nonDominatedIndices(points)).toEqual([1, 3, 4]);
  });

  it('agrees with peeling by definition on random integer sets (M = 2 sweep and M = 3, 5 Deb sort)', () => {
    const random = Random.fromSeed(7);
    for (const m of [2, 3, 5]) {
      for (let trial = 0; trial < 20; trial++) {
        const n = random.int(1, 60);
        const points = Array.from({ length: n }, () => Array.from({ length: m }, () => random.int(0, 6)));
        expect(nonDominatedRanks(points)).toEqual(peelRanks(points));
      }
    }
  });

  it('constrained sort: feasible fronts by Pareto, then infeasible by increasing violation', () => {
    const points = [
      [1, 1],
      [0, 0],
      [2, 0],
      [0, 2],
      [5, 5],
      [3, 3],
    ];
    const violations = [0, 0.3, 0, 0, 0.1, 0.3];
    expect(constrainedNonDominatedSort(points, violations)).toEqual([[0, 2, 3], [4], [1, 5]]);
    expect(() => constrainedNonDominatedSort(points, [0])).toThrow(/differ in length/);
  });

  it('crowding distance of a front (Deb et al. 2002, Fig. 1 definition)', () => {
    // Sorted by f1: (0,4),(1,2),(3,1),(4,0); ranges 4 and 4.
    // (1,2): (3-0)/4 + (4-1)/4 = 1.5; (3,1): (4-1)/4 + (2-0)/4 = 1.25.
    expect(
      crowdingDistance([
        [1, 2],
        [4, 0],
        [0, 4],
        [3, 1],
      ]),
    ).toEqual([1.5, Infinity, Infinity, 1.25]);
    expect(
      crowdingDistance([
        [1, 2],
        [2, 1],
      ]),
    ).toEqual([Infinity, Infinity]);
  });
});
