// N-Queens runs through the app's one run API (startRun with kind "nqueens", cancelRun,
// pauseRun, getRun and the onRun* events) on a real solver host with worker processes:
// verified solutions equal to the in-process driver's, live snapshots, pause / resume /
// cancel, and bad requests refused with the field named in the CLI's words.
import { afterAll, describe, expect, it } from 'vitest';
import type { NqueensRunStarted } from '../../../src-shared/api.ts';
import { createApi } from '../../../src-main/api/implementation.ts';
import { dispatchCall } from '../../../src-main/api/dispatch.ts';
import { executeRun } from '../../../src-shared/runtime/kinds/index.ts';
import { defaultNeuralParams } from '../../../src-shared/problems/nqueens/neural.ts';
import { frameworkParams } from '../../../src-shared/problems/nqueens/request.ts';
import { defaultMinConflictsParams, MinConflicts } from '../../../src-shared/problems/nqueens/minconflicts.ts';
import { verifySolution } from '../../../src-shared/problems/nqueens/verify.ts';
import { runCli } from '../cli/io.ts';
import { apiHarness, within } from './harness.ts';

const harness = apiHarness();
const { api, runs } = harness;
afterAll(() => harness.dispose());

async function start(request: object) {
  let id: string | undefined;
  const f = harness.follow<'nqueens'>(() => id);
  const answer = await dispatchCall(api, 'startRun', [{ kind: 'nqueens', ...request }]);
  if (!answer.ok) throw new Error(`startRun failed: ${answer.error.message}`);
  const started = answer.value as NqueensRunStarted;
  id = started.runId;
  return { started, ...f };
}

async function refusal(request: unknown) {
  const answer = await dispatchCall(api, 'startRun', [request === null ? null : { kind: 'nqueens', ...(request as object) }]);
  expect(answer.ok).toBe(false);
  return (answer as { error: { name: string; message: string; field?: string } }).error;
}

describe('N-Queens runs through the API', () => {
  it('min-conflicts at N = 2000 in a worker: snapshots, then a verified solution equal to the in-process run', async () => {
    const run = await start({ method: 'minconflicts', n: 2000, seed: 5 });
    // Defaults filled in; the step limit is max(100000, 50 N) = 100000 (defaultMinConflictsParams).
    expect(run.started.title).toBe('N-Queens, N = 2,000, min-conflicts, seed 5');
    expect(run.started).toMatchObject({
      kind: 'nqueens',
      method: 'minconflicts',
      n: 2000,
      seed: 5,
      maxQueens: 2000,
      params: { samples: 32, greedyTries: 64, noise: 0.02, maxSteps: 0 },
      stepLimit: 100_000,
    });
    const end = await within(run.finished, 30_000, 'min-conflicts N = 2000');
    expect(end.status).toBe('done');
    expect(end.reason).toBeNull();
    const r = end.result!;
    expect([r.solved, r.verified, r.failure, r.stopReason]).toEqual([true, true, null, 'solver']);
    expect(r.queens).toHaveLength(2000);
    expect(verifySolution(r.queens!)).toBe(true);
    // The worker's run is the in-process driver's, step for step.
    const inline = await executeRun({ kind: 'nqueens', method: 'minconflicts', n: 2000, params: run.started.params, seed: 5 });
    expect([r.steps, r.queens]).toEqual([inline.steps, inline.queens]);
    // The greedy start's attacking pairs, as the problem module counts them for this seed.
    expect(r.initialConflicts).toBe(new MinConflicts(defaultMinConflictsParams(2000), 5).initialConflicts);
    expect(r.initialConflicts).toBeGreaterThan(0);
    expect(run.started.purpose).toBe('run');
    // The driver's last snapshot comes before the end: no conflicts left, at the final step.
    expect(run.snapshots.length).toBeGreaterThan(0);
    const last = run.snapshots.at(-1)!.snapshot;
    expect([last.conflicts, last.queens, last.steps, last.progress]).toEqual([0, 2000, r.steps, 1]);
    for (let i = 1; i < run.snapshots.length; i++) expect(run.snapshots[i].snapshot.steps).toBeGreaterThanOrEqual(run.snapshots[i - 1].snapshot.steps);
    expect(JSON.parse(JSON.stringify(end))).toEqual(end);
    expect(runs.activeCount).toBe(0);
  });

  it('the network at N = 8 with the lab default in framework names: solved, verified, energy 0 at the end', async () => {
    const params = frameworkParams('neural', defaultNeuralParams(8));
    const run = await start({ method: 'neural', n: 8, params, seed: 1 });
    expect(run.started.stepLimit).toBe(5000);
    const end = await within(run.finished, 30_000, 'neural N = 8');
    const r = end.result!;
    expect([end.status, r.solved, r.verified, r.initialConflicts]).toEqual(['done', true, true, null]);
    expect(verifySolution(r.queens!)).toBe(true);
    const inline = await executeRun({ kind: 'nqueens', method: 'neural', n: 8, params, seed: 1 });
    expect([r.steps, r.queens]).toEqual([inline.steps, inline.queens]);
    const last = run.snapshots.at(-1)!.snapshot;
    expect([last.energy, last.conflicts, last.queens]).toEqual([0, 0, 8]);
  });

  it('a report carries the first maxQueens queens of a large board, checked in full on the main side', async () => {
    const run = await start({ method: 'minconflicts', n: 100_000, seed: 2, maxQueens: 40 });
    const r = (await within(run.finished, 60_000, 'min-conflicts N = 100000')).result!;
    expect([r.solved, r.verified, r.n]).toEqual([true, true, 100_000]);
    expect(r.queens).toHaveLength(40);
    // The first 40 rows: distinct columns in range, no two on a diagonal.
    const q = r.queens!;
    expect(new Set(q).size).toBe(40);
    for (const c of q) expect(c >= 0 && c < 100_000).toBe(true);
    for (let a = 0; a < 40; a++) for (let b = a + 1; b < 40; b++) expect(Math.abs(q[a] - q[b])).not.toBe(b - a);
    // The default is min(N, 10 000).
    const small = await start({ method: 'minconflicts', n: 12_000, seed: 2 });
    expect((await within(small.finished, 30_000, 'min-conflicts N = 12000')).result!.queens).toHaveLength(10_000);
  });

  it('pauses, resumes and cancels a run that never solves; the cancelled result says so', async () => {
    // Synchronous updates, bounded U, no kicks: at N = 10 the board flips between empty and full
    // for ever (tests/main/host/nqueens.test.ts, "endless").
    const run = await start({ method: 'neural', n: 10, params: { update: 'sync', clamp: 3, kickLength: 0, maxSteps: 1_000_000_000 }, seed: 1 });
    const id = run.started.runId;
    await within(
      run.snapshotWhere((e) => e.snapshot.steps > 0 && !e.snapshot.paused),
      20_000,
      'a first snapshot',
    );
    expect(await dispatchCall(api, 'pauseRun', [id, true])).toEqual({ ok: true, value: true });
    const paused = await within(
      run.snapshotWhere((e) => e.snapshot.paused),
      20_000,
      'a paused snapshot',
    );
    expect(await dispatchCall(api, 'pauseRun', [id, false])).toEqual({ ok: true, value: true });
    await within(
      run.snapshotWhere((e) => !e.snapshot.paused && e.snapshot.steps > paused.snapshot.steps),
      20_000,
      'steps after resuming',
    );
    expect(await dispatchCall(api, 'cancelRun', [id])).toEqual({ ok: true, value: true });
    const end = await within(run.finished, 20_000, 'the cancelled run');
    expect(end.status).toBe('cancelled');
    const r = end.result!;
    expect([r.solved, r.verified, r.queens, r.stopReason]).toEqual([false, false, null, 'cancelled']);
    expect(r.steps).toBeGreaterThan(paused.snapshot.steps);
    expect(r.message).toBe(`cancelled after ${r.steps} steps`);
    expect(await dispatchCall(api, 'cancelRun', [id])).toEqual({ ok: true, value: false });
    expect(await dispatchCall(api, 'pauseRun', [id, true])).toEqual({ ok: true, value: false });
  });

  it('reports the failure mode of a run that reaches its step limit', async () => {
    // The same endless network with a limit of 200 steps: a period-2 flip is an oscillation.
    const run = await start({ method: 'neural', n: 10, params: { update: 'sync', clamp: 3, kickLength: 0, maxSteps: 200 }, seed: 1 });
    expect(run.started.stepLimit).toBe(200);
    const end = await within(run.finished, 20_000, 'the limited run');
    const r = end.result!;
    expect([end.status, r.solved, r.verified, r.steps, r.failure, r.queens]).toEqual(['done', false, false, 200, 'oscillation', null]);
  });

  it('refuses bad requests, naming the field as saikoro nqueens does', async () => {
    expect(await refusal({ method: 'genetic', n: 8, seed: 1 })).toEqual({
      name: 'NqueensRequestError',
      field: 'method',
      rule: 'expected "neural" or "minconflicts", got "genetic"',
      message: 'method: expected "neural" or "minconflicts", got "genetic"',
    });
    expect(await refusal({ method: 'neural', n: 5000, seed: 1 })).toMatchObject({ field: 'n', message: 'n: must be at most 4000, got 5000' });
    expect(await refusal({ method: 'neural', n: 3, seed: 1 })).toMatchObject({ field: 'n', message: 'n: must be an integer >= 4, got 3' });
    expect(await refusal({ method: 'minconflicts', n: 2, seed: 1 })).toMatchObject({
      field: 'n',
      message: 'n: N = 2 has no solution (N must be 1 or at least 4)',
    });
    expect(await refusal({ method: 'minconflicts', n: 8.5, seed: 1 })).toMatchObject({ field: 'n', message: 'n: expected an integer, got 8.5' });
    expect(await refusal({ method: 'minconflicts', n: '8', seed: 1 })).toMatchObject({ field: 'n', message: 'n: expected a number, got "8"' });
    expect(await refusal({ method: 'minconflicts', n: 60_000_000, seed: 1 })).toMatchObject({
      field: 'n',
      message: 'n: must be at most 50000000, got 60000000',
    });
    expect(await refusal({ method: 'minconflicts', n: 8, seed: 2 ** 31 })).toMatchObject({
      field: 'seed',
      message: 'seed: must be at most 2147483647, got 2147483648',
    });
    expect(await refusal({ method: 'neural', n: 8, seed: 1, params: { A: -2 } })).toMatchObject({
      field: 'params.A',
      message: 'params.A: must be > 0, got -2',
    });
    expect(await refusal({ method: 'neural', n: 8, seed: 1, params: { update: 'async' } })).toMatchObject({
      field: 'params.update',
      message: 'params.update: must be one of seq, sync, got "async"',
    });
    expect(await refusal({ method: 'neural', n: 8, seed: 1, params: { samples: 4 } })).toMatchObject({
      field: 'params.samples',
      message: 'params.samples: is unknown (parameters of nqueens-neural: A, B, C, kick, kickEvery, kickLength, update, threshold, clamp, maxSteps)',
    });
    expect(await refusal({ method: 'neural', n: 8, seed: 1, params: { kickEvery: 5, kickLength: 5 } })).toMatchObject({
      field: 'params.kickLength',
      message: 'params.kickLength: must be less than kickEvery (5), got 5',
    });
    expect(await refusal({ method: 'minconflicts', n: 8, seed: 1, params: { noise: 1.5 } })).toMatchObject({
      field: 'params.noise',
      message: 'params.noise: must be >= 0 and <= 1, got 1.5',
    });
    expect(await refusal({ method: 'minconflicts', n: 8, seed: 1, maxQueens: 9 })).toMatchObject({
      field: 'maxQueens',
      message: 'maxQueens: must be at most 8, got 9',
    });
    expect(await refusal({ method: 'minconflicts', n: 8, seed: 1, purpose: 'demo' })).toMatchObject({
      field: 'purpose',
      message: 'purpose: expected "run" or "baseline", got "demo"',
    });
    // Not an object: refused before the API sees it (call-arguments.ts), as over IPC.
    expect(await refusal(null)).toMatchObject({ name: 'BadRequest', field: 'request' });
    expect(await dispatchCall(api, 'startRun', [{ kind: 'chess', n: 8 }])).toMatchObject({
      ok: false,
      error: { name: 'RunRequestError', field: 'kind', message: 'kind: must be "dice", "nqueens" or "nqueens-sweep", got "chess"' },
    });
    expect(runs.activeCount).toBe(0);
    const noRuns = createApi({ name: 's', version: '0', platform: 'test', runtime: 'web' });
    expect(await dispatchCall(noRuns, 'startRun', [{ kind: 'nqueens', method: 'neural', n: 8, seed: 1 }])).toMatchObject({
      ok: false,
      error: { name: 'UnavailableError' },
    });
  });

  it('the CLI words the same problems the same way (with --)', async () => {
    expect((await runCli(['nqueens', '--n', '5000'])).stderr).toContain('--n: must be at most 4000, got 5000');
    expect((await runCli(['nqueens', '--n', '3'])).stderr).toContain('--n: must be an integer >= 4, got 3');
    expect((await runCli(['nqueens', '--n', '2', '--method', 'minconflicts'])).stderr).toContain('--n: N = 2 has no solution (N must be 1 or at least 4)');
    expect((await runCli(['nqueens', '--n', '8', '--method', 'genetic'])).stderr).toContain('--method: expected "neural" or "minconflicts", got "genetic"');
  });
});
