// A JSON-serialisable view of a search for display: a capped set of nodes, chosen breadth
// first from the root (the principal variation always included), each with its value, whose
// turn, PV highlight and pruned / memo flags, and how many of its children are hidden.
import type { Atom, Method, Side } from './types.ts';
import type { SearchResult } from './result.ts';
import type { Bound, TraceNode } from './trace.ts';

export interface ViewNode {
  id: number;
  parent: number;
  childIndex: number;
  position: Atom;
  side: Side;
  depth: number;
  value: number | null;
  bound: Bound | null;
  /** Ids of children included in the view. */
  children: number[];
  /** Children the node has but the view leaves out (cap, trace limit, or never searched). */
  hiddenChildren: number;
  leaf: boolean;
  onPV: boolean;
  pruned: boolean;
  memoHit: boolean;
}

export interface GameTreeViewModel {
  method: Method;
  rootSide: Side;
  value: number;
  principalVariation: Atom[];
  nodesVisited: number;
  prunedBranches: number;
  memoHits: number;
  rootId: number;
  /** Nodes by id (ids are the trace's; not contiguous when capped). */
  nodes: ViewNode[];
  /** True when nodes were left out (cap or trace limit). */
  truncated: boolean;
}

/**
 * Builds the view from a result searched with a trace (SearchOptions.traceLimit > 0).
 * At most `maxNodes` nodes (default 500) are kept, breadth first, plus the principal variation.
 */
export function toViewModel(result: SearchResult, maxNodes = 500): GameTreeViewModel {
  const trace = result.trace;
  if (!trace) throw new Error('toViewModel: the result has no trace; search with { traceLimit } to record one');
  const all = trace.nodes;
  const keep = new Set<number>();
  // The principal variation first, so it survives any cap.
  for (const n of all) if (n.onPV) keep.add(n.id);
  const queue: number[] = all.length > 0 ? [0] : [];
  for (let q = 0; q < queue.length && keep.size < maxNodes; q++) {
    const id = queue[q];
    keep.add(id);
    for (const c of all[id].children) queue.push(c);
  }
  // Keep the kept set closed under parent (BFS guarantees it; PV nodes are a root path).
  const nodes: ViewNode[] = [];
  for (const n of all) {
    if (!keep.has(n.id)) continue;
    nodes.push(view(n, keep));
  }
  return {
    method: result.method,
    rootSide: result.rootSide,
    value: result.value,
    principalVariation: result.principalVariation,
    nodesVisited: result.nodesVisited,
    prunedBranches: result.prunedBranches,
    memoHits: result.memoHits,
    rootId: 0,
    nodes,
    truncated: trace.truncated || nodes.length < all.length,
  };
}

function view(n: TraceNode, keep: Set<number>): ViewNode {
  const children = n.children.filter((c) => keep.has(c));
  // Pruned and memo-hit nodes were not expanded: all their children count as hidden.
  const expanded = !n.pruned && !n.memoHit;
  return {
    id: n.id,
    parent: n.parent,
    childIndex: n.childIndex,
    position: n.position,
    side: n.side,
    depth: n.depth,
    value: n.value,
    bound: n.bound,
    children,
    hiddenChildren: expanded ? n.childCount - children.length : n.childCount,
    leaf: n.childCount === 0,
    onPV: n.onPV,
    pruned: n.pruned,
    memoHit: n.memoHit,
  };
}
