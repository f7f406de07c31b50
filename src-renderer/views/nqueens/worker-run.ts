/**
 * "Run in a worker": an N-Queens run on the app's solver host (a worker process), started and
 * followed through the runs store (the API's startRun with kind "nqueens", its snapshots and
 * its end), like every other run; it outlives the page. `useWorkerRun` picks the card's run;
 * the wording and the progress measure are plain functions here so that tests can check them
 * without a DOM.
 */
import { computed, ref } from 'vue';
import type { NqueensRunReport, NqueensRunStarted, NqueensSnapshot, StartNqueensRun } from '../../../src-shared/api.ts';
import { useRunsStore, type LiveRun } from '../../stores/runs.ts';
import { CELL } from './lab.ts';

export type WorkerPhase = 'idle' | 'starting' | 'running' | 'done' | 'failed' | 'cancelled';
/** A request from the card: StartNqueensRun without its kind. */
export type WorkerRequest = Omit<StartNqueensRun, 'kind'>;
export type WorkerMethod = WorkerRequest['method'];

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
export function outcomeText(
  status: Exclude<WorkerPhase, 'idle' | 'starting' | 'running'>,
  reason: string | null,
  r: NqueensRunReport | null,
): { tone: 'ok' | 'bad' | 'muted'; text: string } {
  if (!r) {
    if (status === 'failed') return { tone: 'bad', text: `The run failed: ${reason ?? 'no reason given'}.` };
    // "cancelled (worker did not stop within 2000 ms and was killed)" -> "Cancelled: worker did not ...".
    const why = reason?.replace(/^cancelled \((.*)\)$/s, '$1');
    return { tone: 'muted', text: why && why !== 'cancelled' ? `Cancelled: ${why}.` : 'Cancelled.' };
  }
  const time = `${r.seconds < 10 ? r.seconds.toFixed(2) : r.seconds.toFixed(1)} s`;
  const what = `N = ${count(r.n)} with ${METHOD_TITLES[r.method]} (seed ${r.seed})`;
  if (r.solved)
    return { tone: r.verified ? 'ok' : 'bad', text: `Solved ${what}: ${count(r.steps)} steps, ${time}, ${r.verified ? 'verified' : 'NOT verified'}.` };
  if (r.stopReason === 'cancelled') return { tone: 'muted', text: `Cancelled ${what} after ${count(r.steps)} steps, ${time}.` };
  return {
    tone: 'bad',
    text: `Not solved: ${what} stopped at the step limit after ${count(r.steps)} steps, ${time}${r.failure ? `; failure mode: ${r.failure}` : ''}.`,
  };
}

/** The board cells of a queen list (CELL codes, row-major), for BoardCanvas. */
export function queensCells(queens: readonly number[]): Uint8Array {
  const n = queens.length;
  const cells = new Uint8Array(n * n);
  queens.forEach((c, r) => (cells[r * n + c] = CELL.queen));
  return cells;
}

/** A run the lab started for its baseline line (useBaseline), not one of the card's. */
const isBaseline = (r: LiveRun) => r.started.kind === 'nqueens' && r.started.purpose === 'baseline';

/**
 * The card's run: the one it started last or, after a reload, the newest N-Queens run the main
 * side still has (not a baseline). Start, pause, cancel, and its live snapshot and result.
 */
export function useWorkerRun() {
  const runs = useRunsStore();
  /** An id, null (nothing shown, e.g. after a refused start), or undefined (the newest N-Queens run). */
  const selected = ref<string | null | undefined>(undefined);
  const starting = ref(false);
  /** An error of the start call (a refused request names its field). */
  const error = ref<string | null>(null);

  const current = computed(() => (selected.value === undefined ? (runs.ofKind('nqueens').find((r) => !isBaseline(r)) ?? null) : runs.get(selected.value)));
  const phase = computed<WorkerPhase>(() => {
    if (starting.value) return 'starting';
    const status = current.value?.status;
    if (!status) return 'idle';
    return status === 'queued' || status === 'paused' ? 'running' : status;
  });
  const started = computed(() => (current.value?.started ?? null) as NqueensRunStarted | null);
  const snapshot = computed(() => (current.value?.snapshot ?? null) as NqueensSnapshot | null);
  const result = computed(() => (current.value?.result ?? null) as NqueensRunReport | null);
  const reason = computed(() => current.value?.reason ?? null);
  /** Attacking pairs at their highest so far: what min-conflicts' progress counts down from. */
  const firstConflicts = computed(() => (current.value?.points ?? []).reduce((m, p) => Math.max(m, p.value ?? 0), snapshot.value?.conflicts ?? 0));

  async function start(request: WorkerRequest): Promise<void> {
    if (phase.value === 'starting' || phase.value === 'running') return;
    starting.value = true;
    error.value = null;
    try {
      const s = await runs.start({ kind: 'nqueens', ...request });
      selected.value = s.runId;
    } catch (e) {
      selected.value = null;
      error.value = (e as Error).message;
    } finally {
      starting.value = false;
    }
  }

  async function cancel(): Promise<void> {
    if (current.value && phase.value === 'running') await runs.cancel(current.value.runId);
  }
  async function togglePause(): Promise<void> {
    if (current.value && phase.value === 'running') await runs.pause(current.value.runId, current.value.status !== 'paused');
  }

  const runId = computed(() => current.value?.runId ?? null);
  return { phase, runId, started, snapshot, firstConflicts, result, reason, error, start, cancel, togglePause };
}
