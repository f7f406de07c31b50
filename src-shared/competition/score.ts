/**
 * A competition's score of one run (docs/competition.md, "Scores"), recomputed from the
 * solutions the result stores with the exact evaluator, never from the numbers the run claims:
 *
 *   one objective:  the best solution's f, feasibility first (a run that found nothing feasible
 *                   ranks below every feasible one, by its total normalised violation), with the
 *                   evaluation that first reached it (bestFoundAt) as the tie-break;
 *   several:        the hypervolume of the feasible non-dominated points of the stored front,
 *                   normalised by the track's fixed reference (score-reference.ts), with the
 *                   evaluation at which the front first reached it (from the front log) as the
 *                   tie-break.
 *
 * Lower is better for f, violation and the evaluation; higher for the hypervolume. Values are
 * compared at SCORE_DIGITS significant digits, so that a rounding (the same f summed from other
 * features) is not a difference and the order stays transitive.
 */
import type { DiceConfig, TrackName } from '../problems/dice/config.ts';
import { DiceEvaluator } from '../problems/dice/evaluate.ts';
import { constraintScales } from '../problems/dice/problem.ts';
import { totalViolation } from '../solvers/constraints.ts';
import { dominates, weaklyDominates } from '../metrics/dominance.ts';
import { normalisedHypervolume, type HvNormalisation } from '../problems/dice/hv-reference.ts';
import type { SolverResult } from '../solvers/types.ts';
import { resultProblem } from '../experiments/result-audit.ts';
import { scoreReference } from './score-reference.ts';

/** Significant digits at which scores are compared. */
export const SCORE_DIGITS = 12;

/** One objective: the run's best, as the exact evaluator gives it for the stored sequence. */
export interface SoScore {
  kind: 'so';
  /** The best's f when it is feasible; null when the run found nothing feasible (or evaluated nothing). */
  f: number | null;
  /** The best's total normalised violation (0 when feasible); null when the run stored no solution. */
  violation: number | null;
  /** The evaluation that first reached the best (the result's bestFoundAt); null without a best. */
  at: number | null;
  /** The run's evaluations. */
  evaluations: number;
}

/** Several objectives: the hypervolume of the stored front, re-evaluated, against the track's reference. */
export interface MoScore {
  kind: 'mo';
  hv: number;
  /**
   * The evaluation at which the run's front first reached this hypervolume: the latest insertion
   * (front log) of a point that adds to it; null when the hypervolume is 0, or the result has no
   * front log (stored before exact traces).
   */
  at: number | null;
  /** Feasible non-dominated points of the re-evaluated front (inside the reference box or not). */
  frontSize: number;
  evaluations: number;
}

export type RunScore = SoScore | MoScore;

/** A scored run: its score, and whether its stored numbers contradict its solutions (for the report). */
export interface ScoredRun {
  score: RunScore;
  /** Why the stored result contradicts itself (result-audit.ts), or null; the score does not use those numbers either way. */
  problem: string | null;
}

/** A score value as compared: rounded to SCORE_DIGITS significant digits. */
export function scoreKey(value: number): number {
  return value === 0 ? 0 : Number(value.toPrecision(SCORE_DIGITS));
}

/**
 * The score of one run of a problem with this config (the instance's, secret bands included),
 * on track `track` (its reference) with a budget of `budget` evaluations.
 */
export function scoreRun(input: { config: DiceConfig; track: TrackName; budget: number; result: SolverResult | null; reference?: HvNormalisation }): ScoredRun {
  const { config, result } = input;
  const m = config.objectives.length;
  if (result === null)
    return {
      score: m === 1 ? { kind: 'so', f: null, violation: null, at: null, evaluations: 0 } : { kind: 'mo', hv: 0, at: null, frontSize: 0, evaluations: 0 },
      problem: null,
    };
  const problem = resultProblem(config, { evaluations: input.budget }, result);
  const evaluator = new DiceEvaluator(config);
  const scales = constraintScales(config.n, config.constraints);
  if (m === 1) return { score: soScore(result, evaluator, scales), problem };
  const reference = input.reference ?? scoreReference(input.track, config.n);
  return { score: moScore(result, evaluator, scales, reference), problem };
}

function soScore(result: SolverResult, evaluator: DiceEvaluator, scales: Float64Array): SoScore {
  if (!result.best) return { kind: 'so', f: null, violation: null, at: null, evaluations: result.evaluations };
  const e = evaluator.evaluate(result.best.x);
  const violation = totalViolation(e.constraints, scales);
  return { kind: 'so', f: violation <= 0 ? e.objectives[0] : null, violation, at: result.bestFoundAt, evaluations: result.evaluations };
}

/**
 * The objective vectors of a multi-objective result's front as the exact evaluator gives them
 * for the stored sequences: the feasible ones, without those another dominates or repeats (the
 * front a score and the best known front are made of).
 */
export function evaluatedFront(config: DiceConfig, result: SolverResult | null): number[][] {
  if (!result) return [];
  return frontOf(result, new DiceEvaluator(config), constraintScales(config.n, config.constraints));
}

function frontOf(result: SolverResult, evaluator: DiceEvaluator, scales: Float64Array): number[][] {
  const feasible: number[][] = [];
  for (const s of result.front) {
    const e = evaluator.evaluate(s.x);
    if (totalViolation(e.constraints, scales) <= 0) feasible.push(e.objectives);
  }
  return feasible.filter((p, i) => !feasible.some((q, j) => dominates(q, p) || (j < i && weaklyDominates(q, p) && weaklyDominates(p, q))));
}

function moScore(result: SolverResult, evaluator: DiceEvaluator, scales: Float64Array, reference: HvNormalisation): MoScore {
  const front = frontOf(result, evaluator, scales);
  const hv = normalisedHypervolume(front, reference);
  return { kind: 'mo', hv, at: hv > 0 ? reachedAt(result, front, reference) : null, frontSize: front.length, evaluations: result.evaluations };
}

/**
 * The evaluation at which the front first reached its hypervolume: the latest insertion into
 * the log of a front point that adds volume (it strictly dominates the reference point), or null
 * without a log or when such a point is not in it. A point the log holds can differ from the
 * re-evaluated one by a rounding (the solver's own, often incremental, values).
 */
function reachedAt(result: SolverResult, front: readonly number[][], reference: HvNormalisation): number | null {
  const log = result.frontLog;
  if (!log) return null;
  const inBox = (p: readonly number[]) => p.every((v, k) => (v - reference.ideal[k]) / (reference.nadir[k] - reference.ideal[k]) < reference.reference[k]);
  const near = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
  let at = 0;
  for (const p of front) {
    if (!inBox(p)) continue;
    const row = log.insertions.find((r) => p.every((v, k) => near(v, r[k + 1])));
    if (!row) return null;
    at = Math.max(at, row[0]);
  }
  return at;
}

/**
 * The competition's order of two scores of the same problem: negative when a is better.
 * One objective: a feasible f beats none; smaller f; else smaller violation (a run that stored
 * nothing is last); ties by the earlier evaluation (unknown last). Several: larger hypervolume,
 * ties by the earlier evaluation.
 */
export function compareScores(a: RunScore | null, b: RunScore | null): number {
  if (a === null || b === null) return a === null ? (b === null ? 0 : 1) : -1;
  if (a.kind !== b.kind) throw new Error(`cannot compare a ${a.kind} score with a ${b.kind} score`);
  const byAt = (x: number | null, y: number | null) => (x === y ? 0 : x === null ? 1 : y === null ? -1 : x - y);
  if (a.kind === 'mo' && b.kind === 'mo') return scoreKey(b.hv) - scoreKey(a.hv) || byAt(a.at, b.at);
  const sa = a as SoScore;
  const sb = b as SoScore;
  if (sa.f !== null || sb.f !== null) {
    if (sa.f === null) return 1;
    if (sb.f === null) return -1;
    return scoreKey(sa.f) - scoreKey(sb.f) || byAt(sa.at, sb.at);
  }
  if (sa.violation === null || sb.violation === null) return sa.violation === sb.violation ? 0 : sa.violation === null ? 1 : -1;
  return scoreKey(sa.violation) - scoreKey(sb.violation) || byAt(sa.at, sb.at);
}
