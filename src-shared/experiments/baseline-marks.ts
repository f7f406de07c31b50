/**
 * The +/−/= marks against a baseline: one rule, used by the report's tables (HTML, LaTeX, the
 * data of every format: src-main/report/build.ts) and the desktop's and web's Compare view
 * (src-renderer/views/compare/compare.ts), so the same runs get the same mark in both.
 *
 * For each solver of an instance other than the baseline: compareExperiment's two-sided
 * Mann-Whitney p of the pair (solver, baseline), Holm-adjusted over the instance's comparisons
 * with the baseline only (k − 1 of them with k solvers that have values: a comparison with a
 * control, as in Derrac et al. 2011, not compare's own pHolm over all k(k − 1)/2 pairs). The
 * mark is + (better) or − (worse) when that p is below MARK_SIGNIFICANCE and A12 (P(a run of the
 * solver is better than one of the baseline)) is not ½, its side of ½ saying which; = otherwise.
 * MARK_RULE says this in words, and both places print it beside the marks.
 */
import { cannotDiffer } from '../stats/attainable.ts';
import { holmAdjust } from '../stats/holm.ts';
import type { InstanceComparison, PairTest } from './compare.ts';

/** Pair tests whose p, Holm-adjusted over the comparisons with the baseline, is below this count as a difference. */
export const MARK_SIGNIFICANCE = 0.05;

/** + better than the baseline, - worse, = no significant difference (the view prints - as U+2212). */
export type BaselineMark = '+' | '-' | '=';

/** The rule in words, for a caption or a hint beside the marks. */
export function markRule(baseline: string, alpha = MARK_SIGNIFICANCE): string {
  return `two-sided Mann-Whitney U against ${baseline}, its p Holm-adjusted over the instance's comparisons with ${baseline} (not over all pairs), below ${alpha}; the direction from A12`;
}

export interface BaselineComparison {
  label: string;
  /** compareExperiment's test of this solver and the baseline (null for the baseline itself or a solver without values). */
  pair: PairTest | null;
  /** The pair's p, Holm-adjusted over the instance's comparisons with the baseline. */
  pHolm: number | null;
  /** P(a run of this solver is better than one of the baseline): the pair's A12, turned round when the baseline is its `a`. */
  a12: number | null;
  mark: BaselineMark | null;
  /** How many comparisons with the baseline the instance has (the Holm family's size). */
  comparisons: number;
  /** Too few runs for any outcome to reach the significance level after Holm: the "=" says nothing (attainable.ts). */
  cannotDiffer: boolean;
}

/** One entry per solver of the instance, in its order: the pair with the baseline, its Holm p, A12 and mark. */
export function baselineMarks(instance: InstanceComparison, baseline: string, alpha = MARK_SIGNIFICANCE): BaselineComparison[] {
  const pairOf = (label: string) =>
    label === baseline ? null : (instance.pairs.find((p) => (p.a === label && p.b === baseline) || (p.b === label && p.a === baseline)) ?? null);
  const pairs = instance.solvers.map((s) => pairOf(s.label));
  const tested = pairs.filter((p) => p !== null);
  const adjusted = holmAdjust(tested.map((p) => p.p));
  const base = instance.solvers.find((s) => s.label === baseline);
  return instance.solvers.map((s, k) => {
    const pair = pairs[k];
    if (!pair) return { label: s.label, pair: null, pHolm: null, a12: null, mark: null, comparisons: tested.length, cannotDiffer: false };
    const pHolm = adjusted[tested.indexOf(pair)];
    const a12 = pair.a === s.label ? pair.a12 : 1 - pair.a12;
    const mark: BaselineMark = pHolm < alpha && a12 !== 0.5 ? (a12 > 0.5 ? '+' : '-') : '=';
    const few = !!s.summary && !!base?.summary && cannotDiffer(s.summary.n, base.summary.n, tested.length, alpha);
    return { label: s.label, pair, pHolm, a12, mark, comparisons: tested.length, cannotDiffer: few };
  });
}
