import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { uniformInt } from 'pure-rand/distribution/uniformInt';

export const MAX_RANDOM_LENGTH = 1_000_000;

/** n faces, uniform over 1..6, fully determined by the seed (an integer). */
export function randomSequence(n: number, seed: number): string {
  if (!Number.isInteger(n) || n < 1 || n > MAX_RANDOM_LENGTH) throw new RangeError(`n must be an integer from 1 to ${MAX_RANDOM_LENGTH}, got ${n}`);
  if (!Number.isSafeInteger(seed)) throw new RangeError(`seed must be an integer, got ${seed}`);
  const rng = xoroshiro128plus(seed);
  let out = '';
  for (let i = 0; i < n; i++) out += uniformInt(rng, 1, 6);
  return out;
}
