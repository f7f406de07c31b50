import { afterAll, describe, expect, it } from 'vitest';
import type { RunFinishedEvent, RunSnapshotEvent } from '../../../src-shared/api.ts';
import { createApi } from '../../../src-main/api/implementation.ts';
import { dispatchCall } from '../../../src-main/api/dispatch.ts';
import { ApiEventHub } from '../../../src-main/api/events.ts';
import { RunService } from '../../../src-main/api/runs.ts';
import { SolverHost } from '../../../src-main/host/pool.ts';
import { nodeSpawner } from '../../../src-main/host/spawner.ts';
import { evaluateDice } from '../../../src-shared/problems/dice/evaluate.ts';
import { trackConfig } from '../../../src-shared/problems/dice/config.ts';

const events = new ApiEventHub();
const host = new SolverHost({ spawn: nodeSpawner(), parallelism: 1 });
const runs = new RunService(host, events);
const api = createApi({ name: 'saikoro', version: '0', platform: 'test', runtime: 'web' }, { runs });

afterAll(() => {
  runs.dispose();
  host.dispose();
});

/** Collects the events of one run until it finishes. */
function follow(runId: () => string | undefined) {
  const snapshots: RunSnapshotEvent[] = [];
  const finished = new Promise<RunFinishedEvent>((resolve) => {
    const detach = events.attach((m) => {
      const payload = m.payload as RunSnapshotEvent | RunFinishedEvent;
      if (payload && 'runId' in payload && payload.runId === runId()) {
        if (m.event === 'onRunSnapshot') snapshots.push(payload as RunSnapshotEvent);
        if (m.event === 'onRunFinished') {
          detach();
          resolve(payload as RunFinishedEvent);
        }
      }
    });
  });
  return { snapshots, finished };
}

describe('solver runs through the API', () => {
  it('lists solvers with their parameters', async () => {
    const result = await dispatchCall(api, 'listSolvers', []);
    expect(result.ok).toBe(true);
    const solvers = (result as { value: { name: string; objectives: string; params: unknown[] }[] }).value;
    expect(solvers.length).toBeGreaterThan(3);
    expect(solvers.some((s) => s.objectives === 'multi')).toBe(true);
    expect(JSON.parse(JSON.stringify(solvers))).toEqual(solvers);
  });

  it('runs a single-objective solver in a worker; the reported best re-evaluates to the same values', async () => {
    let id: string | undefined;
    const { snapshots, finished } = follow(() => id);
    const started = await dispatchCall(api, 'startRun', [{ config: { n: 50 }, seed: 7, evaluations: 3000 }]);
    expect(started.ok).toBe(true);
    const value = (started as { value: { runId: string; solver: string; objectiveCount: number; params: object } }).value;
    id = value.runId;
    expect(value.objectiveCount).toBe(1);
    expect(typeof value.solver).toBe('string');
    const end = await finished;
    expect(end.status).toBe('done');
    expect(end.reason).toBeNull();
    const result = end.result!;
    expect(result.evaluations).toBeGreaterThan(0);
    expect(result.evaluations).toBeLessThanOrEqual(3000);
    const best = result.best!;
    const check = evaluateDice(best.x, trackConfig('so', 50));
    expect(best.objectives[0]).toBeCloseTo(check.objectives[0], 9);
    expect(best.feasible).toBe(check.feasible);
    // The convergence trace never gets worse.
    const values = result.trace.filter((t) => t.feasible && t.best !== null).map((t) => t.best!);
    for (let i = 1; i < values.length; i++) expect(values[i]).toBeLessThanOrEqual(values[i - 1]);
    // Snapshots, when any arrived before the end, count evaluations upwards.
    for (let i = 1; i < snapshots.length; i++) expect(snapshots[i].snapshot.evaluations).toBeGreaterThanOrEqual(snapshots[i - 1].snapshot.evaluations);
    expect(JSON.parse(JSON.stringify(end))).toEqual(end);
    expect(runs.activeCount).toBe(0);
  });

  it('runs a two-objective track and cancels on request', async () => {
    let id: string | undefined;
    const { finished } = follow(() => id);
    const started = await dispatchCall(api, 'startRun', [{ config: { n: 840, objectives: [[1, 2, 3, 4, 5, 6, 7], [8, 9, 10, 11, 12, 13, 14, 15]] }, seed: 1, evaluations: 1e8 }]);
    expect(started.ok).toBe(true);
    id = (started as { value: { runId: string; objectiveCount: number } }).value.runId;
    expect((started as { value: { objectiveCount: number } }).value.objectiveCount).toBe(2);
    await new Promise((r) => setTimeout(r, 300));
    expect(await dispatchCall(api, 'pauseRun', [id, true])).toEqual({ ok: true, value: true });
    expect(await dispatchCall(api, 'pauseRun', [id, 'yes'])).toMatchObject({ ok: false, error: { name: 'TypeError', message: 'pauseRun: paused must be true or false, got "yes"' } });
    expect(await dispatchCall(api, 'pauseRun', [id, false])).toEqual({ ok: true, value: true });
    expect(await dispatchCall(api, 'cancelRun', [id])).toEqual({ ok: true, value: true });
    const end = await finished;
    expect(end.status).toBe('cancelled');
    expect(await dispatchCall(api, 'cancelRun', [id])).toEqual({ ok: true, value: false });
    expect(await dispatchCall(api, 'pauseRun', [id, true])).toEqual({ ok: true, value: false });
  });

  it('refuses bad requests with named errors', async () => {
    const unknown = await dispatchCall(api, 'startRun', [{ config: { n: 50 }, solver: 'magic', seed: 1, evaluations: 10 }]);
    expect(unknown).toMatchObject({ ok: false, error: { name: 'SolverError' } });
    expect((unknown as { error: { message: string } }).error.message).toContain('magic');
    const budget = await dispatchCall(api, 'startRun', [{ config: { n: 50 }, seed: 1, evaluations: 0 }]);
    expect(budget).toMatchObject({ ok: false, error: { name: 'RangeError', message: 'evaluations must be an integer from 1 to 1000000000, got 0' } });
    const config = await dispatchCall(api, 'startRun', [{ config: { n: 0 }, seed: 1, evaluations: 10 }]);
    expect(config).toMatchObject({ ok: false, error: { name: 'ConfigError', field: 'n' } });
    const noRuns = createApi({ name: 's', version: '0', platform: 'test', runtime: 'web' });
    expect(await dispatchCall(noRuns, 'startRun', [{ config: { n: 50 }, seed: 1, evaluations: 10 }])).toMatchObject({ ok: false, error: { name: 'UnavailableError' } });
  });
});
