// What a search records for display: one entry per visited node (and per pruned or
// memoised child), up to a limit. Enough for a UI to draw a collapsible tree with each
// node's value, whose turn, the principal variation and the pruned branches.
import type { Atom, Side } from './types.ts';

/** How a recorded value relates to the true minimax value (alpha-beta values may be bounds). */
export type Bound = 'exact' | 'lower' | 'upper';

export interface TraceNode {
  /** Index in SearchTrace.nodes; the root is 0. */
  id: number;
  /** Parent id, -1 for the root. */
  parent: number;
  /** Index of this node among its parent's children (move order). */
  childIndex: number;
  position: Atom;
  /** Whose turn it is at this node: A maximises, B minimises. */
  side: Side;
  depth: number;
  /** The value the search computed; null when the node was pruned (never searched). */
  value: number | null;
  bound: Bound | null;
  /** Ids of the recorded children, in move order. */
  children: number[];
  /** Number of children the node has in the game (recorded or not). */
  childCount: number;
  /** Id of the child the node's side chose, -1 for a leaf or when not recorded. */
  best: number;
  /** Skipped by an alpha-beta cutoff. */
  pruned: boolean;
  /** Value taken from the memo table (the node was not searched again). */
  memoHit: boolean;
  /** On the principal variation from the root. */
  onPV: boolean;
}

export interface SearchTrace {
  nodes: TraceNode[];
  /** True when the limit stopped the recording before the search ended. */
  truncated: boolean;
  limit: number;
}

export class TraceRecorder {
  readonly nodes: TraceNode[] = [];
  truncated = false;

  constructor(readonly limit: number) {}

  /** Records a node; returns its id, or -1 when its parent was not recorded or the limit is reached. */
  add(parent: number, childIndex: number, position: Atom, side: Side, depth: number, childCount: number): number {
    if (parent < 0 && this.nodes.length > 0) return -1;
    if (this.nodes.length >= this.limit) {
      this.truncated = true;
      return -1;
    }
    const id = this.nodes.length;
    this.nodes.push({
      id,
      parent,
      childIndex,
      position,
      side,
      depth,
      value: null,
      bound: null,
      children: [],
      childCount,
      best: -1,
      pruned: false,
      memoHit: false,
      onPV: false,
    });
    if (parent >= 0) this.nodes[parent].children.push(id);
    return id;
  }

  finish(id: number, value: number, bound: Bound, best: number): void {
    if (id < 0) return;
    const node = this.nodes[id];
    node.value = value;
    node.bound = bound;
    node.best = best;
  }

  /** Marks the principal variation by following `best` from the root. */
  markPrincipalVariation(): void {
    let id = this.nodes.length > 0 ? 0 : -1;
    while (id >= 0) {
      this.nodes[id].onPV = true;
      id = this.nodes[id].best;
    }
  }

  result(): SearchTrace {
    this.markPrincipalVariation();
    return { nodes: this.nodes, truncated: this.truncated, limit: this.limit };
  }
}
