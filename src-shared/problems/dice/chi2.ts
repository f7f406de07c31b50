import { chi2Quantile } from '../../math/chi2.ts';

const cache = new Map<string, number>();

/**
 * The p-quantile of the chi-square distribution a block length d is tested against:
 * df = 6^d - 1 (6^d possible blocks). Cached per (d, p); q(0) = 0 and q(1) = Infinity.
 */
export function blockQuantile(d: number, p: number): number {
  const key = `${d}:${p}`;
  let q = cache.get(key);
  if (q === undefined) {
    q = chi2Quantile(6 ** d - 1, p);
    cache.set(key, q);
  }
  return q;
}
