// Basic vocabulary of the game-tree (minimax) lab.
// Source: the notes in shared/seeds/minimax-game-tree.ja.txt (CL drill 8.2.6): a tree is
// `(position child ...)`, a leaf `(position)`, positions are atoms (numbers or symbols).

/**
 * A position label. Labels are strings: two positions are the same exactly when they are
 * written the same (`01`, `1`, `1.0` are three positions). Generated games (nim) use numbers;
 * the parser reads a label as a number only when it is written exactly as that number prints
 * (see atomFromText), so atomText always gives back the label as written.
 */
export type Atom = number | string;

/** A node of a game tree. A leaf has no children. Trees may share subtrees (see nimTree). */
export interface GameTree {
  readonly position: Atom;
  readonly children: readonly GameTree[];
}

/** A is the program (whose win probability is estimated), B the opponent. */
export type Side = 'A' | 'B';

export function otherSide(side: Side): Side {
  return side === 'A' ? 'B' : 'A';
}

/**
 * An evaluation function: A's estimated win probability at a leaf `position` where `side`
 * is to move. (The notes' f(x) takes the position only; the side is passed so that
 * terminal positions such as nim's 0 can be scored by whose turn it is.)
 */
export type EvalFn = (position: Atom, sideToMove: Side) => number;

/** The search methods of the lab. */
export type Method = 'plain' | 'alphabeta' | 'memo';

/** The label of a position, as written: what the printer writes and table keys match. */
export function atomText(atom: Atom): string {
  return typeof atom === 'number' ? String(atom) : atom;
}
