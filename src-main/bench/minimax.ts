// Benchmark of the game-tree lab: plain minimax speed on the tree nim(n), how far it gets in a
// time budget, how many nodes alpha-beta and the memo need on the same games, and the time of
// a memoised search of nim(10^6).
import {
  alphaBeta,
  memoMinimax,
  minimax,
  nimGame,
  nimRuleEval,
  nimTree,
  nimTreeSize,
  SearchLimitError,
  treeSource,
} from '../../src-shared/problems/gametree/index.ts';
import type { BenchContext, BenchReport, BenchSuite } from './suite.ts';

const f = nimRuleEval('last-wins');

interface Timed<T> {
  result: T;
  seconds: number;
}

function timed<T>(work: () => T): Timed<T> {
  const start = performance.now();
  const result = work();
  return { result, seconds: (performance.now() - start) / 1000 };
}

/** Plain minimax with A to move on the tree nim(n), or null when it does not finish within `budgetSeconds`. */
function plainWithin(n: number, budgetSeconds: number): Timed<number> | null {
  const tree = nimTree(n);
  const deadline = performance.now() + budgetSeconds * 1000;
  try {
    return timed(() => minimax(treeSource, tree, f, 'A', { shouldStop: () => performance.now() > deadline }).nodesVisited);
  } catch (e) {
    if (e instanceof SearchLimitError) return null;
    throw e;
  }
}

export async function runMinimaxBench(context: BenchContext): Promise<BenchReport> {
  const quick = context.quick;
  const rateN = quick ? 18 : 25;
  const budgetSeconds = quick ? 0.25 : 10;
  const memoN = quick ? 100_000 : 1_000_000;

  // 1. Plain minimax speed on nim(rateN), best of a few runs.
  context.progress(`minimax: plain minimax on nim(${rateN}) (${nimTreeSize(rateN).toLocaleString('en-US')} nodes)`);
  const tree = nimTree(rateN);
  let bestSeconds = Infinity;
  for (let rep = 0; rep < (quick ? 1 : 3); rep++) {
    const run = timed(() => minimax(treeSource, tree, f, 'A'));
    bestSeconds = Math.min(bestSeconds, run.seconds);
  }
  const plainRate = nimTreeSize(rateN) / bestSeconds;

  // 2. The largest n whose plain search ends within the budget: each n is stopped at the budget,
  // so the whole step takes at most about 3 budgets (the sizes grow by ~1.84 per step).
  let n = Math.max(0, Math.floor(Math.log((plainRate * budgetSeconds) / 8) / Math.log(1.8393)));
  let largest: { n: number; seconds: number; nodes: number } | null = null;
  for (;;) {
    context.progress(`minimax: plain nim(${n}) within ${budgetSeconds} s?`);
    const run = plainWithin(n, budgetSeconds);
    if (!run) break;
    largest = { n, seconds: run.seconds, nodes: run.result };
    n++;
  }

  // 3. Alpha-beta and memo node counts on the same games (A to move, last stone wins).
  const sizes = [5, 10, 15, 20, rateN, ...(largest && largest.n > rateN ? [largest.n] : [])].filter((k, i, a) => a.indexOf(k) === i).sort((a, b) => a - b);
  const pruning = sizes.map((k) => {
    context.progress(`minimax: alpha-beta and memo on nim(${k})`);
    const ab = timed(() => alphaBeta(treeSource, nimTree(k), f, 'A'));
    const game = nimGame(k);
    const memo = memoMinimax(game, game.root, f, 'A');
    return { n: k, plain: nimTreeSize(k), alphabeta: ab.result.nodesVisited, alphabetaSeconds: ab.seconds, memo: memo.nodesVisited };
  });

  // 4. Memoised search of nim(memoN), best of a few runs.
  context.progress(`minimax: memoised nim(${memoN})`);
  let memoSeconds = Infinity;
  let memoStates = 0;
  for (let rep = 0; rep < (quick ? 1 : 3); rep++) {
    const game = nimGame(memoN);
    const run = timed(() => memoMinimax(game, game.root, f, 'A'));
    memoSeconds = Math.min(memoSeconds, run.seconds);
    memoStates = run.result.nodesVisited;
  }

  const notes = ['Rule: last stone wins; A moves first at the root. Plain minimax walks nim(n) as a tree of T(n) = 1 + T(n-1) + T(n-2) + T(n-3) nodes.'];
  if (quick) notes.push('--quick: small sizes and a short budget; not figures to publish.');
  return {
    tables: [
      {
        title: 'Minimax on nim(n): plain tree search',
        columns: ['Measure', 'Value'],
        rows: [
          [`plain minimax, nim(${rateN}) (${nimTreeSize(rateN).toLocaleString('en-US')} nodes), nodes/s`, plainRate],
          [`plain minimax, nim(${rateN}), seconds`, bestSeconds],
          [`largest n finished within ${budgetSeconds} s`, largest ? largest.n : 'none'],
          [`  its time, s (nodes)`, largest ? `${largest.seconds.toFixed(2)} (${largest.nodes.toLocaleString('en-US')})` : '-'],
          [`memoised nim(${memoN.toLocaleString('en-US')}), seconds (${memoStates.toLocaleString('en-US')} states)`, memoSeconds],
        ],
        notes,
      },
      {
        title: 'Nodes visited on nim(n): plain, alpha-beta, memo',
        columns: ['n', 'plain (tree)', 'alpha-beta', 'alpha-beta / plain', 'memo (states)'],
        rows: pruning.map((r) => [r.n, r.plain, r.alphabeta, (r.alphabeta / r.plain).toExponential(2), r.memo]),
      },
    ],
    json: {
      plain: { n: rateN, nodes: nimTreeSize(rateN), seconds: bestSeconds, nodesPerSecond: plainRate },
      largestPlain: { budgetSeconds, ...(largest ?? { n: null, seconds: null, nodes: null }) },
      pruning,
      memo: { n: memoN, seconds: memoSeconds, states: memoStates },
    },
  };
}

export const minimaxBench: BenchSuite = {
  run: runMinimaxBench,
};
