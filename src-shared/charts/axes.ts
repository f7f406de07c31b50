/**
 * Axis arithmetic shared by the app's charts and the report's (no ECharts here): round tops
 * and ticks for bars, padded round ends for fitted axes, whole decades for values spread over
 * many orders of magnitude.
 */

/** The smallest of 1, 2, 2.5, 5 times a power of ten that is at least v (v > 0). */
export function niceCeil(v: number): number {
  if (!(v > 0)) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= v - 1e-12 * p) return m * p;
  return 10 * p;
}

/** A tick interval that splits a niceCeil value into 4 or 5 equal steps. */
export function niceInterval(top: number): number {
  const p = 10 ** Math.floor(Math.log10(top));
  return Math.round((top / p) * 10) / 10 === 2 ? top / 4 : top / 5;
}

/** A value axis's ends and tick interval (ECharts' min, max and interval). */
export interface AxisBounds {
  min: number;
  max: number;
  interval: number;
}

/**
 * A value axis around [min, max] for a chart that fits its data (the explorer's scatter, the
 * Solve view's front, the report's front and attainment charts): 4% of the span of room on each side, ends and ticks on multiples of
 * niceCeil of a fifth of the span, so both ends are labelled; never below 0 when min is not
 * (objectives are not negative).
 */
export function paddedBounds(min: number, max: number): AxisBounds {
  const span = max - min || Math.abs(max) || 1;
  const pad = 0.04 * span;
  const interval = niceCeil((span + 2 * pad) / 5);
  // toPrecision: 3 * 0.1 is 0.30000000000000004, not a value to end an axis on.
  const round = (v: number) => Number(v.toPrecision(12));
  const lo = round(Math.floor((min - pad) / interval) * interval);
  return { min: min >= 0 ? Math.max(0, lo) : lo, max: round(Math.ceil((max + pad) / interval) * interval), interval };
}

/**
 * paddedBounds around the extremes of `values` (the report's charts and shared plot ranges);
 * [0, 1] in fifths when there are none. A loop, not Math.min(...values): fronts can be large.
 */
export function paddedBoundsOf(values: Iterable<number>): AxisBounds {
  let min = Infinity;
  let max = -Infinity;
  for (const v of values) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return min <= max ? paddedBounds(min, max) : { min: 0, max: 1, interval: 0.2 };
}

export interface DecadeAxis {
  /** The axis runs over log10 of the values, from 10^lo to 10^hi, a tick every `step` decades. */
  lo: number;
  hi: number;
  step: number;
  /** log10 of v, clamped to the axis (0 and infinite bounds land on its ends). */
  log(v: number): number;
}

/**
 * A value axis over log10 that covers the positive finite values in whole decades, each labelled
 * up to 8 of them, every other one (even exponents) beyond; [0, 1] when there are none.
 */
export function decadeAxis(values: readonly number[]): DecadeAxis {
  const positive = values.filter((v) => v > 0 && Number.isFinite(v));
  const rawLo = positive.length ? Math.floor(Math.log10(Math.min(...positive))) : 0;
  const rawHi = positive.length ? Math.ceil(Math.log10(Math.max(...positive))) : 1;
  const step = rawHi - rawLo > 8 ? 2 : 1;
  const lo = Math.floor(rawLo / step) * step;
  const hi = Math.max(Math.ceil(rawHi / step) * step, lo + step);
  return { lo, hi, step, log: (v) => Math.log10(Math.min(Math.max(v, 10 ** lo), 10 ** hi)) };
}

/** The panels of a dice feature chart: features on one scale share a panel, sized by weight. */
export const FEATURE_PANELS = [
  { title: 'Face balance χ²', features: [1, 2, 3, 4, 5], weight: 5 },
  // Wider than its two bars, so that its title and axis labels fit.
  { title: 'Neighbours', features: [6, 7], weight: 3 },
  { title: 'Patterns', features: [8, 9, 10, 11, 12, 13, 14, 15], weight: 8 },
] as const;
