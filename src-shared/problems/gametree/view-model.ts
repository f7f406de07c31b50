// What the lab view shows of a game tree: every node's exact minimax value and whose turn it
// is, the principal variation, and which branches alpha-beta prunes. Nodes are materialised
// lazily (a child list is built the first time it is asked for), so a view can browse a tree
// far larger than it could draw.
import type { Atom, EvalFn, GameTree, Side } from './types.ts';
import { treeSource } from './game.ts';
import { alphaBeta } from './alphabeta.ts';
import { memoMinimax } from './memo.ts';
import { checkLeafValue, SearchLimitError } from './result.ts';
import type { SearchTrace } from './trace.ts';
import { nimGame, nimTree, nimTreeSize } from './nim.ts';
import { nimRuleEval, type NimRule } from './evaluation.ts';

/**
 * How alpha-beta treated a node: `searched` (visited), `cut` (a child it skipped after a
 * cutoff), `inside` (below a cut child, so never seen), `unknown` (beyond the recorded trace).
 */
export type PruneState = 'searched' | 'cut' | 'inside' | 'unknown';

export interface ExplorerNode {
  /** Child indices from the root joined by '.', '' for the root: stable across rebuilds. */
  readonly key: string;
  readonly tree: GameTree;
  readonly position: Atom;
  /** Whose turn it is here: A maximises, B minimises. */
  readonly side: Side;
  readonly depth: number;
  /** The exact minimax value (A's win probability), as plain minimax computes it. */
  readonly value: number;
  readonly childCount: number;
  /** Index of the child the side to move picks (first best in move order); -1 at a leaf. */
  readonly bestChild: number;
  readonly onPV: boolean;
  readonly pruning: PruneState;
}

export interface ExplorerOptions {
  /** Alpha-beta nodes recorded for the pruning overlay (default 200,000). */
  traceLimit?: number;
  /** Node limit for the alpha-beta run (default 5,000,000); beyond it the overlay is unknown. */
  maxNodes?: number;
}

/** Exact values of (subtree, side to move) pairs; valueAll returns them indexed [A, B]. */
interface Values {
  value: Map<GameTree, number>;
  best: Map<GameTree, number>;
}

/**
 * Minimax values by subtree identity: shared subtrees (nimTree) are valued once, so this is
 * linear in the distinct objects and always sound (the same object is the same subtree).
 * Iterative post-order.
 */
function valueAll(tree: GameTree, f: EvalFn, rootSide: Side): [Values, Values] {
  const bySide: [Values, Values] = [
    { value: new Map(), best: new Map() },
    { value: new Map(), best: new Map() },
  ];
  const nodes: GameTree[] = [tree];
  const sides: number[] = [rootSide === 'A' ? 0 : 1];
  const expanded: boolean[] = [false];
  while (nodes.length > 0) {
    const top = nodes.length - 1;
    const node = nodes[top];
    const s = sides[top];
    const table = bySide[s];
    if (table.value.has(node)) {
      nodes.pop();
      sides.pop();
      expanded.pop();
      continue;
    }
    const kids = node.children;
    if (kids.length === 0) {
      table.value.set(node, checkLeafValue(f(node.position, s === 0 ? 'A' : 'B'), node.position));
      table.best.set(node, -1);
      continue;
    }
    if (!expanded[top]) {
      expanded[top] = true;
      for (let i = kids.length - 1; i >= 0; i--) {
        if (!bySide[1 - s].value.has(kids[i])) {
          nodes.push(kids[i]);
          sides.push(1 - s);
          expanded.push(false);
        }
      }
      continue;
    }
    const childValues = bySide[1 - s].value;
    let best = s === 0 ? -Infinity : Infinity;
    let bestIndex = -1;
    for (let i = 0; i < kids.length; i++) {
      const v = childValues.get(kids[i])!;
      if (s === 0 ? v > best : v < best) {
        best = v;
        bestIndex = i;
      }
    }
    table.value.set(node, best);
    table.best.set(node, bestIndex);
  }
  return bySide;
}

/** Tree size counted by subtree identity (a shared subtree counts once per occurrence). */
export function treeSize(tree: GameTree): number {
  const size = new Map<GameTree, number>();
  const stack: GameTree[] = [tree];
  while (stack.length > 0) {
    const node = stack[stack.length - 1];
    if (size.has(node)) {
      stack.pop();
      continue;
    }
    let missing = false;
    for (const c of node.children) {
      if (!size.has(c)) {
        stack.push(c);
        missing = true;
      }
    }
    if (missing) continue;
    let total = 1;
    for (const c of node.children) total += size.get(c)!;
    size.set(node, total);
    stack.pop();
  }
  return size.get(tree)!;
}

export class GameTreeExplorer {
  readonly root: ExplorerNode;
  /** A's win probability with A to move first (estimateMyTurn) and with B first (estimateHisTurn). */
  readonly estimateMyTurn: number;
  readonly estimateHisTurn: number;
  /** Positions along the principal variation from the root, for `rootSide`. */
  readonly principalVariation: Atom[];
  /** Nodes plain minimax visits: the tree size. */
  readonly plainNodes: number;
  /** Nodes alpha-beta visits, or null when it hit the node limit. */
  readonly alphaBetaNodes: number | null;
  /** True when the pruning overlay is incomplete (trace limit or node limit). */
  readonly overlayTruncated: boolean;
  private readonly values: [Values, Values];
  private readonly trace: SearchTrace | null;
  private readonly childCache = new Map<string, ExplorerNode[]>();
  private readonly traceIds = new Map<string, number>();

  constructor(
    readonly tree: GameTree,
    readonly f: EvalFn,
    readonly rootSide: Side,
    options: ExplorerOptions = {},
  ) {
    this.values = valueAll(tree, f, rootSide);
    const other = valueAll(tree, f, rootSide === 'A' ? 'B' : 'A');
    const mine = rootSide === 'A' ? this.values : other;
    const his = rootSide === 'A' ? other : this.values;
    this.estimateMyTurn = mine[0].value.get(tree)!;
    this.estimateHisTurn = his[1].value.get(tree)!;
    this.plainNodes = treeSize(tree);
    let trace: SearchTrace | null = null;
    let abNodes: number | null = null;
    try {
      const ab = alphaBeta(treeSource, tree, f, rootSide, { traceLimit: options.traceLimit ?? 200_000, maxNodes: options.maxNodes ?? 5_000_000 });
      trace = ab.trace ?? null;
      abNodes = ab.nodesVisited;
    } catch (e) {
      if (!(e instanceof SearchLimitError)) throw e;
    }
    this.trace = trace;
    this.alphaBetaNodes = abNodes;
    this.overlayTruncated = !trace || trace.truncated;
    this.root = this.makeNode('', tree, rootSide, 0, true, trace && trace.nodes.length > 0 ? 0 : -1, trace ? 'searched' : 'unknown');
    // Followed on the value tables, not through explorer nodes, whose keys grow with depth.
    const pv: Atom[] = [];
    let t = tree;
    let side = rootSide;
    for (;;) {
      pv.push(t.position);
      const b = this.values[side === 'A' ? 0 : 1].best.get(t)!;
      if (b < 0) break;
      t = t.children[b];
      side = side === 'A' ? 'B' : 'A';
    }
    this.principalVariation = pv;
  }

  /** The node's children, built on first request and cached. */
  children(node: ExplorerNode): readonly ExplorerNode[] {
    const cached = this.childCache.get(node.key);
    if (cached) return cached;
    const kids = node.tree.children;
    const childSide: Side = node.side === 'A' ? 'B' : 'A';
    const parentTrace = this.traceIds.get(node.key) ?? -1;
    const traced = new Map<number, number>();
    if (parentTrace >= 0 && this.trace) for (const id of this.trace.nodes[parentTrace].children) traced.set(this.trace.nodes[id].childIndex, id);
    const out = kids.map((child, i) => {
      let pruning: PruneState;
      let traceId = -1;
      if (node.pruning === 'cut' || node.pruning === 'inside') pruning = 'inside';
      else if (traced.has(i)) {
        traceId = traced.get(i)!;
        pruning = this.trace!.nodes[traceId].pruned ? 'cut' : 'searched';
      } else pruning = 'unknown';
      return this.makeNode(
        node.key === '' ? String(i) : `${node.key}.${i}`,
        child,
        childSide,
        node.depth + 1,
        node.onPV && node.bestChild === i,
        pruning === 'cut' ? -1 : traceId,
        pruning,
      );
    });
    this.childCache.set(node.key, out);
    return out;
  }

  /** The node at a key ('' is the root), or undefined when the path does not exist. */
  find(key: string): ExplorerNode | undefined {
    let node: ExplorerNode = this.root;
    if (key === '') return node;
    for (const part of key.split('.')) {
      const next = this.children(node)[Number(part)];
      if (!next) return undefined;
      node = next;
    }
    return node;
  }

  /**
   * Keys of the nodes on the principal variation (expanding them shows the line of play), at
   * most `maxDepth + 1` of them: keys grow with depth, so a view of a very deep tree opens a prefix.
   */
  principalKeys(maxDepth = Infinity): string[] {
    const keys: string[] = [];
    for (let n: ExplorerNode | undefined = this.root; n && n.depth <= maxDepth; n = n.bestChild >= 0 ? this.children(n)[n.bestChild] : undefined)
      keys.push(n.key);
    return keys;
  }

  private makeNode(key: string, tree: GameTree, side: Side, depth: number, onPV: boolean, traceId: number, pruning: PruneState): ExplorerNode {
    if (traceId >= 0) this.traceIds.set(key, traceId);
    const t = this.values[side === 'A' ? 0 : 1];
    return {
      key,
      tree,
      position: tree.position,
      side,
      depth,
      value: t.value.get(tree)!,
      childCount: tree.children.length,
      bestChild: t.best.get(tree)!,
      onPV,
      pruning,
    };
  }
}

export interface VisibleRow {
  node: ExplorerNode;
  expanded: boolean;
}

/**
 * The rows a collapsible tree shows: depth first, descending only into expanded keys, at most
 * `limit` rows. `more` counts rows cut by the limit (0 when everything fits).
 */
export function visibleRows(explorer: GameTreeExplorer, expanded: ReadonlySet<string>, limit = 2000): { rows: VisibleRow[]; more: number } {
  const rows: VisibleRow[] = [];
  let more = 0;
  const stack: ExplorerNode[] = [explorer.root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const open = node.childCount > 0 && expanded.has(node.key);
    if (rows.length >= limit) more++;
    else rows.push({ node, expanded: open });
    if (open) {
      const kids = explorer.children(node);
      for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]);
    }
  }
  return { rows, more };
}

export interface NimComparisonRow {
  n: number;
  /** Plain minimax visits the whole tree: nimTreeSize(n). */
  plain: number;
  alphabeta: number;
  /** Distinct (position, side to move) states. */
  memo: number;
}

/**
 * Nodes visited by the three methods on nim(n) for each n (A to move first). Alpha-beta runs
 * on the explicit tree; plain minimax's count is the tree size (what it visits, by test).
 */
export function nimComparison(ns: readonly number[], rule: NimRule): NimComparisonRow[] {
  const f = nimRuleEval(rule);
  return ns.map((n) => {
    const game = nimGame(n);
    return {
      n,
      plain: nimTreeSize(n),
      alphabeta: alphaBeta(treeSource, nimTree(n), f, 'A').nodesVisited,
      memo: memoMinimax(game, game.root, f, 'A').nodesVisited,
    };
  });
}
