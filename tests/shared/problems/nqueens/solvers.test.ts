import { describe, expect, it } from 'vitest';
import { describeNqueensSolvers, findNqueensSolver } from '../../../../src-shared/problems/nqueens/solvers.ts';
import { resolveParams } from '../../../../src-shared/core/params.ts';
import { executeRun, type NqueensMethod, type NqueensSnapshot } from '../../../../src-shared/runtime/kinds/index.ts';
import type { ExecuteOptions } from '../../../../src-shared/runtime/kinds/index.ts';
import { defaultNeuralParams, runNeural } from '../../../../src-shared/problems/nqueens/neural.ts';
import { defaultMinConflictsParams, runMinConflicts } from '../../../../src-shared/problems/nqueens/minconflicts.ts';
import { verifySolution } from '../../../../src-shared/problems/nqueens/verify.ts';
import { RunController } from '../../../../src-shared/core/control.ts';
import { waitFor } from '../../../main/processes.ts';

const noYield = () => Promise.resolve();

/** An N-Queens run through the one driver, as a worker runs it. */
function runNqueens(
  method: NqueensMethod,
  n: number,
  params: Record<string, number | string>,
  seed: number,
  limits: { steps?: number; seconds?: number } = {},
  options: ExecuteOptions<NqueensSnapshot> & { snapshotIntervalMs?: number } = {},
) {
  const { snapshotIntervalMs, ...execute } = options;
  return executeRun(
    { kind: 'nqueens', method, n, params, seed, limits, ...(snapshotIntervalMs !== undefined ? { snapshotIntervalMs } : {}) },
    { yieldToHost: noYield, ...execute },
  );
}

describe('N-Queens methods on the one driver (the nqueens kind of run)', () => {
  it('describes both methods with their parameters and defaults', () => {
    const d = describeNqueensSolvers();
    expect(d.map((s) => [s.name, s.baseline])).toEqual([
      ['nqueens-neural', false],
      ['nqueens-minconflicts', true],
    ]);
    expect(d[0].params.find((p) => p.name === 'update')).toMatchObject({ type: 'choice', default: 'seq', choices: ['seq', 'sync'] });
  });

  it('gives the same runs as the methods called directly (defaults, same seed)', async () => {
    const neural = await runNqueens('neural', 12, {}, 3);
    const direct = runNeural(defaultNeuralParams(12), 3);
    expect([neural.solved, neural.steps, neural.queens]).toEqual([true, direct.steps, direct.queens]);
    expect(neural.stopReason).toBe('solver');
    const mc = await runNqueens('minconflicts', 200, {}, 4);
    const mcDirect = runMinConflicts(defaultMinConflictsParams(200), 4);
    expect(mc.solved).toBe(true);
    expect(mc.queens).toEqual([...mcDirect.queens]);
    expect(verifySolution(mc.queens!)).toBe(true);
    // The attacking pairs its greedy start left, as the method counts them; the network has none.
    expect(mc.initialConflicts).toBe(mcDirect.initialConflicts);
    expect(mcDirect.initialConflicts).toBeGreaterThan(0);
    expect(neural).not.toHaveProperty('initialConflicts');
  });

  it('stops at a step budget and reports the failure mode', async () => {
    // Synchronous, bounded, no kicks: the whole board flips between empty and full (never solves).
    const r = await runNqueens('neural', 10, { update: 'sync', clamp: 3, kickLength: 0 }, 1, { steps: 40 });
    expect(r).toMatchObject({ solved: false, steps: 40, stopReason: 'evaluations', message: 'stopped by the step budget after 40 steps', queens: null });
    const limited = await runNqueens('neural', 10, { update: 'sync', clamp: 3, kickLength: 0, maxSteps: 30 }, 1);
    expect(limited).toMatchObject({ solved: false, steps: 30, stopReason: 'solver', failure: 'oscillation' });
  });

  it('spaces snapshots by at least the interval in the seconds they report', async () => {
    // Every clock read moves time by an uneven step, so readings taken at different moments differ.
    const time = { t: 0, reads: 0 };
    const steps = [1, 37, 3, 61, 11];
    const clock = () => (time.t += steps[time.reads++ % steps.length]);
    const snaps: NqueensSnapshot[] = [];
    const params = { update: 'sync', clamp: 3, kickLength: 0, maxSteps: 100000 };
    await runNqueens('neural', 10, params, 1, { steps: 3000 }, { onSnapshot: (s) => snaps.push(s), clock, snapshotIntervalMs: 200, sliceMilliseconds: 1000 });
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
    // A yield after every step; a step that takes any time at all keeps the batch at 1.
    const r = await runNqueens(
      'minconflicts',
      n,
      {},
      1,
      {},
      { onSnapshot: (s) => snaps.push(s), control, yieldToHost, snapshotIntervalMs: 0, sliceMilliseconds: 0 },
    );
    expect(r.stopReason).toBe('cancelled');
    expect(r.steps).toBe(0); // still in the greedy start
    expect(r).not.toHaveProperty('initialConflicts'); // the greedy start never finished
    // Steps of 1024 rows: the board fills up row by row, and the cancel after the third stops it.
    expect(snaps.map((s) => s.queens)).toEqual([1024, 2048, 3072, 3072]);
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
    const running = runNqueens(
      'neural',
      40,
      { update: 'sync', clamp: 3, kickLength: 0, maxSteps: 100000 },
      1,
      {},
      { onSnapshot: (s) => snaps.push(s), control, yieldToHost, snapshotIntervalMs: 0, sliceMilliseconds: 0 },
    );
    await waitFor('a paused snapshot after the second slice', () => snaps.at(-1)?.paused);
    expect(snaps.at(-1)!.paused).toBe(true);
    expect(slices).toBe(2);
    control.cancel();
    const r = await running;
    expect(r.stopReason).toBe('cancelled');
    expect(r.solved).toBe(false);
    expect(r.steps).toBeGreaterThan(0);
  });

  it('names a bad or unknown parameter (the one parameter resolver)', async () => {
    const info = findNqueensSolver('nqueens-neural');
    const resolve = (given: Record<string, unknown>) => resolveParams(info.name, info.params, given, 10);
    expect(() => resolve({ A: 0 })).toThrow('solver nqueens-neural: parameter A must be > 0, got 0');
    expect(() => resolve({ update: 'async' })).toThrow('solver nqueens-neural: parameter update must be one of seq, sync, got "async"');
    expect(() => resolve({ samples: 3 })).toThrow(
      'solver nqueens-neural: parameter samples is unknown (parameters of nqueens-neural: A, B, C, kick, kickEvery, kickLength, update, threshold, clamp, maxSteps)',
    );
    expect(resolve({ A: 2 })).toMatchObject({ A: 2, B: 1, update: 'seq', maxSteps: 0 });
    // A run with a bad parameter fails with the same words.
    await expect(runNqueens('neural', 10, { A: -1 }, 1)).rejects.toThrow('solver nqueens-neural: parameter A must be > 0, got -1');
    expect(() => findNqueensSolver('ga')).toThrow(/known: nqueens-neural, nqueens-minconflicts/);
  });
});
