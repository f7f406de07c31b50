/**
 * The one stopping policy of dice runs, for `saikoro solve`, the app's runs and experiments
 * alike: a run has an evaluation budget; a single-objective run also stops at its first
 * feasible solution with f <= target, where the target is 0 (a sequence that meets every band)
 * unless another is given, and there is none when the user asks for the whole budget. A
 * multi-objective run has no target (it has no single f to reach).
 */
import type { Termination } from '../core/termination.ts';

export interface Budget {
  /** Exact evaluation budget. */
  evaluations: number;
  /** Single objective: stop early at a feasible f <= target (default 0). */
  target?: number;
  /** Single objective: run the whole budget (no target). */
  wholeBudget?: boolean;
  /** Stop when nothing has improved for this many evaluations. */
  stallEvaluations?: number;
}

/** The target of a single-objective run unless one is given. */
export const DEFAULT_TARGET = 0;

/**
 * The budget as it applies to a problem with M objectives: the target filled in or dropped.
 * This is what determines a run's result, so experiments hash it into the run id; a budget
 * without a target is the same before and after this policy (whole-budget runs keep their ids).
 */
export function effectiveBudget(budget: Budget, objectiveCount: number): { evaluations: number; target?: number; stallEvaluations?: number } {
  const out: { evaluations: number; target?: number; stallEvaluations?: number } = { evaluations: budget.evaluations };
  if (objectiveCount === 1 && !budget.wholeBudget) out.target = budget.target ?? DEFAULT_TARGET;
  if (budget.stallEvaluations !== undefined) out.stallEvaluations = budget.stallEvaluations;
  return out;
}

/**
 * The termination of a run under the policy. A run timed instead of counted (benchmarks at
 * equal wall time) gives `seconds` and evaluations 0.
 */
export function stoppingPolicy(budget: Budget & { seconds?: number }, objectiveCount: number): Termination {
  const t = terminationOfBudget(effectiveBudget(budget, objectiveCount));
  if (budget.seconds === undefined) return t;
  if (!(budget.evaluations > 0)) delete t.maxEvaluations;
  t.maxSeconds = budget.seconds;
  return t;
}

/** A termination from an effective budget (as stored with a run). */
export function terminationOfBudget(budget: { evaluations: number; target?: number; stallEvaluations?: number }): Termination {
  const t: Termination = { maxEvaluations: budget.evaluations };
  if (budget.target !== undefined) t.target = budget.target;
  if (budget.stallEvaluations !== undefined) t.stallEvaluations = budget.stallEvaluations;
  return t;
}
