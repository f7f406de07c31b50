import { chi2Quantile } from '../../math/chi2.ts';

/**
 * Quantiles already computed, by (d, p), least recently used first. Bounded: `saikoro eval`
 * with a different lowerBounds on each of 200,000 lines asked for 2.4 million distinct
 * quantiles, and an unbounded cache held them all (661 MB).
 */
const cache = new Map<string, number>();
export const QUANTILE_CACHE_LIMIT = 4096;

/**
 * The p-quantile of the chi-square distribution a block length d is tested against:
 * df = 6^d - 1 (6^d possible blocks). Cached per (d, p); q(0) = 0 and q(1) = Infinity.
 */
export function blockQuantile(d: number, p: number): number {
  const key = `${d}:${p}`;
  let q = cache.get(key);
  if (q === undefined) {
    q = chi2Quantile(6 ** d - 1, p);
    if (cache.size >= QUANTILE_CACHE_LIMIT) cache.delete(cache.keys().next().value!);
  } else cache.delete(key);
  cache.set(key, q);
  return q;
}

/** How many quantiles are cached (for tests). */
export function quantileCacheSize(): number {
  return cache.size;
}
