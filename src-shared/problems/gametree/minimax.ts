// Plain minimax: the notes' estimate-my-turn / estimate-his-turn mutual recursion
//   (defun estimate-my-turn (f tree)  leaf: (f position); else max over children of estimate-his-turn)
//   (defun estimate-his-turn (f tree) leaf: (f position); else min over children of estimate-my-turn)
// written as one loop over an explicit stack. A node at even depth below the root has the
// root's side to move; max where A moves, min where B moves; a leaf is worth
// f(position, sideToMove). Every node of the tree is visited once, so nodesVisited equals
// the tree size.
import type { Atom, EvalFn, GameTree, Side } from './types.ts';
import { treeSource, type GameSource } from './game.ts';
import { checkLeafValue, limitChecker, pvToArray, type PvCell, type SearchOptions, type SearchResult } from './result.ts';
import { TraceRecorder } from './trace.ts';

/** A's win probability by minimax when A moves first at the root (the notes' estimate-my-turn). */
export function estimateMyTurn(f: EvalFn, tree: GameTree): number {
  return minimax(treeSource, tree, f, 'A').value;
}

/** A's win probability by minimax when B moves first at the root (the notes' estimate-his-turn). */
export function estimateHisTurn(f: EvalFn, tree: GameTree): number {
  return minimax(treeSource, tree, f, 'B').value;
}

/** Plain minimax over any game source, from `rootSide` to move. */
export function minimax<N>(source: GameSource<N>, root: N, f: EvalFn, rootSide: Side, options: SearchOptions = {}): SearchResult {
  return options.traceLimit && options.traceLimit > 0 ? minimaxTraced(source, root, f, rootSide, options) : minimaxLean(source, root, f, rootSide, options);
}

/**
 * The untraced search, the benchmark's hot loop: leaves are scored without being pushed, and a
 * principal-variation cell is allocated only when a node's best child improves.
 */
function minimaxLean<N>(source: GameSource<N>, root: N, f: EvalFn, rootSide: Side, options: SearchOptions): SearchResult {
  const otherSide: Side = rootSide === 'A' ? 'B' : 'A';
  const maxAtEven = rootSide === 'A';
  const checkLimit = limitChecker(options);
  const result = (value: number, pv: PvCell, visited: number, leaves: number): SearchResult => ({
    method: 'plain',
    rootSide,
    value,
    principalVariation: pvToArray(pv),
    nodesVisited: visited,
    leavesEvaluated: leaves,
    prunedBranches: 0,
    memoHits: 0,
  });
  const rootKids = source.children(root);
  if (rootKids.length === 0) {
    const position = source.position(root);
    return result(checkLeafValue(f(position, rootSide), position), { position, next: null }, 1, 1);
  }
  // The stack, as parallel arrays indexed by depth; the root is at 0.
  const nodes: N[] = [root];
  const kids: (readonly N[])[] = [rootKids];
  const next: number[] = [0];
  const best: number[] = [maxAtEven ? -Infinity : Infinity];
  const bestPv: (PvCell | null)[] = [null];
  let visited = 1;
  let leaves = 0;
  let sp = 1;
  for (;;) {
    const top = sp - 1;
    const ks = kids[top];
    const i = next[top];
    const maximising = ((top & 1) === 0) === maxAtEven;
    if (i < ks.length) {
      next[top] = i + 1;
      const child = ks[i];
      visited++;
      if (checkLimit !== null) checkLimit(visited);
      const childKids = source.children(child);
      if (childKids.length === 0) {
        leaves++;
        const position = source.position(child);
        const v = checkLeafValue(f(position, (top & 1) === 0 ? otherSide : rootSide), position);
        if (maximising ? v > best[top] : v < best[top]) {
          best[top] = v;
          bestPv[top] = { position, next: null };
        }
        continue;
      }
      nodes[sp] = child;
      kids[sp] = childKids;
      next[sp] = 0;
      best[sp] = maximising ? Infinity : -Infinity;
      bestPv[sp] = null;
      sp++;
      continue;
    }
    const v = best[top];
    const pv = bestPv[top];
    if (top === 0) return result(v, { position: source.position(root), next: pv }, visited, leaves);
    // The finished node's parent minimises where it maximised, and vice versa.
    if (maximising ? v < best[top - 1] : v > best[top - 1]) {
      best[top - 1] = v;
      bestPv[top - 1] = { position: source.position(nodes[top]), next: pv };
    }
    // Drop references so a long search does not keep finished subtrees alive.
    nodes[top] = undefined as unknown as N;
    kids[top] = undefined as unknown as readonly N[];
    bestPv[top] = null;
    sp = top;
  }
}

/** The search with a trace for display (SearchOptions.traceLimit). */
function minimaxTraced<N>(source: GameSource<N>, root: N, f: EvalFn, rootSide: Side, options: SearchOptions): SearchResult {
  const rec = options.traceLimit && options.traceLimit > 0 ? new TraceRecorder(options.traceLimit) : null;
  const otherSide: Side = rootSide === 'A' ? 'B' : 'A';
  // The stack, as parallel arrays indexed by depth.
  const nodes: N[] = [];
  const kids: (readonly N[])[] = [];
  const next: number[] = [];
  const best: number[] = [];
  const bestPv: (PvCell | null)[] = [];
  const bestTrace: number[] = [];
  const traceId: number[] = [];
  const checkLimit = limitChecker(options);
  let sp = 0;
  let visited = 0;
  let leaves = 0;
  // The value most recently returned by a finished node, waiting for its parent.
  let retValue = 0;
  let retPv: PvCell | null = null;
  let retTrace = -1;
  let hasRet = false;

  const enter = (node: N, depth: number, parentTrace: number, childIndex: number): void => {
    visited++;
    if (checkLimit) checkLimit(visited);
    const side = (depth & 1) === 0 ? rootSide : otherSide;
    const position = source.position(node);
    const ks = source.children(node);
    const tid = rec ? rec.add(parentTrace, childIndex, position, side, depth, ks.length) : -1;
    if (ks.length === 0) {
      leaves++;
      const v = checkLeafValue(f(position, side), position);
      if (rec) rec.finish(tid, v, 'exact', -1);
      retValue = v;
      retPv = { position, next: null };
      retTrace = tid;
      hasRet = true;
      return;
    }
    nodes[sp] = node;
    kids[sp] = ks;
    next[sp] = 0;
    best[sp] = side === 'A' ? -Infinity : Infinity;
    bestPv[sp] = null;
    bestTrace[sp] = -1;
    traceId[sp] = tid;
    sp++;
  };

  enter(root, 0, -1, 0);
  while (sp > 0) {
    const top = sp - 1;
    const maximising = ((top & 1) === 0) === (rootSide === 'A');
    if (hasRet) {
      hasRet = false;
      if (maximising ? retValue > best[top] : retValue < best[top]) {
        best[top] = retValue;
        bestPv[top] = retPv;
        bestTrace[top] = retTrace;
      }
    }
    const ks = kids[top];
    const i = next[top];
    if (i < ks.length) {
      next[top] = i + 1;
      enter(ks[i], top + 1, traceId[top], i);
    } else {
      const position: Atom = source.position(nodes[top]);
      retValue = best[top];
      retPv = { position, next: bestPv[top] };
      retTrace = traceId[top];
      if (rec) rec.finish(traceId[top], retValue, 'exact', bestTrace[top]);
      hasRet = true;
      sp--;
      // Drop references so a long search does not keep finished subtrees alive.
      nodes[sp] = undefined as unknown as N;
      kids[sp] = undefined as unknown as readonly N[];
      bestPv[sp] = null;
    }
  }
  return {
    method: 'plain',
    rootSide,
    value: retValue,
    principalVariation: pvToArray(retPv),
    nodesVisited: visited,
    leavesEvaluated: leaves,
    prunedBranches: 0,
    memoHits: 0,
    ...(rec ? { trace: rec.result() } : {}),
  };
}
