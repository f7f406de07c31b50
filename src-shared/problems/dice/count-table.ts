/**
 * Occurrence counts of block codes for one block length d, with the running sum of squared
 * counts that the chi-square needs. Small alphabets (6^d up to DENSE_LIMIT) use a dense
 * Int32Array; larger ones an open-addressing hash table (linear probing, backward-shift
 * deletion, so it never fills with stale keys during a long local search). Codes are below
 * 6^12 < 2^32, so they fit Uint32Array keys.
 */

export const DENSE_LIMIT = 6 ** 7;
const SMALL_ALPHABET = 6 ** 5;

export interface CountTable {
  /** Sum of squared counts. */
  sumSquares: number;
  get(code: number): number;
  /** Adds one occurrence of `code`, keeping sumSquares current; returns the count before. */
  increment(code: number): number;
  /** Removes one occurrence of `code` (which must be present); returns the count before. */
  decrement(code: number): number;
  clear(): void;
  /**
   * The dense count array (indexed by code), null when hashed. A caller that writes to it
   * directly owns it from then on: sumSquares and clear() no longer know about those writes,
   * so the caller keeps its own sum of squares and zeroes what it wrote.
   */
  denseCounts(): Int32Array | null;
}

class DenseCountTable implements CountTable {
  sumSquares = 0;
  private readonly counts: Int32Array;
  /** Codes counted by increment(), so clear() resets only those (callers writing through denseCounts() clear the array themselves). */
  private readonly touched: number[] = [];
  constructor(categories: number) {
    this.counts = new Int32Array(categories);
  }
  denseCounts(): Int32Array {
    return this.counts;
  }
  get(code: number): number {
    return this.counts[code];
  }
  increment(code: number): number {
    const c = this.counts[code];
    if (c === 0) this.touched.push(code);
    this.sumSquares += 2 * c + 1;
    this.counts[code] = c + 1;
    return c;
  }
  decrement(code: number): number {
    const c = this.counts[code];
    this.sumSquares -= 2 * c - 1;
    this.counts[code] = c - 1;
    return c;
  }
  clear(): void {
    for (const code of this.touched) this.counts[code] = 0;
    this.touched.length = 0;
    this.sumSquares = 0;
  }
}

class HashCountTable implements CountTable {
  sumSquares = 0;
  /** Slot i is [key, count] at 2i, 2i + 1: one cache line holds both. Count 0 marks an empty slot. */
  private slots: Uint32Array;
  private mask: number;
  private size = 0;

  constructor(expectedKeys: number) {
    let capacity = 16;
    while (capacity < expectedKeys * 2) capacity *= 2;
    this.slots = new Uint32Array(2 * capacity);
    this.mask = capacity - 1;
  }

  denseCounts(): null {
    return null;
  }

  private home(code: number): number {
    return (Math.imul(code, 0x9e3779b1) >>> 0) & this.mask;
  }

  get(code: number): number {
    const { slots, mask } = this;
    for (let i = this.home(code); ; i = (i + 1) & mask) {
      const c = slots[2 * i + 1];
      if (c === 0) return 0;
      if (slots[2 * i] === code) return c;
    }
  }

  increment(code: number): number {
    const { slots, mask } = this;
    let i = this.home(code);
    for (; ; i = (i + 1) & mask) {
      const c = slots[2 * i + 1];
      if (c === 0) break;
      if (slots[2 * i] === code) {
        this.sumSquares += 2 * c + 1;
        slots[2 * i + 1] = c + 1;
        return c;
      }
    }
    slots[2 * i] = code;
    slots[2 * i + 1] = 1;
    this.sumSquares += 1;
    if (++this.size * 2 > mask + 1) this.grow();
    return 0;
  }

  decrement(code: number): number {
    const { slots, mask } = this;
    let i = this.home(code);
    while (slots[2 * i] !== code || slots[2 * i + 1] === 0) i = (i + 1) & mask;
    const c = slots[2 * i + 1];
    this.sumSquares -= 2 * c - 1;
    if (c > 1) {
      slots[2 * i + 1] = c - 1;
      return c;
    }
    this.size--;
    // Backward-shift deletion: move later entries of the probe run into the hole, so no
    // tombstones pile up during a long local search.
    let hole = i;
    for (let j = (i + 1) & mask; slots[2 * j + 1] !== 0; j = (j + 1) & mask) {
      const home = this.home(slots[2 * j]);
      const between = hole <= j ? hole < home && home <= j : hole < home || home <= j;
      if (!between) {
        slots[2 * hole] = slots[2 * j];
        slots[2 * hole + 1] = slots[2 * j + 1];
        hole = j;
      }
    }
    slots[2 * hole + 1] = 0;
    return c;
  }

  clear(): void {
    this.slots.fill(0);
    this.size = 0;
    this.sumSquares = 0;
  }

  private grow(): void {
    const old = this.slots;
    this.slots = new Uint32Array(old.length * 2);
    this.mask = old.length - 1;
    for (let i = 0; i < old.length; i += 2) {
      if (old[i + 1] === 0) continue;
      let j = this.home(old[i]);
      while (this.slots[2 * j + 1] !== 0) j = (j + 1) & this.mask;
      this.slots[2 * j] = old[i];
      this.slots[2 * j + 1] = old[i + 1];
    }
  }
}

/**
 * Dense when the alphabet is small (6^5 counts, 31 kB) or not much larger than the number of
 * blocks; otherwise hashed, so the table stays proportional to N and in cache (a dense 6^7
 * table is 1.1 MB, and every access to it at random would be a cache miss). `preferDense`
 * (callers that reset the counts themselves) takes a dense table whenever the alphabet is
 * within DENSE_LIMIT.
 */
export function createCountTable(categories: number, maxKeys: number, preferDense = false): CountTable {
  const dense = categories <= DENSE_LIMIT && (preferDense || categories <= SMALL_ALPHABET || categories <= 4 * maxKeys);
  return dense ? new DenseCountTable(categories) : new HashCountTable(Math.max(1, maxKeys));
}
