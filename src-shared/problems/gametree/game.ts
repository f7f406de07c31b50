// A game as the searches see it: nodes with a position and a list of successor nodes.
// An explicit GameTree is one instance (treeSource); an implicit game such as nim's
// "n stones, take 1 to 3" is another, generated on demand (see nim.ts).
import type { Atom, GameTree } from './types.ts';

export interface GameSource<N> {
  /** The node's position: what the evaluation function and the principal variation see. */
  position(node: N): Atom;
  /** The successor nodes, in move order. Empty for a leaf. */
  children(node: N): readonly N[];
  /**
   * Optional dense numbering of positions (0 <= index < size) for the memoised search, which
   * then uses typed arrays instead of hash maps. Equal positions must get equal indices.
   */
  dense?: { size: number; index(node: N): number };
}

/** The explicit tree as a game source. */
export const treeSource: GameSource<GameTree> = {
  position: (node) => node.position,
  children: (node) => node.children,
};

/** A game together with its starting node. */
export interface RootedGame<N> {
  source: GameSource<N>;
  root: N;
}
