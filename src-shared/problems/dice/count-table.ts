/**
 * Occurrence counts of block codes for one block length d, with the running sum of squared
 * counts that the chi-square needs. Small alphabets (6^d up to DENSE_LIMIT) use a dense
 * Int32Array; larger ones an open-addressing hash table (linear probing, backward-shift
 * deletion, so it never fills with stale keys during a long local search). Codes are below
 * 6^12 < 2^32, so they fit Uint32Array keys.
 */

export const DENSE_LIMIT = 6 ** 7;

export interface CountTable {
  /** Sum of squared counts. */
  sumSquares: number;
  get(code: number): number;
  /** Adds one occurrence of `code`, keeping sumSquares current. */
  increment(code: number): void;
  /** Removes one occurrence of `code` (which must be present). */
  decrement(code: number): void;
  clear(): void;
}

class DenseCountTable implements CountTable {
  sumSquares = 0;
  private readonly counts: Int32Array;
  private readonly touched: number[] = [];
  constructor(categories: number) {
    this.counts = new Int32Array(categories);
  }
  get(code: number): number {
    return this.counts[code];
  }
  increment(code: number): void {
    const c = this.counts[code];
    if (c === 0) this.touched.push(code);
    this.sumSquares += 2 * c + 1;
    this.counts[code] = c + 1;
  }
  decrement(code: number): void {
    const c = this.counts[code];
    this.sumSquares -= 2 * c - 1;
    this.counts[code] = c - 1;
  }
  clear(): void {
    for (const code of this.touched) this.counts[code] = 0;
    this.touched.length = 0;
    this.sumSquares = 0;
  }
}

class HashCountTable implements CountTable {
  sumSquares = 0;
  private keys: Uint32Array;
  private counts: Int32Array; // 0 marks an empty slot
  private mask: number;
  private size = 0;

  constructor(expectedKeys: number) {
    let capacity = 16;
    while (capacity < expectedKeys * 2) capacity *= 2;
    this.keys = new Uint32Array(capacity);
    this.counts = new Int32Array(capacity);
    this.mask = capacity - 1;
  }

  private slot(code: number): number {
    return (Math.imul(code, 0x9e3779b1) >>> 0) & this.mask;
  }

  get(code: number): number {
    const { keys, counts, mask } = this;
    for (let i = this.slot(code); ; i = (i + 1) & mask) {
      const c = counts[i];
      if (c === 0) return 0;
      if (keys[i] === code) return c;
    }
  }

  increment(code: number): void {
    const { keys, counts, mask } = this;
    let i = this.slot(code);
    for (; ; i = (i + 1) & mask) {
      const c = counts[i];
      if (c === 0) break;
      if (keys[i] === code) {
        this.sumSquares += 2 * c + 1;
        counts[i] = c + 1;
        return;
      }
    }
    keys[i] = code;
    counts[i] = 1;
    this.sumSquares += 1;
    if (++this.size * 2 > this.counts.length) this.grow();
  }

  decrement(code: number): void {
    const { keys, counts, mask } = this;
    let i = this.slot(code);
    while (keys[i] !== code || counts[i] === 0) i = (i + 1) & mask;
    const c = counts[i];
    this.sumSquares -= 2 * c - 1;
    if (c > 1) {
      counts[i] = c - 1;
      return;
    }
    // Backward-shift deletion (Knuth, TAOCP vol. 3, Algorithm 6.4R): move later entries of
    // the probe run into the hole so lookups never need tombstones.
    this.size--;
    let hole = i;
    for (let j = (i + 1) & mask; counts[j] !== 0; j = (j + 1) & mask) {
      const home = this.slot(keys[j]);
      const between = hole <= j ? hole < home && home <= j : hole < home || home <= j;
      if (!between) {
        keys[hole] = keys[j];
        counts[hole] = counts[j];
        hole = j;
      }
    }
    counts[hole] = 0;
  }

  clear(): void {
    this.counts.fill(0);
    this.size = 0;
    this.sumSquares = 0;
  }

  private grow(): void {
    const oldKeys = this.keys;
    const oldCounts = this.counts;
    this.keys = new Uint32Array(oldKeys.length * 2);
    this.counts = new Int32Array(oldCounts.length * 2);
    this.mask = this.keys.length - 1;
    for (let i = 0; i < oldKeys.length; i++) {
      if (oldCounts[i] === 0) continue;
      let j = this.slot(oldKeys[i]);
      while (this.counts[j] !== 0) j = (j + 1) & this.mask;
      this.keys[j] = oldKeys[i];
      this.counts[j] = oldCounts[i];
    }
  }
}

/** A count table for `categories` possible codes, of which at most `maxKeys` occur at once. */
export function createCountTable(categories: number, maxKeys: number): CountTable {
  return categories <= DENSE_LIMIT ? new DenseCountTable(categories) : new HashCountTable(Math.max(1, maxKeys));
}
