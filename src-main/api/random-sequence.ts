import { Random } from '../../src-shared/random.ts';

export const MAX_RANDOM_LENGTH = 1_000_000;

/**
 * n faces, uniform over 1..6, fully determined by the seed (an integer, at least 0): the one seeded
 * generator of src-shared/random.ts, so seeds past 2^32 give their own sequences too.
 */
export function randomSequence(n: number, seed: number): string {
  if (!Number.isInteger(n) || n < 1 || n > MAX_RANDOM_LENGTH) throw new RangeError(`n must be an integer from 1 to ${MAX_RANDOM_LENGTH}, got ${n}`);
  if (!Number.isSafeInteger(seed)) throw new RangeError(`seed must be an integer, got ${seed}`);
  // As everywhere else: Random.fromSeed reads -1 as 2^32 - 1, so a negative seed would be another seed.
  if (seed < 0) throw new RangeError(`seed must be at least 0, got ${seed}`);
  const random = Random.fromSeed(seed);
  let out = '';
  for (let i = 0; i < n; i++) out += random.int(1, 6);
  return out;
}
