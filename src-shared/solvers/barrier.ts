/**
 * The local-search engine of barrier-ls (SO) and barrier-mo (MO): one sequence on the
 * incremental evaluator, improved by first-improvement moves accepted on
 *
 *      E = g(F) + lambda * violation - mu * sum_d log(1 + slack_d)
 *
 * where g is the caller's scalarisation of the objective vector F (the objective itself for SO,
 * a subproblem's Tchebycheff value for MO), lambda the strategic oscillation's adaptive penalty
 * and mu the caller's barrier weight. slack_d is the distance of chi_d from the nearer (finite,
 * non-zero) end of its band in squared-count units (the normalisation of constraints.ts; 0 where
 * violated). The moves (see docs/solvers.md, barrier-ls):
 *   - one-roll changes at positions aimed at costly pattern windows (`guidance`), with faces
 *     aimed at the neighbouring pairs F6 and F7 want (`faceAim`, `alignedKeep` while chi_2 is
 *     near its upper quantile);
 *   - two-roll changes of neighbouring rolls (`pairShare`), one evaluation each: the state
 *     commits the first change, peeks the second and undoes the first, as a swap does;
 *   - a memory that skips moves rejected since the last commit near them (`memory`,
 *     `memoryAge`); a skipped draw costs no evaluation.
 * Every peek is one evaluation, and so are building the state and each reset; commits reuse the
 * peeked values. The engine counts them in `clock`; the caller counts its own budget. Off the
 * dice problem the aiming and the slack are off.
 */
import type { Random } from '../random.ts';
import { dicePublicInfo, type ObservableValues } from '../problems/dice/blind.ts';
import { incrementalState } from '../core/problem.ts';
import { compareScalar, totalViolation } from './constraints.ts';
import type { IncrementalState, IncrementalValues, Problem } from '../core/problem.ts';
import { bandKnowledge, type BandKnowledge } from './bands.ts';
import { aboveBandMask, inCostlyWindow } from './so/patterns.ts';

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

export interface BarrierOptions {
  pairShare: number;
  guidance: number;
  faceAim: number;
  alignedKeep: number;
  /** Initial lambda; 0 keeps strict feasibility first (no oscillation). */
  penalty: number;
  memory: number;
  /** In evaluations of this engine. */
  memoryAge: number;
  /** Whether the slack sum is computed (false: mu is ignored). */
  barrier: boolean;
  /** The largest memory table (entries); beyond, moves share entries. */
  memoryLimit: number;
}

/**
 * The dice problem's quantities the engine aims with, prepared once per problem: the public
 * ones (quantiles, groups) and the bands, known on a sighted problem and learnt from the
 * answers on a blind one (bands.ts; `alpha` and `beta` are then the learner's live estimates).
 */
export class BarrierKnowledge {
  readonly lower: Float64Array;
  readonly upper: Float64Array;
  readonly alpha: Float64Array;
  readonly beta: Float64Array;
  readonly bands: BandKnowledge;
  /** Bit k: F6 + k is in some objective. */
  readonly relevant: number;
  /** Index of the d = 2 constraint, or -1. */
  readonly d2: number;

  constructor(problem: Problem) {
    const info = dicePublicInfo(problem);
    const bands = bandKnowledge(problem);
    if (!info || !bands) throw new Error('BarrierKnowledge needs the dice problem');
    this.lower = info.lower;
    this.upper = info.upper;
    this.bands = bands;
    this.alpha = bands.alpha;
    this.beta = bands.beta;
    let relevant = 0;
    for (const group of info.config.objectives) for (const f of group) if (f >= 6) relevant |= 1 << (f - 6);
    this.relevant = relevant;
    this.d2 = info.config.constraints.indexOf(2);
  }

  static of(problem: Problem): BarrierKnowledge | null {
    return dicePublicInfo(problem) ? new BarrierKnowledge(problem) : null;
  }
}

export type Scalarisation = (F: ArrayLike<number>) => number;

export class BarrierSearch {
  readonly n: number;
  state!: IncrementalState;
  faces!: Uint8Array;
  /** The current objectives (a copy), violation and slack sum. */
  readonly F: Float64Array;
  v = 0;
  s = 0;
  /** Evaluations made by this engine. */
  clock = 0;
  lambda: number;
  // The peeked candidate.
  peekG = 0;
  peekV = 0;
  peekS = 0;
  private readonly oscillation: boolean;
  /** Whether answers go to a band learner (a blind problem). */
  private readonly learning: boolean;
  // The move: kind 0 = x[p] = a; kind 1 = x[p] = a, x[p + 1] = b.
  private kind = 0;
  private p = 0;
  private a = 0;
  private b = 0;
  private key = 0;
  private readonly rejectedAt: Float64Array;
  private readonly changedAt: Float64Array;
  private readonly options = new Uint8Array(6);
  /** +1: pairs should have the same parity (F6 above its band), -1: mixed (below), 0: either. */
  private parityWant = 0;
  /** +1: neighbours should differ (F7 above), -1: be equal (below), 0: either. */
  private equalWant = 0;

  constructor(
    readonly problem: Problem,
    private readonly random: Random,
    private readonly o: BarrierOptions,
    private readonly know: BarrierKnowledge | null,
  ) {
    this.n = problem.n;
    this.F = new Float64Array(problem.objectiveCount);
    this.lambda = o.penalty;
    this.oscillation = o.penalty > 0;
    this.learning = know?.bands.learning ?? false;
    this.rejectedAt = new Float64Array(Math.min(problem.n * SLOTS, o.memoryLimit)).fill(-1);
    this.changedAt = new Float64Array(problem.n);
  }

  /** Builds the state at x (one evaluation). */
  start(x: Uint8Array): void {
    this.state = incrementalState(this.problem, x);
    this.faces = x.slice();
    this.clock++;
    this.sync();
  }

  /** Moves to x (one evaluation); the memory starts afresh. */
  reset(x: Uint8Array): void {
    this.state.reset(x);
    this.faces.set(x);
    this.clock++;
    this.sync();
    this.changedAt.fill(this.clock);
  }

  /** sum over d of log(1 + slack_d), slack in squared-count units; 0 off the dice problem. */
  private slack(values: IncrementalValues): number {
    const know = this.know;
    if (!know || !this.o.barrier) return 0;
    const chi = (values as ObservableValues).chi;
    const scales = this.problem.constraintScales;
    let s = 0;
    for (let l = 0; l < chi.length; l++) {
      const lo = know.lower[l];
      const hi = know.upper[l];
      // An end at 0 or infinity constrains nothing.
      const below = lo > 0 ? chi[l] - lo : Infinity;
      const above = hi < Infinity ? hi - chi[l] : Infinity;
      const room = below < above ? below : above;
      if (room > 0 && room < Infinity) s += Math.log1p(room / scales[l]);
    }
    return s;
  }

  private sync(): void {
    const values = this.state.values;
    if (this.learning) this.know!.bands.observe(values as ObservableValues);
    this.F.set(values.objectives);
    this.v = totalViolation(values.constraints, this.problem.constraintScales);
    this.s = this.slack(values);
  }

  private otherFace(face: number): number {
    const f = this.random.int(1, 5);
    return f >= face ? f + 1 : f;
  }

  private updateWants(): void {
    const know = this.know!;
    const features = (this.state.values as ObservableValues).features;
    this.parityWant = know.relevant & 1 ? (features[5] > know.beta[5] ? 1 : features[5] < know.alpha[5] ? -1 : 0) : 0;
    this.equalWant = know.relevant & 2 ? (features[6] > know.beta[6] ? 1 : features[6] < know.alpha[6] ? -1 : 0) : 0;
  }

  /** Whether the pair (u, c) is what the objectives want (u = 0: no neighbour). */
  private wanted(u: number, c: number): boolean {
    if (u === 0) return true;
    if (this.parityWant !== 0 && (((u + c) & 1) === 0) !== this.parityWant > 0) return false;
    if (this.equalWant !== 0 && (u === c) === this.equalWant > 0) return false;
    return true;
  }

  /** Whether chi_2 is constrained and within TIGHT_SHARE of its band from q(P_2). */
  private d2Tight(): boolean {
    const know = this.know!;
    if (know.d2 < 0) return false;
    const hi = know.upper[know.d2];
    return hi < Infinity && hi - (this.state.values as ObservableValues).chi[know.d2] < TIGHT_SHARE * (hi - know.lower[know.d2]);
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
    if (this.o.alignedKeep > 0 && this.d2Tight() && this.random.chance(this.o.alignedKeep)) {
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
    const know = this.know;
    if (know && know.relevant && this.random.chance(this.o.guidance)) {
      const above = aboveBandMask((this.state.values as ObservableValues).features, know.beta) & know.relevant;
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
    const aim = this.know !== null && this.o.faceAim > 0;
    if (aim) this.updateWants();
    const size = this.rejectedAt.length;
    for (let tries = 0; ; tries++) {
      const p0 = this.position();
      if (n > 1 && this.random.chance(this.o.pairShare)) {
        const p = p0 + 1 < n ? p0 : p0 - 1;
        this.kind = 1;
        this.p = p;
        this.a = this.otherFace(this.faces[p]);
        this.b = this.otherFace(this.faces[p + 1]);
        this.key = (p * SLOTS + this.a * 6 + this.b - 1) % size;
      } else {
        this.kind = 0;
        this.p = p0;
        this.a = aim && this.random.chance(this.o.faceAim) ? this.aimedFace(p0) : this.otherFace(this.faces[p0]);
        this.key = (p0 * SLOTS + this.a - 1) % size;
      }
      if (this.o.memory === 0 || tries >= DRAW_TRIES) return;
      const at = this.rejectedAt[this.key];
      if (at < 0 || at < this.changedAt[this.p] || this.clock - at > this.o.memoryAge || !this.random.chance(this.o.memory)) return;
    }
  }

  /** Peeks the drawn move (one evaluation); the candidate's objectives are returned (reused buffer). */
  private peek(g: Scalarisation): IncrementalValues {
    const state = this.state;
    let values: IncrementalValues;
    if (this.kind === 0) values = state.peekSet(this.p, this.a);
    else {
      const old = this.faces[this.p];
      state.set(this.p, this.a);
      values = state.peekSet(this.p + 1, this.b);
      state.set(this.p, old);
    }
    this.clock++;
    if (this.learning) this.know!.bands.observe(values as ObservableValues);
    this.peekG = g(values.objectives);
    this.peekV = totalViolation(values.constraints, this.problem.constraintScales);
    this.peekS = this.slack(values);
    return values;
  }

  private commit(): void {
    const state = this.state;
    state.set(this.p, this.a);
    this.faces[this.p] = this.a;
    if (this.kind === 1) {
      state.set(this.p + 1, this.b);
      this.faces[this.p + 1] = this.b;
    }
    // After the commit the state's values are the peeked ones.
    this.F.set(state.values.objectives);
    this.v = this.peekV;
    this.s = this.peekS;
    const from = this.p - REACH > 0 ? this.p - REACH : 0;
    const to = this.p + REACH < this.n - 1 ? this.p + REACH : this.n - 1;
    for (let q = from; q <= to; q++) this.changedAt[q] = this.clock;
  }

  /**
   * One move (one evaluation): draw, peek, accept when E does not get worse. Returns < 0 for a
   * strict improvement of E, 0 for an accepted equal move, > 0 for a rejection; `onPeek` sees
   * every candidate's values before the decision (an MO archive takes them from there).
   */
  step(g: Scalarisation, mu: number, onPeek?: (values: IncrementalValues, violation: number) => void): number {
    this.propose();
    const values = this.peek(g);
    onPeek?.(values, this.peekV);
    const current = g(this.F);
    let c: number;
    if (this.oscillation) {
      const d = this.peekG + this.lambda * this.peekV - mu * this.peekS - (current + this.lambda * this.v - mu * this.s);
      c = d < 0 ? -1 : d > 0 ? 1 : compareScalar(this.peekG, this.peekV, current, this.v);
      // Strategic oscillation: tighten the penalty while infeasible, relax it while feasible.
      this.lambda *= this.v > 0 ? LAMBDA_UP : LAMBDA_DOWN;
    } else if (this.peekV > 0 || this.v > 0) c = compareScalar(this.peekG, this.peekV, current, this.v);
    else c = this.peekG - mu * this.peekS - (current - mu * this.s);
    if (c <= 0) this.commit();
    else this.rejectedAt[this.key] = this.clock;
    return c;
  }

  /** The sequence of the candidate last peeked (a copy), e.g. for an archive it entered. */
  candidate(): Uint8Array {
    const x = this.faces.slice();
    x[this.p] = this.a;
    if (this.kind === 1) x[this.p + 1] = this.b;
    return x;
  }

  /** A random one-roll change, made whatever it does (one evaluation). */
  perturb(g: Scalarisation): void {
    this.kind = 0;
    this.p = this.random.below(this.n);
    this.a = this.otherFace(this.faces[this.p]);
    this.peek(g);
    this.commit();
  }
}
