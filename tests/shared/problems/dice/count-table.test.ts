import { describe, expect, it } from 'vitest';
import { BlockTable, blockTableCapacities, createCountTable } from '../../../../src-shared/problems/dice/count-table.ts';
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

// The incremental evaluator's per-block table: each block moves from its code to another
// (leave, then enter), checked against a Map of counts and an array of codes. A pool of codes
// much larger than the table's slots takes the stale-slot paths; codes above 2^31 are entered
// as int32 (code | 0).
describe('BlockTable', () => {
  for (const [name, blocks, poolSize] of [
    ['few codes, counts above 1', 40, 12],
    ['many codes', 70, 5_000],
  ] as const) {
    it(`keeps every block's slot, code and count exact: ${name}`, () => {
      const random = Random.fromSeed(blocks + poolSize);
      const pool = Array.from({ length: poolSize }, () => Math.floor(random.float() * 6 ** 12) | 0);
      pool[0] = (6 ** 12 - 1) | 0;
      const table = new BlockTable(blocks);
      const code = new Int32Array(blocks);
      const counts = new Map<number, number>();
      for (let b = 0; b < blocks; b++) {
        code[b] = random.pick(pool);
        const at = table.enter(code[b]);
        table.slots[at + 1]++;
        table.blockSlot[b] = at;
        counts.set(code[b], (counts.get(code[b]) ?? 0) + 1);
      }
      table.settle();
      for (let step = 0; step < 20_000; step++) {
        const b = random.int(0, blocks - 1);
        const before = code[b];
        const at = table.blockSlot[b];
        expect(table.slots[at]).toBe(before);
        const count = table.slots[at + 1];
        expect(count).toBe(counts.get(before));
        const after = random.pick(pool);
        table.leave(at, count);
        counts.set(before, count - 1);
        const to = table.enter(after);
        table.slots[to + 1]++;
        table.blockSlot[b] = to;
        table.settle();
        counts.set(after, (counts.get(after) ?? 0) + 1);
        code[b] = after;
        if (step % 499 === 0) {
          for (const [c, n] of counts) {
            const found = table.find(c);
            expect(found < 0 ? 0 : table.slots[found + 1]).toBe(n);
          }
          for (let k = 0; k < blocks; k++) expect(table.slots[table.blockSlot[k]]).toBe(code[k]);
        }
      }
      let total = 0;
      for (let k = 0; k < blocks; k++) total += table.slots[table.blockSlot[k] + 1] > 0 ? 1 : 0;
      expect(total).toBe(blocks);
    });
  }

  it('compacts when two blocks leapfrog down a run, each leaving a stale slot behind', () => {
    // Two blocks: 16 slots, compact() once more than 8 codes are held. The code homed at slot h
    // is found by search (Fibonacci hashing, as BlockTable does it).
    const homed = (h: number, skip: number): number => {
      for (let c = 1; ; c++) if (Math.imul(c, 0x9e3779b1) >>> 28 === h && skip-- === 0) return c;
    };
    const table = new BlockTable(2);
    const code = [homed(0, 0), homed(0, 1)];
    for (let b = 0; b < 2; b++) {
      const at = table.enter(code[b]);
      table.slots[at + 1]++;
      table.blockSlot[b] = at;
    }
    table.settle();
    const original = table.slots;
    const sizes: number[] = [];
    // Block b moves to the code homed just past the other block: its old slot stays (stale).
    for (let step = 0; step < 8; step++) {
      const b = step % 2;
      const at = table.blockSlot[b];
      table.leave(at, table.slots[at + 1]);
      code[b] = homed(step + 2, 0);
      const to = table.enter(code[b]);
      table.slots[to + 1]++;
      table.blockSlot[b] = to;
      table.settle();
      sizes.push(table.size);
      for (let k = 0; k < 2; k++) {
        expect(table.slots[table.blockSlot[k]]).toBe(code[k]);
        expect(table.slots[table.blockSlot[k] + 1]).toBe(1);
        expect(table.find(code[k])).toBe(table.blockSlot[k]);
      }
    }
    // Held codes grow by one a move (3, 4, ..., 8), then compaction drops the six stale ones.
    expect(sizes).toEqual([3, 4, 5, 6, 7, 8, 2, 3]);
    expect(table.slots).not.toBe(original);
  });
});

// How the incremental evaluator sizes its block tables (d = 7..12 at N = 27720 and 840, and a
// size far beyond the budget): powers of two, 4 to 8 slots per block, the fullest doubled
// first, 1 MiB (131,072 slots) in all unless the 4-per-block minimum alone is more.
describe('blockTableCapacities', () => {
  const blocksAt = (n: number, ds: number[]) => ds.map((d) => Math.floor(n / d));
  const check = (blocks: number[], capacities: number[]) => {
    capacities.forEach((c, k) => {
      expect(Math.log2(c) % 1).toBe(0);
      expect(c).toBeGreaterThanOrEqual(4 * blocks[k]);
      expect(c / 2).toBeLessThan(Math.max(8 * blocks[k], 16));
    });
  };
  it('doubles the fullest tables at N = 27720 while the budget lasts', () => {
    const blocks = blocksAt(27720, [7, 8, 9, 10, 11, 12]);
    const capacities = blockTableCapacities(blocks);
    check(blocks, capacities);
    // 4 per block: 16,384 slots each (98,304 in all); d = 7 and 8 (the fullest) reach 32,768.
    expect(capacities).toEqual([32768, 32768, 16384, 16384, 16384, 16384]);
    expect(capacities.reduce((a, b) => a + b)).toBe(131072);
  });
  it('gives every table 8 slots per block when they are small (N = 840)', () => {
    const blocks = blocksAt(840, [6, 7, 8, 9, 10, 11, 12]);
    const capacities = blockTableCapacities(blocks);
    check(blocks, capacities);
    capacities.forEach((c, k) => expect(c).toBeGreaterThanOrEqual(8 * blocks[k]));
  });
  it('keeps the 4-per-block minimum when that alone exceeds the budget (N = 1,000,000)', () => {
    const blocks = blocksAt(1_000_000, [7, 8, 9, 10, 11, 12]);
    const capacities = blockTableCapacities(blocks);
    check(blocks, capacities);
    capacities.forEach((c, k) => expect(c).toBeLessThan(8 * blocks[k]));
  });
  it('refuses a capacity that is too small or not a power of two', () => {
    expect(() => new BlockTable(100, 256)).toThrow(/power of two of at least 400 slots, not 256/);
    expect(() => new BlockTable(100, 600)).toThrow(/not 600/);
    expect(new BlockTable(100, 512).slots.length).toBe(1024);
  });
});
