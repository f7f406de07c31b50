import { describe, expect, it } from 'vitest';
import { defaultMinConflictsParams, MinConflicts, runMinConflicts, validateMinConflictsParams } from '../../../../src-shared/problems/nqueens/minconflicts.ts';
import { countAttackingPairs, verifySolution } from '../../../../src-shared/problems/nqueens/verify.ts';

/** Attacking pairs among the queens of rows 0..rows-1 (columns distinct: diagonals only), counted afresh. */
function pairsAmongRows(queens: Int32Array, rows: number): number {
  const diag = new Map<number, number>();
  const anti = new Map<number, number>();
  let pairs = 0;
  for (let r = 0; r < rows; r++) {
    const d = r - queens[r];
    const a = r + queens[r];
    pairs += (diag.get(d) ?? 0) + (anti.get(a) ?? 0);
    diag.set(d, (diag.get(d) ?? 0) + 1);
    anti.set(a, (anti.get(a) ?? 0) + 1);
  }
  return pairs;
}

describe('min-conflicts', () => {
  it('solves N = 1 and 4..50 for ten seeds each, boards verified independently', () => {
    for (const n of [1, 4, 5, 6, 7, 8, 9, 10, 12, 16, 20, 30, 50]) {
      for (let seed = 1; seed <= 10; seed++) {
        const r = runMinConflicts(defaultMinConflictsParams(n), seed);
        expect(r.solved, `N=${n} seed=${seed}`).toBe(true);
        expect(verifySolution(r.queens)).toBe(true);
        expect(r.conflicts).toBe(0);
      }
    }
  });

  it('solves N = 20,000 from a greedy start that leaves only a few conflicts', () => {
    const m = new MinConflicts(defaultMinConflictsParams(20_000), 5);
    // The greedy start places all but a handful of queens conflict-free (Sosic and Gu's observation).
    expect(m.initialConflicts).toBeLessThan(50);
    expect(countAttackingPairs(m.queens)).toBe(m.initialConflicts);
    const r = m.run();
    expect(r.solved).toBe(true);
    expect(verifySolution(r.queens)).toBe(true);
  });

  it('keeps its conflict count equal to a recount while repairing', () => {
    const m = new MinConflicts({ ...defaultMinConflictsParams(300), greedyTries: 1 }, 9);
    expect(m.initialConflicts).toBeGreaterThan(20);
    while (!m.solved) {
      m.advance(5);
      expect(m.conflictCount).toBe(countAttackingPairs(m.queens));
      // Still a permutation: one queen per row and per column.
      expect(new Set(m.queens).size).toBe(300);
    }
  });

  it('runs a deferred greedy start in slices to the same board and the same run as a whole one', () => {
    const p = { ...defaultMinConflictsParams(5000), greedyTries: 3 };
    const whole = new MinConflicts(p, 21);
    const sliced = new MinConflicts(p, 21, { deferStart: true });
    expect(sliced.started).toBe(false);
    expect(sliced.solved).toBe(false); // an unfinished start is never a solution
    expect(() => sliced.advance(10)).toThrow(/greedy start has not finished/);
    expect(() => sliced.initialConflicts).toThrow(/greedy start has not finished/);
    let slices = 0;
    while (!sliced.continueStart(777)) {
      slices++;
      expect(sliced.placedRows).toBe(777 * slices);
      // The conflicts so far are those among the rows placed so far.
      expect(sliced.conflictCount).toBe(pairsAmongRows(sliced.queens, sliced.placedRows));
    }
    expect(slices).toBe(6); // 5000 rows in slices of 777
    expect(Array.from(sliced.queens)).toEqual(Array.from(whole.queens));
    expect(sliced.initialConflicts).toBe(whole.initialConflicts);
    const [a, b] = [whole.run(), sliced.run()];
    expect(b.solved).toBe(true);
    expect([b.steps, b.moves, b.restarts, Array.from(b.queens)]).toEqual([a.steps, a.moves, a.restarts, Array.from(a.queens)]);
  });

  it('is deterministic by seed', () => {
    const p = { ...defaultMinConflictsParams(500), greedyTries: 2 };
    const a = runMinConflicts(p, 17);
    const b = runMinConflicts(p, 17);
    expect([...b.queens]).toEqual([...a.queens]);
    expect(b.steps).toBe(a.steps);
    expect([...runMinConflicts(p, 18).queens]).not.toEqual([...a.queens]);
  });

  it('stops at the step limit and reports failure, and stops when progress asks it to', () => {
    const r = runMinConflicts({ ...defaultMinConflictsParams(2000), greedyTries: 1, maxSteps: 3 }, 1);
    expect(r.solved).toBe(false);
    expect(r.steps).toBe(3);
    expect(r.conflicts).toBeGreaterThan(0);
    const m = new MinConflicts({ ...defaultMinConflictsParams(5000), greedyTries: 1 }, 1);
    let calls = 0;
    const stopped = m.run(() => ++calls < 2, 10);
    expect(calls).toBe(2);
    expect(stopped.solved).toBe(false);
    expect(stopped.steps).toBe(20);
  });

  it('rejects N = 2 and 3 (no solution) and bad parameters, naming the field', () => {
    expect(() => validateMinConflictsParams(defaultMinConflictsParams(3))).toThrow(/^n: N = 3 has no solution/);
    expect(() => validateMinConflictsParams(defaultMinConflictsParams(0))).toThrow(/^n: /);
    expect(() => validateMinConflictsParams({ ...defaultMinConflictsParams(8), samples: 0 })).toThrow(/^samples: /);
    expect(() => validateMinConflictsParams({ ...defaultMinConflictsParams(8), noise: 2 })).toThrow(/^noise: /);
  });
});
