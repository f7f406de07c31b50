// A fake main side for renderer tests: the run API (startRun, getRun, listRuns, pauseRun,
// cancelRun, onRunSnapshot, onRunFinished) with requests planned by the real application layer
// (src-main/app/runs.ts, so answers and refusals are the real ones) and events sent by the
// test. It keeps each run's RunInfo as RunService does, so listRuns after a "reload" is right.
// The N-Queens lab's baseline runs (purpose "baseline", which the lab starts by itself) are run
// here at once by the one driver and finished with the app layer's report, under ids of their
// own and listed in `baselines`, not `requests`: tests of other runs see only theirs.
import {
  ApiError,
  toWireError,
  type RunFinishedEvent,
  type RunInfo,
  type RunSnapshotEvent,
  type RunStarted,
  type SaikoroApi,
  type StartRunRequest,
} from '../../src-shared/api.ts';
import { appendPoint } from '../../src-shared/runtime/progress.ts';
import { executeRunSync, progressPoint, type RunKindName } from '../../src-shared/runtime/kinds/index.ts';
import { planRun } from '../../src-main/app/runs.ts';
import type { RunPlan } from '../../src-main/app/launcher.ts';
import { diceHvNormalisation } from '../../src-shared/problems/dice/hv-reference.ts';
import { needsHvNormalisation, withHvNormalisation } from '../../src-main/app/dice.ts';

export function fakeRunApi(extra: Partial<SaikoroApi> = {}) {
  const snapshotListeners = new Set<(e: RunSnapshotEvent) => void>();
  const finishedListeners = new Set<(e: RunFinishedEvent) => void>();
  const reconnectListeners = new Set<() => void>();
  const requests: StartRunRequest[] = [];
  const baselines: StartRunRequest[] = [];
  const cancelled: string[] = [];
  const pauses: [string, boolean][] = [];
  const infos = new Map<string, RunInfo>();
  /** Called after a run is created and before startRun answers (to send events that overtake the answer). */
  let beforeAnswer: ((runId: string) => void) | null = null;
  let refuseWith: Error | null = null;
  /** Answer startRun before the normalisation is known (as the main side does the first time it meets a config). */
  let normaliseLater = false;
  let calls = { listRuns: 0, getRun: 0 };

  function finish(e: RunFinishedEvent): void {
    const info = infos.get(e.runId);
    if (info) Object.assign(info, { status: e.status, reason: e.reason, result: e.result });
    finishedListeners.forEach((l) => l(e));
  }

  const api = {
    listSolvers: async () => [],
    // No project open: what the views that offer "Save to project" read.
    getProject: async () => null,
    listProjectFiles: async () => [],
    onProjectChanged: () => () => {},
    onExperimentSession: () => () => {},
    ...extra,
    startRun: async (request: StartRunRequest): Promise<RunStarted> => {
      if (refuseWith) throw new ApiError(toWireError(refuseWith));
      let plan;
      let later: ReturnType<typeof diceHvNormalisation> | null = null;
      try {
        plan = await planRun(request);
        // The main side has a worker compute it (answering first when it is not known yet); this fake, here (same numbers).
        if (needsHvNormalisation(plan)) {
          const norm = diceHvNormalisation(plan.request.config);
          if (normaliseLater) later = norm;
          else plan = withHvNormalisation(plan, norm);
        }
      } catch (e) {
        throw new ApiError(toWireError(e));
      }
      const baseline = request.kind === 'nqueens' && request.purpose === 'baseline';
      const list = baseline ? baselines : requests;
      list.push(request);
      const runId = `${baseline ? 'baseline' : 'run'}-test-${list.length}`;
      const started = { ...plan.started, runId, createdAt: new Date(Date.UTC(2026, 11, 1, 0, 0, infos.size + 1)).toISOString() } as RunStarted;
      infos.set(runId, { runId, kind: plan.kind, started, status: 'queued', snapshot: null, result: null, reason: null, history: [] } as RunInfo);
      if (baseline) {
        const result = (plan as RunPlan<RunKindName>).report(executeRunSync(plan.request) as never);
        setTimeout(() => finish({ runId, kind: plan.kind, status: 'done', reason: null, result } as RunFinishedEvent), 0);
      } else beforeAnswer?.(runId);
      const answer = structuredClone(started);
      // As the RunService does once the worker has computed it: getRun and listRuns tell it from then on.
      if (later) infos.get(runId)!.started = { ...started, hvNormalisation: later } as RunStarted;
      return answer;
    },
    getRun: async (runId: string) => {
      calls.getRun++;
      const info = infos.get(runId);
      return info ? structuredClone(info) : null;
    },
    listRuns: async () => {
      calls.listRuns++;
      return [...infos.values()].reverse().map((i) => structuredClone(i));
    },
    cancelRun: async (runId: string) => (cancelled.push(runId), true),
    pauseRun: async (runId: string, paused: boolean) => (pauses.push([runId, paused]), true),
    onRunSnapshot: (l: (e: RunSnapshotEvent) => void) => (snapshotListeners.add(l), () => snapshotListeners.delete(l)),
    onRunFinished: (l: (e: RunFinishedEvent) => void) => (finishedListeners.add(l), () => finishedListeners.delete(l)),
    onReconnect: (l: () => void) => (reconnectListeners.add(l), () => reconnectListeners.delete(l)),
  } as unknown as SaikoroApi;

  return {
    api,
    requests,
    baselines,
    cancelled,
    pauses,
    infos,
    calls: () => calls,
    resetCalls: () => (calls = { listRuns: 0, getRun: 0 }),
    setBeforeAnswer: (f: typeof beforeAnswer) => (beforeAnswer = f),
    refuse: (e: Error | null) => (refuseWith = e),
    answerBeforeNormalisation: (on: boolean) => (normaliseLater = on),
    /** A snapshot as the main side sends it; the run's RunInfo follows. */
    snapshot(e: RunSnapshotEvent) {
      const info = infos.get(e.runId);
      if (info) {
        info.snapshot = e.snapshot as never;
        info.status = e.snapshot.paused ? 'paused' : 'running';
        appendPoint(info.history, progressPoint(info.started, e.snapshot));
      }
      snapshotListeners.forEach((l) => l(e));
    },
    finish,
    /** The event socket came back (after a drop): stores re-sync. */
    reconnect: () => reconnectListeners.forEach((l) => l()),
    listenerCount: () => snapshotListeners.size + finishedListeners.size,
  };
}
