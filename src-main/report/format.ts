/** How numbers read in the HTML, LaTeX and PDF reports (the CSV and JSON keep full precision). */

/**
 * Integers as they are; other values to 4 significant digits, in exponent form below 0.001
 * and from 10^6 up. null (no value) is a dash; an infinite value is ∞ (HTML) or \infty (LaTeX).
 */
export function formatValue(v: number | null | undefined): string {
  if (v === null || v === undefined || Number.isNaN(v)) return '–';
  if (!Number.isFinite(v)) return v > 0 ? '∞' : '−∞';
  if (Number.isInteger(v) && Math.abs(v) < 1e15) return String(v);
  const a = Math.abs(v);
  if (a < 1e-3 || a >= 1e6) return v.toExponential(2);
  return String(Number(v.toPrecision(4)));
}

/** "median (IQR)", or the mean alone for an indicator ranked by its mean (feasibility). */
export function formatCell(cell: { median: number | null; iqr: number | null; mean: number | null }, aggregate: 'median' | 'mean'): string {
  if (aggregate === 'mean') return formatValue(cell.mean);
  if (cell.median === null) return '–';
  return `${formatValue(cell.median)} (${formatValue(cell.iqr)})`;
}

/** What each indicator is called in tables and captions. */
export const METRIC_TITLES: Record<string, string> = {
  hv: 'Hypervolume (normalised)',
  'igd+': 'IGD+',
  epsilon: 'Additive epsilon',
  spacing: 'Spacing',
  feasibility: 'Feasibility rate',
  best: 'Best objective value',
};

export const metricTitle = (metric: string): string => METRIC_TITLES[metric] ?? metric;
