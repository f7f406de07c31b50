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
 * The p-quantile by linear interpolation between order statistics (Hyndman & Fan 1996
 * definition 7, the default of R's quantile() and NumPy's percentile()).
 */
export function quantile(values: readonly number[], p: number): number {
  if (!(p >= 0 && p <= 1)) throw new RangeError(`quantile: p must be in [0, 1], got ${p}`);
  return quantileOfSorted(sortedFinite(values, 'quantile'), p);
}

function quantileOfSorted(sorted: readonly number[], p: number): number {
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
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
