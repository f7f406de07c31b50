// The notes' nim: n stones, a move takes 1, 2 or 3.
//   nim(0) = (0)   nim(1) = (1 (0))   nim(2) = (2 (1 (0)) (0))
//   nim(n) = (n nim(n-1) nim(n-2) nim(n-3))
// Two forms: the explicit tree (nimTree) and the implicit game (nimGame) for memoised search.
import type { GameTree } from './types.ts';
import type { GameSource } from './game.ts';
import type { NimRule } from './evaluation.ts';

/** Positions reachable in one move from n stones, in the notes' order (take 1, 2, 3). */
export function nimMoves(n: number): number[] {
  if (n >= 3) return [n - 1, n - 2, n - 3];
  if (n === 2) return [1, 0];
  if (n === 1) return [0];
  return [];
}

/**
 * The explicit tree nim(n). Equal subtrees are shared (nim(n) holds the very same nim(n-1)
 * object that nim(n+1) holds), so building it costs O(n) memory, while every search walks it
 * as the tree it is: nimTreeSize(n) nodes, about 1.84^n.
 */
export function nimTree(n: number): GameTree {
  checkN(n);
  const t: GameTree[] = [];
  for (let k = 0; k <= n; k++) t.push({ position: k, children: nimMoves(k).map((m) => t[m]) });
  return t[n];
}

/** Number of nodes of the tree nim(n): T(0)=1, T(1)=2, T(2)=4, T(n)=1+T(n-1)+T(n-2)+T(n-3). Exact to n = 58. */
export function nimTreeSize(n: number): number {
  checkN(n);
  const t = [1, 2, 4];
  for (let k = 3; k <= n; k++) t.push(1 + t[k - 1] + t[k - 2] + t[k - 3]);
  return t[n];
}

/** The implicit nim game: a node is the number of stones left. Starting position n. */
export function nimGame(n: number): GameSource<number> & { root: number } {
  checkN(n);
  return {
    root: n,
    position: (k) => k,
    children: nimMoves,
    dense: { size: n + 1, index: (k) => k },
  };
}

function checkN(n: number): void {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`nim: n must be a non-negative integer, got ${n}`);
}

/**
 * The known closed form (for checking the searches): with moves of 1 to 3 stones, the player
 * to move at n stones loses exactly when n mod 4 = 0 under "last stone wins", and exactly
 * when n mod 4 = 1 under "last stone loses" (misère). Berlekamp, Conway & Guy, Winning Ways,
 * ch. 2 (subtraction games); any textbook treatment of the 21-matches / Bachet game.
 */
export function nimMoverWins(n: number, rule: NimRule): boolean {
  checkN(n);
  return rule === 'last-wins' ? n % 4 !== 0 : n % 4 !== 1;
}
