import { describe, expect, it } from 'vitest';
import { describeNqueensSolvers, findNqueensSolver, resolveNqueensParams, runNqueensSolver, type NqueensSnapshot } from '../../../../src-shared/problems/nqueens/solvers.ts';
import { defaultNeuralParams, runNeural } from '../../../../src-shared/problems/nqueens/neural.ts';
import { defaultMinConflictsParams, runMinConflicts } from '../../../../src-shared/problems/nqueens/minconflicts.ts';
import { verifySolution } from '../../../../src-shared/problems/nqueens/verify.ts';
import { RunController } from '../../../../src-shared/solvers/run.ts';
import { waitFor } from '../../../main/processes.ts';

const noYield = () => Promise.resolve();

describe('N-Queens solvers in the framework\'s terms', () => {
  it('describes both methods with their parameters and defaults', () => {
    const d = describeNqueensSolvers();
    expect(d.map((s) => [s.name, s.baseline])).toEqual([['nqueens-neural', false], ['nqueens-minconflicts', true]]);
    expect(d[0].params.find((p) => p.name === 'update')).toMatchObject({ type: 'choice', default: 'seq', choices: ['seq', 'sync'] });
  });

  it('gives the same runs as the methods called directly (defaults, same seed)', async () => {
    const neural = await runNqueensSolver('nqueens-neural', 12, {}, 3, {}, undefined, undefined, { yieldToHost: noYield });
    const direct = runNeural(defaultNeuralParams(12), 3);
    expect([neural.solved, neural.steps, neural.queens]).toEqual([true, direct.steps, direct.queens]);
    expect(neural.stopReason).toBe('solver');
    const mc = await runNqueensSolver('nqueens-minconflicts', 200, {}, 4, {}, undefined, undefined, { yieldToHost: noYield });
    const mcDirect = runMinConflicts(defaultMinConflictsParams(200), 4);
    expect(mc.solved).toBe(true);
    expect(mc.queens).toEqual([...mcDirect.queens]);
    expect(verifySolution(mc.queens!)).toBe(true);
  });

  it('stops at a step budget and reports the failure mode', async () => {
    // Synchronous, bounded, no kicks: the whole board flips between empty and full (never solves).
    const r = await runNqueensSolver('nqueens-neural', 10, { update: 'sync', clamp: 3, kickLength: 0 }, 1, { maxEvaluations: 40 }, undefined, undefined, { yieldToHost: noYield });
    expect(r).toMatchObject({ solved: false, steps: 40, stopReason: 'evaluations', message: 'stopped by the step budget after 40 steps', queens: null });
    const limited = await runNqueensSolver('nqueens-neural', 10, { update: 'sync', clamp: 3, kickLength: 0, maxSteps: 30 }, 1, {}, undefined, undefined, { yieldToHost: noYield });
    expect(limited).toMatchObject({ solved: false, steps: 30, stopReason: 'solver', failure: 'oscillation' });
  });

  it('spaces snapshots by at least the interval in the seconds they report', async () => {
    // Every clock read moves time by an uneven step, so readings taken at different moments differ.
    const time = { t: 0, reads: 0 };
    const steps = [1, 37, 3, 61, 11];
    const clock = () => (time.t += steps[time.reads++ % steps.length]);
    const snaps: NqueensSnapshot[] = [];
    const params = { update: 'sync', clamp: 3, kickLength: 0, maxSteps: 100000 };
    await runNqueensSolver('nqueens-neural', 10, params, 1, { maxEvaluations: 3000 }, (s) => snaps.push(s), undefined, { clock, yieldToHost: noYield, snapshotInterval: 200, sliceMilliseconds: 1000 });
    expect(snaps.length).toBeGreaterThan(3);
    for (let k = 1; k < snaps.length - 1; k++) expect(snaps[k].seconds - snaps[k - 1].seconds).toBeGreaterThanOrEqual(0.2 - 1e-12);
  });

  it('runs the min-conflicts greedy start in slices: progress shows the queens placed, and a cancel stops it', async () => {
    const n = 400_000;
    const snaps: NqueensSnapshot[] = [];
    const control = new RunController();
    let slices = 0;
    const yieldToHost = async () => {
      if (++slices === 3) control.cancel();
    };
    const r = await runNqueensSolver('nqueens-minconflicts', n, {}, 1, {}, (s) => snaps.push(s), control, { yieldToHost, snapshotInterval: 0, sliceMilliseconds: 1e9 });
    expect(r.stopReason).toBe('cancelled');
    expect(r.steps).toBe(0); // still in the greedy start
    // Slices of 1, 2, 4 x 1024 rows (the batch doubles): the board fills up row by row.
    expect(snaps.slice(0, 3).map((s) => s.queens)).toEqual([1024, 3072, 7168]);
    expect(snaps.every((s) => s.queens < n)).toBe(true);
  });

  it('pauses and cancels between slices', async () => {
    const control = new RunController();
    const snaps: NqueensSnapshot[] = [];
    let slices = 0;
    const yieldToHost = async () => {
      slices++;
      if (slices === 2) control.pause();
      if (slices === 3) throw new Error('must not run while paused');
    };
    const running = runNqueensSolver('nqueens-neural', 40, { update: 'sync', clamp: 3, kickLength: 0, maxSteps: 100000 }, 1, {}, (s) => snaps.push(s), control, { yieldToHost, snapshotInterval: 0 });
    await waitFor('a paused snapshot after the second slice', () => snaps.at(-1)?.paused);
    expect(snaps.at(-1)!.paused).toBe(true);
    expect(slices).toBe(2);
    control.cancel();
    const r = await running;
    expect(r.stopReason).toBe('cancelled');
    expect(r.solved).toBe(false);
    expect(r.steps).toBeGreaterThan(0);
  });

  it('names a bad or unknown parameter', () => {
    const info = findNqueensSolver('nqueens-neural');
    expect(() => resolveNqueensParams(info, { A: 0 })).toThrow('nqueens-neural: A must be above 0, got 0');
    expect(() => resolveNqueensParams(info, { update: 'async' })).toThrow(/update must be one of seq, sync/);
    expect(() => resolveNqueensParams(info, { samples: 3 })).toThrow(/unknown parameter "samples"/);
    expect(() => findNqueensSolver('ga')).toThrow(/known: nqueens-neural, nqueens-minconflicts/);
  });
});
