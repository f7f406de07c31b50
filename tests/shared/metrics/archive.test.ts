import { describe, expect, it } from 'vitest';
import { ParetoArchive } from '../../../src-shared/metrics/archive.ts';
import { dominates, nonDominatedIndices } from '../../../src-shared/metrics/dominance.ts';
import { Random } from '../../../src-shared/random.ts';

describe('ParetoArchive', () => {
  it('keeps exactly the non-dominated points seen so far (first of equal vectors)', () => {
    const random = Random.fromSeed(21);
    for (const m of [2, 3, 5]) {
      const archive = new ParetoArchive<number>();
      const seen: number[][] = [];
      for (let t = 0; t < 300; t++) {
        const p = Array.from({ length: m }, () => random.int(0, 8));
        archive.insert(p, t);
        seen.push(p);
        if (t % 50 === 49) {
          const expected = new Map<string, number>();
          for (const i of nonDominatedIndices(seen)) if (!expected.has(seen[i].join())) expected.set(seen[i].join(), i);
          const got = new Map(archive.members().map((e) => [e.objectives.join(), e.payload]));
          expect(got).toEqual(expected);
        }
      }
    }
  });

  it('rejects dominated and duplicate points and evicts what a newcomer dominates', () => {
    const a = new ParetoArchive<string>();
    expect(a.insert([2, 2], 'a')).toBe(true);
    expect(a.insert([3, 3], 'b')).toBe(false);
    expect(a.insert([2, 2], 'c')).toBe(false);
    expect(a.insert([1, 3], 'd')).toBe(true);
    expect(a.insert([1, 1], 'e')).toBe(true);
    expect(a.members().map((e) => e.payload)).toEqual(['e']);
    expect(() => a.insert([1, 1, 1], 'f')).toThrow(/objective count 3 differs/);
  });

  it('with a capacity, stays within it, mutually non-dominated, and keeps the extremes', () => {
    const a = new ParetoArchive<number>({ capacity: 10 });
    const random = Random.fromSeed(4);
    for (let t = 0; t < 500; t++) {
      const x = random.float();
      a.insert([x, 1 - x], t); // all on one line: mutually non-dominated
      expect(a.size).toBeLessThanOrEqual(10);
    }
    const pts = a.points();
    for (const p of pts) for (const q of pts) expect(dominates(p, q)).toBe(false);
    const xs = pts.map((p) => p[0]).sort((u, v) => u - v);
    expect(xs.length).toBe(10);
    // the most spread points (smallest and largest x ever seen) are boundary points: kept
    expect(xs[0]).toBeLessThan(0.01);
    expect(xs[9]).toBeGreaterThan(0.99);
    expect(() => new ParetoArchive({ capacity: 0 })).toThrow(/capacity must be a positive integer/);
  });
});
