/**
 * Every run of this app instance, of every kind, as the renderer knows it: started here, in
 * another tab, or before a reload. The one place that talks to the run API (startRun,
 * listRuns, getRun, pauseRun, cancelRun, onRunSnapshot, onRunFinished); the Solve view and the
 * N-Queens lab's worker card both read their runs from here.
 *
 * - Events for a run this store does not know yet are kept: either startRun has not answered
 *   (events travel on another connection and can overtake it), or the run was started
 *   elsewhere, which getRun then fills in.
 * - On creation and whenever the event socket reconnects, listRuns() re-syncs every run, so a
 *   reloaded page shows the runs still going, with pause and cancel.
 * - Runs are replaced, never mutated, and kept out of deep reactivity (markRaw).
 */
import { defineStore } from 'pinia';
import { markRaw, onScopeDispose, shallowRef } from 'vue';
import type { Disposer, RunFinishedEvent, RunInfo, RunSnapshotEvent, RunStarted, SaikoroApi, StartRunRequest } from '../../src-shared/api.ts';
import { finalPoints, progressPoint, type RunKindName } from '../../src-shared/runtime/kinds/index.ts';
import { appendPoint, type ProgressPoint } from '../../src-shared/runtime/progress.ts';
import { useApi } from '../api/index.ts';

export type { ProgressPoint };
/** A convergence point (evaluations, value, secondary); see src-shared/runtime/progress.ts. */
export type ConvergencePoint = ProgressPoint;

/** A run as the renderer shows it: what the API says of it, and its progress points. */
export type LiveRun = RunInfo & { points: readonly ProgressPoint[] };

/** What a client may add to the API: a signal that the event connection came back. */
type ReconnectingApi = SaikoroApi & { onReconnect?(listener: () => void): Disposer };

function isFinished(status: RunInfo['status']): boolean {
  return status === 'done' || status === 'failed' || status === 'cancelled';
}

/**
 * Whether the main side's answer `info` is older than what this store already has: listRuns is
 * answered when it was asked, and snapshots sent after it can arrive before its answer. A
 * run's snapshots only move forward (running seconds, then progress), so the one further on is
 * newer; on a tie the main side's answer wins (a pause it has seen).
 */
export function isOlder(info: RunInfo, local: LiveRun): boolean {
  if (isFinished(info.status)) return false;
  const mine = local.snapshot;
  if (!mine) return false;
  const theirs = info.snapshot;
  if (!theirs) return true;
  return theirs.seconds < mine.seconds || (theirs.seconds === mine.seconds && theirs.progress < mine.progress);
}

/** A LiveRun from the API's RunInfo: the history so far, or the final trace of a finished dice run. */
export function liveFromInfo(info: RunInfo): LiveRun {
  const points = finalPoints(info.kind, info.result) ?? info.history;
  return markRaw({ ...info, points: markRaw([...points]) }) as LiveRun;
}

export function withSnapshot(run: LiveRun, e: RunSnapshotEvent): LiveRun {
  if (isFinished(run.status)) return run;
  const points = [...run.points];
  appendPoint(points, progressPoint(run.started, e.snapshot));
  const status = e.snapshot.paused ? 'paused' : 'running';
  return markRaw({ ...run, snapshot: e.snapshot, status, points: markRaw(points) }) as LiveRun;
}

export function withFinished(run: LiveRun, e: RunFinishedEvent): LiveRun {
  const points = finalPoints(e.kind, e.result) ?? run.points;
  return markRaw({ ...run, status: e.status, reason: e.reason, result: e.result, points: markRaw([...points]) }) as LiveRun;
}

/** A multi-objective dice run whose normalisation the answer to startRun could not give yet. */
export function awaitsNormalisation(run: Pick<RunInfo, 'started'>): boolean {
  const s = run.started;
  return s.kind === 'dice' && s.objectiveCount >= 2 && s.hvNormalisation === null;
}

export function liveFromStarted(started: RunStarted): LiveRun {
  return markRaw({
    runId: started.runId,
    kind: started.kind,
    started,
    status: 'queued',
    snapshot: null,
    result: null,
    reason: null,
    history: [],
    points: markRaw([]),
  }) as LiveRun;
}

export const useRunsStore = defineStore('runs', () => {
  const api = useApi() as ReconnectingApi;
  const runs = shallowRef<ReadonlyMap<string, LiveRun>>(new Map());
  /** Events for runs not known yet, kept until startRun answers or getRun fills the run in. */
  const early = new Map<string, { snapshot?: RunSnapshotEvent; finished?: RunFinishedEvent }>();
  let startsInFlight = 0;
  const fetching = new Set<string>();
  /** The last error of listRuns / getRun (shown by views that care). */
  const syncError = shallowRef<string | null>(null);

  function put(run: LiveRun): void {
    const next = new Map(runs.value);
    next.set(run.runId, run);
    runs.value = next;
  }

  /** Applies the kept events of a run that has just become known. */
  function adopt(run: LiveRun): LiveRun {
    const kept = early.get(run.runId);
    early.delete(run.runId);
    let r = run;
    if (kept?.snapshot && (!r.snapshot || kept.snapshot.snapshot.seconds > r.snapshot.seconds)) r = withSnapshot(r, kept.snapshot);
    if (kept?.finished && !isFinished(r.status)) r = withFinished(r, kept.finished);
    return r;
  }

  async function fetchUnknown(runId: string): Promise<void> {
    if (fetching.has(runId) || startsInFlight > 0) return;
    fetching.add(runId);
    try {
      const info = await api.getRun(runId);
      if (info && !runs.value.has(runId)) put(adopt(liveFromInfo(info)));
    } catch (e) {
      syncError.value = `could not load run ${runId}: ${(e as Error).message}`;
    } finally {
      fetching.delete(runId);
    }
  }

  /**
   * A multi-objective run answered by startRun before its normalisation was computed (the main
   * side computes it in a worker, then starts the run): at its first snapshot the normalisation
   * is known, and getRun tells it.
   */
  async function refreshStarted(runId: string): Promise<void> {
    if (fetching.has(runId)) return;
    fetching.add(runId);
    try {
      const info = await api.getRun(runId);
      const run = runs.value.get(runId);
      if (info && run && awaitsNormalisation(run) && !awaitsNormalisation(info)) put(markRaw({ ...run, started: info.started }) as LiveRun);
    } catch (e) {
      syncError.value = `could not load run ${runId}: ${(e as Error).message}`;
    } finally {
      fetching.delete(runId);
    }
  }

  /** Makes sure a run is known (the monitor asks for the runs the file lists as in flight). */
  function track(runId: string): void {
    if (!runs.value.has(runId)) void fetchUnknown(runId);
  }

  function keep(runId: string, event: { snapshot?: RunSnapshotEvent; finished?: RunFinishedEvent }): void {
    early.set(runId, { ...early.get(runId), ...event });
    void fetchUnknown(runId);
  }

  /** Re-reads every run from the main side (after a reload or a reconnect of the event socket). */
  async function sync(): Promise<void> {
    try {
      const list = await api.listRuns();
      const next = new Map(runs.value);
      for (const info of list) {
        const local = next.get(info.runId);
        // A finished run is final; an answer older than the events seen since is stale.
        if (local && (isFinished(local.status) || isOlder(info, local))) continue;
        next.set(info.runId, adopt(liveFromInfo(info)));
      }
      runs.value = next;
      syncError.value = null;
    } catch (e) {
      syncError.value = `could not list the runs: ${(e as Error).message}`;
    }
  }

  /** Starts a run; answers what runs (errors name the field) and knows it from then on. */
  async function start(request: StartRunRequest): Promise<RunStarted> {
    startsInFlight++;
    try {
      const started = await api.startRun(request);
      if (!runs.value.has(started.runId)) put(adopt(liveFromStarted(started)));
      return started;
    } finally {
      startsInFlight--;
      // Events for other unknown runs that arrived meanwhile.
      for (const runId of early.keys()) void fetchUnknown(runId);
    }
  }

  async function pause(runId: string, paused: boolean): Promise<boolean> {
    return api.pauseRun(runId, paused);
  }

  async function cancel(runId: string): Promise<boolean> {
    return api.cancelRun(runId);
  }

  function get(runId: string | null | undefined): LiveRun | null {
    return (runId && runs.value.get(runId)) || null;
  }

  /** Runs of a kind, unfinished first, then newest first. */
  function ofKind(kind: RunKindName): LiveRun[] {
    const list = [...runs.value.values()].filter((r) => r.kind === kind);
    return list.sort((a, b) => Number(isFinished(a.status)) - Number(isFinished(b.status)) || b.started.createdAt.localeCompare(a.started.createdAt));
  }

  const disposers: Disposer[] = [
    api.onRunSnapshot((e) => {
      const run = runs.value.get(e.runId);
      if (run) {
        put(withSnapshot(run, e));
        if (awaitsNormalisation(run)) void refreshStarted(run.runId);
      } else keep(e.runId, { snapshot: e });
    }),
    api.onRunFinished((e) => {
      const run = runs.value.get(e.runId);
      if (run) put(withFinished(run, e));
      else keep(e.runId, { finished: e });
    }),
  ];
  if (api.onReconnect) disposers.push(api.onReconnect(() => void sync()));
  onScopeDispose(() => disposers.forEach((d) => d()));
  void sync();

  return { runs, syncError, start, sync, track, pause, cancel, get, ofKind };
});
