// Dice runs through the app's one run API on a real solver host (worker processes): what
// startRun answers (every default resolved; the HV normalisation, computed in a worker, once the
// run has it), the one
// stopping policy, pause that really pauses, getRun / listRuns for a page that reloads, unique
// run ids, and bad requests refused with the field named.
import { afterAll, describe, expect, it } from 'vitest';
import type { DiceRunStarted, RunInfo, SolverResult } from '../../../src-shared/api.ts';
import { createApi } from '../../../src-main/api/implementation.ts';
import { dispatchCall } from '../../../src-main/api/dispatch.ts';
import { evaluateDice } from '../../../src-shared/problems/dice/evaluate.ts';
import { trackConfig, TRACK_OBJECTIVES } from '../../../src-shared/problems/dice/config.ts';
import { diceHvNormalisation } from '../../../src-shared/problems/dice/hv-reference.ts';
import { apiHarness, within } from './harness.ts';

const harness = apiHarness();
const { api, runs } = harness;
afterAll(() => harness.dispose());

async function start(request: object) {
  let id: string | undefined;
  const f = harness.follow<'dice'>(() => id);
  const answer = await dispatchCall(api, 'startRun', [request]);
  if (!answer.ok) throw new Error(`startRun failed: ${answer.error.message}`);
  const started = answer.value as DiceRunStarted;
  id = started.runId;
  return { started, ...f };
}

async function call<T>(name: 'getRun' | 'listRuns' | 'pauseRun' | 'cancelRun', ...args: unknown[]): Promise<T> {
  const answer = await dispatchCall(api, name, args);
  if (!answer.ok) throw new Error(`${name} failed: ${answer.error.message}`);
  return answer.value as T;
}

describe('dice runs through the API', () => {
  it('lists solvers with their parameters', async () => {
    const result = await dispatchCall(api, 'listSolvers', []);
    expect(result.ok).toBe(true);
    const solvers = (result as { value: { name: string; objectives: string; params: unknown[] }[] }).value;
    expect(solvers.length).toBeGreaterThan(3);
    expect(solvers.some((s) => s.objectives === 'multi')).toBe(true);
    expect(JSON.parse(JSON.stringify(solvers))).toEqual(solvers);
  });

  it('a single-objective run stops at its first feasible f = 0, as saikoro solve does; the reported best re-evaluates to the same values', async () => {
    // N = 50: barrier-ls reaches f = 0 in a few dozen evaluations (README), far below the budget.
    const run = await start({ config: { n: 50 }, seed: 7, evaluations: 100_000 });
    expect(run.started).toMatchObject({
      kind: 'dice',
      solver: 'barrier-ls',
      objectiveCount: 1,
      seed: 7,
      n: 50,
      track: 'so',
      evaluations: 100_000,
      target: 0,
      hvNormalisation: null,
      title: 'barrier-ls on SO, N = 50, seed 7',
    });
    expect(run.started.params).toMatchObject({ pairShare: 0.3, patience: 2000 * 50 });
    expect(run.started.runId).toMatch(/^run-[a-z0-9]+-\d+$/);
    const end = await within(run.finished, 30_000, 'the SO run');
    expect([end.kind, end.status, end.reason]).toEqual(['dice', 'done', null]);
    const result = end.result!;
    expect(result.stopReason).toBe('target');
    expect(result.evaluations).toBeLessThan(100_000);
    expect(result.termination).toEqual({ maxEvaluations: 100_000, target: 0 });
    const best = result.best!;
    const check = evaluateDice(best.x, trackConfig('so', 50));
    expect([best.objectives[0], best.feasible]).toEqual([0, true]);
    expect([check.objectives[0], check.feasible]).toEqual([0, true]);
    expect(JSON.parse(JSON.stringify(end))).toEqual(end);
    expect(runs.activeCount).toBe(0);
  });

  it('with wholeBudget a single-objective run uses every evaluation', async () => {
    const run = await start({ config: { n: 50 }, seed: 7, evaluations: 3000, wholeBudget: true });
    expect(run.started.target).toBeNull();
    const result = (await within(run.finished, 30_000, 'the whole-budget run')).result!;
    expect([result.stopReason, result.evaluations]).toEqual(['evaluations', 3000]);
    expect(result.termination).toEqual({ maxEvaluations: 3000 });
  });

  it('a two-objective run: startRun answers before the HV normalisation, which getRun gives once the run goes; snapshots carry the front indicator; pause really pauses; getRun and listRuns tell everything', async () => {
    const config = { n: 840, objectives: TRACK_OBJECTIVES.mo2 };
    const run = await start({ config, seed: 1, evaluations: 1e8 });
    const norm = diceHvNormalisation(trackConfig('mo2', 840));
    // Answered before the normalisation is computed (in a worker); the run has it once it goes.
    expect(run.started).toMatchObject({ solver: 'barrier-mo', objectiveCount: 2, track: 'mo2', target: null, hvNormalisation: null });
    const id = run.started.runId;
    const going = await within(
      run.snapshotWhere((e) => e.snapshot.front.length > 0),
      30_000,
      'a front',
    );
    expect((await call<RunInfo>('getRun', id)).started).toEqual({ ...run.started, hvNormalisation: norm });
    expect(going.snapshot.indicator).toBeGreaterThan(0);

    expect(await call('pauseRun', id, true)).toBe(true);
    const paused = await within(
      run.snapshotWhere((e) => e.snapshot.paused),
      20_000,
      'a paused snapshot',
    );
    const info = await within(
      (async () => {
        for (;;) {
          const i = await call<RunInfo>('getRun', id);
          if (i.status === 'paused') return i;
          await new Promise((r) => setTimeout(r, 20));
        }
      })(),
      20_000,
      'getRun to say paused',
    );
    // getRun shows where the pause left the run (that nothing moves while paused: the cancel
    // while paused below ends with exactly the paused count; paused time is not running time:
    // tests/shared/core/driver.test.ts, on a clock of its own).
    expect((info.snapshot as { evaluations: number }).evaluations).toBe(paused.snapshot.evaluations);
    // A transport's call is checked before the API sees it (call-arguments.ts), as over IPC.
    expect(await dispatchCall(api, 'pauseRun', [id, 'yes'])).toMatchObject({
      ok: false,
      error: { name: 'BadRequest', field: 'paused', message: 'paused: must be true or false, got "yes"' },
    });

    expect(await call('pauseRun', id, false)).toBe(true);
    const resumed = await within(
      run.snapshotWhere((e) => !e.snapshot.paused && e.snapshot.evaluations > paused.snapshot.evaluations),
      20_000,
      'evaluations after resuming',
    );

    // What a page that reloads gets: the run still going, with what it runs and its history.
    const listed = await call<RunInfo[]>('listRuns');
    expect(listed[0].runId).toBe(id);
    expect(listed[0]).toMatchObject({ kind: 'dice', status: 'running', started: { ...run.started, hvNormalisation: norm }, result: null, reason: null });
    expect(listed[0].history.length).toBeGreaterThan(0);
    expect(listed[0].history.at(-1)!.secondary).toBe((listed[0].snapshot as { front: unknown[] }).front.length);
    expect(listed.slice(1).every((r) => r.status === 'done')).toBe(true);

    // Paused again and cancelled while paused: the result holds exactly the paused count.
    expect(await call('pauseRun', id, true)).toBe(true);
    const again = await within(
      run.snapshotWhere((e) => e.snapshot.paused && e.snapshot.evaluations >= resumed.snapshot.evaluations),
      20_000,
      'the second paused snapshot',
    );
    expect(await call('cancelRun', id)).toBe(true);
    const end = await within(run.finished, 20_000, 'the cancelled run');
    expect(end.status).toBe('cancelled');
    const finished = await call<RunInfo>('getRun', id);
    expect(finished).toMatchObject({ status: 'cancelled', reason: 'cancelled' });
    expect((finished.result as SolverResult).stopReason).toBe('cancelled');
    expect((finished.result as SolverResult).evaluations).toBe(again.snapshot.evaluations);
    expect((finished.result as SolverResult).front.length).toBeGreaterThan(0);
    expect(await call('cancelRun', id)).toBe(false);
    expect(await call('pauseRun', id, true)).toBe(false);
    expect(await call('getRun', 'run-none-1')).toBeNull();
    // Unique ids, one prefix.
    const ids = (await call<RunInfo[]>('listRuns')).map((r) => r.runId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const runId of ids) expect(runId).toMatch(/^run-[a-z0-9]+-\d+$/);
  });

  it('refuses bad requests with named errors', async () => {
    const unknown = await dispatchCall(api, 'startRun', [{ config: { n: 50 }, solver: 'magic', seed: 1, evaluations: 10 }]);
    expect(unknown).toMatchObject({ ok: false, error: { name: 'SolverError' } });
    expect((unknown as { error: { message: string } }).error.message).toContain('magic');
    const wrongM = await dispatchCall(api, 'startRun', [{ config: { n: 50 }, solver: 'nsga2', seed: 1, evaluations: 10 }]);
    expect(wrongM).toMatchObject({ ok: false, error: { name: 'SolverError', message: 'solver nsga2 is multi-objective; this problem has one objective' } });
    expect(await dispatchCall(api, 'startRun', [{ config: { n: 50 }, seed: 1, evaluations: 0 }])).toMatchObject({
      ok: false,
      error: { name: 'RunRequestError', field: 'evaluations', message: 'evaluations: must be an integer from 1 to 1000000000, got 0' },
    });
    expect(await dispatchCall(api, 'startRun', [{ config: { n: 50 }, seed: 1.5, evaluations: 10 }])).toMatchObject({ ok: false, error: { field: 'seed' } });
    expect(await dispatchCall(api, 'startRun', [{ config: { n: 50 }, seed: 1, evaluations: 10, wholeBudget: 'yes' }])).toMatchObject({
      ok: false,
      error: { field: 'wholeBudget' },
    });
    expect(await dispatchCall(api, 'startRun', [{ config: { n: 0 }, seed: 1, evaluations: 10 }])).toMatchObject({
      ok: false,
      error: { name: 'ConfigError', field: 'n' },
    });
    expect(await dispatchCall(api, 'startRun', [{ config: { n: 50 }, params: { bogus: 1 }, seed: 1, evaluations: 10 }])).toMatchObject({
      ok: false,
      error: { name: 'ParamError' },
    });
    const noRuns = createApi({ name: 's', version: '0', platform: 'test', runtime: 'web' });
    expect(await dispatchCall(noRuns, 'startRun', [{ config: { n: 50 }, seed: 1, evaluations: 10 }])).toMatchObject({
      ok: false,
      error: { name: 'UnavailableError' },
    });
    expect(await dispatchCall(noRuns, 'listRuns', [])).toEqual({ ok: true, value: [] });
  });
});
