/**
 * Tabu search on the incremental evaluator. Each iteration peeks `sampleSize` random moves
 * (changes and/or swaps) and makes the best one by the feasibility-first order, even when it
 * is worse than the current point. Positions just changed are tabu for `tenure` iterations; a
 * tabu move is admissible only when it beats the best solution found (aspiration).
 */
import { compareScalar } from '../constraints.ts';
import { MAX_N } from '../../problems/dice/config.ts';
import { num, str } from '../../core/params.ts';
import type { SolverInfo } from '../types.ts';
import type { ParamValues } from '../../core/params.ts';
import type { Problem } from '../../core/problem.ts';
import { LocalSearch, LocalSearchSolver, neighbourhoodParam, swapShareParam, type Move, type Neighbourhood } from './local.ts';

class Tabu extends LocalSearchSolver {
  private sampleSize = 0;
  private tenure = 0;
  private iteration = 0;
  private tabuUntil!: Int32Array;
  private sampled = 0;
  private chosen: Move | null = null;
  private chosenF = 0;
  private chosenV = 0;

  protected configure(params: ParamValues, problem: Problem): void {
    this.neighbourhood = str(params, 'neighbourhood') as Neighbourhood;
    this.swapShare = num(params, 'swapShare');
    this.sampleSize = num(params, 'sampleSize');
    this.tenure = num(params, 'tenure');
    this.tabuUntil = new Int32Array(problem.n);
  }

  private isTabu(m: Move): boolean {
    return this.tabuUntil[m.p] > this.iteration || (m.q >= 0 && this.tabuUntil[m.q] > this.iteration);
  }

  protected step(ls: LocalSearch): boolean {
    ls.randomMove(this.random, this.neighbourhood, this.swapShare, this.move);
    ls.peek(this.move);
    this.sampled++;
    const admissible = !this.isTabu(this.move) || this.best.better(ls.peekF, ls.peekV);
    if (admissible && (this.chosen === null || compareScalar(ls.peekF, ls.peekV, this.chosenF, this.chosenV) < 0)) {
      this.chosen = { ...this.move };
      this.chosenF = ls.peekF;
      this.chosenV = ls.peekV;
    }
    if (this.sampled < this.sampleSize) return false;
    // End of an iteration: make the chosen move, even when it is worse.
    this.iteration++;
    if (this.chosen) {
      ls.apply(this.chosen);
      this.tabuUntil[this.chosen.p] = this.iteration + this.tenure;
      if (this.chosen.q >= 0) this.tabuUntil[this.chosen.q] = this.iteration + this.tenure;
    }
    this.sampled = 0;
    this.chosen = null;
    return true;
  }
}

export const tabu: SolverInfo = {
  name: 'tabu',
  title: 'Tabu search',
  summary: 'Best of a sample of moves each iteration, recently changed positions tabu, aspiration by the best.',
  objectives: 'single',
  baseline: false,
  requires: ['incremental'],
  params: [
    neighbourhoodParam,
    swapShareParam,
    { name: 'sampleSize', type: 'integer', default: 50, min: 1, description: 'Moves peeked per iteration (one evaluation each).' },
    // At most MAX_N: tabuUntil holds iteration + tenure in 32 bits, which a run's iterations (at most 10^9) plus 10^7 never overflow.
    { name: 'tenure', type: 'integer', default: 10, min: 0, max: MAX_N, description: 'Iterations a changed position stays tabu.' },
  ],
  create: () => new Tabu(),
};
