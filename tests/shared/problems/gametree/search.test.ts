import { describe, expect, it } from 'vitest';
import {
  alphaBeta,
  alphaBetaHisTurn,
  alphaBetaMyTurn,
  constantEval,
  countNodes,
  estimateBoth,
  estimateHisTurn,
  estimateMyTurn,
  GameCycleError,
  memoHisTurn,
  memoMinimax,
  memoMyTurn,
  MemoTable,
  METHODS,
  minimax,
  nimGame,
  nimMoverWins,
  nimRuleEval,
  nimTree,
  nimTreeSize,
  parseEvalTable,
  parseTree,
  printTree,
  randomTree,
  search,
  SearchLimitError,
  tableEval,
  treeSource,
  type GameSource,
  type NimRule,
} from '../../../../src-shared/problems/gametree/index.ts';

// Russell & Norvig, Artificial Intelligence: A Modern Approach (3rd ed.), Fig. 5.2 / 5.5:
// MAX at the root over three MIN nodes with leaves (3 12 8), (2 4 6), (14 5 2). Minimax
// value 3; alpha-beta prunes the last two leaves of the second MIN node (4 and 6).
const AIMA_TREE = parseTree('(a (b (b1) (b2) (b3)) (c (c1) (c2) (c3)) (d (d1) (d2) (d3)))');
const AIMA_VALUES = tableEval(parseEvalTable('((b1 . 3) (b2 . 12) (b3 . 8) (c1 . 2) (c2 . 4) (c3 . 6) (d1 . 14) (d2 . 5) (d3 . 2))'));

describe("the notes' estimate-my-turn / estimate-his-turn", () => {
  it('reproduces the textbook minimax value and alpha-beta cut (AIMA Fig. 5.2, 5.5)', () => {
    expect(estimateMyTurn(AIMA_VALUES, AIMA_TREE)).toBe(3);
    const plain = minimax(treeSource, AIMA_TREE, AIMA_VALUES, 'A');
    expect(plain.principalVariation).toEqual(['a', 'b', 'b1']);
    expect(plain.nodesVisited).toBe(13);
    expect(plain.leavesEvaluated).toBe(9);
    const ab = alphaBeta(treeSource, AIMA_TREE, AIMA_VALUES, 'A', { traceLimit: 100 });
    expect(ab.value).toBe(3);
    expect(ab.principalVariation).toEqual(['a', 'b', 'b1']);
    expect(ab.nodesVisited).toBe(11);
    expect(ab.prunedBranches).toBe(2);
    const pruned = ab.trace!.nodes.filter((n) => n.pruned).map((n) => n.position);
    expect(pruned).toEqual(['c2', 'c3']);
    // With B to move at the root the MAX/MIN roles swap: min(max(3,12,8), max(2,4,6), max(14,5,2)) = 6.
    expect(estimateHisTurn(AIMA_VALUES, AIMA_TREE)).toBe(6);
    expect(minimax(treeSource, AIMA_TREE, AIMA_VALUES, 'B').principalVariation).toEqual(['a', 'c', 'c3']);
  });

  it("reproduces the notes' constant-1 result: every estimate is 1, for every method", () => {
    const one = constantEval(1);
    for (let n = 0; n <= 15; n++) {
      // The tree as the notes' (nim n) builds it, and as text read back.
      for (const tree of [nimTree(n), parseTree(printTree(nimTree(n)))]) {
        expect(estimateMyTurn(one, tree)).toBe(1);
        expect(estimateHisTurn(one, tree)).toBe(1);
        expect(alphaBetaMyTurn(one, tree)).toBe(1);
        expect(alphaBetaHisTurn(one, tree)).toBe(1);
        expect(memoMyTurn(one, tree)).toBe(1);
        expect(memoHisTurn(one, tree)).toBe(1);
      }
    }
  });

  it('a leaf is scored by f whoever moves, as in the Lisp (null (second tree))', () => {
    const f = tableEval(new Map([['x', 0.4]]));
    expect(estimateMyTurn(f, parseTree('(x)'))).toBe(0.4);
    expect(estimateHisTurn(f, parseTree('(x)'))).toBe(0.4);
  });
});

describe('labels are strings (issue 13)', () => {
  it('(r (01)) with the table {"01": 0.2, "1": 0.9} is worth 0.2, by every method', () => {
    const tree = parseTree('(r (01))');
    const f = tableEval(parseEvalTable('{"01":0.2,"1":0.9}'));
    for (const method of METHODS) for (const side of ['A', 'B'] as const) expect(search(method, treeSource, tree, f, side).value).toBe(0.2);
    expect(minimax(treeSource, tree, f, 'A').principalVariation).toEqual(['r', '01']);
  });

  it('1.0, 1e0, +1 and 1 are four leaves with their own values, in a JSON table and an alist', () => {
    const tree = parseTree('(r (1.0) (1e0) (+1) (1))');
    for (const text of ['{"1.0": 0.1, "1e0": 0.2, "+1": 0.3, "1": 0.4}', '((1.0 . 0.1) (1e0 . 0.2) (+1 . 0.3) (1 . 0.4))']) {
      const f = tableEval(parseEvalTable(text));
      for (const method of METHODS) {
        expect(search(method, treeSource, tree, f, 'A')).toMatchObject({ value: 0.4, principalVariation: ['r', 1] });
        expect(search(method, treeSource, tree, f, 'B')).toMatchObject({ value: 0.1, principalVariation: ['r', '1.0'] });
      }
      expect(['1.0', '1e0', '+1', '1'].map((label) => estimateMyTurn(f, parseTree(`(${label})`)))).toEqual([0.1, 0.2, 0.3, 0.4]);
    }
  });

  it('the memo keeps 01 and 1 apart: two different subtrees, two states', () => {
    const tree = parseTree('(r (a (01 (x))) (b (1 (y))))');
    const f = tableEval(parseEvalTable('{"x": 0.2, "y": 0.9}'));
    for (const side of ['A', 'B'] as const) expect(memoMinimax(treeSource, tree, f, side).value).toBe(minimax(treeSource, tree, f, side).value);
    expect(memoMinimax(treeSource, tree, f, 'A').nodesVisited).toBe(7);
  });
});

describe('nim: the player to move loses exactly when n mod 4 = 0 (last stone wins)', () => {
  const rules: NimRule[] = ['last-wins', 'last-loses'];

  it('plain minimax over the whole tree, n = 0..20, both rules, both estimates', () => {
    for (const rule of rules) {
      const f = nimRuleEval(rule);
      for (let n = 0; n <= 20; n++) {
        const tree = nimTree(n);
        const moverWins = nimMoverWins(n, rule);
        const my = minimax(treeSource, tree, f, 'A');
        expect(my.value).toBe(moverWins ? 1 : 0);
        expect(my.nodesVisited).toBe(nimTreeSize(n));
        expect(estimateHisTurn(f, tree)).toBe(moverWins ? 0 : 1);
      }
    }
    // The closed form itself: under last-wins the losing positions are the multiples of 4.
    expect([...Array(13).keys()].filter((n) => !nimMoverWins(n, 'last-wins'))).toEqual([0, 4, 8, 12]);
    expect([...Array(13).keys()].filter((n) => !nimMoverWins(n, 'last-loses'))).toEqual([1, 5, 9]);
  });

  it('memoised search, n = 0..10,000, both rules, both estimates (one shared memo table per rule)', () => {
    for (const rule of rules) {
      const f = nimRuleEval(rule);
      const table = new MemoTable();
      for (let n = 0; n <= 10_000; n++) {
        const game = nimGame(n);
        const moverWins = nimMoverWins(n, rule);
        expect(memoMinimax(game, n, f, 'A', { table, pvLimit: 2 }).value).toBe(moverWins ? 1 : 0);
        expect(memoMinimax(game, n, f, 'B', { table, pvLimit: 2 }).value).toBe(moverWins ? 0 : 1);
      }
      expect(table.size).toBe(2 * 10_001);
    }
  });

  it('memoised search of nim(100,000) from scratch: linear states, winning moves leave a multiple of 4', () => {
    const n = 100_001;
    const game = nimGame(n);
    const r = memoMinimax(game, game.root, nimRuleEval('last-wins'), 'A');
    expect(r.value).toBe(1);
    // (n, A), (n - 1, B), and both sides of every k < n - 1: 2n states ((n - 1, A) is unreachable).
    expect(r.nodesVisited).toBe(2 * n);
    // A's first move takes 1 stone to 100,000; every later A move restores a multiple of 4.
    expect(r.principalVariation[1]).toBe(100_000);
    const afterA = r.principalVariation.filter((_, i) => i % 2 === 1);
    expect(afterA.every((k) => (k as number) % 4 === 0)).toBe(true);
  });
});

describe('alpha-beta and memo agree with plain minimax', () => {
  it('same value and principal variation on 200 random trees, never more nodes', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const { tree, values } = randomTree({ seed, maxDepth: 6, maxChildren: 4, valueSteps: seed % 2 === 0 ? 4 : 100 });
      const f = tableEval(values);
      for (const side of ['A', 'B'] as const) {
        const plain = minimax(treeSource, tree, f, side);
        const ab = alphaBeta(treeSource, tree, f, side);
        const memo = memoMinimax(treeSource, tree, f, side);
        expect(plain.nodesVisited).toBe(countNodes(tree));
        expect(ab.value).toBe(plain.value);
        expect(ab.principalVariation).toEqual(plain.principalVariation);
        expect(ab.nodesVisited).toBeLessThanOrEqual(plain.nodesVisited);
        // Positions of random trees are distinct, so the memo never hits and is plain minimax.
        expect(memo.value).toBe(plain.value);
        expect(memo.principalVariation).toEqual(plain.principalVariation);
        expect(memo.nodesVisited).toBe(plain.nodesVisited);
      }
    }
  });

  it('the traced and untraced plain searches agree (value, PV, counts), and the trace holds every node', () => {
    for (let seed = 1; seed <= 60; seed++) {
      const { tree, values } = randomTree({ seed, maxDepth: 5, valueSteps: 3 });
      const f = tableEval(values);
      for (const side of ['A', 'B'] as const) {
        const lean = minimax(treeSource, tree, f, side);
        const traced = minimax(treeSource, tree, f, side, { traceLimit: 1e6 });
        expect([lean.value, lean.principalVariation, lean.nodesVisited, lean.leavesEvaluated]).toEqual([
          traced.value,
          traced.principalVariation,
          traced.nodesVisited,
          traced.leavesEvaluated,
        ]);
        expect(traced.trace!.nodes.length).toBe(countNodes(tree));
        expect(traced.trace!.nodes.filter((n) => n.onPV).map((n) => n.position)).toEqual(traced.principalVariation);
      }
    }
    expect(minimax(treeSource, parseTree('(x)'), constantEval(0.5), 'B')).toMatchObject({
      value: 0.5,
      principalVariation: ['x'],
      nodesVisited: 1,
      leavesEvaluated: 1,
    });
  });

  it('the principal variation really achieves the value: its leaf is worth the root value', () => {
    for (let seed = 1; seed <= 50; seed++) {
      const { tree, values } = randomTree({ seed, maxDepth: 5 });
      const r = minimax(treeSource, tree, tableEval(values), 'A');
      const leaf = r.principalVariation[r.principalVariation.length - 1];
      expect(values.get(String(leaf))).toBe(r.value);
    }
  });

  it('on nim trees: equal values, and alpha-beta and memo visit far fewer nodes', () => {
    const f = nimRuleEval('last-wins');
    for (let n = 1; n <= 20; n++) {
      const tree = nimTree(n);
      const counts = METHODS.map((m) => search(m, treeSource, tree, f, 'A'));
      expect(new Set(counts.map((r) => r.value)).size).toBe(1);
      expect(counts[1].principalVariation).toEqual(counts[0].principalVariation);
      if (n >= 6) expect(counts[1].nodesVisited).toBeLessThan(counts[0].nodesVisited);
      // Memo over the explicit tree (shared subtrees) and over the implicit game agree.
      const game = nimGame(n);
      const implicit = memoMinimax(game, game.root, f, 'A');
      expect(counts[2].nodesVisited).toBe(implicit.nodesVisited);
      expect(counts[2].principalVariation).toEqual(implicit.principalVariation);
      expect(implicit.nodesVisited).toBeLessThanOrEqual(2 * (n + 1));
    }
    // nim(20): 266,079 tree nodes for plain minimax (the tribonacci-like count), nim(25): 5,600,910.
    expect(nimTreeSize(20)).toBe(countNodes(nimTree(20)));
    expect(nimTreeSize(25)).toBe(5_600_910);
  });

  it('estimateBoth gives both estimates', () => {
    const both = estimateBoth('alphabeta', treeSource, AIMA_TREE, AIMA_VALUES);
    expect([both.myTurn.value, both.hisTurn.value]).toEqual([3, 6]);
  });
});

describe('limits and bad games', () => {
  it('maxNodes stops a search with SearchLimitError', () => {
    const f = nimRuleEval('last-wins');
    expect(() => minimax(treeSource, nimTree(20), f, 'A', { maxNodes: 1000 })).toThrow(SearchLimitError);
    expect(minimax(treeSource, nimTree(5), f, 'A', { maxNodes: nimTreeSize(5) }).value).toBe(1);
    let polls = 0;
    expect(() =>
      alphaBeta(treeSource, nimTree(30), f, 'A', {
        shouldStop: () => ++polls >= 2,
      }),
    ).toThrow(/stopped after visiting 131072 nodes/);
  });

  it('a stopped memo search leaves a shared table usable', () => {
    const f = nimRuleEval('last-wins');
    const table = new MemoTable();
    const game = nimGame(1000);
    expect(() => memoMinimax(game, 1000, f, 'A', { table, maxNodes: 100 })).toThrow(SearchLimitError);
    expect(memoMinimax(game, 1000, f, 'A', { table }).value).toBe(0);
  });

  it('a cycle in a game graph is an error for the memoised search (keyed and dense)', () => {
    // 1 -> 2 -> 3 -> 1 is a three-cycle: (1, A) comes back as (1, B) after three moves and as
    // (1, A) after six, while it is still being searched.
    const cyclic: GameSource<number> = { position: (k) => k, children: (k) => (k === 0 ? [] : [k === 3 ? 1 : k + 1, 0]) };
    expect(() => memoMinimax(cyclic, 1, constantEval(1), 'A')).toThrow(GameCycleError);
    const dense: GameSource<number> = { ...cyclic, dense: { size: 4, index: (k) => k } };
    expect(() => memoMinimax(dense, 1, constantEval(1), 'A')).toThrow(GameCycleError);
    expect(() => memoMinimax(dense, 1, constantEval(1), 'A', { traceLimit: 10 })).toThrow(GameCycleError);
  });

  it('the dense memo fast path and the general memo give the same results', () => {
    for (const rule of ['last-wins', 'last-loses'] as const) {
      const f = nimRuleEval(rule);
      for (let n = 0; n <= 60; n++) {
        const game = nimGame(n);
        for (const side of ['A', 'B'] as const) {
          const lean = memoMinimax(game, n, f, side);
          const general = memoMinimax(game, n, f, side, { traceLimit: 1 });
          expect([lean.value, lean.principalVariation, lean.nodesVisited, lean.leavesEvaluated, lean.memoHits]).toEqual([
            general.value,
            general.principalVariation,
            general.nodesVisited,
            general.leavesEvaluated,
            general.memoHits,
          ]);
        }
      }
    }
  });

  it('an evaluation returning NaN is reported with the leaf', () => {
    expect(() => estimateMyTurn(() => NaN, parseTree('(a (b))'))).toThrow(/returned NaN for the leaf b/);
  });
});
