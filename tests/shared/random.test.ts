import { describe, expect, it } from 'vitest';
import { Random } from '../../src-shared/random.ts';

describe('Random', () => {
  it('gives the same stream for the same seed and a different one for another seed', () => {
    const draw = (seed: number) => {
      const r = Random.fromSeed(seed);
      return Array.from({ length: 50 }, () => r.int(1, 6));
    };
    expect(draw(42)).toEqual(draw(42));
    expect(draw(42)).not.toEqual(draw(43));
  });

  it('continues exactly from a saved state', () => {
    const r = Random.fromSeed(7);
    for (let i = 0; i < 10; i++) r.float();
    const restored = Random.fromState(r.state());
    expect(Array.from({ length: 20 }, () => restored.float())).toEqual(Array.from({ length: 20 }, () => r.float()));
  });

  it('draws each face of a die about equally often (chi-square, 5 df, 99.9% point 20.52)', () => {
    const r = Random.fromSeed(1);
    const counts = [0, 0, 0, 0, 0, 0];
    const n = 60_000;
    for (let i = 0; i < n; i++) counts[r.int(1, 6) - 1]++;
    const chi = counts.reduce((s, c) => s + (c - n / 6) ** 2 / (n / 6), 0);
    expect(chi).toBeLessThan(20.52);
    expect(Math.min(...counts)).toBeGreaterThan(0);
  });

  it('keeps floats in [0, 1) and shuffles into a permutation', () => {
    const r = Random.fromSeed(3);
    for (let i = 0; i < 1000; i++) {
      const f = r.float();
      expect(f >= 0 && f < 1).toBe(true);
    }
    const items = Array.from({ length: 100 }, (_, i) => i);
    const shuffled = r.shuffle([...items]);
    expect(shuffled).not.toEqual(items);
    expect([...shuffled].sort((a, b) => a - b)).toEqual(items);
  });

  it('rejects a non-integer seed', () => {
    expect(() => Random.fromSeed(1.5)).toThrow(/seed must be an integer/);
  });
});
