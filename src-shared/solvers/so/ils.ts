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
import { dicePublicInfo, type ObservableValues } from '../../problems/dice/blind.ts';
import { MAX_N } from '../../problems/dice/config.ts';
import { bandKnowledge, type BandKnowledge } from '../bands.ts';
import { num, str } from '../../core/params.ts';
import type { SolverInfo } from '../types.ts';
import type { ParamValues } from '../../core/params.ts';
import type { Problem } from '../../core/problem.ts';
import { LocalSearch, LocalSearchSolver, neighbourhoodParam, randomSequence, swapShareParam, type Move, type Neighbourhood } from './local.ts';
import { aboveBandMask, inCostlyWindow } from './patterns.ts';

const AIM_TRIES = 16;

class IteratedLocalSearch extends LocalSearchSolver {
  private guidance = 0;
  private patience = 0;
  private strength = 0;
  private lambda = 0;
  private oscillation = false;
  private sinceImprovement = 0;
  private perturbing = 0;
  private bestX: Uint8Array | null = null;
  private beta!: Float64Array;
  /** The bands aimed with: the config's, or learnt from the answers on a blind problem. */
  private bands: BandKnowledge | null = null;
  private learning = false;
  /** Bit k set: F6 + k is part of the objective. */
  private relevant = 0;
  private faces!: Uint8Array;

  protected configure(params: ParamValues, problem: Problem): void {
    this.neighbourhood = str(params, 'neighbourhood') as Neighbourhood;
    this.swapShare = num(params, 'swapShare');
    this.guidance = num(params, 'guidance');
    this.patience = num(params, 'patience');
    this.strength = num(params, 'strength');
    this.lambda = num(params, 'penalty');
    this.oscillation = this.lambda > 0;
    // Aiming at costly windows needs the dice features; on any other problem every move is random.
    const info = dicePublicInfo(problem);
    this.bands = bandKnowledge(problem);
    this.learning = this.bands?.learning ?? false;
    this.beta = this.bands ? this.bands.beta : new Float64Array(0);
    // Only the pattern features the objective sums are worth aiming at.
    this.relevant = 0;
    for (const f of info?.config.objectives[0] ?? []) if (f >= 6) this.relevant |= 1 << (f - 6);
  }

  /** A change aimed at a costly window (or a plain random move). */
  private propose(ls: LocalSearch): void {
    const m = this.move;
    if (this.neighbourhood !== 'swap' && this.random.chance(this.guidance)) {
      const above = this.relevant && aboveBandMask((ls.state.values as ObservableValues).features, this.beta) & this.relevant;
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

  protected override start(): LocalSearch {
    const x = randomSequence(this.problem, this.random);
    const ls = new LocalSearch(this.problem, x);
    this.faces = x.slice();
    if (this.learning) this.bands!.observe(ls.state.values as ObservableValues);
    return ls;
  }

  protected step(ls: LocalSearch): boolean {
    if (this.perturbing > 0) {
      ls.randomMove(this.random, 'change', 0, this.move);
      this.commit(ls, this.move);
      if (this.learning) this.bands!.observe(ls.state.values as ObservableValues);
      this.perturbing--;
    } else if (this.sinceImprovement >= this.patience && this.bestX) {
      ls.reset(this.bestX);
      if (this.learning) this.bands!.observe(ls.state.values as ObservableValues);
      this.faces.set(this.bestX);
      this.sinceImprovement = 0;
      this.perturbing = this.strength;
    } else {
      this.propose(ls);
      const values = ls.peek(this.move);
      if (this.learning) this.bands!.observe(values as ObservableValues);
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
    return true;
  }

  protected override improved(): void {
    this.bestX = this.faces.slice();
    this.sinceImprovement = 0;
  }
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
    {
      name: 'guidance',
      type: 'number',
      default: 0.8,
      min: 0,
      max: 1,
      description: 'Share of change moves aimed at positions inside a window of a pattern feature above its band.',
    },
    {
      name: 'patience',
      type: 'integer',
      default: (p: Problem) => 20 * p.n,
      defaultText: '20N',
      min: 1,
      description: 'Evaluations without a strictly improving move (on the acceptance score) before returning to the best and perturbing it.',
    },
    {
      name: 'penalty',
      type: 'number',
      default: 30,
      min: 0,
      description: 'Initial weight of an adaptive penalty f + w * violation (strategic oscillation); 0 keeps strict feasibility first.',
    },
    { name: 'strength', type: 'integer', default: 8, min: 0, max: MAX_N, description: 'Random changes applied by one perturbation (one evaluation each).' },
  ],
  create: () => new IteratedLocalSearch(),
};
