/**
 * A run's progress as points for a convergence chart, derived once from snapshots (live) and
 * from a dice result's trace (at the end). The main side keeps a thinned history of these per
 * run, so a page that reloads mid-run redraws the whole line. Each kind says which of these
 * it uses (RunKind.progressPoint / finalPoints, src-shared/runtime/kinds/).
 *
 *   dice, one objective : value = best feasible f, secondary = the violation while infeasible
 *   dice, M objectives  : value = the front's indicator (normalised hypervolume; M <= 3 live),
 *                         secondary = the feasible front's size
 *   N-Queens            : value = attacking pairs, secondary = queens placed
 *   N-Queens sweep      : work = runs finished, value = runs solved (kinds/nqueens-sweep.ts)
 */
import type { Snapshot, SolverResult } from '../solvers/types.ts';
import type { NqueensSnapshot } from './kinds/nqueens.ts';

export interface ProgressPoint {
  /** Work so far: evaluations (dice) or steps (N-Queens). */
  evaluations: number;
  value: number | null;
  secondary: number | null;
}

/** A dice snapshot as a point (see the header). */
export function snapshotPoint(s: Snapshot, objectiveCount: number): ProgressPoint {
  if (objectiveCount === 1) {
    const best = s.best;
    return { evaluations: s.evaluations, value: best && best.feasible ? best.objectives[0] : null, secondary: best && !best.feasible ? best.violation : null };
  }
  return { evaluations: s.evaluations, value: s.front.length ? s.indicator : null, secondary: s.front.length };
}

/** The final trace of a dice result as points (MO: the indicator where it was recorded). */
export function tracePoints(result: SolverResult): ProgressPoint[] {
  return result.trace.map((t) =>
    result.objectiveCount === 1
      ? { evaluations: t.evaluations, value: t.feasible ? t.best : null, secondary: t.feasible ? null : t.violation }
      : { evaluations: t.evaluations, value: t.indicator, secondary: t.frontSize },
  );
}

export function nqueensPoint(s: NqueensSnapshot): ProgressPoint {
  return { evaluations: s.steps, value: s.conflicts, secondary: s.queens };
}

/** Points kept per run; beyond, every other point is dropped (the first and the newest stay). */
export const HISTORY_LIMIT = 512;

/** Appends a point to a history, thinning it in place when it reaches twice the limit. */
export function appendPoint(history: ProgressPoint[], point: ProgressPoint, limit = HISTORY_LIMIT): void {
  history.push(point);
  if (history.length < 2 * limit) return;
  let w = 1;
  for (let r = 2; r < history.length - 1; r += 2) history[w++] = history[r];
  history[w++] = history[history.length - 1];
  history.length = w;
}
