/** How the project home writes sizes, times, progress and results. Pure, for tests. */
import type { ExperimentRunRow, ExperimentSession, ExperimentSpec, RunCounts } from '../../../src-shared/api.ts';
import { formatIndicator, formatNumber } from '../../logic/dice/labels.ts';
import { sessionLabel } from '../../logic/monitor/session-words.ts';

export function formatBytes(bytes: number | null): string {
  if (bytes === null) return '';
  if (bytes < 1024) return `${bytes} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let v = bytes / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v >= 100 ? Math.round(v) : Number(v.toPrecision(2))} ${units[u]}`;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** "14:02" today, "3 May 14:02" this year, "3 May 2024" before; '' for no date. */
export function formatWhen(iso: string | null, now: Date = new Date()): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const time = `${pad(d.getHours())}:${pad(d.getMinutes())}`;
  const month = d.toLocaleString('en-GB', { month: 'short' });
  if (d.toDateString() === now.toDateString()) return `today ${time}`;
  if (d.getFullYear() === now.getFullYear()) return `${d.getDate()} ${month} ${time}`;
  return `${d.getDate()} ${month} ${d.getFullYear()}`;
}

/** "850 ms", "12.3 s", "4 min 05 s", "2 h 03 min". */
export function formatDuration(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms)) return '';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s < 10 ? s.toFixed(1) : Math.round(s)} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${pad(Math.round(s - m * 60) % 60)} s`;
  return `${Math.floor(m / 60)} h ${pad(m % 60)} min`;
}

/** The parts of a progress bar, as fractions of the grid: done, failed, running; the rest is missing. */
export function progressParts(counts: RunCounts): { done: number; failed: number; running: number } {
  const total = Math.max(1, counts.total);
  return { done: counts.done / total, failed: counts.failed / total, running: counts.running / total };
}

/** "12 of 30 done · 1 failed · 15 missing · 2 running" (zero counts left out, except done). */
export function countsText(counts: RunCounts): string {
  const parts = [`${formatNumber(counts.done)} of ${formatNumber(counts.total)} done`];
  if (counts.failed) parts.push(`${formatNumber(counts.failed)} failed`);
  if (counts.missing) parts.push(`${formatNumber(counts.missing)} missing`);
  if (counts.running) parts.push(`${formatNumber(counts.running)} running`);
  return parts.join(' · ');
}

/** Runs a session would do now: the missing and the failed. */
export const runsToDo = (counts: RunCounts) => counts.missing + counts.failed;

export function isActive(session: ExperimentSession | null): boolean {
  return session !== null && (session.status === 'queued' || session.status === 'running' || session.status === 'stopping');
}

/** A session in a line: "running · 4 of 10 · 46 % · about 1 min 20 s left". */
export function sessionText(s: ExperimentSession): string {
  const parts: string[] = [s.status === 'queued' ? 'queued' : sessionLabel(s)];
  parts.push(`${formatNumber(s.finished)} of ${formatNumber(s.todo)} run${s.todo === 1 ? '' : 's'}`);
  // A session that ended says its failed runs in its label ("ended · 2 failed"): once.
  if (s.failed && s.status !== 'done') parts.push(`${formatNumber(s.failed)} failed`);
  if (isActive(s)) {
    parts.push(`${Math.floor(s.progress * 100)} %`);
    if (s.etaMs !== null) parts.push(`about ${formatDuration(s.etaMs)} left`);
  }
  if (s.error) parts.push(s.error);
  return parts.join(' · ');
}

/** "2 instances × 3 solvers × 10 seeds · 20,000 evaluations". */
export function specShape(spec: ExperimentSpec): string {
  const seeds = Array.isArray(spec.seeds) ? spec.seeds.length : spec.seeds.count;
  const plural = (n: number, one: string) => `${formatNumber(n)} ${one}${n === 1 ? '' : 's'}`;
  return `${plural(spec.instances.length, 'instance')} × ${plural(spec.solvers.length, 'solver')} × ${plural(seeds, 'seed')} · ${formatNumber(spec.budget.evaluations)} evaluations`;
}

export interface RecentResult extends ExperimentRunRow {
  experiment: string;
}

/** The latest finished runs (done or failed) of all experiments, newest first. */
export function latestFinished(rowsByExperiment: ReadonlyMap<string, readonly ExperimentRunRow[]>, limit: number): RecentResult[] {
  const all: RecentResult[] = [];
  for (const [experiment, rows] of rowsByExperiment)
    for (const r of rows) if ((r.status === 'done' || r.status === 'failed') && r.finishedAt) all.push({ ...r, experiment });
  return all.sort((a, b) => b.finishedAt!.localeCompare(a.finishedAt!) || a.id.localeCompare(b.id)).slice(0, limit);
}

/** What a finished run found: "f = 3.2 (feasible)", "HV 0.8123 · 14 on the front" (as the run monitor says it), or why it failed. */
export function resultText(r: ExperimentRunRow): string {
  if (r.status === 'failed') return `failed: ${r.error ?? 'no reason given'}`;
  if (r.hv !== null || r.frontSize !== null) {
    const front = r.frontSize === null ? '' : `${formatNumber(r.frontSize)} on the front`;
    return r.hv === null ? front : `HV ${formatIndicator(r.hv)}${front ? ` · ${front}` : ''}`;
  }
  if (r.best !== null) return `f = ${formatNumber(r.best)}`;
  return r.feasible === false ? 'no feasible solution' : '';
}
