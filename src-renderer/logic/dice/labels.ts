/** Short names of F1..F15 (spec dice-eccomp2020.md, "The 15 cognitive-bias features"). */
export const FEATURE_LABELS = [
  'χ² of faces, whole',
  'χ² of faces, 0–30 %',
  'χ² of faces, 23–53 %',
  'χ² of faces, 47–77 %',
  'χ² of faces, 70–100 %',
  'odd–even neighbours',
  'two in a row',
  'three in a row',
  'four in a row',
  'two pairs in 4',
  'full house in 5',
  '3 in 4',
  '3 in 5',
  '4 in 6',
  '4 in 7',
] as const;

export const TRACK_LABELS = { so: 'SO', mo2: 'M=2', mo3: 'M=3', mo5: 'M=5', mo7: 'M=7' } as const;

// One formatter for every call: toLocaleString with options builds a new one each time (about
// 40 µs, a few milliseconds for the rows of one table).
const GROUPED = new Intl.NumberFormat('en-US', { maximumFractionDigits: 6 });

/** Readable number: up to 6 significant digits, no trailing zeros, thousands grouped. */
export function formatNumber(v: number | null | undefined): string {
  if (v === null || v === undefined) return '∞';
  if (!Number.isFinite(v)) return v > 0 ? '∞' : v < 0 ? '−∞' : 'NaN';
  if (v !== 0 && (Math.abs(v) >= 1e9 || Math.abs(v) < 1e-4)) return v.toExponential(3);
  return GROUPED.format(Number(v.toPrecision(6)));
}

/**
 * An indicator or a statistic (a hypervolume, IGD+, a median, A12): 4 significant digits with no
 * trailing zeros ("1.331", "0.6478", "1.177"), exponent form from 10^6 and below 10^-3. The one
 * format of such values wherever they are shown (the comparison, the run monitor, the project
 * home), so "1.3310" never stands beside "1.177".
 */
export function formatIndicator(v: number | null | undefined): string {
  if (v === null || v === undefined) return '–';
  if (!Number.isFinite(v)) return v > 0 ? '∞' : v < 0 ? '−∞' : 'NaN';
  if (v === 0) return '0';
  if (Math.abs(v) >= 1e6 || Math.abs(v) < 1e-3) return v.toExponential(2);
  return String(Number(v.toPrecision(4)));
}

/** A feature group in short form: "F1–F15", "F1–F3", "F13–F15" or "F1, F4". */
export function groupLabel(group: readonly number[]): string {
  const contiguous = group.every((f, i) => i === 0 || f === group[i - 1] + 1);
  if (contiguous && group.length > 2) return `F${group[0]}–F${group[group.length - 1]}`;
  return group.map((f) => `F${f}`).join(', ');
}
