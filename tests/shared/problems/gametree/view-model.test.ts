import { describe, expect, it } from 'vitest';
import {
  alphaBeta,
  chainTree,
  constantEval,
  countNodes,
  GameTreeExplorer,
  minimax,
  nimComparison,
  nimRuleEval,
  nimTree,
  nimTreeSize,
  parseEvalTable,
  parseTree,
  randomTree,
  tableEval,
  treeSize,
  treeSource,
  visibleRows,
  type ExplorerNode,
} from '../../../../src-shared/problems/gametree/index.ts';

// Russell & Norvig, AIMA (3rd ed.) Fig. 5.2 / 5.5 (see search.test.ts).
const AIMA_TREE = parseTree('(a (b (b1) (b2) (b3)) (c (c1) (c2) (c3)) (d (d1) (d2) (d3)))');
const AIMA_VALUES = tableEval(parseEvalTable('{"b1": 3, "b2": 12, "b3": 8, "c1": 2, "c2": 4, "c3": 6, "d1": 14, "d2": 5, "d3": 2}'));

function allNodes(ex: GameTreeExplorer): ExplorerNode[] {
  const out: ExplorerNode[] = [];
  const stack = [ex.root];
  while (stack.length) {
    const n = stack.pop()!;
    out.push(n);
    stack.push(...ex.children(n));
  }
  return out;
}

describe('GameTreeExplorer', () => {
  it('AIMA Fig. 5.5: values, turns, principal variation and the two pruned leaves', () => {
    const ex = new GameTreeExplorer(AIMA_TREE, AIMA_VALUES, 'A');
    expect([ex.estimateMyTurn, ex.estimateHisTurn]).toEqual([3, 6]);
    expect(ex.root).toMatchObject({ position: 'a', side: 'A', value: 3, bestChild: 0, onPV: true, pruning: 'searched' });
    const mins = ex.children(ex.root);
    expect(mins.map((n) => [n.position, n.side, n.value, n.onPV])).toEqual([
      ['b', 'B', 3, true],
      ['c', 'B', 2, false],
      ['d', 'B', 2, false],
    ]);
    const c = ex.children(mins[1]);
    expect(c.map((n) => [n.position, n.pruning])).toEqual([
      ['c1', 'searched'],
      ['c2', 'cut'],
      ['c3', 'cut'],
    ]);
    expect(ex.principalVariation).toEqual(['a', 'b', 'b1']);
    expect(ex.principalKeys()).toEqual(['', '0', '0.0']);
    expect([ex.plainNodes, ex.alphaBetaNodes, ex.overlayTruncated]).toEqual([13, 11, false]);
    expect(ex.find('1.2')?.position).toBe('c3');
    expect(ex.find('7')).toBeUndefined();
  });

  it('agrees with plain minimax and alpha-beta on random trees: values at every node, PV, counts, pruned = skipped', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const { tree, values } = randomTree({ seed, maxDepth: 5, valueSteps: 5 });
      const f = tableEval(values);
      for (const side of ['A', 'B'] as const) {
        const ex = new GameTreeExplorer(tree, f, side);
        const plain = minimax(treeSource, tree, f, side);
        const ab = alphaBeta(treeSource, tree, f, side);
        expect(ex.root.value).toBe(plain.value);
        expect(ex.principalVariation).toEqual(plain.principalVariation);
        expect(ex.plainNodes).toBe(countNodes(tree));
        expect(ex.alphaBetaNodes).toBe(ab.nodesVisited);
        const nodes = allNodes(ex);
        // Each node's value is plain minimax on its subtree with its side to move.
        for (const n of nodes.filter((_, i) => i % 7 === 0)) expect(n.value).toBe(minimax(treeSource, n.tree, f, n.side).value);
        // Alpha-beta visits exactly the nodes marked searched.
        expect(nodes.filter((n) => n.pruning === 'searched').length).toBe(ab.nodesVisited);
        expect(nodes.filter((n) => n.pruning === 'cut').length).toBe(ab.prunedBranches);
        expect(nodes.some((n) => n.pruning === 'unknown')).toBe(false);
      }
    }
  });

  it('nim(20) under last-wins: losing positions for the mover are the multiples of 4 at every node', () => {
    const ex = new GameTreeExplorer(nimTree(20), nimRuleEval('last-wins'), 'B');
    expect([ex.estimateMyTurn, ex.estimateHisTurn]).toEqual([0, 1]);
    let checked = 0;
    const stack = [ex.root];
    while (stack.length && checked < 5000) {
      const n = stack.pop()!;
      checked++;
      const moverWins = (n.position as number) % 4 !== 0;
      expect(n.value).toBe(moverWins === (n.side === 'A') ? 1 : 0);
      stack.push(...ex.children(n));
    }
    expect(ex.plainNodes).toBe(nimTreeSize(20));
  });

  it('a small trace limit leaves the overlay unknown past it, and says so', () => {
    const ex = new GameTreeExplorer(nimTree(12), nimRuleEval('last-wins'), 'A', { traceLimit: 10 });
    expect(ex.overlayTruncated).toBe(true);
    expect(allNodes(ex).some((n) => n.pruning === 'unknown')).toBe(true);
  });
});

describe('deep trees', () => {
  it('a chain of depth 100,000: values and PV without building deep keys; a PV prefix opens', () => {
    const ex = new GameTreeExplorer(chainTree(100_000), constantEval(0.25), 'A');
    expect(ex.root.value).toBe(0.25);
    expect(ex.principalVariation.length).toBe(100_001);
    expect(ex.principalKeys(3)).toEqual(['', '0', '0.0', '0.0.0']);
    expect(visibleRows(ex, new Set(ex.principalKeys(100))).rows.length).toBe(102);
  });
});

describe('visibleRows', () => {
  it('shows the root, then children of expanded nodes only, depth first', () => {
    const ex = new GameTreeExplorer(AIMA_TREE, AIMA_VALUES, 'A');
    expect(visibleRows(ex, new Set()).rows.map((r) => r.node.position)).toEqual(['a']);
    const pv = visibleRows(ex, new Set(ex.principalKeys()));
    expect(pv.rows.map((r) => `${'  '.repeat(r.node.depth)}${r.node.position}`)).toEqual(['a', '  b', '    b1', '    b2', '    b3', '  c', '  d']);
    expect(pv.rows.map((r) => r.expanded)).toEqual([true, true, false, false, false, false, false]);
    const capped = visibleRows(ex, new Set(['', '0', '1', '2']), 5);
    expect([capped.rows.length, capped.more]).toEqual([5, 8]);
  });
});

describe('treeSize and nimComparison', () => {
  it('treeSize counts shared subtrees per occurrence', () => {
    expect(treeSize(nimTree(25))).toBe(5_600_910);
    expect(treeSize(AIMA_TREE)).toBe(13);
  });

  it('nodes visited on nim(n): plain is the tree size; alpha-beta fewer; memo 2n states', () => {
    const rows = nimComparison([4, 8, 12], 'last-wins');
    expect(rows.map((r) => r.plain)).toEqual([15, 177, 2031]);
    for (const r of rows) {
      expect(r.plain).toBe(countNodes(nimTree(r.n)));
      // In nim(4) B's refuting move is always its last one (take all), so nothing is cut; from 8 on alpha-beta prunes.
      expect(r.alphabeta).toBeLessThanOrEqual(r.plain);
      if (r.n >= 8) expect(r.alphabeta).toBeLessThan(r.plain);
      expect(r.memo).toBe(2 * r.n);
    }
  });
});
