/**
 * Constraint handling, in one place: feasibility, total normalised violation, and the
 * feasibility-first order every solver and the driver use. A violation is normalised by the
 * problem's `constraintScales` (the dice problem's are in src-shared/problems/dice/problem.ts).
 */
import type { Evaluated } from './types.ts';
import type { Problem } from '../core/problem.ts';

/** Total normalised violation: sum over d of max(0, g_d) / s_d. */
export function totalViolation(G: ArrayLike<number>, scales: ArrayLike<number>): number {
  let v = 0;
  for (let l = 0; l < G.length; l++) if (G[l] > 0) v += G[l] / scales[l];
  return v;
}

export function isFeasible(violation: number): boolean {
  return violation <= 0;
}

/** Builds an Evaluated from an evaluation; the only place that decides feasibility. */
export function makeEvaluated(problem: Problem, x: Uint8Array, F: Float64Array, G: Float64Array): Evaluated {
  const violation = totalViolation(G, problem.constraintScales);
  return { x, F, G, violation, feasible: isFeasible(violation) };
}

/**
 * Feasibility-first comparison of two single-objective points given as (f, violation):
 * negative when a is better, positive when b is better, 0 when equal.
 *   - feasible beats infeasible;
 *   - two infeasible: the smaller total normalised violation wins;
 *   - two feasible: the smaller f wins.
 */
export function compareScalar(fa: number, va: number, fb: number, vb: number): number {
  const aFeasible = va <= 0;
  const bFeasible = vb <= 0;
  if (aFeasible && bFeasible) return fa - fb;
  if (aFeasible) return -1;
  if (bFeasible) return 1;
  return va - vb;
}

/** compareScalar on the first objective of two evaluated points. */
export function compareEvaluated(a: Evaluated, b: Evaluated): number {
  return compareScalar(a.F[0], a.violation, b.F[0], b.violation);
}

/** Static penalty fitness f + weight * violation (the textbook GA's constraint handling). */
export function penalised(f: number, violation: number, weight: number): number {
  return f + weight * violation;
}
