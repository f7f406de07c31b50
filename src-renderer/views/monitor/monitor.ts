/**
 * The run monitor's data, as pure functions the tests import: an experiment's grid runs as the
 * file lists them (listExperimentRuns), with the app's live runs laid over the ones in flight,
 * and how sessions, times and results read.
 */
import type { ExperimentRunRow, ExperimentSession, Snapshot } from '../../../src-shared/api.ts';
import type { LiveRun } from '../../stores/runs.ts';
import { formatIndicator, formatNumber } from '../../logic/dice/labels.ts';
import { allPaused } from '../../logic/monitor/session-words.ts';

export { allPaused, ordinal, sessionLabel, wholePercent } from '../../logic/monitor/session-words.ts';

export type RowState = 'done' | 'failed' | 'missing' | 'queued' | 'running' | 'paused';

export interface MonitorRow {
  /** The content-hash run id (docs/projects.md). */
  id: string;
  instance: string;
  label: string;
  seed: number;
  state: RowState;
  /** The API run id while it goes (pause, resume, cancel). */
  runId: string | null;
  /** 0..1 while it goes. */
  progress: number | null;
  evaluations: number | null;
  /** Running time so far, or of the stored run. */
  seconds: number | null;
  /** What a done run found (best f, or HV and front size); why a failed run failed. */
  result: string | null;
  error: string | null;
  /** When the file's run (done or failed) finished, ISO 8601. */
  finishedAt: string | null;
}

const UNFINISHED = new Set(['queued', 'running', 'paused']);

/**
 * The app runs of an experiment, by content id: the newest of each grid run (a retry is a new
 * run). Those still going, and those of the experiment's session (begun at `sessionStart`) that
 * have ended, since the file may not say yet how they ended; runs of an earlier session, or of
 * another project's experiment of the same name, are the file's to tell.
 */
export function liveRunsOf(experiment: string, runs: Iterable<LiveRun>, sessionStart: string | null = null): Map<string, LiveRun> {
  const out = new Map<string, LiveRun>();
  for (const run of runs) {
    if (run.kind !== 'dice') continue;
    const tag = run.started.experiment;
    if (!tag || tag.name !== experiment) continue;
    if (!UNFINISHED.has(run.status) && (sessionStart === null || run.started.createdAt < sessionStart)) continue;
    const seen = out.get(tag.id);
    if (!seen || newer(run, seen)) out.set(tag.id, run);
  }
  return out;
}

function newer(a: LiveRun, b: LiveRun): boolean {
  if (a.started.createdAt !== b.started.createdAt) return a.started.createdAt > b.started.createdAt;
  return UNFINISHED.has(a.status) && !UNFINISHED.has(b.status);
}

/**
 * Whether the file's row tells more than the app's run of it: the file has stored how the run
 * ended (done or failed after the run began). Otherwise the row was read while the run went
 * (or before it began), and the app's run is the later word.
 */
function fileKnowsEnd(row: ExperimentRunRow, run: LiveRun): boolean {
  return (row.status === 'done' || row.status === 'failed') && row.finishedAt !== null && row.finishedAt >= run.started.createdAt;
}

/** A done run's result in a few words: f for one objective, HV and front size for several. */
export function resultText(row: ExperimentRunRow): string | null {
  if (row.status !== 'done') return null;
  if (row.hv !== null || row.frontSize !== null) return `HV ${formatIndicator(row.hv)} · ${row.frontSize ?? 0} on the front`;
  if (row.best !== null) return `f = ${formatNumber(row.best)}`;
  return row.feasible === false ? 'no feasible solution' : null;
}

/**
 * The rows of the monitor: every grid run in grid order, as the file says, except the ones the
 * app runs now, which show their live state (a run being retried shows as running, not failed).
 * A missing run the experiment's session going now will still start is "queued" (the session
 * takes every run missing when it began, in order; one it has started and that was cancelled is
 * missing again, and so is every run it has not started once it is stopping).
 */
export function monitorRows(rows: readonly ExperimentRunRow[], live: ReadonlyMap<string, LiveRun>, session: ExperimentSession | null = null): MonitorRow[] {
  const waiting = session !== null && (session.status === 'queued' || session.status === 'running');
  return rows.map((row) => {
    const run = live.get(row.id);
    if (run && UNFINISHED.has(run.status)) {
      const snapshot = run.snapshot as Snapshot | null;
      return {
        id: row.id,
        instance: row.instance,
        label: row.label,
        seed: row.seed,
        state: run.status as RowState,
        runId: run.runId,
        progress: snapshot?.progress ?? 0,
        evaluations: snapshot?.evaluations ?? null,
        seconds: snapshot?.seconds ?? null,
        result: null,
        error: null,
        finishedAt: null,
      };
    }
    if (run && !fileKnowsEnd(row, run)) return endedRow(row, run);
    // Listed as running but not live here (the app has not heard of it yet): in flight, progress unknown.
    const state: RowState = row.status === 'running' ? 'running' : row.status === 'missing' && waiting && !run ? 'queued' : row.status;
    return {
      id: row.id,
      instance: row.instance,
      label: row.label,
      seed: row.seed,
      state,
      runId: row.runId,
      progress: state === 'running' ? 0 : null,
      evaluations: row.evaluations,
      seconds: row.elapsedMs === null ? null : row.elapsedMs / 1000,
      result: resultText(row),
      error: row.status === 'failed' ? (row.error ?? 'failed (no reason stored)') : null,
      finishedAt: row.finishedAt,
    };
  });
}

/**
 * A grid run the app saw end before the file was read again: done or failed as it ended; a
 * cancelled run is not stored, so it is what the file had before (failed with its reason, or
 * missing). A done run's result line waits for the file (its indicators are computed there).
 */
function endedRow(row: ExperimentRunRow, run: LiveRun): MonitorRow {
  const snapshot = run.snapshot as Snapshot | null;
  const result = run.result as { evaluations?: number; seconds?: number } | null;
  const base = { id: row.id, instance: row.instance, label: row.label, seed: row.seed, runId: null, progress: null, result: null, finishedAt: null };
  if (run.status === 'cancelled') {
    const failedBefore = row.finishedAt !== null && row.status !== 'done';
    return failedBefore
      ? {
          ...base,
          state: 'failed',
          evaluations: row.evaluations,
          seconds: row.elapsedMs === null ? null : row.elapsedMs / 1000,
          error: row.error ?? 'failed (no reason stored)',
          finishedAt: row.finishedAt,
        }
      : { ...base, state: 'missing', evaluations: null, seconds: null, error: null };
  }
  const evaluations = result?.evaluations ?? snapshot?.evaluations ?? null;
  const seconds = result?.seconds ?? snapshot?.seconds ?? null;
  if (run.status === 'done') return { ...base, state: 'done', evaluations, seconds, error: null };
  return { ...base, state: 'failed', evaluations, seconds, error: run.reason ?? 'failed (no reason given)', finishedAt: run.started.createdAt };
}

export const STATE_ORDER: readonly RowState[] = ['running', 'paused', 'queued', 'failed', 'missing', 'done'];
export const STATE_LABELS: Record<RowState, string> = {
  running: 'running',
  paused: 'paused',
  queued: 'queued',
  failed: 'failed',
  missing: 'missing',
  done: 'done',
};

export function countStates(rows: readonly MonitorRow[]): Record<RowState, number> {
  const counts: Record<RowState, number> = { running: 0, paused: 0, queued: 0, failed: 0, missing: 0, done: 0 };
  for (const r of rows) counts[r.state]++;
  return counts;
}

/** The distinct reasons of the failed rows, most frequent first. */
export function failureReasons(rows: readonly MonitorRow[]): { reason: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const r of rows) if (r.state === 'failed') counts.set(r.error!, (counts.get(r.error!) ?? 0) + 1);
  return [...counts].map(([reason, count]) => ({ reason, count })).sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason));
}

/**
 * Whether a session that is going will run this failed row again: it takes the runs that were
 * missing or failed when it began, so a run that failed before it started.
 */
export function retriedBy(row: MonitorRow, session: ExperimentSession | null): boolean {
  return row.state === 'failed' && session !== null && isActive(session) && row.finishedAt !== null && row.finishedAt < session.startedAt;
}

/** 860 -> "0.9 s", 75_000 -> "1 min 15 s", 7_500_000 -> "2 h 5 min". */
export function formatDuration(ms: number): string {
  if (ms < 0 || !Number.isFinite(ms)) return '–';
  if (ms < 9_950) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${s % 60} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

export function isActive(s: ExperimentSession): boolean {
  return s.status === 'queued' || s.status === 'running' || s.status === 'stopping';
}

/**
 * The tone of a session's status badge (the theme's .badge classes): a failure shows even while
 * it runs; green only for a session whose runs are all done; one that ended with runs not run,
 * or waits, is grey.
 */
export function sessionTone(s: ExperimentSession): 'ok' | 'bad' | 'queued' | 'running' {
  if (s.status === 'failed' || s.failed > 0) return 'bad';
  if (s.status === 'done') return s.finished < s.todo ? 'queued' : 'ok';
  return s.status === 'queued' ? 'queued' : 'running';
}

/** "12 of 30 runs · 1 failed" (finished counts done and failed runs). */
export function sessionCounts(s: ExperimentSession): string {
  return `${s.finished} of ${s.todo} run${s.todo === 1 ? '' : 's'}${s.failed ? ` · ${s.failed} failed` : ''}`;
}

/**
 * What the session's time left reads: its ETA counted down from when the main side sent it
 * (`etaAt`, ms since the epoch) to `now`; while every run in flight is paused it stands still
 * (the main side's estimate leaves paused time out, and sends the pause at once).
 */
export function etaText(s: ExperimentSession, etaAt: number, now: number): string {
  if (s.status === 'queued') return 'waiting for the session before it';
  if (s.status === 'stopping') return 'stopping: cancelling the runs in flight';
  if (!isActive(s)) return sessionEnd(s);
  if (allPaused(s)) return s.etaMs === null ? 'paused: nothing moves until a run is resumed' : `paused: about ${formatTimeLeft(s.etaMs)} left once resumed`;
  if (s.etaMs === null) return 'time left: known once a run has moved';
  const left = s.etaMs - Math.max(0, now - etaAt);
  // Counted past the estimate (the main side re-estimates as the runs move; none came yet).
  if (left < 1000) return 'finishing the runs in flight';
  return `about ${formatTimeLeft(left)} left`;
}

/** A time left in whole seconds, rounded up (an estimate has no tenths): 2_100 -> "3 s". */
export function formatTimeLeft(ms: number): string {
  return formatDuration(ms < 59_500 ? Math.ceil(ms / 1000) * 1000 : ms).replace(/\.0 s$/, ' s');
}

/** How an ended session ended, in words. */
export function sessionEnd(s: ExperimentSession): string {
  const left = s.todo - s.finished;
  switch (s.status) {
    case 'done':
      return left > 0 ? `ended with ${left} run${left === 1 ? '' : 's'} not run (cancelled)` : s.failed ? `finished; ${s.failed} failed` : 'finished';
    case 'cancelled':
      return `cancelled${left > 0 ? `; ${left} run${left === 1 ? '' : 's'} not run` : ''}`;
    case 'failed':
      return `failed: ${s.error ?? 'no reason given'}`;
    default:
      return s.status;
  }
}
