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
 * Counting: building the first state, each reset and each peek (one-roll, two-roll) is one
 * evaluation; commits reuse the peeked values. Every new best is reported with the evaluation
 * that found it. Off the dice problem (any Problem with incremental evaluation) the aiming and
 * the barrier are off and it is a plain first-improvement search with oscillation and memory.
 */
import { Random } from '../../random.ts';
import { PreparedConfig, type DiceValues } from '../../problems/dice/evaluate.ts';
import type { DiceState } from '../../problems/dice/incremental.ts';
import { incrementalState } from '../../runtime/problem.ts';
import { compareScalar, totalViolation } from '../constraints.ts';
import { num } from '../params.ts';
import { MAX_N } from '../../problems/dice/config.ts';
import { asDiceProblem } from '../problem.ts';
import type { Ask, Evaluated, IncrementalState, IncrementalValues, ParamValues, Problem, Reported, Solver, SolverInfo } from '../types.ts';
import { randomSequence } from './local.ts';
import { aboveBandMask, inCostlyWindow } from './patterns.ts';

const AIM_TRIES = 16;
const DRAW_TRIES = 16;
/** Memory slots per position: faces 1..6 of a change, 36 face pairs of a two-roll move. */
const SLOTS = 42;
/** A move's memory is cleared by any commit this close to it. */
const REACH = 8;
/** chi_2 counts as tight when its distance to q(P_2) is below this share of its band. */
const TIGHT_SHARE = 0.25;
/** Oscillation: lambda's factors per peek while infeasible / feasible (as ILS). */
const LAMBDA_UP = 1.001;
const LAMBDA_DOWN = 0.9995;
/** Below this f the barrier fades out linearly: near f = 0 (small N) it would only slow the last steps. */
const FADE = 10;
/** The largest memory table (entries). */
const MEMORY_LIMIT = 1 << 21;

class BarrierLocalSearch implements Solver {
  private problem!: Problem;
  private random!: Random;
  private n = 0;
  private state: IncrementalState | null = null;
  private faces!: Uint8Array;
  /** Current f, violation and barrier sum. */
  private f = 0;
  private v = 0;
  private s = 0;
  // The peeked candidate.
  private peekF = 0;
  private peekV = 0;
  private peekS = 0;
  // The move: kind 0 = x[p] = a; kind 1 = x[p] = a, x[p + 1] = b.
  private kind = 0;
  private p = 0;
  private a = 0;
  private b = 0;
  private key = 0;
  // Parameters.
  private pairShare = 0;
  private guidance = 0;
  private faceAim = 0;
  private alignedKeep = 0;
  private barrier = 0;
  private barrierDecay = 0;
  private lambda = 0;
  private oscillation = false;
  private memory = 0;
  private memoryAge = 0;
  private patience = 0;
  private strength = 0;
  // Dice knowledge (null / empty on other problems).
  private dice = false;
  private lower!: Float64Array;
  private upper!: Float64Array;
  private alpha!: Float64Array;
  private beta!: Float64Array;
  /** Bit k: F6 + k is in the objective. */
  private relevant = 0;
  /** Index of the d = 2 constraint, or -1. */
  private d2 = -1;
  // Memory.
  private rejectedAt!: Float64Array;
  private changedAt!: Float64Array;
  // Progress.
  private clock = 0;
  private sinceBest = 0;
  private perturbing = 0;
  private bestF = Infinity;
  private bestV = Infinity;
  private bestX: Uint8Array | null = null;
  private reported: Reported[] = [];
  private readonly options = new Uint8Array(6);

  setup(problem: Problem, params: ParamValues, seed: number): void {
    this.problem = problem;
    this.random = Random.fromSeed(seed);
    this.n = problem.n;
    this.pairShare = num(params, 'pairShare');
    this.guidance = num(params, 'guidance');
    this.faceAim = num(params, 'faceAim');
    this.alignedKeep = num(params, 'alignedKeep');
    this.barrier = num(params, 'barrier');
    this.barrierDecay = num(params, 'barrierDecay');
    this.lambda = num(params, 'penalty');
    this.oscillation = this.lambda > 0;
    this.memory = num(params, 'memory');
    this.memoryAge = num(params, 'memoryAge') * problem.n;
    this.patience = num(params, 'patience');
    this.strength = num(params, 'strength');
    const dice = asDiceProblem(problem);
    this.dice = dice !== null;
    if (dice) {
      const prepared = new PreparedConfig(dice.config);
      this.lower = prepared.lower;
      this.upper = prepared.upper;
      this.alpha = Float64Array.from(dice.config.alpha);
      this.beta = Float64Array.from(dice.config.beta);
      this.relevant = 0;
      for (const f of dice.config.objectives[0] ?? []) if (f >= 6) this.relevant |= 1 << (f - 6);
      this.d2 = dice.config.constraints.indexOf(2);
    }
    this.rejectedAt = new Float64Array(Math.min(problem.n * SLOTS, MEMORY_LIMIT)).fill(-1);
    this.changedAt = new Float64Array(problem.n);
  }

  /** sum over d of log(1 + slack_d), slack in squared-count units; 0 off the dice problem. */
  private slack(values: IncrementalValues): number {
    if (!this.dice || this.barrier === 0) return 0;
    const chi = (values as DiceValues).chi;
    const scales = this.problem.constraintScales;
    let s = 0;
    for (let l = 0; l < chi.length; l++) {
      const lo = this.lower[l];
      const hi = this.upper[l];
      // An end at 0 or infinity constrains nothing.
      const below = lo > 0 ? chi[l] - lo : Infinity;
      const above = hi < Infinity ? hi - chi[l] : Infinity;
      const room = below < above ? below : above;
      if (room > 0 && room < Infinity) s += Math.log1p(room / scales[l]);
    }
    return s;
  }

  private sync(): void {
    const values = this.state!.values;
    this.f = values.objectives[0];
    this.v = totalViolation(values.constraints, this.problem.constraintScales);
    this.s = this.slack(values);
  }

  private otherFace(face: number): number {
    const f = this.random.int(1, 5);
    return f >= face ? f + 1 : f;
  }

  /** +1: pairs should have the same parity (F6 above its band), -1: mixed (below), 0: either. */
  private parityWant = 0;
  /** +1: neighbours should differ (F7 above), -1: be equal (below), 0: either. */
  private equalWant = 0;

  private updateWants(): void {
    const features = (this.state as DiceState).values.features;
    this.parityWant = this.relevant & 1 ? (features[5] > this.beta[5] ? 1 : features[5] < this.alpha[5] ? -1 : 0) : 0;
    this.equalWant = this.relevant & 2 ? (features[6] > this.beta[6] ? 1 : features[6] < this.alpha[6] ? -1 : 0) : 0;
  }

  /** Whether the pair (u, c) is what the objective wants (u = 0: no neighbour). */
  private wanted(u: number, c: number): boolean {
    if (u === 0) return true;
    if (this.parityWant !== 0 && ((u + c) & 1) === 0 !== this.parityWant > 0) return false;
    if (this.equalWant !== 0 && (u === c) === this.equalWant > 0) return false;
    return true;
  }

  /** Whether chi_2 is constrained and within TIGHT_SHARE of its band from q(P_2). */
  private d2Tight(): boolean {
    if (this.d2 < 0) return false;
    const hi = this.upper[this.d2];
    return hi < Infinity && hi - (this.state as DiceState).values.chi[this.d2] < TIGHT_SHARE * (hi - this.lower[this.d2]);
  }

  /** A new face for x[p] aimed at wanted neighbouring pairs (random when none is). */
  private aimedFace(p: number): number {
    const x = this.faces;
    const n = this.n;
    const cur = x[p];
    const left = p > 0 ? x[p - 1] : 0;
    const right = p + 1 < n ? x[p + 1] : 0;
    const opts = this.options;
    let k = 0;
    if (this.alignedKeep > 0 && this.d2Tight() && this.random.chance(this.alignedKeep)) {
      // p's d = 2 block is (p - 1, p) when p is odd, (p, p + 1) when even: keep that pair's
      // class, fix the pair between it and the next block.
      const inBlock = p % 2 === 1 ? left : right;
      const between = p % 2 === 1 ? right : left;
      const keep = this.wanted(inBlock, cur);
      for (let c = 1; c <= 6; c++) if (c !== cur && this.wanted(between, c) && this.wanted(inBlock, c) === keep) opts[k++] = c;
      if (k > 0) return opts[this.random.below(k)];
    }
    for (let c = 1; c <= 6; c++) if (c !== cur && this.wanted(left, c) && this.wanted(right, c)) opts[k++] = c;
    if (k === 0) for (let c = 1; c <= 6; c++) if (c !== cur && (this.wanted(left, c) || this.wanted(right, c))) opts[k++] = c;
    return k > 0 ? opts[this.random.below(k)] : this.otherFace(cur);
  }

  /** A position, aimed at a window of a pattern feature above its band with probability `guidance`. */
  private position(): number {
    if (this.dice && this.relevant && this.random.chance(this.guidance)) {
      const above = aboveBandMask((this.state as DiceState).values.features, this.beta) & this.relevant;
      if (above) {
        for (let t = 0; t < AIM_TRIES; t++) {
          const p = this.random.below(this.n);
          if (inCostlyWindow(this.faces, p, above)) return p;
        }
      }
    }
    return this.random.below(this.n);
  }

  /** Draws the next move into (kind, p, a, b, key), skipping recently rejected ones. */
  private propose(): void {
    const n = this.n;
    if (this.dice && this.faceAim > 0) this.updateWants();
    for (let tries = 0; ; tries++) {
      const p0 = this.position();
      if (n > 1 && this.random.chance(this.pairShare)) {
        const p = p0 + 1 < n ? p0 : p0 - 1;
        this.kind = 1;
        this.p = p;
        this.a = this.otherFace(this.faces[p]);
        this.b = this.otherFace(this.faces[p + 1]);
        this.key = (p * SLOTS + this.a * 6 + this.b - 1) % this.rejectedAt.length;
      } else {
        this.kind = 0;
        this.p = p0;
        this.a = this.dice && this.faceAim > 0 && this.random.chance(this.faceAim) ? this.aimedFace(p0) : this.otherFace(this.faces[p0]);
        this.key = (p0 * SLOTS + this.a - 1) % this.rejectedAt.length;
      }
      if (this.memory === 0 || tries >= DRAW_TRIES) return;
      const at = this.rejectedAt[this.key];
      if (at < 0 || at < this.changedAt[this.p] || this.clock - at > this.memoryAge || !this.random.chance(this.memory)) return;
    }
  }

  private peek(): void {
    const state = this.state!;
    let values: IncrementalValues;
    if (this.kind === 0) values = state.peekSet(this.p, this.a);
    else {
      const old = this.faces[this.p];
      state.set(this.p, this.a);
      values = state.peekSet(this.p + 1, this.b);
      state.set(this.p, old);
    }
    this.peekF = values.objectives[0];
    this.peekV = totalViolation(values.constraints, this.problem.constraintScales);
    this.peekS = this.slack(values);
  }

  private commit(): void {
    const state = this.state!;
    state.set(this.p, this.a);
    this.faces[this.p] = this.a;
    if (this.kind === 1) {
      state.set(this.p + 1, this.b);
      this.faces[this.p + 1] = this.b;
    }
    this.f = this.peekF;
    this.v = this.peekV;
    this.s = this.peekS;
    const from = this.p - REACH > 0 ? this.p - REACH : 0;
    const to = this.p + REACH < this.n - 1 ? this.p + REACH : this.n - 1;
    for (let q = from; q <= to; q++) this.changedAt[q] = this.clock;
  }

  /** The barrier weight after t evaluations. */
  private mu(): number {
    const fade = this.f < FADE ? this.f / FADE : 1;
    return (fade * this.barrier) / (1 + this.clock / (this.barrierDecay * this.n));
  }

  /** One local-search move: propose, peek, accept or reject. */
  private step(): void {
    this.propose();
    this.peek();
    this.clock++;
    const mu = this.barrier > 0 ? this.mu() : 0;
    let c: number;
    if (this.oscillation) {
      const d = this.peekF + this.lambda * this.peekV - mu * this.peekS - (this.f + this.lambda * this.v - mu * this.s);
      c = d < 0 ? -1 : d > 0 ? 1 : compareScalar(this.peekF, this.peekV, this.f, this.v);
      // Strategic oscillation: tighten the penalty while infeasible, relax it while feasible.
      this.lambda *= this.v > 0 ? LAMBDA_UP : LAMBDA_DOWN;
    } else if (this.peekV > 0 || this.v > 0) c = compareScalar(this.peekF, this.peekV, this.f, this.v);
    else c = this.peekF - mu * this.peekS - (this.f - mu * this.s);
    if (c <= 0) this.commit();
    else this.rejectedAt[this.key] = this.clock;
  }

  private perturb(): void {
    this.kind = 0;
    this.p = this.random.below(this.n);
    this.a = this.otherFace(this.faces[this.p]);
    this.peek();
    this.clock++;
    this.commit();
  }

  private restart(): void {
    this.state!.reset(this.bestX!);
    this.faces.set(this.bestX!);
    this.clock++;
    this.sync();
    this.changedAt.fill(this.clock);
  }

  private noteBest(at: number): void {
    if (this.bestV !== Infinity && compareScalar(this.f, this.v, this.bestF, this.bestV) >= 0) {
      this.sinceBest++;
      return;
    }
    this.bestF = this.f;
    this.bestV = this.v;
    this.sinceBest = 0;
    this.bestX = this.faces.slice();
    const values = this.state!.values;
    // bestX is replaced, never written, so the report may share it (the driver copies it).
    const e: Evaluated = { x: this.bestX, F: Float64Array.from(values.objectives), G: Float64Array.from(values.constraints), violation: this.v, feasible: this.v <= 0 };
    this.reported.push({ solution: e, at });
  }

  ask(limit: number): Ask {
    let used = 0;
    while (used < limit) {
      if (!this.state) {
        const x = randomSequence(this.problem, this.random);
        this.state = incrementalState(this.problem, x);
        this.faces = x.slice();
        this.clock++;
        this.sync();
      } else if (this.perturbing > 0) {
        this.perturb();
        this.perturbing--;
      } else if (this.sinceBest >= this.patience && this.bestX) {
        this.restart();
        this.perturbing = this.strength;
        this.sinceBest = 0;
      } else this.step();
      used++;
      this.noteBest(used);
    }
    const reported = this.reported;
    this.reported = [];
    return { candidates: [], internal: { evaluations: used, reported } };
  }

  tell(): void {}
}

export const barrierLocalSearch: SolverInfo = {
  name: 'barrier-ls',
  title: 'Barrier local search (strong)',
  summary: 'Aimed first-improvement search on the incremental evaluator with a log barrier on the constraint slack, two-roll moves and a memory of rejected moves.',
  objectives: 'single',
  baseline: false,
  requires: ['incremental'],
  params: [
    { name: 'pairShare', type: 'number', default: 0.3, min: 0, max: 1, description: 'Share of moves that change two neighbouring rolls at once (one evaluation).' },
    { name: 'guidance', type: 'number', default: 0.8, min: 0, max: 1, description: 'Share of moves aimed at positions inside a window of a pattern feature above its band.' },
    { name: 'faceAim', type: 'number', default: 0.9, min: 0, max: 1, description: 'Share of one-roll changes whose new face makes the neighbouring pairs what F6 and F7 want.' },
    { name: 'alignedKeep', type: 'number', default: 0.6, min: 0, max: 1, description: 'While chi_2 is near its upper quantile, share of aimed faces that keep the class of the pair inside a d = 2 block and fix the pair between two blocks.' },
    { name: 'barrier', type: 'number', default: 2, min: 0, description: 'Initial weight mu of the barrier sum_d log(1 + slack_d) subtracted from the acceptance score; 0 switches it off.' },
    { name: 'barrierDecay', type: 'number', default: 50, min: 0, exclusiveMin: true, description: 'mu(t) = barrier / (1 + t / (barrierDecay * N)) after t evaluations.' },
    { name: 'penalty', type: 'number', default: 30, min: 0, description: 'Initial weight of the adaptive penalty f + w * violation (strategic oscillation); 0 keeps strict feasibility first.' },
    { name: 'memory', type: 'number', default: 0.9, min: 0, max: 1, description: 'Probability of skipping a move rejected since the last change near it (a skipped draw costs no evaluation).' },
    { name: 'memoryAge', type: 'number', default: 20, min: 0, description: 'A rejection is forgotten after memoryAge x N evaluations.' },
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
