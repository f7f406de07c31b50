/**
 * What the two-sided rank-sum test (Mann-Whitney U, mann-whitney.ts) can show with so few runs.
 * Its p-value has a floor: with n1 and n2 runs the most extreme outcome (every run of one
 * sample better than every run of the other) has p = 2 / C(n1 + n2, n1) in the exact test (two
 * of the C(n1 + n2, n1) equally likely arrangements are that extreme), and ties only raise it.
 * With 3 runs each the floor is 2/20 = 0.1, so no difference can reach p < 0.05, and Holm's
 * correction over m comparisons multiplies the smallest p by m. These functions say so before
 * anyone reads an "=" as "no difference".
 */
import { normalTwoSided } from './jstat.ts';
import { EXACT_LIMIT } from './mann-whitney.ts';

function binomial(n: number, k: number): number {
  let c = 1;
  for (let i = 1; i <= k; i++) c = (c * (n - k + i)) / i;
  return c;
}

/** The smallest two-sided p mannWhitney can answer for samples of n1 and n2 runs (none tied). */
export function smallestRankSumP(n1: number, n2: number): number {
  if (!Number.isInteger(n1) || !Number.isInteger(n2) || n1 < 1 || n2 < 1)
    throw new RangeError(`smallestRankSumP: sample sizes must be positive integers, got ${n1} and ${n2}`);
  const n = n1 + n2;
  if (n <= EXACT_LIMIT) return Math.min(1, 2 / binomial(n, Math.min(n1, n2)));
  // The normal approximation (with its continuity correction) at U = 0.
  const z = ((n1 * n2) / 2 - 0.5) / Math.sqrt((n1 * n2 * (n + 1)) / 12);
  return normalTwoSided(z);
}

/** The smallest Holm-adjusted p among `comparisons` tests, one of which has samples of n1 and n2. */
export function smallestHolmP(n1: number, n2: number, comparisons: number): number {
  return Math.min(1, Math.max(1, comparisons) * smallestRankSumP(n1, n2));
}

/** Whether no outcome of the runs can make the pair significant at `alpha` (its mark is "=" whatever they found). */
export function cannotDiffer(n1: number, n2: number, comparisons: number, alpha: number): boolean {
  return smallestHolmP(n1, n2, comparisons) >= alpha;
}

/** The fewest runs per solver (the same for each) with which a difference can reach p < alpha after Holm over `comparisons` tests. */
export function runsNeeded(alpha: number, comparisons: number): number {
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`runsNeeded: alpha must be in (0, 1), got ${alpha}`);
  let n = 1;
  while (cannotDiffer(n, n, comparisons, alpha)) n++;
  return n;
}

/**
 * Why a pair's mark says nothing, in words: "With 3 runs per solver, the rank-sum test cannot
 * reach p < 0.05 (its smallest p is 0.1, 0.3 after Holm over 3 pairs)". `family` names the
 * Holm family's members ("pairs", "comparisons with nsga2").
 */
export function floorSentence(n1: number, n2: number, comparisons: number, alpha: number, family: string): string {
  const [a, b] = [Math.min(n1, n2), Math.max(n1, n2)];
  const runs = a === b ? `${a} run${a === 1 ? '' : 's'} per solver` : `${a} and ${b} runs`;
  const round = (p: number) => String(Number(p.toPrecision(3)));
  const holm = comparisons > 1 ? `, ${round(smallestHolmP(a, b, comparisons))} after Holm over ${comparisons} ${family}` : '';
  return `With ${runs}, the rank-sum test cannot reach p < ${alpha} (its smallest p is ${round(smallestRankSumP(a, b))}${holm})`;
}
