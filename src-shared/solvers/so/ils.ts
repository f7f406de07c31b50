/**
 * Iterated local search (the default SO solver before barrier-ls, which builds on it).
 *
 * Local search: stochastic first improvement on the incremental evaluator with sideways moves
 * (equal quality accepted), feasibility first. A share `guidance` of the change moves is aimed
 * at positions inside a window of a pattern feature that is above its band (found by looking
 * at the faces, which costs no evaluation). Acceptance uses f + lambda * violation with lambda
 * adapted after every peek (strategic oscillation; `penalty` = 0 keeps strict feasibility
 * first). When `patience` evaluations pass without a strictly improving move, the search
 * returns to the best solution and perturbs it with `strength` random changes (each counted as
 * one evaluation), then continues. While oscillating, strictly improving moves (on the
 * acceptance score) keep coming, so perturbations are rare; perturbing every `patience`
 * evaluations without a new best was tried and did worse (207 against 200 at N = 840 after
 * 1,000,000 evaluations).
 */
import { Random } from '../../random.ts';
import type { DiceState } from '../../problems/dice/incremental.ts';
import { asDiceProblem } from '../../problems/dice/problem.ts';
import { MAX_N } from '../../problems/dice/config.ts';
import { num, str } from '../../core/params.ts';
import type { Ask, Solver, SolverInfo } from '../types.ts';
import type { ParamValues } from '../../core/params.ts';
import type { Problem } from '../../core/problem.ts';
import { BestTracker, LocalSearch, neighbourhoodParam, randomSequence, swapShareParam, type Move, type Neighbourhood } from './local.ts';
import { aboveBandMask, inCostlyWindow } from './patterns.ts';

const AIM_TRIES = 16;

class IteratedLocalSearch implements Solver {
  private problem!: Problem;
  private random!: Random;
  private ls: LocalSearch | null = null;
  private neighbourhood!: Neighbourhood;
  private swapShare = 0;
  private guidance = 0;
  private patience = 0;
  private strength = 0;
  private lambda = 0;
  private oscillation = false;
  private sinceImprovement = 0;
  private perturbing = 0;
  private bestX: Uint8Array | null = null;
  private beta!: Float64Array;
  /** Bit k set: F6 + k is part of the objective. */
  private relevant = 0;
  private faces!: Uint8Array;
  private readonly best = new BestTracker();
  private readonly move: Move = { p: 0, q: -1, face: 1 };

  setup(problem: Problem, params: ParamValues, seed: number): void {
    this.problem = problem;
    this.random = Random.fromSeed(seed);
    this.neighbourhood = str(params, 'neighbourhood') as Neighbourhood;
    this.swapShare = num(params, 'swapShare');
    this.guidance = num(params, 'guidance');
    this.patience = num(params, 'patience');
    this.strength = num(params, 'strength');
    this.lambda = num(params, 'penalty');
    this.oscillation = this.lambda > 0;
    // Aiming at costly windows needs the dice features; on any other problem every move is random.
    const dice = asDiceProblem(problem);
    this.beta = Float64Array.from(dice ? dice.config.beta : []);
    // Only the pattern features the objective sums are worth aiming at.
    this.relevant = 0;
    for (const f of dice?.config.objectives[0] ?? []) if (f >= 6) this.relevant |= 1 << (f - 6);
  }

  /** A change aimed at a costly window (or a plain random move). */
  private propose(ls: LocalSearch): void {
    const m = this.move;
    if (this.neighbourhood !== 'swap' && this.random.chance(this.guidance)) {
      const above = this.relevant && aboveBandMask((ls.state as DiceState).values.features, this.beta) & this.relevant;
      if (above) {
        // The faces mirror the state; refreshed lazily (commits go through apply()).
        const x = this.faces;
        for (let t = 0; t < AIM_TRIES; t++) {
          const p = this.random.below(ls.n);
          if (inCostlyWindow(x, p, above)) {
            m.p = p;
            m.q = -1;
            const face = this.random.int(1, 5);
            m.face = face >= x[p] ? face + 1 : face;
            return;
          }
        }
      }
    }
    ls.randomMove(this.random, this.neighbourhood, this.swapShare, m);
  }

  private commit(ls: LocalSearch, m: Move): void {
    ls.apply(m);
    if (m.q < 0) this.faces[m.p] = m.face;
    else {
      const t = this.faces[m.p];
      this.faces[m.p] = this.faces[m.q];
      this.faces[m.q] = t;
    }
  }

  ask(limit: number): Ask {
    let used = 0;
    while (used < limit) {
      if (!this.ls) {
        const x = randomSequence(this.problem, this.random);
        this.ls = new LocalSearch(this.problem, x);
        this.faces = x.slice();
        used++;
      } else if (this.perturbing > 0) {
        const ls = this.ls;
        ls.randomMove(this.random, 'change', 0, this.move);
        this.commit(ls, this.move);
        used++;
        this.perturbing--;
      } else if (this.sinceImprovement >= this.patience && this.bestX) {
        this.ls.reset(this.bestX);
        this.faces.set(this.bestX);
        used++;
        this.sinceImprovement = 0;
        this.perturbing = this.strength;
      } else {
        const ls = this.ls;
        this.propose(ls);
        ls.peek(this.move);
        used++;
        let c = ls.comparePeek();
        if (this.oscillation) {
          const d = ls.peekF + this.lambda * ls.peekV - (ls.f + this.lambda * ls.v);
          c = d < 0 ? -1 : d > 0 ? 1 : c;
          // Strategic oscillation: tighten the penalty while infeasible, relax it while feasible.
          this.lambda *= ls.v > 0 ? 1.001 : 0.9995;
        }
        if (c <= 0) this.commit(ls, this.move);
        this.sinceImprovement = c < 0 ? 0 : this.sinceImprovement + 1;
      }
      if (this.best.better(this.ls.f, this.ls.v)) {
        this.best.record(this.ls, used);
        this.bestX = this.faces.slice();
        this.sinceImprovement = 0;
      }
    }
    return { candidates: [], internal: { evaluations: used, reported: this.best.take() } };
  }

  tell(): void {}
}

export const iteratedLocalSearch: SolverInfo = {
  name: 'ils',
  title: 'Iterated local search',
  summary: 'Aimed first-improvement search with sideways moves on the incremental evaluator; perturbs the best when stuck.',
  objectives: 'single',
  baseline: false,
  requires: ['incremental'],
  params: [
    { ...neighbourhoodParam, default: 'change' },
    { ...swapShareParam, default: 0.1 },
    { name: 'guidance', type: 'number', default: 0.8, min: 0, max: 1, description: 'Share of change moves aimed at positions inside a window of a pattern feature above its band.' },
    {
      name: 'patience',
      type: 'integer',
      default: (p: Problem) => 20 * p.n,
      defaultText: '20N',
      min: 1,
      description: 'Evaluations without a strictly improving move (on the acceptance score) before returning to the best and perturbing it.',
    },
    { name: 'penalty', type: 'number', default: 30, min: 0, description: 'Initial weight of an adaptive penalty f + w * violation (strategic oscillation); 0 keeps strict feasibility first.' },
    { name: 'strength', type: 'integer', default: 8, min: 0, max: MAX_N, description: 'Random changes applied by one perturbation (one evaluation each).' },
  ],
  create: () => new IteratedLocalSearch(),
};
