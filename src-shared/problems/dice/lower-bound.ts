/**
 * A lower bound on the single objective from the d = 2 and d = 3 chi-square constraints alone
 * (docs/solvers.md, "A lower bound", has the proof; scripts/lower-bound.ts prints it for any N).
 *
 * Call a pair of neighbouring rolls (x_i, x_{i+1}) costly when its faces have different parity
 * (F6 counts it) or are equal (F7 counts it); the others have the same parity and differ. F6 + F7
 * is the number of costly pairs among the N - 1.
 *   - d = 2: the B2 = floor(N / 2) blocks are the pairs at even i. Of the 36 block values, 18 are
 *     of mixed parity, 6 equal and 12 neither. chi_2 <= q(P_2) bounds the sum of squared block
 *     counts S2 = sum_c n_c^2, and a counts vector with A costly blocks has
 *     S2 >= min_a h(a, 18) + h(A - a, 6) + h(B2 - A, 12), where h(t, k) is the least sum of squares
 *     of k whole numbers adding up to t. So A >= aMin, the least A that fits.
 *   - d = 3: each of the B3 = floor(N / 3) blocks (x_3k, x_3k+1, x_3k+2) holds the pairs at 3k and
 *     3k + 1, one at an even i and one at an odd i. 96 of the 216 block values have both pairs
 *     costly, 120 have at most one. With b blocks of the 96, S3 >= h(B3 - b, 120) + h(b, 96), so
 *     b >= bMin. Each such block has a costly pair at an odd i, and different blocks have
 *     different pairs, so at least bMin costly pairs lie at odd i, none of them counted in A.
 *   So F6 + F7 >= aMin + bMin, and with E_i >= gamma_i (F_i - beta_i),
 *   f >= E6 + E7 >= min(gamma_6, gamma_7) * (aMin + bMin - beta_6 - beta_7).
 *
 * For several objectives, every objective whose features include F6 and F7 is bounded the same
 * way, which bounds the hypervolume (hvUpperBound).
 *
 * Every number is exact: counts are whole numbers and the quantiles come from chi2.ts (scipy's
 * chi2.ppf to 1e-12 relative); S2 <= U is tested as S2 <= floor(U).
 */
import type { HvNormalisation } from './hv-reference.ts';
import { blockQuantile } from './chi2.ts';
import type { DiceConfig } from './config.ts';

/** The least sum of squares of k whole numbers >= 0 that add up to t: the counts spread evenly. */
export function leastSquares(t: number, k: number): number {
  if (k <= 0) return t === 0 ? 0 : Infinity;
  const q = Math.floor(t / k);
  const r = t - q * k;
  return k * q * q + r * (2 * q + 1);
}

/**
 * The largest sum of squared block counts chi_d <= q allows with B blocks of K = 6^d values:
 * chi_d = (K / B) S - B, so S <= B (B + q) / K; S has the parity of B (sum n^2 = sum n mod 2).
 */
export function largestSumOfSquares(blocks: number, values: number, q: number): number {
  if (!Number.isFinite(q)) return Infinity;
  let s = Math.floor((blocks * (blocks + q)) / values);
  if ((s - blocks) % 2 !== 0) s--;
  return s;
}

/** The least S2 of B2 pair blocks of which A are costly (mixed parity or equal). */
export function leastS2(costly: number, blocks: number): number {
  let best = Infinity;
  for (let a = 0; a <= costly; a++) {
    const s = leastSquares(a, 18) + leastSquares(costly - a, 6) + leastSquares(blocks - costly, 12);
    if (s < best) best = s;
  }
  return best;
}

export interface LowerBound {
  n: number;
  /** d = 2: blocks, q(P_2) (Infinity when unconstrained), the largest S2 allowed, the least number of costly blocks. */
  d2: { blocks: number; q: number; largestS2: number; aMin: number; leastS2AtAMin: number; leastS2Below: number | null } | null;
  /** d = 3: blocks, q(P_3), the largest S3 allowed, the least number of blocks with two costly pairs. */
  d3: { blocks: number; q: number; largestS3: number; bMin: number; leastS3Below: number | null } | null;
  /** The bound on F6 + F7: aMin + bMin. */
  costlyPairs: number;
  /**
   * The bound on E6 + E7, so on every objective whose features include F6 and F7 (the single
   * objective of track so, f1 of mo2, f2 of mo3): min(gamma_6, gamma_7) (pairs - beta_6 - beta_7),
   * at least 0.
   */
  f: number;
}

/**
 * The bound for a config (any bands, weights and groups); d = 2 and d = 3 count only when
 * constrained with P_d < 1.
 */
export function lowerBound(config: DiceConfig): LowerBound {
  const n = config.n;
  const upperOf = (d: number): number => {
    const i = config.constraints.indexOf(d);
    return i < 0 ? Infinity : blockQuantile(d, config.upperBounds[i]);
  };
  let aMin = 0;
  let d2: LowerBound['d2'] = null;
  const B2 = Math.floor(n / 2);
  const q2 = upperOf(2);
  if (Number.isFinite(q2) && B2 > 0) {
    const largestS2 = largestSumOfSquares(B2, 36, q2);
    while (aMin < B2 && leastS2(aMin, B2) > largestS2) aMin++;
    d2 = { blocks: B2, q: q2, largestS2, aMin, leastS2AtAMin: leastS2(aMin, B2), leastS2Below: aMin > 0 ? leastS2(aMin - 1, B2) : null };
  }
  let bMin = 0;
  let d3: LowerBound['d3'] = null;
  const B3 = Math.floor(n / 3);
  const q3 = upperOf(3);
  const leastS3 = (b: number) => leastSquares(B3 - b, 120) + leastSquares(b, 96);
  if (Number.isFinite(q3) && B3 > 0) {
    const largestS3 = largestSumOfSquares(B3, 216, q3);
    while (bMin < B3 && leastS3(bMin) > largestS3) bMin++;
    d3 = { blocks: B3, q: q3, largestS3, bMin, leastS3Below: bMin > 0 ? leastS3(bMin - 1) : null };
  }
  const costlyPairs = aMin + bMin;
  const gamma = Math.min(config.gamma[5], config.gamma[6]);
  const f = Math.max(0, gamma * (costlyPairs - config.beta[5] - config.beta[6]));
  return { n, d2, d3, costlyPairs, f };
}

/**
 * An upper bound on the normalised hypervolume of any feasible front: each objective whose
 * features include F6 and F7 is at least lowerBound(config).f, so no point dominates anything
 * below that in it; the others may reach their ideal.
 */
export function hvUpperBound(config: DiceConfig, norm: HvNormalisation): number {
  const bound = lowerBound(config).f;
  let volume = 1;
  config.objectives.forEach((group, m) => {
    const least = group.includes(6) && group.includes(7) ? bound : 0;
    const low = Math.max(0, (least - norm.ideal[m]) / (norm.nadir[m] - norm.ideal[m]));
    volume *= Math.max(0, norm.reference[m] - low);
  });
  return volume;
}
