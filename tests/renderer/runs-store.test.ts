// @vitest-environment happy-dom
// The one run store: events that arrive before startRun answers are kept; a run it does not
// know (started in another tab) is fetched with getRun; a reload, and a reconnect of the event
// socket, re-sync every run from listRuns.
import { beforeEach, describe, expect, it } from 'vitest';
import { createApp, nextTick } from 'vue';
import { createPinia, setActivePinia } from 'pinia';
import { provideApi } from '../../src-renderer/api/index.ts';
import { useRunsStore } from '../../src-renderer/stores/runs.ts';
import type { RunSnapshotEvent, SolverResult } from '../../src-shared/api.ts';
import { fakeRunApi } from './fake-run-api.ts';
import { diceHvNormalisation } from '../../src-shared/problems/dice/hv-reference.ts';
import { TRACK_OBJECTIVES, trackConfig } from '../../src-shared/problems/dice/config.ts';

let env: ReturnType<typeof fakeRunApi>;

function newStore() {
  const app = createApp({ render: () => null });
  provideApi(app, env.api);
  const pinia = createPinia();
  app.use(pinia);
  setActivePinia(pinia);
  return app.runWithContext(() => useRunsStore());
}

const settle = async () => {
  await new Promise((r) => setTimeout(r, 0));
  await nextTick();
};

type DiceEvent = Extract<RunSnapshotEvent, { kind: 'dice' }>;
const snap = (runId: string, evaluations: number, f: number): DiceEvent => ({
  runId,
  kind: 'dice',
  snapshot: {
    evaluations,
    seconds: evaluations / 1000,
    progress: evaluations / 10_000,
    paused: false,
    feasibleFound: true,
    best: { x: '1'.repeat(20), objectives: [f], constraints: [], feasible: true, violation: 0 },
    front: [],
    indicator: null,
  },
});
const request = { kind: 'dice' as const, config: { n: 20 }, seed: 1, evaluations: 10_000 };

beforeEach(() => {
  env = fakeRunApi();
});

describe('the run store', () => {
  it('keeps the snapshot and the end that overtake the answer to startRun', async () => {
    const runs = newStore();
    await settle();
    env.setBeforeAnswer((runId) => {
      env.snapshot(snap(runId, 500, 40));
      env.finish({
        runId,
        kind: 'dice',
        status: 'done',
        reason: null,
        result: {
          objectiveCount: 1,
          message: 'best feasible f = 0',
          trace: [{ evaluations: 600, seconds: 0, best: 0, violation: 0, feasible: true, frontSize: null, indicator: null }],
        } as SolverResult,
      });
    });
    const started = await runs.start(request);
    const run = runs.get(started.runId)!;
    expect(run.status).toBe('done');
    expect(run.snapshot).toMatchObject({ evaluations: 500 });
    expect((run.result as SolverResult).message).toBe('best feasible f = 0');
    // The final trace replaces the live points.
    expect(run.points).toEqual([{ evaluations: 600, value: 0, secondary: null }]);
    // Those events were the run's own: nothing was fetched for them.
    expect(env.calls().getRun).toBe(0);
  });

  it('learns the normalisation of a run answered before it was computed, at its first snapshot', async () => {
    const runs = newStore();
    await settle();
    env.answerBeforeNormalisation(true);
    const started = await runs.start({ kind: 'dice', config: { n: 24, objectives: TRACK_OBJECTIVES.mo2 }, solver: 'random', seed: 1, evaluations: 100 });
    expect(started.kind === 'dice' && started.hvNormalisation).toBeNull();
    expect(env.calls().getRun).toBe(0);
    env.snapshot({ ...snap(started.runId, 50, 1), snapshot: { ...snap(started.runId, 50, 1).snapshot, best: null, front: [[3, 4]] } });
    await settle();
    const run = runs.get(started.runId)!;
    expect(run.started.kind === 'dice' && run.started.hvNormalisation).toEqual(diceHvNormalisation(trackConfig('mo2', 24)));
    expect([run.status, (run.snapshot as { evaluations: number } | null)?.evaluations]).toEqual(['running', 50]);
    // Once known, later snapshots ask nothing more.
    env.snapshot(snap(started.runId, 80, 1));
    await settle();
    expect(env.calls().getRun).toBe(1);
  });

  it('fetches a run it does not know (started in another tab) when its events arrive', async () => {
    const runs = newStore();
    await settle();
    const other = newStore();
    await settle();
    const started = await other.start(request);
    env.resetCalls();
    env.snapshot(snap(started.runId, 1000, 30));
    await settle();
    expect(env.calls().getRun).toBe(1);
    const seen = runs.get(started.runId)!;
    expect(seen.started).toEqual(started);
    expect(seen).toMatchObject({ status: 'running', snapshot: { evaluations: 1000 } });
    env.snapshot(snap(started.runId, 2000, 25));
    await settle();
    expect(env.calls().getRun).toBe(1);
    expect(runs.get(started.runId)!.points.map((p) => p.value)).toEqual([30, 25]);
  });

  it('a new store (a reload) lists every run with its history; a reconnect re-syncs what was missed', async () => {
    const first = newStore();
    await settle();
    const a = await first.start(request);
    const b = await first.start({ ...request, seed: 2 });
    env.snapshot(snap(a.runId, 1000, 30));
    env.snapshot(snap(a.runId, 2000, 20));
    env.finish({ runId: b.runId, kind: 'dice', status: 'failed', reason: 'the worker was killed (SIGKILL)', result: null });

    const reloaded = newStore();
    await settle();
    expect(reloaded.ofKind('dice').map((r) => [r.runId, r.status])).toEqual([
      [a.runId, 'running'],
      [b.runId, 'failed'],
    ]);
    expect(reloaded.get(a.runId)!.points.map((p) => p.value)).toEqual([30, 20]);
    expect(reloaded.get(b.runId)!.reason).toBe('the worker was killed (SIGKILL)');

    // Events lost while the socket was down: the main side moved on; a reconnect catches up.
    env.infos.get(a.runId)!.status = 'paused';
    env.infos.get(a.runId)!.snapshot = { ...snap(a.runId, 2500, 18).snapshot, paused: true };
    env.resetCalls();
    env.reconnect();
    await settle();
    // Both stores of this test listen (the first one stands for another tab).
    expect(env.calls().listRuns).toBe(2);
    expect(reloaded.get(a.runId)).toMatchObject({ status: 'paused', snapshot: { evaluations: 2500, paused: true } });
  });

  it('a listRuns answer older than the snapshots that overtook it does not replace them', async () => {
    const runs = newStore();
    await settle();
    const a = await runs.start(request);
    env.snapshot(snap(a.runId, 1000, 30));
    await settle();
    // listRuns is answered as the main side stood when asked; two snapshots overtake its answer.
    const syncing = runs.sync();
    env.snapshot(snap(a.runId, 2000, 20));
    env.snapshot(snap(a.runId, 3000, 15));
    await syncing;
    expect(runs.get(a.runId)).toMatchObject({ status: 'running', snapshot: { evaluations: 3000 } });
    expect(runs.get(a.runId)!.points.map((p) => p.value)).toEqual([30, 20, 15]);
    // An answer that is newer (events lost while the socket was down) still wins.
    env.infos.get(a.runId)!.snapshot = snap(a.runId, 4000, 12).snapshot as never;
    await runs.sync();
    expect(runs.get(a.runId)!.snapshot).toMatchObject({ evaluations: 4000 });
  });

  it('track() fetches a run the page has not heard of (its listRuns was answered before the run began, its events lost), once', async () => {
    const other = newStore();
    await settle();
    const started = await other.start(request);
    env.snapshot(snap(started.runId, 2000, 20));
    // This page's listRuns answered as if before the run began, and no event of the run reached it.
    const listRuns = env.api.listRuns;
    (env.api as { listRuns: () => Promise<unknown[]> }).listRuns = async () => [];
    const page = newStore();
    await settle();
    (env.api as { listRuns: typeof listRuns }).listRuns = listRuns;
    expect(page.get(started.runId)).toBeNull();
    env.resetCalls();
    // The monitor's file rows list it as in flight: the page fetches it, once.
    page.track(started.runId);
    page.track(started.runId);
    await settle();
    expect(page.get(started.runId)).toMatchObject({ status: 'running', snapshot: { evaluations: 2000 } });
    expect(env.calls().getRun).toBe(1);
    page.track(started.runId);
    await settle();
    expect(env.calls().getRun).toBe(1);
  });

  it('a refused start answers the error and keeps nothing', async () => {
    const runs = newStore();
    await settle();
    await expect(runs.start({ ...request, evaluations: 0 })).rejects.toMatchObject({ name: 'RunRequestError', field: 'evaluations' });
    expect(runs.runs.size).toBe(0);
  });
});
