/**
 * Mann-Whitney U test (Wilcoxon rank-sum), two-sided.
 *
 * U1 counts the pairs (x, y) with x > y (ties count ½); U2 = n1·n2 − U1. With n1 + n2 <=
 * EXACT_LIMIT the p-value is exact:
 *   - without ties, from the null distribution of U counted by the recurrence of Mann &
 *     Whitney (1947): c(i, j, u) = c(i − 1, j, u − j) + c(i, j − 1, u);
 *   - with ties, from the permutation (conditional) distribution of U given the tie pattern:
 *     every choice of n1 of the pooled midranks as the first sample is equally likely, and a
 *     subset-sum count over the doubled midranks gives how many choices reach each U
 *     (the exact conditional test of Hollander & Wolfe, Nonparametric Statistical Methods,
 *     §4.1, "ties"; R's coin::wilcox_test(distribution = "exact") computes the same). The
 *     two-sided p-value is P(|U − n1·n2/2| >= |U1 − n1·n2/2|).
 * Otherwise the normal approximation with tie correction and a continuity correction of ½ is
 * used (as scipy.stats.mannwhitneyu with use_continuity=True):
 *   σ² = n1·n2/12 · ((n + 1) − Σ(t³ − t) / (n(n − 1))),  z = (|U1 − n1·n2/2| − ½) / σ.
 */
import { normalTwoSided } from './jstat.ts';
import { rankWithTies, tieSum } from './ranks.ts';

/** Largest n1 + n2 for the exact distribution; C(50, 25) ≈ 1.3e14 counts stay exact in doubles. */
export const EXACT_LIMIT = 50;

export interface MannWhitneyResult {
  /** U of the first sample: pairs with x > y, ties counted ½. */
  u1: number;
  u2: number;
  /** Two-sided p-value. */
  p: number;
  method: 'exact' | 'normal';
  /** The z statistic (normal method only). */
  z?: number;
}

/**
 * Counts of the null distribution of U for sample sizes m and n: result[u] is the number of
 * the C(m + n, m) arrangements with U = u.
 */
export function mannWhitneyCounts(m: number, n: number): number[] {
  const max = m * n;
  // layer[j][u] = c(i, j, u) for the current i.
  let layer: number[][] = Array.from({ length: n + 1 }, () => {
    const row = new Array<number>(max + 1).fill(0);
    row[0] = 1;
    return row;
  });
  for (let i = 1; i <= m; i++) {
    const next: number[][] = [];
    for (let j = 0; j <= n; j++) {
      const row = new Array<number>(max + 1).fill(0);
      for (let u = 0; u <= max; u++) {
        const fromX = u >= j ? layer[j][u - j] : 0;
        const fromY = j > 0 ? next[j - 1][u] : 0;
        row[u] = j === 0 ? (u === 0 ? 1 : 0) : fromX + fromY;
      }
      next.push(row);
    }
    layer = next;
  }
  return layer[n];
}

/**
 * The permutation distribution of 2·U1 given the pooled midranks: result[k] is the number of
 * the C(n, n1) choices of the first sample whose doubled U1 is k (doubled midranks are
 * integers, so the counts are exact in doubles up to C(50, 25) ≈ 1.3e14).
 */
export function tiedUCounts(ranks: readonly number[], n1: number): number[] {
  const doubled = ranks.map((r) => Math.round(2 * r));
  const maxSum = doubled.reduce((s, r) => s + r, 0);
  // ways[k][s]: choices of k of the items seen so far with doubled rank sum s.
  const ways: Float64Array[] = Array.from({ length: n1 + 1 }, () => new Float64Array(maxSum + 1));
  ways[0][0] = 1;
  let reach = 0;
  for (const r of doubled) {
    reach += r;
    for (let k = n1; k >= 1; k--) {
      const to = ways[k];
      const from = ways[k - 1];
      for (let s = reach; s >= r; s--) to[s] += from[s - r];
    }
  }
  // 2·U1 = 2·R1 − n1(n1 + 1).
  const offset = n1 * (n1 + 1);
  const n2 = ranks.length - n1;
  const counts = new Array<number>(2 * n1 * n2 + 1).fill(0);
  for (let s = offset; s <= maxSum && s - offset < counts.length; s++) counts[s - offset] += ways[n1][s];
  return counts;
}

/** P(|U − n1·n2/2| >= |u1 − n1·n2/2|) under the permutation distribution with these ties. */
function tiedExactP(ranks: readonly number[], n1: number, u1: number): number {
  const counts = tiedUCounts(ranks, n1);
  const n2 = ranks.length - n1;
  const centre = n1 * n2; // 2·mu
  const observed = Math.abs(Math.round(2 * u1) - centre);
  let total = 0;
  let extreme = 0;
  for (let k = 0; k < counts.length; k++) {
    total += counts[k];
    if (Math.abs(k - centre) >= observed) extreme += counts[k];
  }
  return Math.min(1, extreme / total);
}

/** P(U <= u) under the null hypothesis, exactly. */
export function mannWhitneyExactCdf(u: number, m: number, n: number): number {
  const counts = mannWhitneyCounts(m, n);
  let total = 0;
  let below = 0;
  for (let k = 0; k < counts.length; k++) {
    total += counts[k];
    if (k <= u) below += counts[k];
  }
  return below / total;
}

function checkSample(name: string, values: readonly number[]): void {
  if (values.length === 0) throw new RangeError(`mannWhitney: sample ${name} is empty`);
  values.forEach((v, i) => {
    if (!Number.isFinite(v)) throw new RangeError(`mannWhitney: sample ${name}[${i}] is not a finite number (${v})`);
  });
}

export function mannWhitney(x: readonly number[], y: readonly number[], options: { method?: 'auto' | 'exact' | 'normal' } = {}): MannWhitneyResult {
  checkSample('x', x);
  checkSample('y', y);
  const n1 = x.length;
  const n2 = y.length;
  const n = n1 + n2;
  const { ranks, ties } = rankWithTies([...x, ...y]);
  let r1 = 0;
  for (let i = 0; i < n1; i++) r1 += ranks[i];
  const u1 = r1 - (n1 * (n1 + 1)) / 2;
  const u2 = n1 * n2 - u1;
  const method = options.method ?? 'auto';
  if (method === 'exact' && ties.length && n > EXACT_LIMIT)
    throw new RangeError(`mannWhitney: the exact test with ties takes n1 + n2 <= ${EXACT_LIMIT}, got ${n}`);
  const exact = method === 'exact' || (method === 'auto' && n <= EXACT_LIMIT);
  if (exact && ties.length) return { u1, u2, p: tiedExactP(ranks, n1, u1), method: 'exact' };
  if (exact) {
    const p = Math.min(1, 2 * mannWhitneyExactCdf(Math.min(u1, u2), n1, n2));
    return { u1, u2, p, method: 'exact' };
  }
  const mu = (n1 * n2) / 2;
  const variance = ((n1 * n2) / 12) * (n + 1 - tieSum(ties) / (n * (n - 1)));
  if (variance <= 0) return { u1, u2, p: 1, method: 'normal', z: 0 };
  const z = Math.max(0, Math.abs(u1 - mu) - 0.5) / Math.sqrt(variance);
  return { u1, u2, p: normalTwoSided(z), method: 'normal', z };
}
