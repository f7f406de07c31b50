/**
 * "Run in a worker": an N-Queens run on the app's solver host (a worker process), started with
 * the API's startNqueensRun and followed through onNqueensRunSnapshot / onNqueensRunFinished.
 * The state lives in `useWorkerRun`; the wording and the progress measure are plain functions
 * here so that tests can check them without a DOM.
 */
import { onScopeDispose, ref, shallowRef } from 'vue';
import type { NqueensRunFinishedEvent, NqueensRunReport, NqueensRunSnapshotEvent, NqueensRunStarted, NqueensSnapshot, SaikoroApi, StartNqueensRunRequest } from '../../../src-shared/api.ts';
import { CELL } from './lab.ts';

export type WorkerPhase = 'idle' | 'starting' | 'running' | 'done' | 'failed' | 'cancelled';
export type WorkerMethod = StartNqueensRunRequest['method'];

/** Boards up to this N can be shown on the lab's board. */
export const SHOW_MAX_N = 64;
/** Queens listed under a result. */
export const LISTED_QUEENS = 16;

export const METHOD_TITLES: Record<WorkerMethod, string> = { minconflicts: 'min-conflicts', neural: 'the network' };

export const count = (x: number) => x.toLocaleString('en-US');

/**
 * How far a run has got, 0..1, and what that measures. The network: steps against its step
 * limit. Min-conflicts: the conflicts repaired since the first snapshot (it solves long before
 * its step limit of max(100000, 50 N), so a step bar would sit near zero); before that, its
 * greedy start, which places the N queens row by row (seconds at N = 10^7).
 */
export function progressOf(method: WorkerMethod, s: NqueensSnapshot, stepLimit: number, firstConflicts: number, n: number): { value: number; label: string } {
  if (method === 'neural') return { value: Math.min(1, s.steps / stepLimit), label: `${count(s.steps)} of ${count(stepLimit)} steps` };
  if (s.queens < n) return { value: s.queens / n, label: `greedy start: ${count(s.queens)} of ${count(n)} queens placed` };
  const value = s.conflicts === 0 ? 1 : firstConflicts > 0 ? Math.max(0, 1 - s.conflicts / firstConflicts) : 0;
  return { value, label: `${count(s.conflicts)} attacking pairs left${firstConflicts > 0 ? ` of ${count(firstConflicts)}` : ''}` };
}

/** One line for a finished run. */
export function outcomeText(status: Exclude<WorkerPhase, 'idle' | 'starting' | 'running'>, reason: string | null, r: NqueensRunReport | null): { tone: 'ok' | 'bad' | 'muted'; text: string } {
  if (!r) {
    if (status === 'failed') return { tone: 'bad', text: `The run failed: ${reason ?? 'no reason given'}.` };
    // "cancelled (worker did not stop within 2000 ms and was killed)" -> "Cancelled: worker did not ...".
    const why = reason?.replace(/^cancelled \((.*)\)$/s, '$1');
    return { tone: 'muted', text: why && why !== 'cancelled' ? `Cancelled: ${why}.` : 'Cancelled.' };
  }
  const time = `${r.seconds < 10 ? r.seconds.toFixed(2) : r.seconds.toFixed(1)} s`;
  const what = `N = ${count(r.n)} with ${METHOD_TITLES[r.method]} (seed ${r.seed})`;
  if (r.solved) return { tone: r.verified ? 'ok' : 'bad', text: `Solved ${what}: ${count(r.steps)} steps, ${time}, ${r.verified ? 'verified' : 'NOT verified'}.` };
  if (r.stopReason === 'cancelled') return { tone: 'muted', text: `Cancelled ${what} after ${count(r.steps)} steps, ${time}.` };
  return { tone: 'bad', text: `Not solved: ${what} stopped at the step limit after ${count(r.steps)} steps, ${time}${r.failure ? `; failure mode: ${r.failure}` : ''}.` };
}

/** The board cells of a queen list (CELL codes, row-major), for BoardCanvas. */
export function queensCells(queens: readonly number[]): Uint8Array {
  const n = queens.length;
  const cells = new Uint8Array(n * n);
  queens.forEach((c, r) => (cells[r * n + c] = CELL.queen));
  return cells;
}

/** One run at a time from the lab: start, pause, cancel, and its live snapshot and result. */
export function useWorkerRun(api: SaikoroApi) {
  const phase = ref<WorkerPhase>('idle');
  const started = shallowRef<NqueensRunStarted | null>(null);
  const snapshot = shallowRef<NqueensSnapshot | null>(null);
  /** Attacking pairs at the first snapshot: what min-conflicts' progress counts down from. */
  const firstConflicts = ref(0);
  const result = shallowRef<NqueensRunReport | null>(null);
  const reason = ref<string | null>(null);
  /** An error of the start call (a refused request names its field). */
  const error = ref<string | null>(null);
  // Events can overtake the answer to startNqueensRun (they travel on another connection).
  const early = new Map<string, { snapshot?: NqueensRunSnapshotEvent; finished?: NqueensRunFinishedEvent }>();

  const running = () => phase.value === 'starting' || phase.value === 'running';

  function applySnapshot(e: NqueensRunSnapshotEvent) {
    if (snapshot.value === null) firstConflicts.value = e.snapshot.conflicts;
    else firstConflicts.value = Math.max(firstConflicts.value, e.snapshot.conflicts);
    snapshot.value = e.snapshot;
  }
  function applyFinished(e: NqueensRunFinishedEvent) {
    phase.value = e.status;
    reason.value = e.reason;
    result.value = e.result;
  }

  async function start(request: StartNqueensRunRequest): Promise<void> {
    if (running()) return;
    phase.value = 'starting';
    started.value = null;
    snapshot.value = null;
    result.value = null;
    reason.value = null;
    error.value = null;
    firstConflicts.value = 0;
    early.clear();
    try {
      const s = await api.startNqueensRun(request);
      started.value = s;
      phase.value = 'running';
      const pending = early.get(s.runId);
      early.clear();
      if (pending?.snapshot) applySnapshot(pending.snapshot);
      if (pending?.finished) applyFinished(pending.finished);
    } catch (e) {
      phase.value = 'idle';
      error.value = (e as Error).message;
    }
  }

  async function cancel(): Promise<void> {
    if (started.value && phase.value === 'running') await api.cancelRun(started.value.runId);
  }
  async function togglePause(): Promise<void> {
    if (started.value && phase.value === 'running') await api.pauseRun(started.value.runId, !snapshot.value?.paused);
  }

  const offSnapshot = api.onNqueensRunSnapshot((e) => {
    if (e.runId === started.value?.runId) applySnapshot(e);
    else if (phase.value === 'starting') early.set(e.runId, { ...early.get(e.runId), snapshot: e });
  });
  const offFinished = api.onNqueensRunFinished((e) => {
    if (e.runId === started.value?.runId) applyFinished(e);
    else if (phase.value === 'starting') early.set(e.runId, { ...early.get(e.runId), finished: e });
  });
  onScopeDispose(() => {
    offSnapshot();
    offFinished();
    // A run left going when the lab goes away is of no use to anyone.
    void cancel();
  });

  return { phase, started, snapshot, firstConflicts, result, reason, error, start, cancel, togglePause };
}
