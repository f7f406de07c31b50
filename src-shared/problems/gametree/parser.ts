// Parser for the notes' tree format: `(position child1 ... childn)`, a leaf `(position)`.
// Iterative throughout, so trees of depth 100,000 parse without stack overflow.
import type { Atom, GameTree } from './types.ts';
import { TreeSyntaxError } from './syntax-error.ts';
import { endOfInput, readSExprs, type SExpr, type SList } from './sexpr.ts';

interface MutableTree {
  position: Atom;
  children: MutableTree[];
}

/**
 * Parses exactly one tree. Errors (TreeSyntaxError, with line and column):
 *   - unbalanced parentheses: a stray `)`, or a `(` never closed;
 *   - an empty list `()` (a node needs a position);
 *   - a list where the position atom is expected (`((a) (b))`);
 *   - an atom where a subtree (list) is expected: a bare child `(a b)`, or a top-level atom;
 *   - no tree at all, or more than one top-level datum.
 */
export function parseTree(text: string): GameTree {
  const data = readSExprs(text);
  if (data.length === 0) {
    const end = endOfInput(text);
    throw new TreeSyntaxError('no tree found: expected a list (position child ...)', end.line, end.column);
  }
  if (data.length > 1) {
    const extra = data[1];
    throw new TreeSyntaxError('unexpected data after the tree: a file holds exactly one tree', extra.line, extra.column);
  }
  return treeFromSExpr(data[0]);
}

/** Converts a datum already read into a game tree, checking the structure (iteratively). */
export function treeFromSExpr(datum: SExpr): GameTree {
  const rootList = expectList(datum, 'expected a tree, a list (position child ...), but found the atom');
  const root: MutableTree = { position: 0, children: [] };
  const work: Array<[SList, MutableTree]> = [[rootList, root]];
  while (work.length > 0) {
    const [list, node] = work.pop()!;
    if (list.items.length === 0) throw new TreeSyntaxError('empty list (): a node needs a position', list.line, list.column);
    const head = list.items[0];
    if (head.kind !== 'atom') throw new TreeSyntaxError('expected a position (an atom) at the start of the list, but found a list', head.line, head.column);
    node.position = head.value;
    const start = work.length;
    for (let k = 1; k < list.items.length; k++) {
      const childList = expectList(list.items[k], 'expected a subtree (a list) but found the atom');
      const child: MutableTree = { position: 0, children: [] };
      node.children.push(child);
      work.push([childList, child]);
    }
    // Visit children in text order, so the first error in the text is the one reported.
    reverseFrom(work, start);
  }
  return root;
}

function expectList(datum: SExpr, what: string): SList {
  if (datum.kind === 'list') return datum;
  throw new TreeSyntaxError(`${what} ${datum.text}`, datum.line, datum.column);
}

function reverseFrom<T>(a: T[], start: number): void {
  for (let i = start, j = a.length - 1; i < j; i++, j--) {
    const t = a[i];
    a[i] = a[j];
    a[j] = t;
  }
}
