/**
 * One CSV cell, as every CSV the app writes has it (the report's two files, the explorer's
 * selection): RFC 4180 quoting (a field holding a comma, a double quote, CR or LF is quoted,
 * quotes doubled), numbers in full precision (JavaScript's shortest round-trip form; NaN and
 * infinities empty), and text that a spreadsheet would run as a formula neutralised.
 */

export type CsvValue = string | number | boolean | null | undefined;

/** Text that is exactly a decimal number, which a spreadsheet reads as that number, not a formula. */
const PLAIN_NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i;

/**
 * OWASP's defence against CSV (formula) injection: text that begins with `=`, `+`, `-`, `@`,
 * a tab or a carriage return gets a leading apostrophe, so a spreadsheet shows it as text
 * instead of running it (`=HYPERLINK(...)`, `+SUM(1,1)`, `@SUM(1)`). Text that is a plain
 * number (`-42`, `-1.5e-3`) is left alone: it is no formula, and stays a number.
 */
export function neutraliseFormula(text: string): string {
  return /^[=+\-@\t\r]/.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
}

export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : neutraliseFormula(String(value));
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
