// An N-Queens run planned by the app and run in this process (what the benchmark and
// `saikoro nqueens --inline` do) is exactly the method's own run: the same board as NeuralNet /
// MinConflicts built by hand with the same parameters and seed, and the board verifies.
import { describe, expect, it } from 'vitest';
import { runInProcessSync } from '../../../src-main/app/launcher.ts';
import { planNqueensRun } from '../../../src-main/app/nqueens.ts';
import { defaultMinConflictsParams, MinConflicts, type MinConflictsParams } from '../../../src-shared/problems/nqueens/minconflicts.ts';
import { defaultNeuralParams, NeuralNet, type NeuralParams } from '../../../src-shared/problems/nqueens/neural.ts';
import { frameworkParams } from '../../../src-shared/problems/nqueens/request.ts';
import { verifySolution } from '../../../src-shared/problems/nqueens/verify.ts';

function inProcess(method: 'neural' | 'minconflicts', params: NeuralParams | MinConflictsParams, seed: number) {
  return runInProcessSync(planNqueensRun({ kind: 'nqueens', method, n: params.n, params: frameworkParams(method, params), seed }));
}

describe('an N-Queens plan run in process', () => {
  it('runs the network to the same board as NeuralNet itself, and the board verifies', () => {
    const params = defaultNeuralParams(8);
    const o = inProcess('neural', params, 3);
    const r = new NeuralNet(params, 3).run();
    expect(o.status).toBe('done');
    expect([o.result!.n, o.result!.method, o.result!.solved, o.result!.steps]).toEqual([8, 'neural', r.solved, r.steps]);
    expect(o.result!.solved).toBe(true);
    expect(o.result!.queens).toEqual(Array.from(r.queens!));
    expect(verifySolution(o.result!.queens!)).toBe(true);
  });

  it('runs min-conflicts; an unsolved run has no board and names the attacking pairs left', () => {
    const solved = inProcess('minconflicts', defaultMinConflictsParams(200), 7);
    expect(solved.result!.solved).toBe(true);
    expect(verifySolution(solved.result!.queens!)).toBe(true);
    const params = { ...defaultMinConflictsParams(200), maxSteps: 1, greedyTries: 1 };
    const r = new MinConflicts(params, 7).run();
    const o = inProcess('minconflicts', params, 7);
    expect(r.solved).toBe(false);
    expect(o.result).toMatchObject({ solved: false, steps: r.steps, queens: null, stopReason: 'solver' });
    expect(o.result!.failure).toContain(`${r.conflicts}`);
  });
});
