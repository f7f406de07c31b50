/**
 * Friedman test of k treatments (solvers) over n blocks (instances), with the Iman-Davenport
 * F refinement and Holm-corrected pairwise post-hoc tests, as recommended by J. Demšar,
 * "Statistical Comparisons of Classifiers over Multiple Data Sets", JMLR 7:1-30, 2006.
 *
 * Within each block the treatments are ranked, best = 1, ties sharing mid-ranks. With R̄_j the
 * average rank of treatment j:
 *   χ²_F = 12n / (k(k+1)) · (Σ R̄_j² − k(k+1)²/4), divided by the tie correction
 *          1 − Σ(t³ − t) / (n·k·(k² − 1))  (as scipy.stats.friedmanchisquare),
 *   F_F  = (n − 1)·χ²_F / (n(k − 1) − χ²_F) on (k − 1, (k − 1)(n − 1)) degrees of freedom.
 * Post-hoc, treatments i and j differ by z = (R̄_i − R̄_j) / sqrt(k(k+1) / (6n)) (Demšar §3.2.2);
 * the two-sided p-values of all k(k−1)/2 pairs are adjusted with Holm's procedure.
 */
import { chiSquareUpper, fUpper, normalTwoSided } from './jstat.ts';
import { holmAdjust } from './holm.ts';
import { rankWithTies, tieSum } from './ranks.ts';

export interface FriedmanResult {
  blocks: number;
  treatments: number;
  averageRanks: number[];
  chiSquare: number;
  /** P-value of χ²_F against chi-square with k − 1 degrees of freedom. */
  p: number;
  /** Iman-Davenport statistic (Infinity when every block ranks the treatments identically). */
  imanDavenport: number;
  imanDavenportP: number;
  pairwise: PairwiseComparison[];
}

export interface PairwiseComparison {
  i: number;
  j: number;
  /** R̄_i − R̄_j: negative means i ranks better. */
  rankDifference: number;
  z: number;
  p: number;
  /** Holm-adjusted p over all pairs. */
  pHolm: number;
}

/** χ²_F from average ranks, without tie correction (Demšar 2006, §3.2.2). */
export function friedmanStatisticFromRanks(averageRanks: readonly number[], blocks: number): number {
  const k = averageRanks.length;
  const sumSquares = averageRanks.reduce((s, r) => s + r * r, 0);
  return ((12 * blocks) / (k * (k + 1))) * (sumSquares - (k * (k + 1) * (k + 1)) / 4);
}

/** Iman-Davenport F_F from χ²_F. */
export function imanDavenport(chiSquare: number, blocks: number, treatments: number): number {
  const denominator = blocks * (treatments - 1) - chiSquare;
  return denominator <= 0 ? Infinity : ((blocks - 1) * chiSquare) / denominator;
}

/** Demšar's post-hoc z statistics and Holm-adjusted p-values for every pair. */
export function friedmanPairwise(averageRanks: readonly number[], blocks: number): PairwiseComparison[] {
  const k = averageRanks.length;
  const se = Math.sqrt((k * (k + 1)) / (6 * blocks));
  const pairs: Omit<PairwiseComparison, 'pHolm'>[] = [];
  for (let i = 0; i < k; i++)
    for (let j = i + 1; j < k; j++) {
      const rankDifference = averageRanks[i] - averageRanks[j];
      const z = rankDifference / se;
      pairs.push({ i, j, rankDifference, z, p: normalTwoSided(z) });
    }
  const adjusted = holmAdjust(pairs.map((p) => p.p));
  return pairs.map((p, index) => ({ ...p, pHolm: adjusted[index] }));
}

/**
 * data[b][t] is the value of treatment t on block b. Lower values rank better unless
 * higherIsBetter is set.
 */
export function friedman(data: readonly (readonly number[])[], options: { higherIsBetter?: boolean } = {}): FriedmanResult {
  const n = data.length;
  if (n < 2) throw new RangeError(`friedman: needs at least 2 blocks (instances), got ${n}`);
  const k = data[0].length;
  if (k < 2) throw new RangeError(`friedman: needs at least 2 treatments (solvers), got ${k}`);
  const rankSums = new Array<number>(k).fill(0);
  let ties = 0;
  data.forEach((row, b) => {
    if (row.length !== k) throw new RangeError(`friedman: block ${b} has ${row.length} values, expected ${k}`);
    row.forEach((v, t) => {
      if (!Number.isFinite(v)) throw new RangeError(`friedman: value [${b}][${t}] is not a finite number (${v})`);
    });
    const ranking = rankWithTies(options.higherIsBetter ? row.map((v) => -v) : row);
    ranking.ranks.forEach((r, t) => (rankSums[t] += r));
    ties += tieSum(ranking.ties);
  });
  const averageRanks = rankSums.map((s) => s / n);
  const correction = 1 - ties / (n * k * (k * k - 1));
  const chiSquare = correction > 0 ? friedmanStatisticFromRanks(averageRanks, n) / correction : 0;
  const ff = imanDavenport(chiSquare, n, k);
  return {
    blocks: n,
    treatments: k,
    averageRanks,
    chiSquare,
    p: chiSquareUpper(chiSquare, k - 1),
    imanDavenport: ff,
    imanDavenportP: Number.isFinite(ff) ? fUpper(ff, k - 1, (k - 1) * (n - 1)) : 0,
    pairwise: friedmanPairwise(averageRanks, n),
  };
}
