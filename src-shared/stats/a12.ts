/**
 * Vargha-Delaney A12 effect size (A. Vargha, H. D. Delaney, "A Critique and Improvement of
 * the CL Common Language Effect Size Statistics of McGraw and Wong", J. Educ. Behav. Stat.
 * 25(2):101-132, 2000): the probability that a value drawn from x is larger than one drawn
 * from y, ties counted ½. A12 = U1 / (n1·n2); 0.5 means no effect.
 */
import { rankWithTies } from './ranks.ts';

export type EffectMagnitude = 'negligible' | 'small' | 'medium' | 'large';

export function a12(x: readonly number[], y: readonly number[]): number {
  if (x.length === 0 || y.length === 0) throw new RangeError('a12: both samples need at least one value');
  const { ranks } = rankWithTies([...x, ...y]);
  let r1 = 0;
  for (let i = 0; i < x.length; i++) r1 += ranks[i];
  return (r1 / x.length - (x.length + 1) / 2) / y.length;
}

/**
 * Vargha & Delaney's thresholds on the distance from ½ (A of .56, .64 and .71 correspond to
 * Cohen's d of 0.2, 0.5 and 0.8): |A − ½| < .06 negligible, < .14 small, < .21 medium, else large.
 */
export function a12Magnitude(a: number): EffectMagnitude {
  // The epsilon keeps A = .71 (a binary fraction just below) on the intended side.
  const d = Math.abs(a - 0.5) + 1e-12;
  if (d < 0.06) return 'negligible';
  if (d < 0.14) return 'small';
  if (d < 0.21) return 'medium';
  return 'large';
}
