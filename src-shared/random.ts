/**
 * The one seeded random source for everything in src-shared (pure-rand's xoroshiro128+).
 * The same seed gives the same stream on every platform; the state can be saved and restored,
 * so a paused or resumed run continues exactly where it was.
 */
import { xoroshiro128plus, xoroshiro128plusFromState } from 'pure-rand/generator/xoroshiro128plus';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';

type Generator = ReturnType<typeof xoroshiro128plus>;

/** MurmurHash3's 32-bit finaliser: a bijection on 32-bit words that spreads every input bit. */
function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h | 0;
}

export class Random {
  private constructor(private readonly generator: Generator) {}

  /**
   * A generator for any safe integer seed. Seeds from -2^31 to 2^32 - 1 are seeded exactly as
   * pure-rand does (which keeps only the low 32 bits), so every stored result keeps its stream.
   * Beyond that range, the high bits (seed / 2^32, rounded down) are mixed into the state word
   * pure-rand leaves at 0, so seeds 1, 2^32 + 1 and 2^33 + 1 give three different streams.
   * Distinct seeds give distinct streams, with one legacy exception: a negative seed from
   * -2^31 to -1 gives the stream of seed + 2^32 (pure-rand's reduction); dice runs take only
   * non-negative seeds, N-Queens only seeds below 2^31, so neither can meet it.
   */
  static fromSeed(seed: number): Random {
    if (!Number.isSafeInteger(seed)) throw new RangeError(`seed must be an integer of at most 2^53 - 1 in magnitude, got ${seed}`);
    if (seed >= -0x80000000 && seed <= 0xffffffff) return new Random(xoroshiro128plus(seed));
    const low = seed | 0; // ToInt32: exact reduction modulo 2^32
    const high = Math.floor(seed / 0x100000000) | 0; // |seed| < 2^53, so this fits in 21 bits and a sign
    // pure-rand's state for the low word is (-1, ~low, low, 0); the last word takes the mixed
    // high word instead (fmix32 is a bijection with fmix32(0) = 0, so no state repeats).
    return new Random(xoroshiro128plusFromState([-1, ~low, low, fmix32(high)]));
  }

  static fromState(state: readonly number[]): Random {
    return new Random(xoroshiro128plusFromState(state));
  }

  state(): number[] {
    return [...this.generator.getState()];
  }

  /** An independent copy with the same state. */
  clone(): Random {
    return new Random(this.generator.clone() as Generator);
  }

  /** An integer in [from, to], both included. */
  int(from: number, to: number): number {
    return uniformInt(this.generator, from, to);
  }

  /** An integer in [0, n). */
  below(n: number): number {
    return uniformInt(this.generator, 0, n - 1);
  }

  /** A float in [0, 1) with 53 random bits. */
  float(): number {
    return uniformFloat64(this.generator);
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return uniformFloat64(this.generator) < p;
  }

  /** A standard normal variate (Box-Muller; one of the pair is discarded for simplicity). */
  normal(): number {
    let u = 0;
    while (u === 0) u = uniformFloat64(this.generator);
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * uniformFloat64(this.generator));
  }

  pick<T>(items: readonly T[]): T {
    return items[this.below(items.length)];
  }

  /** Fisher-Yates, in place. */
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.int(0, i);
      const t = items[i];
      items[i] = items[j];
      items[j] = t;
    }
    return items;
  }
}
