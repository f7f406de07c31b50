/**
 * What a block-length constraint means at a given N, read off the values chi_d can take.
 *
 * With B = floor(N/d) blocks of K = 6^d kinds and c_k blocks of kind k, the spec's chi-square is
 * chi_d = sum (c_k - B/K)^2 / (B/K) = (K/B) sum c_k^2 - B. Since sum c_k = B, sum c_k^2 =
 * B + 2 P where P = sum C(c_k, 2) is the number of pairs of equal blocks, so
 *
 *     chi_d = K - B + (2K/B) P,   P = 0, 1, 2, ...
 *
 * chi_d takes only these values, 2K/B apart, the smallest K - B when every block differs. When
 * B is far below K (large d at small N: 13 blocks of 6^9 kinds at N = 120) that step is far wider
 * than the band [q(p_d), q(P_d)], which is about 2.6 sqrt(2K) wide, and K - B lies inside it
 * (near its middle, as a chi-square with K - 1 degrees of freedom has mean K - 1): the constraint
 * then says only "no block repeats", and chi_d's place in the band (about 50 %) says nothing of
 * how random the blocks look. In general the constraint holds exactly when P lies in
 * [pairsFrom, pairsTo].
 */

export interface BlockReading {
  d: number;
  /** Blocks B = floor(N/d). */
  blocks: number;
  /** Kinds of block K = 6^d. */
  kinds: number;
  /** chi_d when every block differs: K - B (the smallest value when B <= K). */
  smallest: number;
  /** How far apart the values chi_d can take are: 2K/B, one more pair of equal blocks. */
  step: number;
  /** The constraint holds exactly when the pairs of equal blocks number from pairsFrom to pairsTo (pairsTo null: no upper end); null when no count does. */
  pairs: { from: number; to: number | null } | null;
  /** How many values chi_d can take inside the band (null: unbounded). */
  valuesInBand: number | null;
  /**
   * In words when the constraint is a statement about repeated blocks (at most 3 values of chi_d
   * in the band, or none): "no 9-block repeats" (every block different), "at most 2 pairs of equal 7-blocks",
   * "no sequence can satisfy it"; null when chi_d is a fine-grained measure (small d).
   */
  meaning: string | null;
}

/** The most values in the band for which the constraint is read as a count of repeats. */
const FEW_VALUES = 3;

/**
 * The reading of the constraint on block length d at length n, with its band [lower, upper]
 * (the quantiles q(p_d), q(P_d); upper null for q(1) = infinity).
 */
export function blockReading(n: number, d: number, lower: number, upper: number | null): BlockReading {
  const blocks = Math.floor(n / d);
  const kinds = 6 ** d;
  if (blocks === 0) return { d, blocks, kinds, smallest: NaN, step: NaN, pairs: null, valuesInBand: null, meaning: null };
  const smallest = kinds - blocks;
  const step = (2 * kinds) / blocks;
  // Pairs of equal blocks: at least 0, and at most C(B, 2) (every block the same).
  const most = (blocks * (blocks - 1)) / 2;
  // chi_d = smallest + step * P in [lower, upper], with a little room for rounding.
  const eps = 1e-9 * Math.max(1, kinds);
  const from = Math.max(0, Math.ceil((lower - smallest - eps) / step));
  const to = upper === null ? most : Math.min(most, Math.floor((upper - smallest + eps) / step));
  const pairs = from <= to ? { from, to: upper === null ? null : to } : null;
  const valuesInBand = upper === null ? null : pairs ? to - from + 1 : 0;
  const few = valuesInBand !== null && valuesInBand <= FEW_VALUES;
  // In words when the band holds only a few of chi_d's values (and blocks are fewer than kinds).
  let meaning: string | null = null;
  if (!pairs) meaning = 'no sequence can satisfy it: chi_d never falls in the band';
  else if (few && blocks <= kinds) {
    const block = `${d}-block`;
    if (pairs.from === 0 && pairs.to === 0) meaning = `no ${block} repeats`;
    else if (pairs.from === 0) meaning = `at most ${pairs.to} pair${pairs.to === 1 ? '' : 's'} of equal ${block}s`;
    else if (pairs.from === pairs.to) meaning = `exactly ${pairs.from} pair${pairs.from === 1 ? '' : 's'} of equal ${block}s`;
    else meaning = `${pairs.from} to ${pairs.to} pairs of equal ${block}s`;
  }
  return { d, blocks, kinds, smallest, step, pairs, valuesInBand, meaning };
}
