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
  return countsDense(categories, maxKeys, preferDense) ? new DenseCountTable(categories) : new HashCountTable(Math.max(1, maxKeys));
}

/** Whether counts of `categories` codes, at most `maxKeys` of them present, are kept in a dense array (createCountTable's rule). */
export function countsDense(categories: number, maxKeys: number, preferDense = false): boolean {
  return categories <= DENSE_LIMIT && (preferDense || categories <= SMALL_ALPHABET || categories <= 4 * maxKeys);
}

/** Marks an empty slot of a BlockTable (no code is 2^32 - 1: codes are below 6^12). */
const EMPTY = -1;
/** Fibonacci hashing: the top bits of code * 2^32 / phi. */
const HASH_MULTIPLIER = 0x9e3779b1;
/** Slots per block a BlockTable has at least. */
const MIN_SLOTS_PER_BLOCK = 4;
/** Slots per block a BlockTable gets while the tables' budget allows. */
const ROOMY_SLOTS_PER_BLOCK = 8;
/** 1 MiB of [code, count] slots for all of one state's BlockTables together. */
const TABLE_BUDGET_SLOTS = 131072;

function powerOfTwoAtLeast(slots: number): number {
  let capacity = 16;
  while (capacity < slots) capacity *= 2;
  return capacity;
}

/**
 * The capacities (slots, powers of two) of the BlockTables for these numbers of blocks: each
 * at least 4 slots per block; then, the fullest first, doubled towards 8 per block while all
 * of them together stay within 1 MiB. With 8, probe runs are short and stale slots rare:
 * measured interleaved, changes at N = 840 and 5040 commit 12% and 16% faster (every table
 * doubled), and at N = 27720 4% faster with d = 7 and 8 doubled; doubling all six tables
 * there (1.5 MiB) pushed the rest of the state out of L2 and cost 7% of the peeks.
 */
export function blockTableCapacities(blocks: readonly number[]): number[] {
  const capacity = blocks.map((b) => powerOfTwoAtLeast(b * MIN_SLOTS_PER_BLOCK));
  let total = capacity.reduce((sum, c) => sum + c, 0);
  const fullestFirst = blocks.map((_, k) => k).sort((a, b) => blocks[b] / capacity[b] - blocks[a] / capacity[a]);
  for (const k of fullestFirst) {
    while (capacity[k] < blocks[k] * ROOMY_SLOTS_PER_BLOCK && total + capacity[k] <= TABLE_BUDGET_SLOTS) {
      total += capacity[k];
      capacity[k] *= 2;
    }
  }
  return capacity;
}

/**
 * The counts of one d's block codes for the incremental evaluator, hashed, with the slot of
 * every block's code kept, so a change finds the count (and the code) of the block it leaves
 * without a search: one probe per change is left, for the code it enters.
 *
 * Slot i is [code, count] at 2i, 2i + 1 (one cache line holds both), codes as int32
 * (`code | 0`, which is one-to-one below 2^32). Blocks' slots never move: a code whose count
 * falls to 0 is emptied only when no probe run goes on past it (at the end of a run, which at
 * this load is nearly always), and otherwise stays as a stale slot that the next new code on
 * its run takes over. Should stale slots ever fill half the table, compact() drops them and
 * moves each block's slot along. The table has 4 to 8 slots per block (see blockTableCapacities).
 */
export class BlockTable {
  /** [code, count] pairs; key EMPTY marks a free slot. */
  slots: Int32Array;
  /** Per block: the position (2 * slot) of its code in `slots`. */
  readonly blockSlot: Int32Array;
  /** Positions wrap with `& mask` (even positions only). */
  readonly mask: number;
  /** Home slot of a code: its hash's top bits, `>>> shift`. */
  readonly shift: number;
  /** Codes held, counts of 0 included. */
  size = 0;
  /** compact() once size exceeds this. */
  private readonly limit: number;
  private spare: Int32Array;

  /** `capacity` (slots): a power of two, at least 4 per block (blockTableCapacities picks it). */
  constructor(blocks: number, capacity = blockTableCapacities([blocks])[0]) {
    if (capacity < 16 || capacity < blocks * MIN_SLOTS_PER_BLOCK || (capacity & (capacity - 1)) !== 0)
      throw new RangeError(
        `a BlockTable for ${blocks} blocks needs a power of two of at least ${Math.max(16, blocks * MIN_SLOTS_PER_BLOCK)} slots, not ${capacity}`,
      );
    this.slots = new Int32Array(2 * capacity).fill(EMPTY);
    this.spare = new Int32Array(2 * capacity);
    this.blockSlot = new Int32Array(blocks);
    this.mask = 2 * capacity - 2;
    this.shift = 32 - Math.log2(capacity);
    this.limit = capacity / 2;
  }

  /** The position of `code` (an int32 code) in `slots`, or -1 when it was never entered. */
  find(code: number): number {
    const { slots, mask } = this;
    for (let i = (Math.imul(code, HASH_MULTIPLIER) >>> this.shift) << 1; ; i = (i + 2) & mask) {
      const key = slots[i];
      if (key === code) return i;
      if (key === EMPTY) return -1;
    }
  }

  /**
   * The position of `code`, entered with count 0 if it was not there (in the first stale slot
   * of its run, if any); the caller then calls settle().
   */
  enter(code: number): number {
    const { slots, mask } = this;
    let stale = -1;
    let i = (Math.imul(code, HASH_MULTIPLIER) >>> this.shift) << 1;
    for (; ; i = (i + 2) & mask) {
      const key = slots[i];
      if (key === code) return i;
      if (key === EMPTY) break;
      if (stale < 0 && slots[i + 1] === 0) stale = i;
    }
    if (stale >= 0) {
      slots[stale] = code;
      return stale;
    }
    slots[i] = code;
    slots[i + 1] = 0;
    this.size++;
    return i;
  }

  /** Takes one block away from the code at position `at`, whose count is `count` (>= 1). */
  leave(at: number, count: number): void {
    const { slots, mask } = this;
    slots[at + 1] = count - 1;
    if (count > 1 || slots[(at + 2) & mask] !== EMPTY) return;
    // The last slot of its run: empty it, and any stale slots just before it.
    let i = at;
    do {
      slots[i] = EMPTY;
      this.size--;
      i = (i - 2) & mask;
    } while (slots[i] !== EMPTY && slots[i + 1] === 0);
  }

  /** Compacts when codes no longer present have filled the table (keeps every probe short). */
  settle(): void {
    if (this.size > this.limit) this.compact();
  }

  /** Empties the table (every block's slot is then undefined until it is entered again). */
  clear(): void {
    this.slots.fill(EMPTY);
    this.size = 0;
  }

  /** Drops the codes whose count is 0, moving every block's slot along. */
  private compact(): void {
    const old = this.slots;
    const slots = this.spare;
    slots.fill(EMPTY);
    const mask = this.mask;
    // Where each old position went, written over the old counts (no longer needed after this).
    let size = 0;
    for (let i = 0; i < old.length; i += 2) {
      const count = old[i + 1];
      if (old[i] === EMPTY || count === 0) continue;
      let j = (Math.imul(old[i], HASH_MULTIPLIER) >>> this.shift) << 1;
      while (slots[j] !== EMPTY) j = (j + 2) & mask;
      slots[j] = old[i];
      slots[j + 1] = count;
      old[i + 1] = j;
      size++;
    }
    const blockSlot = this.blockSlot;
    for (let b = 0; b < blockSlot.length; b++) blockSlot[b] = old[blockSlot[b] + 1];
    this.spare = old;
    this.slots = slots;
    this.size = size;
  }
}
