/**
 * MOEA/D-LS: a memetic decomposition solver built for the dice problem's incremental evaluator.
 *
 * The M-objective problem is split into K scalar subproblems (Das-Dennis weights w_i, as in
 * MOEA/D: Q. Zhang, H. Li, IEEE TEVC 11(6), 2007). Each subproblem owns one incumbent sequence
 * held in a DiceState, and improves it by local search over single-roll changes and swaps,
 * every move answered in O(1) by DiceState.peekSet / peekSwap (one evaluation each). A move is
 * accepted when it is no worse for the subproblem, feasibility first:
 *   - both feasible: augmented Tchebycheff  g(F) = max_k w_k f'_k + rho * sum_k w_k f'_k,
 *     f'_k = (F_k - z_k) / s_k, z the best feasible value seen per objective and s_k the spread
 *     of the incumbents (max_i F_ik - z_k), so no objective's scale dominates;
 *   - otherwise the smaller total normalised violation, then g.
 * Sideways moves (equal g) are accepted, which lets a search cross the problem's plateaus.
 * Subproblems take turns, `burst` moves each. After its burst, a subproblem offers its incumbent
 * to its T nearest neighbours (by weight); up to `replacements` of them adopt it when it is
 * strictly better for them. An adoption rebuilds the neighbour's DiceState and counts as one
 * evaluation, so every objective computation is in the budget.
 * Every accepted feasible move that enters the solver's own non-dominated archive is reported to
 * the driver, which keeps the run's front.
 *
 * The order of operations depends only on the seed: a step just runs the next `limit` of them.
 */
import { ParetoArchive } from '../../metrics/archive.ts';
import { incrementalState } from '../../core/problem.ts';
import { Random } from '../../random.ts';
import { totalViolation } from '../constraints.ts';
import { ParamError, num } from '../../core/params.ts';
import type { Ask, Evaluated, Reported, Solver, SolverInfo } from '../types.ts';
import type { ParamValue, ParamValues } from '../../core/params.ts';
import type { IncrementalState, Problem } from '../../core/problem.ts';
import { dasDennis, dasDennisCount, randomSequence } from './operators.ts';

/** Default divisions per M: 20, 21, 20, 15, 21, 28 subproblems for M = 2..7. */
export function defaultSubproblemDivisions(m: number): number {
  return ({ 2: 19, 3: 5, 4: 3, 5: 2, 6: 2, 7: 2 } as Record<number, number>)[m] ?? 1;
}

interface Subproblem {
  weight: Float64Array;
  state: IncrementalState;
  F: Float64Array;
  violation: number;
  /** Indices of the T nearest subproblems by weight distance (itself excluded). */
  neighbours: number[];
}

class MoeadLs implements Solver {
  private problem!: Problem;
  private random!: Random;
  private weights: number[][] = [];
  private divisions = 1;
  private maxDivisions = 1;
  private growAfter = 2000;
  private movesSinceGrowth = 0;
  private neighbourLimit = 4;
  private subs: Subproblem[] = [];
  private burst = 50;
  private swapShare = 0.3;
  private rho = 0.05;
  private replacements = 2;
  private ideal!: Float64Array;
  private scale!: Float64Array;
  private archive = new ParetoArchive();
  private turn = 0;
  private movesLeft = 0;
  /** Work decided at the end of a burst (adoptions, refinement), one evaluation per entry. */
  private queue: (() => void)[] = [];
  /** Initial candidates asked for and those evaluated so far (the start may span steps). */
  private initAsked = 0;
  private pendingInit: Evaluated[] = [];

  setup(problem: Problem, params: ParamValues, seed: number): void {
    this.problem = problem;
    this.random = Random.fromSeed(seed);
    const m = problem.objectiveCount;
    this.maxDivisions = num(params, 'maxDivisions') || defaultSubproblemDivisions(m);
    const count = dasDennisCount(m, this.maxDivisions);
    if (count > 1000) throw new ParamError('moead-ls', 'maxDivisions', `gives ${count} subproblems at M = ${m}; at most 1000`);
    this.divisions = 1;
    this.weights = dasDennis(m, this.divisions);
    this.growAfter = num(params, 'growAfter');
    this.movesSinceGrowth = 0;
    this.neighbourLimit = num(params, 'neighbours');
    this.burst = num(params, 'burst');
    this.swapShare = num(params, 'swapShare');
    this.rho = num(params, 'rho');
    this.replacements = num(params, 'replacements');
    this.ideal = new Float64Array(m).fill(Infinity);
    this.scale = new Float64Array(m).fill(1);
    this.subs = [];
    this.archive = new ParetoArchive();
    this.turn = 0;
    this.movesLeft = this.burst;
    this.queue = [];
    this.pendingInit = [];
    this.initAsked = 0;
  }

  /** maxDivisions given as 0 (automatic) as used at this M. */
  effectiveParams(): Record<string, ParamValue> {
    return { maxDivisions: this.maxDivisions };
  }

  ask(limit: number): Ask {
    if (this.subs.length === 0) {
      // The initial incumbents: K random sequences, evaluated by the driver.
      const count = Math.min(limit, this.weights.length - this.initAsked);
      this.initAsked += count;
      return { candidates: Array.from({ length: count }, () => randomSequence(this.problem, this.random)) };
    }
    const reported: Reported[] = [];
    let spent = 0;
    while (spent < limit) {
      spent++;
      if (this.queue.length > 0) {
        this.queue.shift()!();
        continue;
      }
      const found = this.move(this.subs[this.turn]);
      this.movesSinceGrowth++;
      if (found) reported.push({ solution: found, at: spent });
      if (--this.movesLeft === 0) this.endBurst();
    }
    return { candidates: [], internal: { evaluations: spent, reported } };
  }

  tell(evaluated: readonly Evaluated[]): void {
    if (this.subs.length > 0 || evaluated.length === 0) return;
    // Initialisation may arrive in several steps when the limit is small; collect until K.
    for (const e of evaluated) this.pendingInit.push(e);
    if (this.pendingInit.length < this.weights.length) return;
    this.initialise(this.pendingInit);
    this.pendingInit = [];
  }

  private initialise(initial: Evaluated[]): void {
    const m = this.problem.objectiveCount;
    this.subs = initial.map((e, i) => this.subproblem(i, incrementalState(this.problem, e.x), e.F, e.violation));
    for (const e of initial) this.observe(e.F, e.feasible);
    for (const e of initial) if (e.feasible) this.archive.insert(Array.from(e.F), undefined);
    if (!initial.some((e) => e.feasible)) for (const e of initial) for (let k = 0; k < m; k++) this.ideal[k] = Math.min(this.ideal[k], e.F[k]);
    this.updateScale();
  }

  private subproblem(i: number, state: IncrementalState, F: ArrayLike<number>, violation: number): Subproblem {
    const w = this.weights;
    const order = w.map((_, j) => j).filter((j) => j !== i);
    const dist = (j: number) => w[j].reduce((s, v, k) => s + (v - w[i][k]) ** 2, 0);
    order.sort((a, b) => dist(a) - dist(b) || a - b);
    return {
      weight: Float64Array.from(w[i], (v) => Math.max(v, 1e-4)),
      state,
      F: Float64Array.from(F),
      violation,
      neighbours: order.slice(0, Math.min(this.neighbourLimit, w.length - 1)),
    };
  }

  /** Keeps z (best feasible value per objective). */
  private observe(F: ArrayLike<number>, feasible: boolean): void {
    if (!feasible) return;
    for (let k = 0; k < F.length; k++) if (F[k] < this.ideal[k]) this.ideal[k] = F[k];
  }

  private updateScale(): void {
    const m = this.problem.objectiveCount;
    for (let k = 0; k < m; k++) {
      let worst = -Infinity;
      for (const s of this.subs) if (s.F[k] > worst) worst = s.F[k];
      const spread = worst - this.ideal[k];
      this.scale[k] = spread > 1e-9 ? spread : 1;
    }
  }

  private scalar(F: ArrayLike<number>, weight: Float64Array): number {
    let max = -Infinity;
    let sum = 0;
    for (let k = 0; k < weight.length; k++) {
      const t = (weight[k] * (F[k] - this.ideal[k])) / this.scale[k];
      if (t > max) max = t;
      sum += t;
    }
    return max + this.rho * sum;
  }

  /** Feasibility-first "no worse" (strict: "better") than the subproblem's incumbent. */
  private better(F: ArrayLike<number>, violation: number, sub: Subproblem, strict: boolean): boolean {
    return this.betterFor(sub.weight, F, violation, sub.F, sub.violation, strict);
  }

  /** Whether (F, violation) is no worse (strict: better) than (G, gv) under a weight, feasibility first. */
  private betterFor(weight: Float64Array, F: ArrayLike<number>, violation: number, G: ArrayLike<number>, gv: number, strict: boolean): boolean {
    if ((violation > 0 || gv > 0) && violation !== gv) return violation < gv;
    const a = this.scalar(F, weight);
    const b = this.scalar(G, weight);
    return strict ? a < b : a <= b;
  }

  /** One local-search move (one evaluation); returns the solution to report, if any. */
  private move(sub: Subproblem): Evaluated | null {
    const { state } = sub;
    const n = this.problem.n;
    let p = this.random.below(n);
    let swapWith = -1;
    let face = 0;
    if (n > 1 && this.random.chance(this.swapShare)) {
      // a swap of two different faces (redrawing positions costs no evaluation)
      for (let tries = 0; tries < 8 && swapWith < 0; tries++) {
        const q = this.random.below(n);
        if (state.face(q) !== state.face(p)) swapWith = q;
        else p = this.random.below(n);
      }
    }
    if (swapWith < 0) {
      face = this.random.int(1, 5);
      if (face >= state.face(p)) face++;
    }
    const values = swapWith >= 0 ? state.peekSwap(p, swapWith) : state.peekSet(p, face);
    const violation = totalViolation(values.constraints, this.problem.constraintScales);
    const feasible = violation <= 0;
    this.observe(values.objectives, feasible);
    if (!this.better(values.objectives, violation, sub, false)) return null;
    sub.F.set(values.objectives);
    if (swapWith >= 0) state.swap(p, swapWith);
    else state.set(p, face);
    sub.violation = violation;
    if (!feasible || !this.archive.insert(Array.from(sub.F), undefined)) return null;
    // After the commit the state's values are the peeked ones.
    return { x: state.sequence(), F: sub.F.slice(), G: Float64Array.from(state.values.constraints), violation, feasible };
  }

  private endBurst(): void {
    this.updateScale();
    const i = this.turn;
    const sub = this.subs[i];
    const order = this.random.shuffle([...sub.neighbours]);
    let adopted = 0;
    for (const j of order) {
      if (adopted >= this.replacements) break;
      if (this.better(sub.F, sub.violation, this.subs[j], true)) {
        this.queue.push(() => this.adopt(i, j));
        adopted++;
      }
    }
    this.turn = (this.turn + 1) % this.subs.length;
    this.movesLeft = this.burst;
    if (this.turn === 0 && this.divisions < this.maxDivisions && this.movesSinceGrowth >= this.growAfter * this.subs.length) this.refine();
  }

  /**
   * Moves to the next finer set of weights (divisions + 1). Each new subproblem starts from the
   * current incumbent that is best for its weight; building its state is one evaluation.
   */
  private refine(): void {
    this.divisions++;
    this.movesSinceGrowth = 0;
    const old = this.subs;
    this.weights = dasDennis(this.problem.objectiveCount, this.divisions);
    const next: Subproblem[] = new Array(this.weights.length);
    this.weights.forEach((_, i) => {
      this.queue.push(() => {
        const weight = Float64Array.from(this.weights[i], (v) => Math.max(v, 1e-4));
        let source = old[0];
        for (const o of old) if (this.betterFor(weight, o.F, o.violation, source.F, source.violation, true)) source = o;
        next[i] = this.subproblem(i, incrementalState(this.problem, source.state.sequence()), source.F, source.violation);
        if (i === this.weights.length - 1) {
          this.subs = next;
          this.turn = 0;
          this.movesLeft = this.burst;
          this.updateScale();
        }
      });
    });
  }

  private adopt(from: number, to: number): void {
    const source = this.subs[from];
    const target = this.subs[to];
    target.state.reset(source.state.sequence());
    target.F.set(target.state.values.objectives);
    target.violation = totalViolation(target.state.values.constraints, this.problem.constraintScales);
  }
}

export const moeadLs: SolverInfo = {
  name: 'moead-ls',
  title: 'MOEA/D with incremental local search',
  summary: 'Decomposition into Tchebycheff subproblems, each improved by O(1) peeks on the incremental evaluator, sharing with neighbours.',
  objectives: 'multi',
  baseline: false,
  requires: ['incremental'],
  params: [
    {
      name: 'maxDivisions',
      type: 'integer',
      default: 0,
      defaultText: '0 (automatic: 19, 5, 3, 2, 2, 2 for M = 2..7, i.e. up to 20, 21, 20, 15, 21, 28 subproblems)',
      min: 0,
      max: 1000,
      description: 'The finest Das-Dennis divisions H of the subproblem weights. The run starts with H = 1 (the M axes) and refines H by one at a time.',
    },
    {
      name: 'growAfter',
      type: 'integer',
      default: 2000,
      min: 1,
      max: 1e9,
      description: 'Refine the weights once the moves since the last refinement reach this many per subproblem.',
    },
    {
      name: 'neighbours',
      type: 'integer',
      default: 4,
      min: 1,
      max: 1000,
      description: 'Neighbourhood size T: subproblems (nearest by weight) offered each improved incumbent.',
    },
    { name: 'replacements', type: 'integer', default: 2, min: 0, max: 1000, description: 'At most this many neighbours adopt an incumbent after a burst.' },
    { name: 'burst', type: 'integer', default: 50, min: 1, max: 1000000, description: 'Local-search moves per subproblem turn.' },
    { name: 'swapShare', type: 'number', default: 0.3, min: 0, max: 1, description: 'Share of moves that swap two rolls (the rest change one roll).' },
    { name: 'rho', type: 'number', default: 0.05, min: 0, max: 10, description: 'Weight of the sum term in the augmented Tchebycheff function.' },
  ],
  create: () => new MoeadLs(),
};
