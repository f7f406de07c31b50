// Evaluation functions f(position, sideToMove) -> A's estimated win probability at a leaf.
import { atomText, type Atom, type EvalFn, type Side } from './types.ts';
import { readSExprs, endOfInput, numberFromText } from './sexpr.ts';
import { TreeSyntaxError } from './syntax-error.ts';

/** Raised when an evaluation function cannot score a leaf, or a table is malformed. */
export class EvaluationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EvaluationError';
  }
}

/** The notes' example: every leaf is worth `value` (the notes use 1). */
export function constantEval(value: number): EvalFn {
  return () => value;
}

/** A table from position label (its text, exactly as written) to value. */
export type EvalTable = ReadonlyMap<string, number>;

export interface TableEvalOptions {
  /** Value for a leaf missing from the table; without it a missing leaf is an EvaluationError. */
  fallback?: number;
}

/** Looks each leaf's position up in the table by its label (`12`, `a`, `Pos-3`; `01` is not `1`). */
export function tableEval(table: EvalTable, options: TableEvalOptions = {}): EvalFn {
  const { fallback } = options;
  return (position: Atom) => {
    const v = table.get(atomText(position));
    if (v !== undefined) return v;
    if (fallback !== undefined) return fallback;
    throw new EvaluationError(`the evaluation table has no value for the leaf position ${atomText(position)}`);
  };
}

/**
 * Parses an evaluation table, either a JSON object `{"a": 0.3, "12": 1}` or an S-expression
 * association list `((a . 0.3) (b 0.7))` (dotted pairs and two-element lists both accepted).
 * Values must be finite numbers. Throws EvaluationError for JSON problems and TreeSyntaxError
 * (with line and column) for association-list problems.
 */
export function parseEvalTable(text: string): Map<string, number> {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{')) return parseJsonTable(text);
  return parseAlistTable(text);
}

function parseJsonTable(text: string): Map<string, number> {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new EvaluationError(`the evaluation table is not valid JSON: ${(e as Error).message}`);
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw new EvaluationError('the evaluation table must be a JSON object {"position": value, ...}');
  }
  const table = new Map<string, number>();
  for (const [key, value] of Object.entries(data as Record<string, unknown>)) {
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      throw new EvaluationError(`the evaluation table's value for "${key}" is not a finite number`);
    }
    table.set(key, value);
  }
  return table;
}

function parseAlistTable(text: string): Map<string, number> {
  const data = readSExprs(text);
  if (data.length === 0) {
    const end = endOfInput(text);
    throw new TreeSyntaxError('no evaluation table found: expected ((position . value) ...) or a JSON object', end.line, end.column);
  }
  if (data.length > 1) throw new TreeSyntaxError('unexpected data after the association list', data[1].line, data[1].column);
  const alist = data[0];
  if (alist.kind !== 'list')
    throw new TreeSyntaxError(`expected an association list ((position . value) ...) but found the atom ${alist.text}`, alist.line, alist.column);
  const table = new Map<string, number>();
  for (const entry of alist.items) {
    if (entry.kind !== 'list') throw new TreeSyntaxError(`expected an entry (position . value) but found the atom ${entry.text}`, entry.line, entry.column);
    const items = entry.items;
    let keyItem;
    let valueItem;
    if (items.length === 3 && items[1].kind === 'atom' && items[1].text === '.') {
      keyItem = items[0];
      valueItem = items[2];
    } else if (items.length === 2) {
      keyItem = items[0];
      valueItem = items[1];
    } else {
      throw new TreeSyntaxError('expected an entry (position . value) or (position value)', entry.line, entry.column);
    }
    if (keyItem.kind !== 'atom') throw new TreeSyntaxError('expected a position (an atom) as the key', keyItem.line, keyItem.column);
    const value = valueItem.kind === 'atom' ? numberFromText(valueItem.text) : null;
    if (value === null) throw new TreeSyntaxError('expected a number as the value', valueItem.line, valueItem.column);
    // The key is the label as written: (01 . x) and (1 . y) are two entries.
    table.set(keyItem.text, value);
  }
  return table;
}

/**
 * The notes' prose reading of f: "the probability that the player to move at x wins". Turns
 * such a function into A's win probability: g at A's turn, 1 - g at B's. (The notes' Lisp and
 * the rest of this module take f as A's win probability directly.)
 */
export function fromMoverPerspective(g: (position: Atom) => number): EvalFn {
  return (position: Atom, sideToMove: Side) => {
    const v = g(position);
    return sideToMove === 'A' ? v : 1 - v;
  };
}

/** Nim's two rules: whoever takes the last stone wins, or loses. */
export type NimRule = 'last-wins' | 'last-loses';

export const NIM_RULES: readonly NimRule[] = ['last-wins', 'last-loses'];

/**
 * The exact value of nim's terminal position 0 (no stones left), by whose turn it is there:
 * under last-wins the player to move at 0 has lost (the other took the last stone), under
 * last-loses that player has won. Value 1 if A wins, 0 if A loses. Any other leaf (a tree
 * cut short) is an EvaluationError unless `nonTerminal` gives a value for it.
 */
export function nimRuleEval(rule: NimRule, options: { nonTerminal?: number } = {}): EvalFn {
  const { nonTerminal } = options;
  return (position: Atom, sideToMove: Side) => {
    if (position === 0) {
      const moverWins = rule === 'last-loses';
      const aWins = sideToMove === 'A' ? moverWins : !moverWins;
      return aWins ? 1 : 0;
    }
    if (nonTerminal !== undefined) return nonTerminal;
    throw new EvaluationError(`the nim rule only scores the terminal position 0, but the leaf ${atomText(position)} is not terminal`);
  };
}
