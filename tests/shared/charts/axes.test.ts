// Axis ends for fitted axes (the explorer's scatter, the Solve view's front).
import { describe, expect, it } from 'vitest';
import { paddedBounds, paddedBoundsOf } from '../../../src-shared/charts/axes.ts';

describe('paddedBounds', () => {
  it('room on both sides, ends on multiples of a round step, not below 0 for objectives', () => {
    expect(paddedBounds(213.4, 378.2)).toEqual({ min: 200, max: 400, interval: 50 });
    expect(paddedBounds(0, 57)).toEqual({ min: 0, max: 60, interval: 20 });
    expect(paddedBounds(0.31, 0.36)).toEqual({ min: 0.3, max: 0.38, interval: 0.02 });
    expect(paddedBounds(0.25, 0.3)).toEqual({ min: 0.24, max: 0.32, interval: 0.02 });
    expect(paddedBounds(-5, 5)).toEqual({ min: -7.5, max: 7.5, interval: 2.5 });
    expect(paddedBounds(7, 7)).toEqual({ min: 6, max: 8, interval: 2 });
    for (const [lo, hi] of [
      [1.5, 2.25],
      [100, 10_000],
      [0.001, 0.002],
      [208.9, 210],
    ]) {
      const { min, max, interval } = paddedBounds(lo, hi);
      expect(min).toBeLessThan(lo);
      expect(max).toBeGreaterThan(hi);
      expect(max - min).toBeLessThan(2 * (hi - lo));
      // Both ends are ticks: whole multiples of the interval from 0.
      for (const end of [min, max]) expect(Math.abs(end / interval - Math.round(end / interval))).toBeLessThan(1e-9);
    }
  });
});

describe('paddedBoundsOf', () => {
  it('is paddedBounds of the extremes, for any iterable (a front too large to spread), [0, 1] for none', () => {
    expect(paddedBoundsOf([378.2, 213.4, 300])).toEqual(paddedBounds(213.4, 378.2));
    expect(paddedBoundsOf(new Set([7]))).toEqual({ min: 6, max: 8, interval: 2 });
    // 300,000 values: Math.min(...values) of that many overflows the stack under Node 20.
    const many = Float64Array.from({ length: 300_000 }, (_, i) => 10 + (i % 1000) / 10);
    expect(paddedBoundsOf(many)).toEqual(paddedBounds(10, 109.9));
    expect(paddedBoundsOf([])).toEqual({ min: 0, max: 1, interval: 0.2 });
  });
});
