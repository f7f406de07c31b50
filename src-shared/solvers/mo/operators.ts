/**
 * Shared pieces of the multi-objective solvers: variation operators on die sequences, the
 * generational ask/tell loop, constrained ranking with crowding, and Das-Dennis weights.
 */
import { constrainedNonDominatedSort, crowdingDistance } from '../../metrics/dominance.ts';
import { Random } from '../../random.ts';
import type { Ask, Evaluated, Solver } from '../types.ts';
import type { ParamSpec, ParamValues } from '../../core/params.ts';
import type { Problem } from '../../core/problem.ts';

export function randomSequence(problem: Problem, random: Random): Uint8Array {
  const x = new Uint8Array(problem.n);
  for (let i = 0; i < x.length; i++) x[i] = random.int(problem.lower, problem.upper);
  return x;
}

/** Two-point crossover in place: the segment [a, b) is exchanged between x and y. */
export function twoPointCrossover(x: Uint8Array, y: Uint8Array, random: Random): void {
  const n = x.length;
  if (n < 2) return;
  let a = random.below(n + 1);
  let b = random.below(n + 1);
  if (a > b) [a, b] = [b, a];
  for (let i = a; i < b; i++) {
    const t = x[i];
    x[i] = y[i];
    y[i] = t;
  }
}

/** Uniform integer mutation: each position is redrawn uniformly in [lower, upper] with probability `rate`. */
export function uniformMutation(x: Uint8Array, rate: number, problem: Problem, random: Random): void {
  for (let i = 0; i < x.length; i++) if (random.chance(rate)) x[i] = random.int(problem.lower, problem.upper);
}

/**
 * One generation of offspring, as NSGA-II and NSGA-III make it: two parents from `select`,
 * two-point crossover with probability `crossoverRate`, uniform mutation of both children,
 * until there are `count` children (the second child of the last pair is dropped when `count`
 * is odd). Random draws come in this order, so a seed gives the same offspring every time.
 */
export function generationOffspring(
  count: number,
  select: () => Evaluated,
  crossoverRate: number,
  mutationRate: number,
  problem: Problem,
  random: Random,
): Uint8Array[] {
  const children: Uint8Array[] = [];
  while (children.length < count) {
    const x = select().x.slice();
    const y = select().x.slice();
    if (random.chance(crossoverRate)) twoPointCrossover(x, y, random);
    uniformMutation(x, mutationRate, problem, random);
    uniformMutation(y, mutationRate, problem, random);
    children.push(x);
    if (children.length < count) children.push(y);
  }
  return children;
}

/** Objective vectors as plain arrays (the metrics work on number[]). */
export function objectivesOf(population: readonly Evaluated[]): number[][] {
  return population.map((e) => Array.from(e.F));
}

export interface Ranked {
  /** Constrained non-domination rank (0 = best). */
  rank: number[];
  /** Crowding distance within the member's front. */
  crowding: number[];
}

/** Constrained non-dominated sort (feasibility first, then normalised violation, then Pareto) plus crowding. */
export function rankAndCrowd(population: readonly Evaluated[]): Ranked & { fronts: number[][] } {
  const points = objectivesOf(population);
  const fronts = constrainedNonDominatedSort(
    points,
    population.map((e) => e.violation),
  );
  const rank = new Array<number>(population.length).fill(0);
  const crowding = new Array<number>(population.length).fill(0);
  fronts.forEach((front, r) => {
    const cd = crowdingDistance(front.map((i) => points[i]));
    front.forEach((i, j) => {
      rank[i] = r;
      crowding[i] = cd[j];
    });
  });
  return { fronts, rank, crowding };
}

/**
 * Das and Dennis (1998) structured weights: every vector of M non-negative multiples of 1/H
 * summing to 1; C(H + M − 1, M − 1) of them.
 */
export function dasDennis(m: number, divisions: number): number[][] {
  if (!Number.isInteger(m) || m < 1) throw new RangeError(`objective count must be a positive integer, got ${m}`);
  if (!Number.isInteger(divisions) || divisions < 1) throw new RangeError(`divisions must be a positive integer, got ${divisions}`);
  const out: number[][] = [];
  const current = new Array<number>(m).fill(0);
  const fill = (k: number, left: number): void => {
    if (k === m - 1) {
      current[k] = left / divisions;
      out.push([...current]);
      return;
    }
    for (let v = left; v >= 0; v--) {
      current[k] = v / divisions;
      fill(k + 1, left - v);
    }
  };
  fill(0, divisions);
  return out;
}

/** Number of Das-Dennis vectors: C(H + M − 1, M − 1). */
export function dasDennisCount(m: number, divisions: number): number {
  let c = 1;
  for (let i = 1; i <= m - 1; i++) c = (c * (divisions + i)) / i;
  return Math.round(c);
}

/**
 * The generational loop shared by NSGA-II and NSGA-III. A whole generation of candidates is
 * made at once and handed out in slices of at most `limit`, so the result never depends on how
 * the driver sizes its steps; survival runs when the last slice is told.
 */
export abstract class GenerationalSolver implements Solver {
  protected problem!: Problem;
  protected random!: Random;
  protected population: Evaluated[] = [];
  private pending: Uint8Array[] = [];
  private handedOut = 0;
  private received: Evaluated[] = [];

  setup(problem: Problem, params: ParamValues, seed: number): void {
    this.problem = problem;
    this.random = Random.fromSeed(seed);
    this.population = [];
    this.pending = [];
    this.handedOut = 0;
    this.received = [];
    this.configure(params);
  }

  protected abstract configure(params: ParamValues): void;
  protected abstract populationSize(): number;
  /** The next generation's candidates, made from this.population. */
  protected abstract offspring(): Uint8Array[];
  /** Selects the next population from parents + offspring (or from the initial sample). */
  protected abstract survive(pool: Evaluated[], initial: boolean): Evaluated[];

  ask(limit: number): Ask {
    if (this.handedOut >= this.pending.length) {
      this.pending =
        this.population.length === 0 ? Array.from({ length: this.populationSize() }, () => randomSequence(this.problem, this.random)) : this.offspring();
      this.handedOut = 0;
      this.received = [];
    }
    const candidates = this.pending.slice(this.handedOut, this.handedOut + limit);
    this.handedOut += candidates.length;
    return { candidates };
  }

  tell(evaluated: readonly Evaluated[]): void {
    for (const e of evaluated) this.received.push(e);
    if (this.received.length < this.pending.length) return;
    const initial = this.population.length === 0;
    this.population = this.survive(initial ? this.received : [...this.population, ...this.received], initial);
  }
}

// Parameter specs used by more than one solver.
export const populationParam = (defaultSize: number | ((p: Problem) => number), defaultText?: string): ParamSpec => ({
  name: 'populationSize',
  type: 'integer',
  default: defaultSize,
  defaultText,
  min: 4,
  max: 100000,
  description: 'Individuals per generation (parents and offspring each).',
});
export const crossoverParam: ParamSpec = {
  name: 'crossoverRate',
  type: 'number',
  default: 0.9,
  min: 0,
  max: 1,
  description: 'Probability that a pair of parents is recombined by two-point crossover.',
};
export const mutationParam: ParamSpec = {
  name: 'mutationRate',
  type: 'number',
  default: (p: Problem) => 1 / p.n,
  defaultText: '1/N',
  min: 0,
  max: 1,
  description: 'Probability that each roll is redrawn uniformly (uniform integer mutation).',
};
