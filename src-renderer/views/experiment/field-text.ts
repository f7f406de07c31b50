/** What the form's text fields hold: numbers, lists of numbers, and values shown as text. */

/**
 * What a number field holds: a number when the text is one, the text itself otherwise (so the
 * spec shows it and validation names the field), undefined when empty (the field is left out).
 */
export function parseNumberText(text: string): number | string | undefined {
  const t = text.trim();
  if (t === '') return undefined;
  const v = Number(t);
  return Number.isFinite(v) && /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(t) ? v : t;
}

/** A list of numbers typed as "1, 2, 3" (commas or spaces). */
export function parseNumberListText(text: string): (number | string)[] | undefined {
  const parts = text.split(/[\s,;]+/).filter((p) => p !== '');
  return parts.length ? parts.map((p) => parseNumberText(p)!) : undefined;
}

export function formatValue(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (Array.isArray(v)) return v.map(formatValue).join(', ');
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}
