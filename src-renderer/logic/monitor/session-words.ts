/**
 * How an experiment session reads in a word or two, for the run monitor's badge and the project
 * home's experiment list alike; and its progress in whole percent (the progress bars).
 */
import type { ExperimentSession } from '../../../src-shared/api.ts';

/** Whether every run in flight of a session is paused (then nothing moves, and the time left waits). */
export function allPaused(s: ExperimentSession): boolean {
  return s.status === 'running' && s.paused > 0 && s.paused >= s.running.length;
}

/**
 * A session's status in a word or two: "done" only when every run it had to do is done; a
 * session that ended with runs failed or not run (cancelled one by one) says so.
 */
export function sessionLabel(s: ExperimentSession, queuePlace = 1): string {
  if (s.status === 'queued') return `queued · ${ordinal(queuePlace)} in line`;
  if (allPaused(s)) return 'paused';
  if (s.status !== 'done') return s.status;
  const notRun = s.todo - s.finished;
  if (!s.failed && notRun <= 0) return 'done';
  return `ended · ${[s.failed ? `${s.failed} failed` : '', notRun > 0 ? `${notRun} not run` : ''].filter(Boolean).join(', ')}`;
}

/** "2nd", "3rd", ... for the place of a queued session. */
export function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

/**
 * A progress (0..1) in whole percent, rounded down: 99.6% is not "100%", which a session says
 * only once every run has ended (its progress stays below 1 while one is in flight,
 * PROGRESS_WHILE_IN_FLIGHT in src-main/experiments/runner.ts). The epsilon keeps 0.29 at 29.
 */
export function wholePercent(progress: number): number {
  return Math.max(0, Math.min(100, Math.floor(progress * 100 + 1e-9)));
}
