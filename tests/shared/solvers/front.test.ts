import { describe, expect, it } from 'vitest';
import { BestKeeper, RunFront } from '../../../src-shared/solvers/front.ts';
import type { Evaluated } from '../../../src-shared/solvers/types.ts';

const point = (F: number[], violation: number, tag = 1): Evaluated => ({
  x: Uint8Array.of(tag),
  F: Float64Array.from(F),
  G: Float64Array.of(violation),
  violation,
  feasible: violation <= 0,
});

describe('BestKeeper (single objective, feasibility first)', () => {
  it('replaces an infeasible best by any feasible point, then keeps the smallest f', () => {
    const keeper = new BestKeeper();
    expect(keeper.consider(point([5], 2), 1)).toBe(true);
    expect(keeper.consider(point([1], 3), 2)).toBe(false); // more violation, better f: still worse
    expect(keeper.consider(point([4], 1), 3)).toBe(true);
    expect(keeper.consider(point([900], 0), 4)).toBe(true); // feasible beats infeasible
    expect(keeper.consider(point([0], 0.001), 5)).toBe(false);
    expect(keeper.consider(point([900], 0, 2), 6)).toBe(false); // a tie keeps the earlier one
    expect(keeper.consider(point([899], 0), 7)).toBe(true);
    expect(keeper.best!.foundAt).toBe(7);
    expect(Array.from(keeper.best!.solution.F)).toEqual([899]);
  });

  it('copies what it keeps, so solvers may reuse their buffers', () => {
    const keeper = new BestKeeper();
    const e = point([3], 0);
    keeper.consider(e, 1);
    e.F[0] = 100;
    e.x[0] = 6;
    expect(keeper.best!.solution.F[0]).toBe(3);
    expect(keeper.best!.solution.x[0]).toBe(1);
  });
});

describe('RunFront (several objectives, on the one Pareto archive)', () => {
  it('keeps the feasible non-dominated points and drops the dominated ones', () => {
    const keeper = new RunFront();
    expect(keeper.consider(point([3, 3], 1), 1)).toBe(false);
    expect(keeper.leastViolating!.foundAt).toBe(1);
    expect(keeper.consider(point([5, 1], 0), 2)).toBe(true);
    expect(keeper.leastViolating).toBeNull();
    expect(keeper.consider(point([1, 5], 0), 3)).toBe(true);
    expect(keeper.consider(point([5, 1], 0, 2), 4)).toBe(false); // equal vector: the earlier stays
    expect(keeper.consider(point([6, 6], 0), 5)).toBe(false);
    expect(keeper.consider(point([0, 0], 2), 6)).toBe(false); // infeasible never enters
    expect(keeper.consider(point([2, 2], 0), 7)).toBe(true);
    expect(keeper.members().map((m) => Array.from(m.solution.F))).toEqual([
      [5, 1],
      [1, 5],
      [2, 2],
    ]);
    expect(keeper.consider(point([1, 1], 0), 8)).toBe(true); // dominates all three
    expect(keeper.members().map((m) => [Array.from(m.solution.F), m.foundAt])).toEqual([[[1, 1], 8]]);
    expect(keeper.archive.points()).toEqual([[1, 1]]);
  });
});
