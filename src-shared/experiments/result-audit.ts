/**
 * Does a stored result agree with itself? What a run claims (its best solution, its front, its
 * evaluation count) is checked against what can be recomputed from the stored sequences alone:
 * every solution is evaluated again and must have the objectives, constraint values, violation
 * and feasibility stored with it; a front holds feasible solutions none of which dominates
 * another; no run spends more evaluations than its budget; a result's program record is the
 * program the run id names (programProblem). Merge uses it on every imported run
 * (a forged result would otherwise be kept for good: a done run is never replaced). The stored
 * sequences are all that matters, so it holds for any solver, built in or external.
 *
 * The field ranges (counts at least 0, objectives in their range, a sequence of faces 1-6) are
 * the store's read checks (src-main/project/records.ts) and come first.
 */
import type { DiceConfig } from '../problems/dice/config.ts';
import { DiceEvaluator } from '../problems/dice/evaluate.ts';
import { dominates } from '../metrics/dominance.ts';
import { totalViolation } from '../solvers/constraints.ts';
import { constraintScales } from '../problems/dice/problem.ts';
import type { SolutionRecord, SolverResult } from '../solvers/types.ts';
import type { BudgetSpec } from './spec.ts';
import type { RunProgram } from './grid.ts';
import { canonicalJson } from './canonical-json.ts';
import { frontLogFrontAt } from '../solvers/front-log.ts';

/**
 * Stored and recomputed numbers may differ by a rounding (an evaluator since made faster sums
 * in another order); a forgery differs by far more.
 */
function same(stored: number, computed: number): boolean {
  return Math.abs(stored - computed) <= 1e-9 * Math.max(1, Math.abs(stored), Math.abs(computed));
}

function solutionProblem(field: string, s: SolutionRecord, evaluator: DiceEvaluator, scales: Float64Array): string | null {
  const real = evaluator.evaluate(s.x);
  for (let m = 0; m < real.objectives.length; m++)
    if (!same(s.objectives[m], real.objectives[m]))
      return `${field}.objectives[${m}]: stored ${s.objectives[m]}, the sequence evaluates to ${real.objectives[m]}`;
  for (let l = 0; l < real.constraints.length; l++)
    if (!same(s.constraints[l], real.constraints[l]))
      return `${field}.constraints[${l}]: stored ${s.constraints[l]}, the sequence evaluates to ${real.constraints[l]}`;
  const violation = totalViolation(real.constraints, scales);
  if (!same(s.violation, violation)) return `${field}.violation: stored ${s.violation}, the sequence evaluates to ${violation}`;
  if (s.feasible !== real.feasible) return `${field}.feasible: stored ${s.feasible}, the sequence is ${real.feasible ? 'feasible' : 'infeasible'}`;
  return null;
}

/**
 * Why a result of a run of `config` with `budget` contradicts itself, or null when it does
 * not. Expects a result that passed the store's read checks.
 */
export function resultProblem(config: DiceConfig, budget: BudgetSpec, result: SolverResult): string | null {
  if (result.evaluations > budget.evaluations) return `result.evaluations: ${result.evaluations} is more than the budget of ${budget.evaluations}`;
  if (result.n !== undefined && result.n !== config.n) return `result.n: is ${result.n}, not the config's N = ${config.n}`;
  if (result.objectiveCount !== undefined && result.objectiveCount !== config.objectives.length)
    return `result.objectiveCount: is ${result.objectiveCount}, not the config's ${config.objectives.length}`;
  const evaluator = new DiceEvaluator(config);
  const scales = constraintScales(config.n, config.constraints);
  if (result.best) {
    const problem = solutionProblem('result.best', result.best, evaluator, scales);
    if (problem) return problem;
  }
  for (let i = 0; i < result.front.length; i++) {
    const problem = solutionProblem(`result.front[${i}]`, result.front[i], evaluator, scales);
    if (problem) return problem;
    if (!result.front[i].feasible) return `result.front[${i}]: is infeasible, and a front holds feasible solutions only`;
  }
  for (let i = 0; i < result.front.length; i++)
    for (let j = 0; j < result.front.length; j++)
      if (i !== j && dominates(result.front[j].objectives, result.front[i].objectives))
        return `result.front[${i}]: is dominated by result.front[${j}], so it is not on a front`;
  return recordProblem(result);
}

/**
 * Does the run's record (its exact trace, its front log) end where its checked solutions say?
 * SO: the trace's last point is the best, a point at bestFoundAt has its value, and the first
 * feasible point is at firstFeasibleAt. MO: the front rebuilt from the log is the stored front.
 * Results from before exact traces (no traceExact) have only the field checks.
 */
function recordProblem(result: SolverResult): string | null {
  if (result.traceExact && result.objectiveCount === 1) {
    const trace = result.trace;
    for (let i = 1; i < trace.length; i++)
      if (trace[i].evaluations < trace[i - 1].evaluations)
        return `result.trace[${i}].evaluations: ${trace[i].evaluations} comes after ${trace[i - 1].evaluations}`;
    const last = trace[trace.length - 1];
    if (!last || last.evaluations !== result.evaluations)
      return `result.trace: ends at ${last ? last.evaluations : 'no point'}, not at the run's last evaluation (${result.evaluations})`;
    const best = result.best;
    const agrees = (t: (typeof trace)[number]) =>
      best !== null &&
      t.feasible === best.feasible &&
      same(t.violation, best.violation) &&
      (!best.feasible || (t.best !== null && same(t.best, best.objectives[0])));
    if (best && !agrees(last))
      return `result.trace[${trace.length - 1}]: ends at f = ${last.best} (violation ${last.violation}), not at the best solution's ${best.objectives[0]} (violation ${best.violation})`;
    if (best && !trace.some((t) => t.evaluations === result.bestFoundAt && agrees(t)))
      return `result.bestFoundAt: ${result.bestFoundAt} is not where the trace first reaches the best`;
    const firstFeasible = trace.find((t) => t.feasible)?.evaluations ?? null;
    if (firstFeasible !== result.firstFeasibleAt)
      return `result.firstFeasibleAt: ${result.firstFeasibleAt}, but the trace's first feasible point is at ${firstFeasible}`;
  }
  if (result.frontLog) {
    const logged = frontLogFrontAt(result.frontLog, result.evaluations);
    const stored = result.front.map((s) => s.objectives);
    if (!sameVectors(logged, stored))
      return `result.frontLog: gives a front of ${logged.length} points at the run's end that is not the stored front (${stored.length} points)`;
  }
  return null;
}

/** A value a forged record may hold, shown short and as JSON. */
function shown(v: unknown): string {
  const text = JSON.stringify(v) ?? 'undefined';
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

/**
 * Why a result's program record (`result.program`: command, cwd, blind, hashes) is not the
 * program of its run (`run.program`, which the run id hashes), or null when it is: a result
 * that claims another command, script hash or folder than the run's would report, under the
 * run's id, a program that never ran. A built-in solver's run has no program record.
 */
export function programProblem(run: { solver: string; program: RunProgram | null }, result: SolverResult): string | null {
  const record = result.program as unknown;
  if (!run.program) {
    if (record === undefined) return null;
    const command = (record as { command?: unknown } | null)?.command;
    return `its result says a program ran (${Array.isArray(command) ? command.map(String).join(' ') : shown(record)}), but the run is the built-in solver ${run.solver}'s`;
  }
  if (typeof record !== 'object' || record === null || Array.isArray(record))
    return `its result does not say which program ran (result.program is ${record === undefined ? 'missing' : shown(record)})`;
  const expected: Record<string, unknown> = {
    command: run.program.command,
    cwd: run.program.cwd ?? null,
    blind: run.program.blind === true,
    hashes: run.program.hashes ?? null,
  };
  for (const [key, value] of Object.entries(expected)) {
    const stored = (record as Record<string, unknown>)[key] ?? null;
    if (canonicalJson(stored) !== canonicalJson(value)) return `its result's program.${key} is ${shown(stored)}, the run's is ${shown(value)}`;
  }
  return null;
}

/** The same vectors (each value within a rounding), in any order. */
function sameVectors(a: readonly (readonly number[])[], b: readonly (readonly number[])[]): boolean {
  if (a.length !== b.length) return false;
  const order = (p: readonly number[], q: readonly number[]) => p.reduce((d, v, k) => d || v - q[k], 0);
  const x = [...a].sort(order);
  const y = [...b].sort(order);
  const equal = (p: readonly number[], q: readonly number[]) => p.every((v, k) => same(v, q[k]));
  if (x.every((p, i) => equal(p, y[i]))) return true;
  // A rounding can reorder ties: match each vector to any unused one.
  const used = new Array<boolean>(y.length).fill(false);
  return x.every((p) => {
    const j = y.findIndex((q, k) => !used[k] && equal(p, q));
    return j >= 0 && (used[j] = true);
  });
}
