import { describe, expect, it } from 'vitest';
import { boardToQueens, countAttackingPairs, verifySolution } from '../../../../src-shared/problems/nqueens/verify.ts';

// Number of N-Queens solutions, OEIS A000170: 1, 0, 0, 2, 10, 4, 40, 92 for N = 1..8.
const A000170 = [1, 0, 0, 2, 10, 4, 40, 92];

/** Independent solution list: textbook backtracking with boolean arrays, in lexicographic order. */
function backtrack(n: number): number[][] {
  const out: number[][] = [];
  const q: number[] = [];
  const safe = (r: number, c: number) => q.every((qc, qr) => qc !== c && Math.abs(qc - c) !== r - qr);
  const go = (r: number) => {
    if (r === n) return void out.push([...q]);
    for (let c = 0; c < n; c++)
      if (safe(r, c)) {
        q.push(c);
        go(r + 1);
        q.pop();
      }
  };
  go(0);
  return out;
}

/** Every assignment of a column to each row (n^n of them), in lexicographic order. */
function* assignments(n: number): Generator<number[]> {
  const a = new Array<number>(n).fill(0);
  for (;;) {
    yield a;
    let i = n - 1;
    while (i >= 0 && a[i] === n - 1) a[i--] = 0;
    if (i < 0) return;
    a[i]++;
  }
}

/** Every permutation of 0..n-1 (Heap's algorithm). */
function* permutations(n: number): Generator<number[]> {
  const a = Array.from({ length: n }, (_, i) => i);
  const c = new Array<number>(n).fill(0);
  yield a;
  let i = 0;
  while (i < n) {
    if (c[i] < i) {
      const k = i % 2 === 0 ? 0 : c[i];
      [a[k], a[i]] = [a[i], a[k]];
      yield a;
      c[i]++;
      i = 0;
    } else c[i++] = 0;
  }
}

describe('verifySolution', () => {
  it('accepts exactly the backtracking solutions among all n^n placements, N = 1..7 (counts OEIS A000170)', () => {
    for (let n = 1; n <= 7; n++) {
      const expected = new Set(backtrack(n).map((q) => q.join(',')));
      expect(expected.size).toBe(A000170[n - 1]);
      const accepted: string[] = [];
      for (const a of assignments(n)) if (verifySolution(a)) accepted.push(a.join(','));
      expect(accepted.length).toBe(A000170[n - 1]);
      expect(new Set(accepted)).toEqual(expected);
    }
  });

  it('accepts all 92 solutions of the 8-queens puzzle and rejects the other 40,228 permutations', () => {
    const expected = new Set(backtrack(8).map((q) => q.join(',')));
    let accepted = 0;
    let rejected = 0;
    const disagreements: string[] = [];
    for (const p of permutations(8)) {
      const ok = verifySolution(p);
      if (ok !== expected.has(p.join(','))) disagreements.push(p.join(','));
      if (ok) accepted++;
      else rejected++;
    }
    expect(disagreements).toEqual([]);
    expect(accepted).toBe(92);
    expect(rejected).toBe(40320 - 92);
    // One of the 92 printed in every textbook (Wirth 1971): 0 4 7 5 2 6 1 3.
    expect(verifySolution([0, 4, 7, 5, 2, 6, 1, 3])).toBe(true);
  });

  it('rejects malformed lists: empty, out of range, fractional, missing, shared column or diagonal', () => {
    expect(verifySolution([])).toBe(false);
    expect(verifySolution([1, 3, 0, 4])).toBe(false); // 4 is off a 4x4 board
    expect(verifySolution([1, 3, 0, -1])).toBe(false);
    expect(verifySolution([1, 3, 0, 2.5])).toBe(false);
    expect(verifySolution([1, 3, 0, null])).toBe(false);
    expect(verifySolution([1, 3, 0, undefined])).toBe(false);
    expect(verifySolution([1, 3, 0, 2])).toBe(true);
    expect(verifySolution([1, 3, 0, 0])).toBe(false); // column 0 twice
    expect(verifySolution([0, 2, 4, 1, 3])).toBe(true);
    expect(verifySolution([0, 2, 4, 3, 1])).toBe(false); // (2,4) and (3,3) share an anti-diagonal
    expect(verifySolution(Int32Array.from([1, 3, 0, 2]))).toBe(true);
  });
});

describe('boardToQueens', () => {
  it('accepts exactly the 2 solutions among all 2^16 boards of size 4', () => {
    const found: string[] = [];
    const board = new Uint8Array(16);
    for (let mask = 0; mask < 1 << 16; mask++) {
      for (let i = 0; i < 16; i++) board[i] = (mask >> i) & 1;
      const q = boardToQueens(board, 4);
      if (q) found.push(q.join(','));
    }
    expect(found.sort()).toEqual(['1,3,0,2', '2,0,3,1']);
  });

  it('rejects a board of the wrong size', () => {
    expect(boardToQueens(new Uint8Array(15), 4)).toBeNull();
  });
});

describe('countAttackingPairs', () => {
  it('matches a pairwise count over all placements for N = 5', () => {
    for (const a of assignments(5)) {
      let pairs = 0;
      for (let i = 0; i < 5; i++) for (let j = i + 1; j < 5; j++) if (a[i] === a[j] || Math.abs(a[i] - a[j]) === j - i) pairs++;
      expect(countAttackingPairs(a)).toBe(pairs);
    }
  });
});
