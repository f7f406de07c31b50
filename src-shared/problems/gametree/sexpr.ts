// A small S-expression reader: lists, atoms (numbers or symbols) and `;` comments to the end
// of the line. Iterative (an explicit stack of open lists), so nesting depth is limited only
// by memory. Every datum carries the 1-based line and column where it starts.
import type { Atom } from './types.ts';
import { TreeSyntaxError } from './syntax-error.ts';

export interface SAtom {
  readonly kind: 'atom';
  /** The atom as a position label (atomFromText); `text` is what was written. */
  readonly value: Atom;
  readonly text: string;
  readonly line: number;
  readonly column: number;
}

export interface SList {
  readonly kind: 'list';
  readonly items: SExpr[];
  readonly line: number;
  readonly column: number;
}

export type SExpr = SAtom | SList;

const NUMBER_RE = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** The number a numeral (`12`, `-2.5`, `1e3`, `+.5`) stands for; null for any other text. */
export function numberFromText(text: string): number | null {
  if (!NUMBER_RE.test(text)) return null;
  const n = Number(text);
  return Number.isFinite(n) ? n : null;
}

/**
 * Reads a position label. A label is its text: `01`, `1`, `1.0`, `1e0` and `+1` are five
 * different positions. Text that is exactly how JavaScript prints a number (`0`, `12`,
 * `-2.5`, `1e+21`) is stored as that number, so that trees read back from text equal the
 * generated ones (nim's positions are numbers); that mapping is one to one, and
 * atomText(atomFromText(t)) === t for every t.
 */
export function atomFromText(text: string): Atom {
  const n = numberFromText(text);
  return n !== null && String(n) === text ? n : text;
}

function isDelimiter(ch: string): boolean {
  return ch === '(' || ch === ')' || ch === ';' || ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r' || ch === '\f' || ch === '\v';
}

/**
 * Reads all top-level data of `text`. Throws TreeSyntaxError for a stray `)` (at that `)`)
 * and for a list left open at the end of input (at the innermost unclosed `(`).
 */
export function readSExprs(text: string): SExpr[] {
  const top: SExpr[] = [];
  const open: SList[] = [];
  let line = 1;
  let column = 1;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const ch = text[i];
    if (ch === '\n') {
      line++;
      column = 1;
      i++;
    } else if (ch === ' ' || ch === '\t' || ch === '\r' || ch === '\f' || ch === '\v') {
      column++;
      i++;
    } else if (ch === ';') {
      while (i < n && text[i] !== '\n') i++;
    } else if (ch === '(') {
      const list: SList = { kind: 'list', items: [], line, column };
      (open.length > 0 ? open[open.length - 1].items : top).push(list);
      open.push(list);
      column++;
      i++;
    } else if (ch === ')') {
      if (open.length === 0) throw new TreeSyntaxError("unexpected ')' with no matching '('", line, column);
      open.pop();
      column++;
      i++;
    } else {
      const start = i;
      while (i < n && !isDelimiter(text[i])) i++;
      const word = text.slice(start, i);
      const atom: SAtom = { kind: 'atom', value: atomFromText(word), text: word, line, column };
      (open.length > 0 ? open[open.length - 1].items : top).push(atom);
      column += i - start;
    }
  }
  if (open.length > 0) {
    const unclosed = open[open.length - 1];
    const more = open.length > 1 ? ` (${open.length} lists are open)` : '';
    throw new TreeSyntaxError(`'(' is never closed: reached the end of input${more}`, unclosed.line, unclosed.column);
  }
  return top;
}

/** Where the input ends, for errors about missing data. */
export function endOfInput(text: string): { line: number; column: number } {
  let line = 1;
  let lastNl = -1;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\n') {
      line++;
      lastNl = i;
    }
  }
  return { line, column: text.length - lastNl };
}
