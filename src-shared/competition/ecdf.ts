/**
 * Runtime ECDFs as COCO draws them (docs/competition.md, "Runtime ECDFs"), computed after the
 * runs from their records, so they can be redone with other targets without running again:
 *
 *   1. a run's course as a step function of evaluations: the best feasible f after each
 *      improvement (one objective, from the exact trace), or the hypervolume after each
 *      insertion into the front (several, from the front log, under any normalisation);
 *   2. targets per problem, from the best known value upwards (soTargets, moTargets);
 *   3. each run's runtime to each target: the first evaluation at which it reached it (or never);
 *   4. per solver, the fraction of (run, target) pairs reached against evaluations.
 *
 * A value reaches a target within HIT_TOLERANCE relative (the trace holds the solver's own, often
 * incremental values, the best known value the exact evaluator's; a hypervolume summed step by
 * step differs from one computed at once by a rounding).
 */
import { hypervolume, normalise } from '../metrics/hypervolume.ts';
import { dominates, weaklyDominates } from '../metrics/dominance.ts';
import type { HvNormalisation } from '../problems/dice/hv-reference.ts';
import type { FrontLog } from '../solvers/front-log.ts';
import type { SolverResult } from '../solvers/types.ts';

/** Relative tolerance of a hit: value within 1e-9 * max(1, |target|) of the target counts. */
export const HIT_TOLERANCE = 1e-9;

/**
 * A run's course: after evaluations[i] evaluations (ascending) its value was values[i], until the
 * next step; before evaluations[0] it had none (nothing feasible, or an empty front).
 */
export interface Steps {
  /** 'min': f (lower is better); 'max': hypervolume. */
  sense: 'min' | 'max';
  evaluations: number[];
  values: number[];
  /** The run's evaluations (the course ends there). */
  end: number;
  /**
   * null: exact at every evaluation. Otherwise why not, for a note beside the chart: a trace
   * stored before exact traces, or a compacted front log (exact up to an evaluation and at its
   * checkpoints).
   */
  inexact: string | null;
}

/** The best feasible f of a single-objective run after each of its improvements (its trace). */
export function soSteps(result: SolverResult): Steps {
  if (result.objectiveCount !== 1) throw new RangeError(`soSteps: the result has ${result.objectiveCount} objectives`);
  const evaluations: number[] = [];
  const values: number[] = [];
  for (const t of result.trace) {
    if (!t.feasible || t.best === null) continue;
    if (values.length && t.best >= values[values.length - 1]) continue;
    if (evaluations.length && evaluations[evaluations.length - 1] === t.evaluations) values[values.length - 1] = t.best;
    else {
      evaluations.push(t.evaluations);
      values.push(t.best);
    }
  }
  return {
    sense: 'min',
    evaluations,
    values,
    end: result.evaluations,
    inexact: result.traceExact ? null : 'a trace stored before exact traces: one point per improving step, late by up to a step',
  };
}

/**
 * The hypervolume of a multi-objective run's front after each insertion that changed it, from its
 * front log, on objectives normalised by `norm` against norm.reference. Each insertion adds its
 * exclusive volume: the volume it dominates minus the hypervolume of the front's points pushed
 * up to it (the limit set of WFG); a point outside the reference box adds nothing and cannot
 * dominate a point inside it, so it is skipped.
 */
export function hypervolumeSteps(log: FrontLog, end: number, norm: HvNormalisation): Steps {
  const ref = norm.reference;
  const m = ref.length;
  const front: number[][] = [];
  const evaluations: number[] = [];
  const values: number[] = [];
  let total = 0;
  for (const row of log.insertions) {
    if (row.length !== m + 1) throw new RangeError(`hypervolumeSteps: a log row has ${row.length - 1} objectives, the normalisation ${m}`);
    const p = normalise([row.slice(1)], norm.ideal, norm.nadir)[0];
    if (!p.every((v, k) => v < ref[k])) continue;
    if (front.some((q) => weaklyDominates(q, p))) continue;
    let own = 1;
    for (let k = 0; k < m; k++) own *= ref[k] - p[k];
    const limit = front.map((q) => q.map((v, k) => Math.max(v, p[k])));
    const gained = own - (limit.length ? hypervolume(limit, ref) : 0);
    let w = 0;
    for (const q of front) if (!dominates(p, q)) front[w++] = q;
    front.length = w;
    front.push(p);
    total += gained;
    if (evaluations.length && evaluations[evaluations.length - 1] === row[0]) values[values.length - 1] = total;
    else {
      evaluations.push(row[0]);
      values.push(total);
    }
  }
  const c = log.compacted;
  return {
    sense: 'max',
    evaluations,
    values,
    end,
    inexact: c
      ? `a compacted front log: exact up to evaluation ${c.exactUntil} and at ceil(10^(i/${c.perDecade})) evaluations, late by less than a step in between`
      : null,
  };
}

/** The hypervolume steps of a result (its front log), or null when it has none (stored before front logs). */
export function resultHypervolumeSteps(result: SolverResult, norm: HvNormalisation): Steps | null {
  return result.frontLog ? hypervolumeSteps(result.frontLog, result.evaluations, norm) : null;
}

/** Whether a value reaches a target (see HIT_TOLERANCE). */
export function reaches(value: number, target: number, sense: 'min' | 'max'): boolean {
  const slack = HIT_TOLERANCE * Math.max(1, Math.abs(target));
  return sense === 'min' ? value <= target + slack : value >= target - slack;
}

/** For each target, the first evaluation at which the run reached it, or null if it never did. */
export function firstHits(steps: Steps, targets: readonly number[]): (number | null)[] {
  return targets.map((target) => {
    // Values only improve, so the first step that reaches the target is found by bisection.
    let lo = 0;
    let hi = steps.values.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (reaches(steps.values[mid], target, steps.sense)) hi = mid;
      else lo = mid + 1;
    }
    return lo < steps.values.length ? steps.evaluations[lo] : null;
  });
}

/** A ladder of target distances: scale * 10^(-k / perDecade) for k = 0 .. decades * perDecade, then 0. */
export interface TargetLadder {
  perDecade: number;
  decades: number;
}

/** One objective: 5 per decade over 4 decades of the track's scale (21 distances, then 0: 22 targets). */
export const SO_LADDER: TargetLadder = { perDecade: 5, decades: 4 };
/** Several: 5 per decade from 1 down to 1e-5 (normalised hypervolume; 26 distances, then 0). */
export const MO_LADDER: TargetLadder = { perDecade: 5, decades: 5 };

function distances(scale: number, ladder: TargetLadder): number[] {
  if (!(Number.isInteger(ladder.perDecade) && ladder.perDecade >= 1 && Number.isInteger(ladder.decades) && ladder.decades >= 0))
    throw new RangeError(`a target ladder needs whole numbers perDecade >= 1 and decades >= 0, got ${JSON.stringify(ladder)}`);
  if (!(scale > 0 && Number.isFinite(scale))) throw new RangeError(`a target ladder needs a positive scale, got ${scale}`);
  const out: number[] = [];
  for (let k = 0; k <= ladder.decades * ladder.perDecade; k++) out.push(scale * 10 ** (-k / ladder.perDecade));
  out.push(0);
  return out;
}

/**
 * Targets of a single-objective problem, easiest first: f_best + scale * 10^(-k/p), then f_best
 * itself. `scale`: the track's nadir (score-reference.ts), the same for every instance.
 */
export function soTargets(best: number, scale: number, ladder: TargetLadder = SO_LADDER): number[] {
  if (!Number.isFinite(best)) throw new RangeError(`soTargets: the best known f must be a number, got ${best}`);
  return distances(scale, ladder).map((d) => best + d);
}

/**
 * Targets of a multi-objective problem, easiest first: HV_best - 10^(-k/p) (normalised
 * hypervolume), then HV_best itself; targets at or below 0 are left out (every run reaches them
 * before it evaluates anything).
 */
export function moTargets(bestHv: number, ladder: TargetLadder = MO_LADDER): number[] {
  if (!(bestHv >= 0 && Number.isFinite(bestHv))) throw new RangeError(`moTargets: the best known hypervolume must be a number of at least 0, got ${bestHv}`);
  return distances(1, ladder)
    .map((d) => bestHv - d)
    .filter((t) => t > 0);
}

/** The best known hypervolume of a problem: that of the non-dominated union of the fronts given (COCO's reference set). */
export function bestKnownHypervolume(fronts: readonly (readonly (readonly number[])[])[], norm: HvNormalisation): number {
  const all = fronts.flat();
  if (all.length === 0) return 0;
  return hypervolume(normalise(all, norm.ideal, norm.nadir), norm.reference);
}

/** One run's runtimes to its problem's targets (null: not reached). */
export interface RunHits {
  solver: string;
  problem: string;
  hits: readonly (number | null)[];
}

/** One solver's runtime ECDF: from `evaluations` on, `fraction` of its (run, target) pairs were reached. */
export interface Ecdf {
  solver: string;
  runs: number;
  /** (run, target) pairs. */
  pairs: number;
  /** Pairs reached by the end. */
  reached: number;
  points: { evaluations: number; fraction: number }[];
}

/** The runtime ECDF of each solver (in the order they first appear) over its runs' (run, target) pairs. */
export function runtimeEcdf(runs: readonly RunHits[]): Ecdf[] {
  const bySolver = new Map<string, RunHits[]>();
  for (const r of runs) bySolver.set(r.solver, [...(bySolver.get(r.solver) ?? []), r]);
  return [...bySolver].map(([solver, own]) => {
    const pairs = own.reduce((s, r) => s + r.hits.length, 0);
    const times = own.flatMap((r) => r.hits.filter((h): h is number => h !== null)).sort((a, b) => a - b);
    const points: Ecdf['points'] = [];
    times.forEach((t, i) => {
      if (i + 1 < times.length && times[i + 1] === t) return;
      points.push({ evaluations: t, fraction: (i + 1) / pairs });
    });
    return { solver, runs: own.length, pairs, reached: times.length, points };
  });
}

/** The fraction an ECDF shows at `evaluations`. */
export function ecdfAt(ecdf: Ecdf, evaluations: number): number {
  let fraction = 0;
  for (const p of ecdf.points) {
    if (p.evaluations > evaluations) break;
    fraction = p.fraction;
  }
  return fraction;
}

function csvField(text: string): string {
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The ECDFs as CSV: `solver,evaluations,fraction,reached,pairs`, one row per step. */
export function ecdfCsv(ecdfs: readonly Ecdf[]): string {
  const lines = ['solver,evaluations,fraction,reached,pairs'];
  for (const e of ecdfs)
    for (const p of e.points) lines.push(`${csvField(e.solver)},${p.evaluations},${p.fraction},${Math.round(p.fraction * e.pairs)},${e.pairs}`);
  return lines.join('\n') + '\n';
}
