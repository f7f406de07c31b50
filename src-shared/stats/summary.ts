/** Descriptive statistics of one sample. */
export interface Summary {
  n: number;
  mean: number;
  /** Sample standard deviation (divisor n − 1); 0 for a single value. */
  sd: number;
  min: number;
  q1: number;
  median: number;
  q3: number;
  max: number;
  /** q3 − q1. */
  iqr: number;
}

function sortedFinite(values: readonly number[], what: string): number[] {
  if (values.length === 0) throw new RangeError(`${what}: needs at least one value`);
  values.forEach((v, i) => {
    if (!Number.isFinite(v)) throw new RangeError(`${what}: value ${i} is not a finite number (${v})`);
  });
  return [...values].sort((a, b) => a - b);
}

/**
 * How a quantile falling between two order statistics is taken (NumPy's names). With
 * h = (n − 1) p on the sorted values x[0..n−1]:
 * - `linear`: x[⌊h⌋] + (h − ⌊h⌋)(x[⌊h⌋+1] − x[⌊h⌋]), Hyndman & Fan 1996 definition 7, the
 *   default of R's quantile() and NumPy's percentile(); the one statistics use.
 * - `higher`: x[⌈h⌉], always a value of the sample (the upper middle value for the median of
 *   an even count); simulated annealing calibrates its start temperature with it.
 * - `midpoint`: (x[⌊h⌋] + x[⌈h⌉]) / 2. The same median as `linear`, but computed as the mean of
 *   the two middle values, which the stored HV nadir points (hv-reference.ts) were computed
 *   with: `linear`'s x + 0.5 (y − x) can differ from it in the last bit.
 */
export type QuantileMethod = 'linear' | 'higher' | 'midpoint';

/**
 * The p-quantile of values already sorted ascending (not checked), 0 <= p <= 1: the one
 * quantile and median helper of the code base. NaN for no values. +Infinity may stand for
 * a censored value (a run that never got there): a quantile that falls on or interpolates
 * towards one is Infinity.
 */
export function quantileOfSorted(sorted: ArrayLike<number>, p: number, method: QuantileMethod = 'linear'): number {
  const n = sorted.length;
  if (n === 0) return NaN;
  const h = (n - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, n - 1);
  const frac = h - lo;
  const a = sorted[lo];
  if (method === 'higher') return frac > 0 ? sorted[hi] : a;
  const b = sorted[hi];
  if (method === 'midpoint') return frac > 0 ? (a + b) / 2 : a;
  if (!Number.isFinite(b)) return frac === 0 || a === b ? a : b;
  return a + frac * (b - a);
}

/**
 * The p-quantile by linear interpolation between order statistics (Hyndman & Fan 1996
 * definition 7, the default of R's quantile() and NumPy's percentile()).
 */
export function quantile(values: readonly number[], p: number): number {
  if (!(p >= 0 && p <= 1)) throw new RangeError(`quantile: p must be in [0, 1], got ${p}`);
  return quantileOfSorted(sortedFinite(values, 'quantile'), p);
}

export function median(values: readonly number[]): number {
  return quantile(values, 0.5);
}

export function mean(values: readonly number[]): number {
  const sorted = sortedFinite(values, 'mean');
  return sorted.reduce((s, v) => s + v, 0) / sorted.length;
}

export function summarize(values: readonly number[]): Summary {
  const sorted = sortedFinite(values, 'summarize');
  const n = sorted.length;
  const m = sorted.reduce((s, v) => s + v, 0) / n;
  const ss = sorted.reduce((s, v) => s + (v - m) * (v - m), 0);
  const q1 = quantileOfSorted(sorted, 0.25);
  const q3 = quantileOfSorted(sorted, 0.75);
  return {
    n,
    mean: m,
    sd: n > 1 ? Math.sqrt(ss / (n - 1)) : 0,
    min: sorted[0],
    q1,
    median: quantileOfSorted(sorted, 0.5),
    q3,
    max: sorted[n - 1],
    iqr: q3 - q1,
  };
}
