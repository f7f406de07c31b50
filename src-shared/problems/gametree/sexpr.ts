// A small S-expression reader: lists, atoms (numbers or symbols) and `;` comments to the end
// of the line. Iterative (an explicit stack of open lists), so nesting depth is limited only
// by memory. Every datum carries the 1-based line and column where it starts.
import type { Atom } from './types.ts';
import { TreeSyntaxError } from './syntax-error.ts';

export interface SAtom {
  readonly kind: 'atom';
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

/** Reads an atom's text: a number when it looks like one, otherwise a symbol kept as written. */
export function atomFromText(text: string): Atom {
  if (NUMBER_RE.test(text)) {
    const n = Number(text);
    if (Number.isFinite(n)) return n;
  }
  return text;
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
