import { describe, expect, it } from 'vitest';
import { createCountTable } from '../../../../src-shared/problems/dice/count-table.ts';
import { Random } from '../../../../src-shared/random.ts';

// Random increments and decrements checked against a Map, for a dense table (small alphabet),
// a hashed one sized right, and a hashed one that has to grow; the hashed keys include codes
// above 2^31 (d = 12 blocks reach 6^12 - 1).
describe('count tables', () => {
  const cases: [string, number, number][] = [
    ['dense, 6^3 categories', 6 ** 3, 100],
    ['hashed, 6^12 categories', 6 ** 12, 400],
    ['hashed, undersized so it grows', 6 ** 9, 4],
  ];
  for (const [name, categories, maxKeys] of cases) {
    it(`keeps counts and the sum of squares exact: ${name}`, () => {
      const random = Random.fromSeed(categories % 1000);
      const table = createCountTable(categories, maxKeys);
      const reference = new Map<number, number>();
      // A small pool of keys so that counts go above 1 and back to 0 often (deletion runs).
      const pool = Array.from({ length: 300 }, () => Math.floor(random.float() * categories));
      pool.push(categories - 1);
      for (let step = 0; step < 20_000; step++) {
        const code = random.pick(pool);
        const present = reference.get(code) ?? 0;
        if (present > 0 && random.chance(0.45)) {
          table.decrement(code);
          reference.set(code, present - 1);
        } else {
          table.increment(code);
          reference.set(code, present + 1);
        }
        if (step % 997 === 0) {
          for (const key of pool) expect(table.get(key)).toBe(reference.get(key) ?? 0);
        }
      }
      let squares = 0;
      for (const c of reference.values()) squares += c * c;
      expect(table.sumSquares).toBe(squares);
      for (const key of pool) expect(table.get(key)).toBe(reference.get(key) ?? 0);
      table.clear();
      expect(table.sumSquares).toBe(0);
      for (const key of pool) expect(table.get(key)).toBe(0);
    });
  }
});
