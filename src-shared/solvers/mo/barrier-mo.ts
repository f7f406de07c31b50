/**
 * Barrier local search for several objectives: the strong MO solver (default for M = 2..7).
 *
 * On the dice problem the objectives are sums of the same feature errors, so their plain sum is
 * the single-objective f, and at N = 840 the hypervolume is made almost entirely by one point:
 * the best f, where every pattern error is 0 and only F6 and F7 are out of band (docs/mo-solvers.md
 * shows the fronts). So the run has two phases:
 *
 * 1. Knee: barrier-ls's search (the engine in ../barrier.ts, with its barrier schedule) on the
 *    sum of the objectives, for a share `kneeShare` of the budget.
 * 2. Spread: subproblems with Das-Dennis weights w (`divisions`), each minimising the weighted
 *    sum sum_k lambda_k F_k with lambda_k = mix + (1 - mix) * M * w_k (raw objective units: every
 *    objective is a sum of feature errors in the same currency), each its own engine started from
 *    the knee's best sequence, taking turns of `burst` moves. The barrier is off here: the
 *    subproblems walk along the front from a point already on the constraint boundary.
 *
 * Every evaluated candidate, accepted or not, that is feasible and not covered by the solver's own
 * archive is reported (the driver keeps the run's front), so moves one scalarisation rejects still
 * count for the front. Without an evaluation budget (a time limit only), the knee phase lasts
 * kneeShare x 1000N evaluations.
 *
 * Counting: building each engine's state (the knee's first, each subproblem's start) and every
 * peek is one evaluation.
 */
import { ParetoArchive } from '../../metrics/archive.ts';
import { Random } from '../../random.ts';
import { BarrierKnowledge, BarrierSearch, type Scalarisation } from '../barrier.ts';
import { num, ParamError } from '../../core/params.ts';
import { BARRIER_PARAMS, barrierOptions } from '../so/barrier-ls.ts';
import type { Ask, Evaluated, Reported, SetupContext, Solver, SolverInfo } from '../types.ts';
import type { ParamValue, ParamValues } from '../../core/params.ts';
import type { IncrementalValues, Problem } from '../../core/problem.ts';
import { dasDennis, dasDennisCount, randomSequence } from './operators.ts';

/** Below this sum the knee's barrier fades out linearly (as barrier-ls's below f = 10). */
const FADE = 10;
/** The knee phase's length without a budget: kneeShare x HORIZON x N evaluations. */
const HORIZON = 1000;
/** Memory entries over all engines (each gets an equal part, at most barrier-ls's 2^21). */
const MEMORY_TOTAL = 1 << 22;
const MEMORY_EACH = 1 << 21;

/** The automatic knee share per M: measured best at N = 840 (docs/mo-solvers.md). */
export function defaultKneeShare(m: number): number {
  return m <= 3 ? 0.8 : 0.5;
}

const sum: Scalarisation = (F) => {
  let s = 0;
  for (let k = 0; k < F.length; k++) s += F[k];
  return s;
};

interface Subproblem {
  g: Scalarisation;
  search: BarrierSearch;
}

class BarrierMo implements Solver {
  private problem!: Problem;
  private random!: Random;
  private params!: ParamValues;
  private know: BarrierKnowledge | null = null;
  private knee!: BarrierSearch;
  private kneeShare = 0;
  private kneeLength = 0;
  private barrier = 0;
  private barrierDecay = 0;
  private divisions = 0;
  private mix = 0;
  private burst = 0;
  private used = 0;
  private bestSum = Infinity;
  private bestX: Uint8Array | null = null;
  private subs: Subproblem[] = [];
  private turn = 0;
  private movesLeft = 0;
  private readonly archive = new ParetoArchive();
  private leastViolation = Infinity;
  private reported: Reported[] = [];

  setup(problem: Problem, params: ParamValues, seed: number, context?: SetupContext): void {
    this.problem = problem;
    this.random = Random.fromSeed(seed);
    this.params = params;
    const m = problem.objectiveCount;
    this.kneeShare = num(params, 'kneeShare') || defaultKneeShare(m);
    this.kneeLength = Math.floor(this.kneeShare * (context?.maxEvaluations ?? HORIZON * problem.n));
    this.barrier = num(params, 'barrier');
    this.barrierDecay = num(params, 'barrierDecay');
    this.divisions = num(params, 'divisions');
    const count = dasDennisCount(m, this.divisions);
    if (count > 1000) throw new ParamError('barrier-mo', 'divisions', `gives ${count} subproblems at M = ${m}; at most 1000`);
    this.mix = num(params, 'mix');
    this.burst = num(params, 'burst');
    this.know = BarrierKnowledge.of(problem);
    this.knee = new BarrierSearch(
      problem,
      this.random,
      barrierOptions(params, problem.n, Math.min(MEMORY_EACH, Math.floor(MEMORY_TOTAL / (count + 1)))),
      this.know,
    );
  }

  /** kneeShare given as 0 (automatic) as used at this M. */
  effectiveParams(): Record<string, ParamValue> {
    return { kneeShare: this.kneeShare };
  }

  /**
   * Reports a feasible candidate no archive member covers, or, while nothing feasible is known,
   * a candidate less violating than any before (the driver keeps it as the result's best); x is
   * built only then.
   */
  private consider(values: IncrementalValues, violation: number, x: () => Uint8Array, at: number): void {
    if (violation > 0) {
      if (this.archive.size > 0 || violation >= this.leastViolation) return;
      this.leastViolation = violation;
      const e: Evaluated = { x: x(), F: Float64Array.from(values.objectives), G: Float64Array.from(values.constraints), violation, feasible: false };
      this.reported.push({ solution: e, at });
      return;
    }
    const F = Array.from(values.objectives);
    if (this.archive.isCovered(F)) return;
    this.archive.insert(F, undefined);
    const e: Evaluated = { x: x(), F: Float64Array.from(F), G: Float64Array.from(values.constraints), violation: 0, feasible: true };
    this.reported.push({ solution: e, at });
  }

  private kneeMu(): number {
    const f = sum(this.knee.F);
    const fade = f < FADE ? f / FADE : 1;
    return (fade * this.barrier) / (1 + this.knee.clock / (this.barrierDecay * this.problem.n));
  }

  private startSpread(): void {
    const m = this.problem.objectiveCount;
    const weights = dasDennis(m, this.divisions);
    const options = barrierOptions(this.params, this.problem.n, Math.min(MEMORY_EACH, Math.floor(MEMORY_TOTAL / (weights.length + 1))));
    this.subs = weights.map((w) => {
      const lambda = Float64Array.from(w, (v) => this.mix + (1 - this.mix) * m * v);
      const g: Scalarisation = (F) => {
        let s = 0;
        for (let k = 0; k < F.length; k++) s += lambda[k] * F[k];
        return s;
      };
      return { g, search: new BarrierSearch(this.problem, this.random, options, this.know) };
    });
    this.turn = 0;
    this.movesLeft = this.burst;
  }

  ask(limit: number): Ask {
    let used = 0;
    while (used < limit) {
      used++;
      this.used++;
      const at = used;
      const knee = this.knee;
      if (knee.clock === 0) {
        knee.start(randomSequence(this.problem, this.random));
        this.consider(knee.state.values, knee.v, () => knee.faces.slice(), at);
      } else if (this.used <= this.kneeLength) {
        knee.step(sum, this.barrier > 0 ? this.kneeMu() : 0, (values, violation) => this.consider(values, violation, () => knee.candidate(), at));
      } else {
        if (this.subs.length === 0) this.startSpread();
        const sub = this.subs[this.turn];
        const search = sub.search;
        if (search.clock === 0) search.start(this.bestX ?? knee.faces.slice());
        else search.step(sub.g, 0, (values, violation) => this.consider(values, violation, () => search.candidate(), at));
        if (--this.movesLeft === 0) {
          this.turn = (this.turn + 1) % this.subs.length;
          this.movesLeft = this.burst;
        }
        continue;
      }
      if (knee.v <= 0) {
        const f = sum(knee.F);
        if (f < this.bestSum) {
          this.bestSum = f;
          this.bestX = knee.faces.slice();
        }
      }
    }
    const reported = this.reported;
    this.reported = [];
    return { candidates: [], internal: { evaluations: used, reported } };
  }

  tell(): void {}
}

export const barrierMo: SolverInfo = {
  name: 'barrier-mo',
  title: 'Barrier local search for several objectives (strong)',
  summary:
    "barrier-ls on the sum of the objectives (the knee), then weighted-sum subproblems from the knee's best; every feasible candidate evaluated can enter the front.",
  objectives: 'multi',
  baseline: false,
  requires: ['incremental'],
  params: [
    ...BARRIER_PARAMS,
    {
      name: 'kneeShare',
      type: 'number',
      default: 0,
      defaultText: '0 (automatic: 0.8 for M <= 3, 0.5 above)',
      min: 0,
      max: 1,
      description: 'Share of the evaluation budget spent on the sum of the objectives before the subproblems start.',
    },
    {
      name: 'divisions',
      type: 'integer',
      default: 2,
      min: 1,
      max: 1000,
      description: 'Das-Dennis divisions H of the subproblem weights (M + 1 over 2 ... subproblems: 3, 6, 15, 28 for M = 2, 3, 5, 7 at H = 2).',
    },
    {
      name: 'mix',
      type: 'number',
      default: 0.2,
      min: 0,
      max: 1,
      description: "Each subproblem's weights are mix + (1 - mix) * M * w_k: 1 gives every subproblem the plain sum, 0 the bare Das-Dennis weights.",
    },
    { name: 'burst', type: 'integer', default: 200, min: 1, max: 1000000, description: 'Moves per subproblem turn in the spread phase.' },
  ],
  create: () => new BarrierMo(),
};
