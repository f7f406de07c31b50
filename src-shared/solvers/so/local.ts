/**
 * Shared machinery of the single-objective local searches: an incremental state with the current
 * (f, violation), peeks of single-position changes and swaps (one evaluation each), random
 * move sampling, the per-step bookkeeping of evaluations and reported bests, and the skeleton
 * the searches share (LocalSearchSolver).
 */
import { Random } from '../../random.ts';
import { incrementalState } from '../../core/problem.ts';
import { compareScalar, totalViolation } from '../constraints.ts';
import type { Ask, Evaluated, Reported, SetupContext, Solver } from '../types.ts';
import type { ParamSpec, ParamValues } from '../../core/params.ts';
import type { IncrementalState, IncrementalValues, Problem } from '../../core/problem.ts';

/** A move: a change x[p] = face (q < 0) or a swap of x[p] and x[q] (face unused). */
export interface Move {
  p: number;
  q: number;
  face: number;
}

export type Neighbourhood = 'change' | 'swap' | 'both';

export const neighbourhoodParam: ParamSpec = {
  name: 'neighbourhood',
  type: 'choice',
  default: 'both',
  choices: ['change', 'swap', 'both'],
  description: 'Moves: change one roll to another face, swap two rolls (keeps the face counts), or both.',
};

export const swapShareParam: ParamSpec = {
  name: 'swapShare',
  type: 'number',
  default: 0.3,
  min: 0,
  max: 1,
  description: 'With neighbourhood=both, the probability that a sampled move is a swap.',
};

export function randomSequence(problem: Problem, random: Random): Uint8Array {
  const x = new Uint8Array(problem.n);
  for (let i = 0; i < x.length; i++) x[i] = random.int(problem.lower, problem.upper);
  return x;
}

export class LocalSearch {
  readonly state: IncrementalState;
  readonly scales: Float64Array;
  readonly n: number;
  /** Current f and violation. */
  f = 0;
  v = 0;
  /** Result of the last peek. */
  peekF = 0;
  peekV = 0;

  constructor(
    readonly problem: Problem,
    x: Uint8Array,
  ) {
    this.state = incrementalState(problem, x);
    this.scales = problem.constraintScales;
    this.n = problem.n;
    this.sync();
  }

  private sync(): void {
    this.f = this.state.values.objectives[0];
    this.v = totalViolation(this.state.values.constraints, this.scales);
  }

  /** Replaces the sequence (a full pass, not counted as a peek; callers count it). */
  reset(x: Uint8Array): void {
    this.state.reset(x);
    this.sync();
  }

  /** Peeks a move (one evaluation); returns the candidate's values (a buffer the next peek reuses). */
  peek(m: Move): IncrementalValues {
    const values = m.q < 0 ? this.state.peekSet(m.p, m.face) : this.state.peekSwap(m.p, m.q);
    this.peekF = values.objectives[0];
    this.peekV = totalViolation(values.constraints, this.scales);
    return values;
  }

  apply(m: Move): void {
    if (m.q < 0) this.state.set(m.p, m.face);
    else this.state.swap(m.p, m.q);
    this.sync();
  }

  /** Feasibility-first comparison of the last peek with the current point (< 0: peek better). */
  comparePeek(): number {
    return compareScalar(this.peekF, this.peekV, this.f, this.v);
  }

  /** A uniformly random move that changes the sequence (swaps of equal faces are skipped). */
  randomMove(random: Random, neighbourhood: Neighbourhood, swapShare: number, out: Move): Move {
    const { n, state } = this;
    const swap = n > 1 && (neighbourhood === 'swap' || (neighbourhood === 'both' && random.chance(swapShare)));
    if (swap) {
      for (let attempt = 0; attempt < 32; attempt++) {
        const p = random.below(n);
        const q = random.below(n);
        if (state.face(p) !== state.face(q)) {
          out.p = p;
          out.q = q;
          return out;
        }
      }
      // A (nearly) constant sequence: fall back to a change.
    }
    out.p = random.below(n);
    out.q = -1;
    const face = random.int(1, 5);
    out.face = face >= state.face(out.p) ? face + 1 : face;
    return out;
  }

  /** The current point as an Evaluated (copies). */
  evaluated(): Evaluated {
    const values = this.state.values;
    return { x: this.state.sequence(), F: values.objectives.slice(), G: values.constraints.slice(), violation: this.v, feasible: this.v <= 0 };
  }
}

/**
 * Best-so-far of a solver across steps, with what to report at the end of a step: every new
 * best of the step, in order, each with the evaluation that found it (so the run's trace holds
 * every improvement at its exact evaluation, whatever the step size).
 */
export class BestTracker {
  f = Infinity;
  v = Infinity;
  private pending: Reported[] = [];

  /** True when (f, v) is strictly better than the best so far. */
  better(f: number, v: number): boolean {
    return this.v === Infinity || compareScalar(f, v, this.f, this.v) < 0;
  }

  /** Records the local search's current point as the new best, found at step evaluation `at`. */
  record(ls: LocalSearch, at: number): void {
    this.recordEvaluated(ls.evaluated(), at);
  }

  /** Records an already evaluated point. */
  recordEvaluated(e: Evaluated, at: number): void {
    this.f = e.F[0];
    this.v = e.violation;
    this.pending.push({ solution: e, at });
  }

  /** The reports of this step, in order, clearing them. */
  take(): Reported[] {
    const out = this.pending;
    this.pending = [];
    return out;
  }
}

/**
 * The skeleton of the single-objective local searches (hill climbing, steepest descent, tabu,
 * annealing, ILS): the seeded generator, a first point from a random sequence (one evaluation),
 * then one evaluation per `step`, the best so far checked after each step that may have moved
 * the current point and reported at the end of the ask. A search reads its parameters in
 * `configure`, makes its moves in `step`, and does more in `start` or `improved` where it has to.
 */
export abstract class LocalSearchSolver implements Solver {
  protected problem!: Problem;
  protected random!: Random;
  /** The current point; null until the first evaluation. */
  protected ls: LocalSearch | null = null;
  protected neighbourhood: Neighbourhood = 'both';
  protected swapShare = 0;
  /** Set by a search that has ended (steepest descent at a local optimum without restarts). */
  protected finished = false;
  protected readonly best = new BestTracker();
  /** The move a step peeks (reused: no allocation per evaluation). */
  protected readonly move: Move = { p: 0, q: -1, face: 1 };

  setup(problem: Problem, params: ParamValues, seed: number, context?: SetupContext): void {
    this.problem = problem;
    this.random = Random.fromSeed(seed);
    this.configure(params, problem, context);
  }

  /** Reads the search's own parameters. */
  protected abstract configure(params: ParamValues, problem: Problem, context?: SetupContext): void;

  /** The first point (one evaluation): a random sequence. */
  protected start(): LocalSearch {
    return new LocalSearch(this.problem, randomSequence(this.problem, this.random));
  }

  /** One evaluation's worth of search from the current point; false when the point did not move. */
  protected abstract step(ls: LocalSearch): boolean;

  /** The current point has just become the best so far. */
  protected improved(_ls: LocalSearch): void {}

  ask(limit: number): Ask {
    let used = 0;
    while (used < limit && !this.finished) {
      let ls = this.ls;
      used++;
      if (ls === null) ls = this.ls = this.start();
      else if (!this.step(ls)) continue;
      if (this.best.better(ls.f, ls.v)) {
        this.best.record(ls, used);
        this.improved(ls);
      }
    }
    return { candidates: [], internal: { evaluations: used, reported: this.best.take() } };
  }

  tell(): void {}
}
