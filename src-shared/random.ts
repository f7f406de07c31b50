/**
 * The one seeded random source for everything in src-shared (pure-rand's xoroshiro128+).
 * The same seed gives the same stream on every platform; the state can be saved and restored,
 * so a paused or resumed run continues exactly where it was.
 */
import { xoroshiro128plus, xoroshiro128plusFromState } from 'pure-rand/generator/xoroshiro128plus';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';

type Generator = ReturnType<typeof xoroshiro128plus>;

export class Random {
  private constructor(private readonly generator: Generator) {}

  /** A generator for an integer seed (any safe integer; it is reduced to 32 bits by pure-rand). */
  static fromSeed(seed: number): Random {
    if (!Number.isSafeInteger(seed)) throw new RangeError(`seed must be an integer, got ${seed}`);
    return new Random(xoroshiro128plus(seed));
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
