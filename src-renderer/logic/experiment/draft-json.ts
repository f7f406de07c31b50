/** A draft as the JSON panel's text, and that text parsed back (or where and why it is not a draft). */
import { isRecord, type Draft } from './draft-paths.ts';

/** The draft as JSON, two spaces deep, with a list of plain values on one line when it fits (bands, seeds). */
export function draftJson(draft: Draft): string {
  return formatJson(draft, '');
}

const LINE = 96;

function formatJson(v: unknown, indent: string): string {
  const inner = `${indent}  `;
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    if (v.every((x) => x === null || typeof x !== 'object')) {
      const one = `[${v.map((x) => JSON.stringify(x ?? null)).join(', ')}]`;
      if (indent.length + one.length <= LINE) return one;
    }
    return `[\n${v.map((x) => `${inner}${formatJson(x ?? null, inner)}`).join(',\n')}\n${indent}]`;
  }
  if (isRecord(v)) {
    const keys = Object.keys(v).filter((k) => v[k] !== undefined);
    if (keys.length === 0) return '{}';
    return `{\n${keys.map((k) => `${inner}${JSON.stringify(k)}: ${formatJson(v[k], inner)}`).join(',\n')}\n${indent}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

export interface JsonProblem {
  message: string;
  /** 1-based. */
  line: number;
  column: number;
  /** 0-based character offset. */
  offset: number;
}

/** Where a JSON text breaks, from the engine's message (V8: "at position N"; SpiderMonkey: "line L column C"). */
export function jsonProblem(text: string, error: unknown): JsonProblem {
  const raw = error instanceof Error ? error.message : String(error);
  let offset = text.length;
  const position = /at position (\d+)/.exec(raw);
  const lineColumn = /line (\d+) column (\d+)/.exec(raw);
  if (position) offset = Math.min(Number(position[1]), text.length);
  else if (lineColumn) {
    const lines = text.split('\n');
    const line = Math.min(Number(lineColumn[1]), lines.length);
    offset = lines.slice(0, line - 1).reduce((sum, l) => sum + l.length + 1, 0) + Number(lineColumn[2]) - 1;
  }
  const before = text.slice(0, offset).split('\n');
  const message = raw
    .replace(/^JSON\.parse: /, '')
    .replace(/ in JSON at position \d+.*$/, '')
    .replace(/ at line \d+ column \d+ of the JSON data$/, '')
    .replace(/ \(line \d+ column \d+\)$/, '');
  return { message, line: before.length, column: before[before.length - 1].length + 1, offset };
}

/** Parses the JSON editor's text: the draft, or where and why it cannot be one. */
export function parseDraftJson(text: string): { draft: Draft } | { problem: JsonProblem } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { problem: jsonProblem(text, e) };
  }
  if (!isRecord(value)) return { problem: { message: 'the spec must be a JSON object {…}', line: 1, column: 1, offset: 0 } };
  return { draft: value };
}
