// The outcome of one search: value, principal variation, work done, and optionally a trace.
import type { Atom, Method, Side } from './types.ts';
import type { SearchTrace } from './trace.ts';
import { EvaluationError } from './evaluation.ts';

export interface SearchResult {
  method: Method;
  /** Who moves at the root: 'A' gives estimateMyTurn, 'B' estimateHisTurn. */
  rootSide: Side;
  /** The minimax value at the root: A's estimated win probability. */
  value: number;
  /** Positions from the root following the chosen child (first best, in move order) to a leaf. */
  principalVariation: Atom[];
  /** Nodes searched: every node entered (leaves included). For memo, distinct (position, side) states. */
  nodesVisited: number;
  /** Calls of the evaluation function. */
  leavesEvaluated: number;
  /** Alpha-beta: children skipped by cutoffs (each a whole subtree). 0 for other methods. */
  prunedBranches: number;
  /** Memo: children whose value came from the memo table. 0 for other methods. */
  memoHits: number;
  /** Recorded when the search is asked to (SearchOptions.traceLimit). */
  trace?: SearchTrace;
}

export interface SearchOptions {
  /** Record up to this many nodes for display (default 0: no trace). */
  traceLimit?: number;
  /** Stop with SearchLimitError once more than this many nodes have been visited (default: no limit). */
  maxNodes?: number;
  /**
   * Polled every 65,536 visited nodes; returning true stops the search with SearchLimitError.
   * (A deadline lives here, so the search itself never reads a clock.)
   */
  shouldStop?: () => boolean;
}

/** Raised when a search is stopped by SearchOptions.maxNodes or shouldStop. */
export class SearchLimitError extends Error {
  constructor(
    readonly nodesVisited: number,
    readonly reason: 'maxNodes' | 'stopped',
  ) {
    super(
      reason === 'maxNodes'
        ? `the search was stopped after visiting ${nodesVisited} nodes (the node limit)`
        : `the search was stopped after visiting ${nodesVisited} nodes`,
    );
    this.name = 'SearchLimitError';
  }
}

/** Builds the per-node limit check of a search: called with the visited count after each visit. */
export function limitChecker(options: SearchOptions): ((visited: number) => void) | null {
  const maxNodes = options.maxNodes ?? Infinity;
  const shouldStop = options.shouldStop;
  if (maxNodes === Infinity && !shouldStop) return null;
  return (visited: number) => {
    if (visited > maxNodes) throw new SearchLimitError(visited, 'maxNodes');
    if (shouldStop && (visited & 0xffff) === 0 && shouldStop()) throw new SearchLimitError(visited, 'stopped');
  };
}

/** A singly linked principal variation, built bottom-up as the search returns. */
export interface PvCell {
  readonly position: Atom;
  readonly next: PvCell | null;
}

export function pvToArray(pv: PvCell | null): Atom[] {
  const out: Atom[] = [];
  for (let c = pv; c !== null; c = c.next) out.push(c.position);
  return out;
}

/** Leaf values must be numbers (NaN would silently break max and min). */
export function checkLeafValue(value: number, position: Atom): number {
  if (typeof value !== 'number' || Number.isNaN(value)) {
    throw new EvaluationError(`the evaluation function returned ${String(value)} for the leaf ${String(position)}`);
  }
  return value;
}
