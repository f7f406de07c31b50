/**
 * Barrier local search: the strong single-objective solver (default for --track so).
 *
 * A first-improvement local search on the incremental evaluator, built on what the lower bound
 * (docs/solvers.md) says about the problem at large N: f is made of the odd/even and equal
 * neighbours (F6, F7), and the chi-square constraints on short blocks (d = 2..5) are what stop
 * it from falling further, so the best solutions sit on their upper quantiles. On top of the
 * ILS's aimed positions and strategic oscillation:
 *
 * 1. A barrier on the constraint slack. Moves are accepted on
 *      E = f + lambda * violation - mu(t) * sum_d log(1 + slack_d)
 *    where slack_d is the distance of chi_d from the nearer (finite, non-zero) end of its band
 *    in squared-count units (the normalisation of constraints.ts; 0 where violated). Moves of
 *    equal f then drift towards more room in the tight constraints, which later f-improving
 *    moves spend. mu(t) = barrier / (1 + t / (barrierDecay * N)) falls with the evaluations t,
 *    so long runs end on the boundary where the optima are; it also fades out linearly below
 *    f = 10, where it would only slow the last steps to f = 0. lambda is the ILS's strategic
 *    oscillation (times 1.001 per peek while infeasible, times 0.9995 while feasible).
 * 2. Aimed faces. A share `faceAim` of the one-roll changes picks the new face among those that
 *    make both neighbouring pairs what the objective wants, read from the current features:
 *    same parity while F6 is above its band, mixed while below; distinct while F7 is above,
 *    equal while below. While chi_2 is near its upper quantile, a share `alignedKeep` of them
 *    keeps the class of the pair inside the position's d = 2 block and fixes the pair between
 *    it and the next block: the band pins how many blocks may be odd/even or equal, not the
 *    pairs between them (the lower bound's argument). (The same rule for the shortest tight d
 *    of 2..6 was tried: no better on random configs, worse on the default one.)
 * 3. Two-roll moves. A share `pairShare` of the moves changes two neighbouring rolls at once
 *    (one evaluation: the state commits the first change, peeks the second and undoes the
 *    first, as a swap does), which crosses the one-roll plateaus between good configurations.
 * 4. Memory. A move rejected since the last commit within 8 positions of it is skipped (and
 *    another drawn, which costs no evaluation) with probability `memory`, until the rejection
 *    is `memoryAge` x N evaluations old: at a local optimum most peeks would repeat rejected
 *    moves. (A table of at most 2^21 entries; beyond, moves share entries, which only makes
 *    the memory less precise.)
 * After `patience` evaluations without a new best it returns to the best (one evaluation) and
 * makes `strength` random changes (one peek each), as ILS does.
 *
 * The moves, the memory and the acceptance are the engine in ../barrier.ts (shared with
 * barrier-mo). Counting: building the first state, each reset and each peek (one-roll,
 * two-roll) is one evaluation; commits reuse the peeked values. Every new best is reported with
 * the evaluation that found it. Off the dice problem (any Problem with incremental evaluation)
 * the aiming and the barrier are off and it is a plain first-improvement search with
 * oscillation and memory.
 */
import { Random } from '../../random.ts';
import { MAX_N } from '../../problems/dice/config.ts';
import { BarrierKnowledge, BarrierSearch, type Scalarisation } from '../barrier.ts';
import { compareScalar } from '../constraints.ts';
import { num } from '../../core/params.ts';
import type { Ask, Evaluated, Reported, Solver, SolverInfo } from '../types.ts';
import type { ParamSpec, ParamValues } from '../../core/params.ts';
import type { Problem } from '../../core/problem.ts';
import { randomSequence } from './local.ts';

/** Below this f the barrier fades out linearly: near f = 0 (small N) it would only slow the last steps. */
const FADE = 10;
/** The largest memory table (entries). */
const MEMORY_LIMIT = 1 << 21;

const objective: Scalarisation = (F) => F[0];

class BarrierLocalSearch implements Solver {
  private problem!: Problem;
  private random!: Random;
  private search!: BarrierSearch;
  private started = false;
  private barrier = 0;
  private barrierDecay = 0;
  private patience = 0;
  private strength = 0;
  private sinceBest = 0;
  private perturbing = 0;
  private bestF = Infinity;
  private bestV = Infinity;
  private bestX: Uint8Array | null = null;
  private reported: Reported[] = [];

  setup(problem: Problem, params: ParamValues, seed: number): void {
    this.problem = problem;
    this.random = Random.fromSeed(seed);
    this.barrier = num(params, 'barrier');
    this.barrierDecay = num(params, 'barrierDecay');
    this.patience = num(params, 'patience');
    this.strength = num(params, 'strength');
    this.search = new BarrierSearch(problem, this.random, barrierOptions(params, problem.n, MEMORY_LIMIT), BarrierKnowledge.of(problem));
  }

  /** The barrier weight after t evaluations. */
  private mu(): number {
    const f = this.search.F[0];
    const fade = f < FADE ? f / FADE : 1;
    return (fade * this.barrier) / (1 + this.search.clock / (this.barrierDecay * this.problem.n));
  }

  private noteBest(at: number): void {
    const search = this.search;
    const f = search.F[0];
    if (this.bestV !== Infinity && compareScalar(f, search.v, this.bestF, this.bestV) >= 0) {
      this.sinceBest++;
      return;
    }
    this.bestF = f;
    this.bestV = search.v;
    this.sinceBest = 0;
    this.bestX = search.faces.slice();
    const values = search.state.values;
    // bestX is replaced, never written, so the report may share it (the driver copies it).
    const e: Evaluated = {
      x: this.bestX,
      F: Float64Array.from(values.objectives),
      G: Float64Array.from(values.constraints),
      violation: search.v,
      feasible: search.v <= 0,
    };
    this.reported.push({ solution: e, at });
  }

  ask(limit: number): Ask {
    const search = this.search;
    let used = 0;
    while (used < limit) {
      if (!this.started) {
        search.start(randomSequence(this.problem, this.random));
        this.started = true;
      } else if (this.perturbing > 0) {
        search.perturb(objective);
        this.perturbing--;
      } else if (this.sinceBest >= this.patience && this.bestX) {
        search.reset(this.bestX);
        this.perturbing = this.strength;
        this.sinceBest = 0;
      } else search.step(objective, this.barrier > 0 ? this.mu() : 0);
      used++;
      this.noteBest(used);
    }
    const reported = this.reported;
    this.reported = [];
    return { candidates: [], internal: { evaluations: used, reported } };
  }

  tell(): void {}
}

/** The engine's options from the parameters (shared with barrier-mo). */
export function barrierOptions(params: ParamValues, n: number, memoryLimit: number) {
  return {
    pairShare: num(params, 'pairShare'),
    guidance: num(params, 'guidance'),
    faceAim: num(params, 'faceAim'),
    alignedKeep: num(params, 'alignedKeep'),
    penalty: num(params, 'penalty'),
    memory: num(params, 'memory'),
    memoryAge: num(params, 'memoryAge') * n,
    barrier: num(params, 'barrier') > 0,
    memoryLimit,
  };
}

/** The engine's parameters (shared with barrier-mo). */
export const BARRIER_PARAMS: readonly ParamSpec[] = [
  {
    name: 'pairShare',
    type: 'number',
    default: 0.3,
    min: 0,
    max: 1,
    description: 'Share of moves that change two neighbouring rolls at once (one evaluation).',
  },
  {
    name: 'guidance',
    type: 'number',
    default: 0.8,
    min: 0,
    max: 1,
    description: 'Share of moves aimed at positions inside a window of a pattern feature above its band.',
  },
  {
    name: 'faceAim',
    type: 'number',
    default: 0.9,
    min: 0,
    max: 1,
    description: 'Share of one-roll changes whose new face makes the neighbouring pairs what F6 and F7 want.',
  },
  {
    name: 'alignedKeep',
    type: 'number',
    default: 0.6,
    min: 0,
    max: 1,
    description:
      'While chi_2 is near its upper quantile, share of aimed faces that keep the class of the pair inside a d = 2 block and fix the pair between two blocks.',
  },
  {
    name: 'barrier',
    type: 'number',
    default: 2,
    min: 0,
    description: 'Initial weight mu of the barrier sum_d log(1 + slack_d) subtracted from the acceptance score; 0 switches it off.',
  },
  {
    name: 'barrierDecay',
    type: 'number',
    default: 50,
    min: 0,
    exclusiveMin: true,
    description: 'mu(t) = barrier / (1 + t / (barrierDecay * N)) after t evaluations.',
  },
  {
    name: 'penalty',
    type: 'number',
    default: 30,
    min: 0,
    description: 'Initial weight of the adaptive penalty f + w * violation (strategic oscillation); 0 keeps strict feasibility first.',
  },
  {
    name: 'memory',
    type: 'number',
    default: 0.9,
    min: 0,
    max: 1,
    description: 'Probability of skipping a move rejected since the last change near it (a skipped draw costs no evaluation).',
  },
  { name: 'memoryAge', type: 'number', default: 20, min: 0, description: 'A rejection is forgotten after memoryAge x N evaluations.' },
];

export const barrierLocalSearch: SolverInfo = {
  name: 'barrier-ls',
  title: 'Barrier local search (strong)',
  summary:
    'Aimed first-improvement search on the incremental evaluator with a log barrier on the constraint slack, two-roll moves and a memory of rejected moves.',
  objectives: 'single',
  baseline: false,
  requires: ['incremental'],
  params: [
    ...BARRIER_PARAMS,
    {
      name: 'patience',
      type: 'integer',
      default: (p: Problem) => 2000 * p.n,
      defaultText: '2000N',
      min: 1,
      description: 'Evaluations without a new best before returning to the best and perturbing it.',
    },
    { name: 'strength', type: 'integer', default: 8, min: 0, max: MAX_N, description: 'Random changes applied by one perturbation (one evaluation each).' },
  ],
  create: () => new BarrierLocalSearch(),
};
