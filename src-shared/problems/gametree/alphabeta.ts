// Alpha-beta pruning (fail-soft), iterative. Same root value and, with first-best tie
// breaking, the same principal variation as plain minimax; it skips the remaining children
// of a node once its value cannot matter: at an A node when best >= beta, at a B node when
// best <= alpha. Values of nodes off the principal variation may be bounds (see Bound).
import type { Atom, EvalFn, GameTree, Side } from './types.ts';
import { treeSource, type GameSource } from './game.ts';
import { checkLeafValue, limitChecker, pvToArray, type PvCell, type SearchOptions, type SearchResult } from './result.ts';
import { TraceRecorder, type Bound } from './trace.ts';

/** estimateMyTurn by alpha-beta. */
export function alphaBetaMyTurn(f: EvalFn, tree: GameTree): number {
  return alphaBeta(treeSource, tree, f, 'A').value;
}

/** estimateHisTurn by alpha-beta. */
export function alphaBetaHisTurn(f: EvalFn, tree: GameTree): number {
  return alphaBeta(treeSource, tree, f, 'B').value;
}

export function alphaBeta<N>(source: GameSource<N>, root: N, f: EvalFn, rootSide: Side, options: SearchOptions = {}): SearchResult {
  const rec = options.traceLimit && options.traceLimit > 0 ? new TraceRecorder(options.traceLimit) : null;
  const otherSide: Side = rootSide === 'A' ? 'B' : 'A';
  const nodes: N[] = [];
  const kids: (readonly N[])[] = [];
  const next: number[] = [];
  const best: number[] = [];
  const alpha: number[] = [];
  const beta: number[] = [];
  const bestPv: (PvCell | null)[] = [];
  const bestTrace: number[] = [];
  const traceId: number[] = [];
  const checkLimit = limitChecker(options);
  let sp = 0;
  let visited = 0;
  let leaves = 0;
  let pruned = 0;
  let retValue = 0;
  let retPv: PvCell | null = null;
  let retTrace = -1;
  let hasRet = false;

  const enter = (node: N, depth: number, a: number, b: number, parentTrace: number, childIndex: number): void => {
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
    alpha[sp] = a;
    beta[sp] = b;
    bestPv[sp] = null;
    bestTrace[sp] = -1;
    traceId[sp] = tid;
    sp++;
  };

  enter(root, 0, -Infinity, Infinity, -1, 0);
  while (sp > 0) {
    const top = sp - 1;
    const maximising = ((top & 1) === 0) === (rootSide === 'A');
    const ks = kids[top];
    let cut = false;
    if (hasRet) {
      hasRet = false;
      if (maximising ? retValue > best[top] : retValue < best[top]) {
        best[top] = retValue;
        bestPv[top] = retPv;
        bestTrace[top] = retTrace;
      }
      cut = maximising ? best[top] >= beta[top] : best[top] <= alpha[top];
    }
    const i = next[top];
    if (!cut && i < ks.length) {
      next[top] = i + 1;
      const a = maximising ? Math.max(alpha[top], best[top]) : alpha[top];
      const b = maximising ? beta[top] : Math.min(beta[top], best[top]);
      enter(ks[i], top + 1, a, b, traceId[top], i);
      continue;
    }
    if (cut && i < ks.length) {
      pruned += ks.length - i;
      const tid = traceId[top];
      if (rec && tid >= 0) {
        const childSide: Side = ((top + 1) & 1) === 0 ? rootSide : otherSide;
        for (let k = i; k < ks.length; k++) {
          const child = ks[k];
          const id = rec.add(tid, k, source.position(child), childSide, top + 1, source.children(child).length);
          if (id >= 0) rec.nodes[id].pruned = true;
        }
      }
    }
    const v = best[top];
    retValue = v;
    retPv = { position: source.position(nodes[top]) as Atom, next: bestPv[top] };
    retTrace = traceId[top];
    if (rec) {
      const bound: Bound = v <= alpha[top] ? 'upper' : v >= beta[top] ? 'lower' : 'exact';
      rec.finish(traceId[top], v, bound, bestTrace[top]);
    }
    hasRet = true;
    sp--;
    nodes[sp] = undefined as unknown as N;
    kids[sp] = undefined as unknown as readonly N[];
    bestPv[sp] = null;
  }
  return {
    method: 'alphabeta',
    rootSide,
    value: retValue,
    principalVariation: pvToArray(retPv),
    nodesVisited: visited,
    leavesEvaluated: leaves,
    prunedBranches: pruned,
    memoHits: 0,
    ...(rec ? { trace: rec.result() } : {}),
  };
}
