import { describe, expect, it } from 'vitest';
import { defaultMinConflictsParams, MinConflicts } from '../../../../src-shared/problems/nqueens/minconflicts.ts';
import { defaultNeuralParams, NeuralNet } from '../../../../src-shared/problems/nqueens/neural.ts';
import { solveNqueens } from '../../../../src-shared/problems/nqueens/solve.ts';
import { verifySolution } from '../../../../src-shared/problems/nqueens/verify.ts';

describe('solveNqueens (src-shared/problems/nqueens/solve.ts)', () => {
  it('runs the network to the same board as NeuralNet itself, and the board verifies', () => {
    const params = defaultNeuralParams(8);
    const o = solveNqueens('neural', params, 3);
    const r = new NeuralNet(params, 3).run();
    expect([o.n, o.method, o.solved, o.steps]).toEqual([8, 'neural', r.solved, r.steps]);
    expect(o.solved).toBe(true);
    expect(Array.from(o.queens!)).toEqual(Array.from(r.queens!));
    expect(verifySolution(o.queens!)).toBe(true);
    expect(o.params).toBe(params);
    expect(o.seconds).toBeGreaterThanOrEqual(0);
  });

  it('runs min-conflicts; an unsolved run has no board and names the attacking pairs left', () => {
    const solved = solveNqueens('minconflicts', defaultMinConflictsParams(200), 7);
    expect(solved.solved).toBe(true);
    expect(verifySolution(solved.queens!)).toBe(true);
    const params = { ...defaultMinConflictsParams(200), maxSteps: 1, greedyTries: 1 };
    const r = new MinConflicts(params, 7).run();
    const o = solveNqueens('minconflicts', params, 7);
    expect(r.solved).toBe(false);
    expect(o).toMatchObject({ solved: false, steps: r.steps, queens: null, failure: `${r.conflicts} attacking pairs left` });
  });
});
