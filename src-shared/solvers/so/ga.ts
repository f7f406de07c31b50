/**
 * The textbook genetic algorithm, kept as a baseline: a generational GA with a population of
 * 100, tournament selection of size 3, two-point crossover with probability 0.9, uniform
 * integer mutation (each roll replaced by a uniform face with probability 1/N), elitism of 1,
 * and a static penalty: fitness = f + penalty * total normalised violation.
 *
 * The driver evaluates the candidates; a generation may span several steps (offspring are
 * generated in order from the same parents, so the result does not depend on step sizes).
 */
import { Random } from '../../random.ts';
import { compareEvaluated, penalised } from '../constraints.ts';
import { num, ParamError } from '../../core/params.ts';
import type { Ask, Evaluated, Solver, SolverInfo } from '../types.ts';
import type { ParamValues } from '../../core/params.ts';
import type { Problem } from '../../core/problem.ts';
import { randomSequence } from './local.ts';

class GeneticAlgorithm implements Solver {
  private problem!: Problem;
  private random!: Random;
  private size = 100;
  private tournament = 3;
  private crossover = 0.9;
  private mutation = 0;
  private penalty = 0;
  private elitism = 1;
  private population: Evaluated[] = [];
  private fitness: number[] = [];
  private offspring: Evaluated[] = [];
  /** Children made but not yet asked (the second child of a crossover). */
  private queue: Uint8Array[] = [];

  setup(problem: Problem, params: ParamValues, seed: number): void {
    this.problem = problem;
    this.random = Random.fromSeed(seed);
    this.size = num(params, 'populationSize');
    this.tournament = num(params, 'tournamentSize');
    this.crossover = num(params, 'crossoverRate');
    this.mutation = num(params, 'mutationRate');
    this.penalty = num(params, 'penalty');
    const elitism = num(params, 'elitism');
    // A generation keeps `elitism` parents and breeds the rest: at least one child is needed.
    if (elitism >= this.size) throw new ParamError('ga', 'elitism', `must be less than populationSize (${this.size}), got ${elitism}`);
    this.elitism = elitism;
  }

  private fitnessOf(e: Evaluated): number {
    return penalised(e.F[0], e.violation, this.penalty);
  }

  private select(): Evaluated {
    let best = this.random.below(this.population.length);
    for (let k = 1; k < this.tournament; k++) {
      const c = this.random.below(this.population.length);
      if (this.fitness[c] < this.fitness[best]) best = c;
    }
    return this.population[best];
  }

  private mutate(x: Uint8Array): void {
    for (let i = 0; i < x.length; i++) if (this.random.chance(this.mutation)) x[i] = this.random.int(1, 6);
  }

  private breed(): void {
    const a = this.select().x.slice();
    const b = this.select().x.slice();
    const n = a.length;
    if (n > 1 && this.random.chance(this.crossover)) {
      let i = this.random.int(0, n);
      let j = this.random.int(0, n);
      if (i > j) [i, j] = [j, i];
      for (let k = i; k < j; k++) {
        const t = a[k];
        a[k] = b[k];
        b[k] = t;
      }
    }
    this.mutate(a);
    this.mutate(b);
    this.queue.push(a, b);
  }

  private inInitialPopulation(): boolean {
    return this.population.length < this.size && this.fitness.length === 0;
  }

  ask(limit: number): Ask {
    const candidates: Uint8Array[] = [];
    if (this.inInitialPopulation()) {
      const count = Math.min(limit, this.size - this.population.length);
      for (let c = 0; c < count; c++) candidates.push(randomSequence(this.problem, this.random));
      return { candidates };
    }
    const count = Math.min(limit, this.size - this.elitism - this.offspring.length);
    while (candidates.length < count) {
      if (this.queue.length === 0) this.breed();
      candidates.push(this.queue.shift()!);
    }
    return { candidates };
  }

  tell(evaluated: readonly Evaluated[]): void {
    if (this.inInitialPopulation()) {
      this.population.push(...evaluated);
      if (this.population.length === this.size) this.rank(this.population);
      return;
    }
    this.offspring.push(...evaluated);
    if (this.offspring.length < this.size - this.elitism) return;
    // Elites: the best of the old population by penalised fitness (feasibility first on ties).
    const elites = this.population.slice(0, this.elitism);
    this.queue = []; // a generation's spare child is dropped
    this.rank(elites.concat(this.offspring));
    this.offspring = [];
  }

  /** Sorts by penalised fitness (stable), and caches the fitness. */
  private rank(members: Evaluated[]): void {
    const keyed = members.map((e, i) => ({ e, i, fit: this.fitnessOf(e) }));
    keyed.sort((p, q) => p.fit - q.fit || compareEvaluated(p.e, q.e) || p.i - q.i);
    this.population = keyed.map((k) => k.e);
    this.fitness = keyed.map((k) => k.fit);
  }
}

export const geneticAlgorithm: SolverInfo = {
  name: 'ga',
  title: 'Textbook genetic algorithm',
  summary: 'Generational GA: population 100, tournament 3, two-point crossover 0.9, uniform mutation 1/N, static penalty.',
  objectives: 'single',
  baseline: true,
  params: [
    { name: 'populationSize', type: 'integer', default: 100, min: 2, max: 100000, description: 'Individuals per generation.' },
    { name: 'tournamentSize', type: 'integer', default: 3, min: 1, max: 1000, description: 'Individuals drawn per tournament (the fittest wins).' },
    {
      name: 'crossoverRate',
      type: 'number',
      default: 0.9,
      min: 0,
      max: 1,
      description: 'Probability that a pair of parents is recombined by two-point crossover.',
    },
    {
      name: 'mutationRate',
      type: 'number',
      default: (p: Problem) => 1 / p.n,
      defaultText: '1/N',
      min: 0,
      max: 1,
      description: 'Probability per roll of replacing it by a uniformly random face (which may equal the old one).',
    },
    { name: 'penalty', type: 'number', default: 100, min: 0, description: 'Fitness = f + penalty * total normalised violation.' },
    { name: 'elitism', type: 'integer', default: 1, min: 0, description: 'Best individuals copied unchanged into the next generation.' },
  ],
  create: () => new GeneticAlgorithm(),
};
