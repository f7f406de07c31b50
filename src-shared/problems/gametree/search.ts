// One entry point for the three methods, and both estimates at once.
import type { EvalFn, Method, Side } from './types.ts';
import type { GameSource } from './game.ts';
import type { SearchOptions, SearchResult } from './result.ts';
import { minimax } from './minimax.ts';
import { alphaBeta } from './alphabeta.ts';
import { memoMinimax } from './memo.ts';

export const METHODS: readonly Method[] = ['plain', 'alphabeta', 'memo'];

export function search<N>(method: Method, source: GameSource<N>, root: N, f: EvalFn, rootSide: Side, options: SearchOptions = {}): SearchResult {
  switch (method) {
    case 'plain':
      return minimax(source, root, f, rootSide, options);
    case 'alphabeta':
      return alphaBeta(source, root, f, rootSide, options);
    case 'memo':
      return memoMinimax(source, root, f, rootSide, options);
  }
}

/** Both of the notes' estimates: A moving first (myTurn) and B moving first (hisTurn). */
export interface Estimates {
  myTurn: SearchResult;
  hisTurn: SearchResult;
}

export function estimateBoth<N>(method: Method, source: GameSource<N>, root: N, f: EvalFn, options: SearchOptions = {}): Estimates {
  return {
    myTurn: search(method, source, root, f, 'A', options),
    hisTurn: search(method, source, root, f, 'B', options),
  };
}
