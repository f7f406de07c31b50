// The N-Queens lab's sweep as a kind of run ('nqueens-sweep'): each cell of the grid is exactly
// the nqueens run of its N, parameters and seed (the reference: executeRunSync of that request,
// what the lab's Web Worker ran for each cell before the sweep became a run of the app), in this
// process and in a worker process through the launcher; it reports progress per finished cell,
// and a cancelled sweep reports the cells it finished. Its start request is checked field by field.
import { describe, expect, it } from 'vitest';
import { Launcher, runInProcessSync } from '../../../src-main/app/launcher.ts';
import { planRun } from '../../../src-main/app/runs.ts';
import { planNqueensSweep } from '../../../src-main/app/nqueens-sweep.ts';
import { nodeSpawner } from '../../../src-main/host/spawner.ts';
import type { StartNqueensSweep } from '../../../src-shared/api.ts';
import { defaultNeuralParams, slidesNeuralParams } from '../../../src-shared/problems/nqueens/neural.ts';
import { frameworkParams } from '../../../src-shared/problems/nqueens/request.ts';
import { executeRunSync, type NqueensSweepOutcome, type NqueensSweepSnapshot } from '../../../src-shared/runtime/kinds/index.ts';

/** The lab's two presets on each N, N first (the order the lab plans them in). */
function sweepOf(ns: number[], seeds: number): StartNqueensSweep {
  const points = ns.flatMap((n) => [
    { setting: 0, n, params: frameworkParams('neural', defaultNeuralParams(n)) },
    { setting: 1, n, params: frameworkParams('neural', slidesNeuralParams(n)) },
  ]);
  return { kind: 'nqueens-sweep', points, seeds };
}

/** Each cell run alone as an nqueens request, in the grid's order: the reference. */
function cellByCell(start: StartNqueensSweep): Omit<NqueensSweepOutcome, 'seconds'>[] {
  return start.points.flatMap((p, i) =>
    Array.from({ length: start.seeds }, (_, k) => {
      const r = executeRunSync({ kind: 'nqueens', method: 'neural', n: p.n, params: p.params, seed: k + 1 });
      return {
        index: i * start.seeds + k,
        setting: p.setting,
        n: p.n,
        seed: k + 1,
        solved: r.solved,
        steps: r.steps,
        ...(r.failure !== undefined ? { failure: r.failure } : {}),
      };
    }),
  );
}

const timeless = (outcomes: readonly NqueensSweepOutcome[]) => outcomes.map(({ seconds, ...rest }) => (expect(seconds).toBeGreaterThanOrEqual(0), rest));

describe('the N-Queens sweep as a kind of run', () => {
  const start = sweepOf([6, 8, 13], 4);
  const reference = cellByCell(start);

  it('gives each cell exactly what the nqueens run of its N, parameters and seed gives', () => {
    // Both outcomes occur in this grid, so both paths are compared (N = 6 defeats some seeds).
    expect(reference.some((o) => o.solved)).toBe(true);
    expect(reference.some((o) => !o.solved && o.failure)).toBe(true);
    const outcome = runInProcessSync(planNqueensSweep(start));
    expect(outcome.status).toBe('done');
    expect(outcome.result!.cells).toBe(24);
    expect(outcome.result!.stopReason).toBe('solver');
    expect(timeless(outcome.result!.outcomes)).toEqual(reference);
    const solved = reference.filter((o) => o.solved).length;
    expect(outcome.result!.message).toBe(`${solved} of 24 runs solved`);
  });

  it('runs in a worker process through the launcher, with progress per finished cell, to the same outcomes', async () => {
    const plan = await planRun({ ...start, points: start.points.map((p) => ({ ...p })) });
    expect(plan.kind).toBe('nqueens-sweep');
    const launcher = new Launcher({ spawn: nodeSpawner(), parallelism: 1 });
    try {
      const run = launcher.start({ ...plan, request: { ...plan.request, snapshotIntervalMs: 0 } });
      const snapshots: NqueensSweepSnapshot[] = [];
      run.onSnapshot((s) => snapshots.push(s as NqueensSweepSnapshot));
      const outcome = await run.outcome;
      expect(outcome.status).toBe('done');
      expect(timeless((outcome.result as { outcomes: NqueensSweepOutcome[] }).outcomes)).toEqual(reference);
      expect(snapshots.length).toBeGreaterThan(1);
      for (let i = 1; i < snapshots.length; i++) expect(snapshots[i].done).toBeGreaterThanOrEqual(snapshots[i - 1].done);
      const last = snapshots[snapshots.length - 1];
      expect(last).toMatchObject({ done: 24, cells: 24, solved: reference.filter((o) => o.solved).length, progress: 1 });
      for (const s of snapshots) expect(s.progress).toBeGreaterThanOrEqual(s.done / 24);
    } finally {
      launcher.dispose();
    }
  });

  it('a cancelled sweep ends with the cells it finished, each as the nqueens run gives it', async () => {
    const big = sweepOf([40], 200);
    const launcher = new Launcher({ spawn: nodeSpawner(), parallelism: 1 });
    try {
      const run = launcher.start({ ...planNqueensSweep(big), request: { ...planNqueensSweep(big).request, snapshotIntervalMs: 0 } });
      await new Promise<void>((resolve) => run.onSnapshot((s) => (s as NqueensSweepSnapshot).done >= 3 && resolve()));
      run.cancel();
      const outcome = await run.outcome;
      expect(outcome.status).toBe('cancelled');
      const result = outcome.result as { outcomes: NqueensSweepOutcome[]; stopReason: string; cells: number };
      expect(result.stopReason).toBe('cancelled');
      expect(result.outcomes.length).toBeGreaterThanOrEqual(3);
      expect(result.outcomes.length).toBeLessThan(400);
      const done = result.outcomes.length;
      const prefix = { ...big, points: big.points.slice(0, Math.ceil(done / 200)) };
      expect(timeless(result.outcomes)).toEqual(cellByCell(prefix).slice(0, done));
    } finally {
      launcher.dispose();
    }
  });

  it('refuses a bad start request, naming the field', async () => {
    const bad = (change: object) => planRun({ ...start, ...change } as StartNqueensSweep);
    await expect(bad({ seeds: 0 })).rejects.toThrow('seeds: must be an integer from 1 to 10000, got 0');
    await expect(bad({ points: [] })).rejects.toThrow(/^points: must be a non-empty array/);
    await expect(bad({ points: [start.points[0], { setting: 1, n: 8, params: { A: -1 } }] })).rejects.toThrow(/^points\[1\]\.params\.A: /);
    await expect(bad({ points: [{ setting: 0, n: 3, params: {} }] })).rejects.toThrow(/^points\[0\]\.n: /);
    await expect(bad({ points: [{ setting: -1, n: 8, params: {} }] })).rejects.toThrow('points[0].setting: must be a non-negative integer, got -1');
    await expect(bad({ points: Array.from({ length: 1001 }, () => start.points[0]), seeds: 1000 })).rejects.toThrow(
      /^points: 1001 points x 1000 seeds is more than 1,000,000 runs/,
    );
    // A request that reaches a worker unchecked fails there with the reason.
    expect(runInProcessSync({ request: { kind: 'nqueens-sweep', points: [], seeds: 1 } })).toMatchObject({
      status: 'failed',
      reason: 'nqueens-sweep: points must be a non-empty array',
    });
  });
});
