/**
 * Learning the dice problem's secret bands and weights from the answers (issue 26: a blind
 * solver gets only N, M, L, the budget, the seed and the answers).
 *
 * The error of feature i is gamma_i * max(alpha_i - F_i, F_i - beta_i, 0): zero inside its band,
 * linear with slope gamma_i outside. Objective m is the sum over its group, and the features are
 * public (a solver computes them), so every answer f_m(x) is one exact equation
 *
 *     f_m(x) = sum_{i in I_m} E_i(F_i(x)),   E_i(F) = gamma_i (relu(alpha_i - F) + relu(F - beta_i))
 *
 * in 3 unknowns per feature: an additive model of hinges. The learner keeps a bounded set of
 * observations (F(x), f(x)) and fits it (a refit) with three tools:
 *
 * 1. Joint Levenberg-Marquardt steps in (gamma, alpha, beta) of every feature at once (45
 *    unknowns for one objective of 15 features). With every observation on the right side of
 *    every band the model is linear in gamma and gamma * end, and these steps finish the fit;
 *    they also untangle features that move together (one roll changes several counts).
 * 2. Backfitting (Hastie and Tibshirani's algorithm for additive models), each component fitted
 *    exactly: for one feature at a time, what the other features leave of the answers is fitted
 *    by that feature's hinge alone, first (gamma_i, beta_i) with alpha_i held, then (gamma_i,
 *    alpha_i). The loss is piecewise quadratic in the band end, with its pieces between the
 *    observed values of F_i; on each piece a 2 x 2 least squares (running sums over the sorted
 *    values) gives gamma and gamma * end, and the best piece wins: a band end moves past any
 *    number of observations in one step, which the joint steps cannot do.
 * 3. The prior settles what the answers cannot tell apart. It is the public config (the
 *    competition's secret draws are bands moved around the public ones, weights redrawn) with
 *    spreads `PUBLIC_PRIOR`, as ridge terms priorWeight ((gamma - gamma0)^2 / s_gamma^2 +
 *    (end - end0)^2 / s_band^2) with a small weight (1e-6), so it moves nothing the answers
 *    decide. A feature whose observations all lie above its band adds gamma_i F_i - gamma_i
 *    beta_i, so the beta_i of such features count only through one sum per objective (F6 and
 *    F7 at N = 840 are always far above theirs): after the fit that sum is split again, the
 *    ends moving (the sum, and so the fit, kept) to the point nearest the prior (weighted least
 *    squares with one linear constraint, each end kept beyond the observations). A feature whose
 *    value never changed is put back to the prior, its constant moved into that sum.
 * A refit: up to 4 joint steps from the current estimate, then `rounds` rounds (1 in a run; a
 * one-off fit may ask for more) of (4 backfitting sweeps, up to 4 joint steps), each stopping
 * once every observation is explained or a sweep or step gains less than 0.1% of the loss; up to
 * 8 more joint steps when the fit is within a millionth of the answers; then the split.
 * gamma >= 1e-3 gamma0 and alpha <= beta hold throughout. (One round rather than two: on the
 * answers of blind runs it aimed better, 16% of aims wrong rather than 27%, at 9 rather than
 * 13 ms a refit; docs/solvers.md, Blind runs.)
 *
 * What the answers tell about a count feature (F6..F15, whole values) is where its error stops
 * falling and starts rising, not the band itself: a band [2, 3] and a point band at 2.5 give
 * errors that differ by a constant, which no answer shows. So the bands a solver aims with
 * (`aimAlpha`, `aimBeta`) are the whole values at which the fitted error is least.
 *
 * When to refit: every `stride`-th answer (4) is checked against the estimate (one prediction,
 * about 30 operations) and kept; one the estimate does not explain within 1e-6 of it (the
 * answers are exact) is a surprise and makes the estimate stale. A stale estimate is refitted
 * once `gap` answers have passed since the last refit: 1024 at first, doubling to 65,536 (4
 * refits in 20,000 evaluations, 20 in 10^6). Which observations are kept: the latest 64, the
 * latest 64 surprises (what the estimate did not know), and 256 spread over the whole run
 * (every k-th, k doubling as the run goes), so a refit does not forget what older answers
 * pinned down.
 *
 * Everything is deterministic (no randomness): the same answers in the same order give the
 * same estimates, so a blind run is a function of its seed.
 */
import { DEFAULT_ALPHA, DEFAULT_BETA, DEFAULT_GAMMA, FEATURE_COUNT as FEATURES } from '../problems/dice/config.ts';

// A module-local copy: some loaders (tsx) turn an imported binding into a getter call, which
// costs more than the rest of a hot loop.
const FEATURE_COUNT: number = FEATURES;

/** The prior of the learner: where the bands and weights are expected, and how far they may be. */
export interface BandPrior {
  readonly alpha: readonly number[];
  readonly beta: readonly number[];
  readonly gamma: readonly number[];
  /** Spread of each band end around alpha_i and beta_i (the scale of the prior's ridge). */
  readonly bandSpread: readonly number[];
  /** Spread of each weight around gamma_i. */
  readonly gammaSpread: readonly number[];
}

/**
 * The public config as the prior, spread as the competition's generator draws its secret
 * instances (docs/competition.md): each band end within max(1, width) of the public one (the
 * width changes by at most 1), each weight a whole number from 1 to 10 (spread 3, about that
 * draw's standard deviation, around the public weight).
 */
export const PUBLIC_PRIOR: BandPrior = Object.freeze({
  alpha: Object.freeze([...DEFAULT_ALPHA]),
  beta: Object.freeze([...DEFAULT_BETA]),
  gamma: Object.freeze([...DEFAULT_GAMMA]),
  bandSpread: Object.freeze(DEFAULT_BETA.map((b, i) => Math.max(1, b - DEFAULT_ALPHA[i]))),
  gammaSpread: Object.freeze(DEFAULT_GAMMA.map(() => 3)),
});

/** The learner's settings (the defaults are what blind solvers use; see the file header). */
export interface BandLearnerOptions {
  /** Every stride-th answer is checked and kept (default 4). */
  stride?: number;
  /** Latest observations kept (default 64). */
  recent?: number;
  /** Latest surprising observations kept (default 64). */
  surprises?: number;
  /** Observations kept spread over the whole run (default 256). */
  history?: number;
  /** Answers before the first refit (default 1024). */
  firstGap?: number;
  /** Largest gap between refits, in answers (default 65,536). */
  maxGap?: number;
  /** Growth factor of the gap after each refit (default 2). */
  growth?: number;
  /** Rounds of (backfitting, joint steps) per refit, at most (default 1). */
  rounds?: number;
  /** Weight of the prior's ridge terms (default 1e-6). */
  priorWeight?: number;
}

/**
 * An answer f is explained when |model - f| <= TOLERANCE (1 + |f|). The answers are exact; an
 * estimate off by a band end or a weight is off by far more (a band end moved by 0.01 on a
 * feature of weight 1 already moves f by 0.01), while a converged fit is off by rounding and
 * the prior's tiny ridge only.
 */
const TOLERANCE = 1e-6;
/** Backfitting sweeps, then Levenberg-Marquardt steps, per round of a refit, at most. */
const SWEEPS_PER_ROUND = 4;
const LM_STEPS = 4;
/** Joint steps at most when a fit is nearly exact (see run). */
const POLISH_STEPS = 8;
/** A round (or a step) that lowers the loss by less than this share ends the refit. */
const PROGRESS = 1e-3;
/** The smallest gamma a fit may give, as a share of the prior's. */
const MIN_GAMMA_SHARE = 1e-3;

/** A ring of observations: features (15 each) and answers (M each). */
class Rows {
  readonly features: Float64Array;
  readonly answers: Float64Array;
  size = 0;
  private next = 0;

  constructor(
    readonly capacity: number,
    private readonly m: number,
  ) {
    this.features = new Float64Array(capacity * FEATURE_COUNT);
    this.answers = new Float64Array(capacity * m);
  }

  push(features: ArrayLike<number>, answers: ArrayLike<number>): void {
    if (this.capacity === 0) return;
    const at = this.next;
    this.features.set(features as ArrayLike<number>, at * FEATURE_COUNT);
    this.answers.set(answers as ArrayLike<number>, at * this.m);
    this.next = at + 1 === this.capacity ? 0 : at + 1;
    if (this.size < this.capacity) this.size++;
  }
}

/** The error of a feature value under one band and weight. */
function hinge(F: number, alpha: number, beta: number, gamma: number): number {
  return F > beta ? gamma * (F - beta) : F < alpha ? gamma * (alpha - F) : 0;
}

/**
 * Solves H x = g for a symmetric positive definite H (size p, row-major), in place: Cholesky
 * after scaling to unit diagonal. Returns false when H is not numerically positive definite.
 */
function solveSpd(H: Float64Array, g: Float64Array, p: number, x: Float64Array, work: SpdWork = spdWork(p)): boolean {
  const { s, L, y } = work;
  for (let i = 0; i < p; i++) s[i] = H[i * p + i] > 0 ? 1 / Math.sqrt(H[i * p + i]) : 1;
  for (let i = 0; i < p; i++) {
    for (let j = 0; j <= i; j++) {
      let sum = H[i * p + j] * s[i] * s[j];
      for (let k = 0; k < j; k++) sum -= L[i * p + k] * L[j * p + k];
      if (i === j) {
        if (!(sum > 1e-14)) return false;
        L[i * p + i] = Math.sqrt(sum);
      } else L[i * p + j] = sum / L[j * p + j];
    }
  }
  for (let i = 0; i < p; i++) {
    let sum = g[i] * s[i];
    for (let k = 0; k < i; k++) sum -= L[i * p + k] * y[k];
    y[i] = sum / L[i * p + i];
  }
  for (let i = p - 1; i >= 0; i--) {
    let sum = y[i];
    for (let k = i + 1; k < p; k++) sum -= L[k * p + i] * x[k];
    x[i] = sum / L[i * p + i];
  }
  for (let i = 0; i < p; i++) x[i] *= s[i];
  return true;
}

/** Scratch space of solveSpd for size p. */
interface SpdWork {
  s: Float64Array;
  L: Float64Array;
  y: Float64Array;
}

function spdWork(p: number): SpdWork {
  return { s: new Float64Array(p), L: new Float64Array(p * p), y: new Float64Array(p) };
}

/** The prior of one feature and the weights of its ridge terms. */
interface FeaturePrior {
  gamma: number;
  alpha: number;
  beta: number;
  wGamma: number;
  wBand: number;
  minGamma: number;
}

/**
 * Estimates of alpha, beta and gamma learnt from observations. `alpha`, `beta` and `gamma` are
 * live (updated in place by refits), so code that aims with them reads the latest estimate.
 * Features in no group keep the prior (the answers say nothing about them).
 */
export class BandLearner {
  readonly alpha = new Float64Array(FEATURE_COUNT);
  readonly beta = new Float64Array(FEATURE_COUNT);
  readonly gamma = new Float64Array(FEATURE_COUNT);
  /**
   * The bands to aim with: a count feature (F6..F15) takes whole values, and there what the
   * answers tell is where the error stops falling and starts rising, not the band itself (with
   * whole values, a band [2, 3] and a point band at 2.5 give errors that differ by a constant,
   * which the answers cannot see). So these are the whole values at which the fitted error is
   * least: F > aimBeta exactly when one less would cost less, F < aimAlpha when one more would.
   * F1..F5 keep the fitted ends.
   */
  readonly aimAlpha = new Float64Array(FEATURE_COUNT);
  readonly aimBeta = new Float64Array(FEATURE_COUNT);
  /** Answers given, refits made, and surprises among the answers checked. */
  observations = 0;
  refits = 0;
  surprises = 0;
  /** Whether the last refit explained every observation it was given. */
  exact = false;

  private readonly m: number;
  /** Per group, its 0-based features. */
  private readonly groups: Int32Array[];
  private readonly stride: number;
  private readonly recent: Rows;
  private readonly surprising: Rows;
  private readonly history: Rows;
  private historyStride = 1;
  private checked = 0;
  private stale = false;
  private gap: number;
  private lastRefit = 0;
  private readonly maxGap: number;
  private readonly growth: number;
  private readonly rounds: number;
  private readonly priors: FeaturePrior[];
  private readonly predicted: Float64Array;

  constructor(groups: readonly (readonly number[])[], prior: BandPrior = PUBLIC_PRIOR, options: BandLearnerOptions = {}) {
    this.m = groups.length;
    // Sorted, each feature once: the order does not change a sum (the fit relies on it), and a
    // feature listed twice is learnt as one of twice the weight.
    this.groups = groups.map((g) => Int32Array.from(new Set(g), (f) => f - 1).sort());
    this.alpha.set(prior.alpha);
    this.beta.set(prior.beta);
    this.gamma.set(prior.gamma);
    this.updateAim();
    const w = options.priorWeight ?? 1e-6;
    this.priors = Array.from({ length: FEATURE_COUNT }, (_, i) => ({
      gamma: prior.gamma[i],
      alpha: prior.alpha[i],
      beta: prior.beta[i],
      wGamma: w / prior.gammaSpread[i] ** 2,
      wBand: w / prior.bandSpread[i] ** 2,
      minGamma: MIN_GAMMA_SHARE * prior.gamma[i],
    }));
    this.stride = Math.max(1, Math.floor(options.stride ?? 4));
    this.recent = new Rows(options.recent ?? 64, this.m);
    this.surprising = new Rows(options.surprises ?? 64, this.m);
    this.history = new Rows(options.history ?? 256, this.m);
    this.gap = options.firstGap ?? 1024;
    this.maxGap = options.maxGap ?? 65536;
    this.growth = options.growth ?? 2;
    this.rounds = options.rounds ?? 1;
    this.predicted = new Float64Array(this.m);
  }

  /** The objectives the estimate gives for these features, into `out` (length M). */
  predict(features: ArrayLike<number>, out: Float64Array = this.predicted): Float64Array {
    const { alpha, beta, gamma, groups } = this;
    for (let m = 0; m < groups.length; m++) {
      const g = groups[m];
      let sum = 0;
      for (let j = 0; j < g.length; j++) {
        const i = g[j];
        sum += hinge(features[i], alpha[i], beta[i], gamma[i]);
      }
      out[m] = sum;
    }
    return out;
  }

  /** Whether the estimate explains these answers (relative residual within the tolerance). */
  explains(features: ArrayLike<number>, answers: ArrayLike<number>): boolean {
    const p = this.predict(features);
    for (let m = 0; m < this.m; m++) {
      const f = answers[m];
      if (Math.abs(p[m] - f) > TOLERANCE * (1 + Math.abs(f))) return false;
    }
    return true;
  }

  /**
   * One answer: the features of the sequence asked about and its objectives. Every stride-th is
   * checked and kept; refits when the estimate is stale and the gap has passed.
   */
  observe(features: ArrayLike<number>, answers: ArrayLike<number>): void {
    const count = ++this.observations;
    if (count % this.stride !== 0) return;
    const checked = ++this.checked;
    this.recent.push(features, answers);
    if (checked % this.historyStride === 0) {
      this.history.push(features, answers);
      if (checked >= 2 * this.history.capacity * this.historyStride) this.historyStride *= 2;
    }
    if (!this.explains(features, answers)) {
      this.surprises++;
      this.surprising.push(features, answers);
      this.stale = true;
    }
    if (this.stale && count - this.lastRefit >= this.gap) this.refit();
  }

  /** Refits now on the observations kept. */
  refit(): void {
    this.refits++;
    this.lastRefit = this.observations;
    this.stale = false;
    this.fit([this.recent, this.surprising, this.history]);
    this.gap = Math.min(this.maxGap, this.growth * this.gap);
  }

  /** The fit of the file header on the given rows; updates the estimate. */
  private fit(sets: Rows[]): void {
    const rows = sets.reduce((s, r) => s + r.size, 0);
    if (rows === 0) return;
    const m = this.m;
    const F = new Float64Array(rows * FEATURE_COUNT);
    const Y = new Float64Array(rows * m);
    let k = 0;
    for (const set of sets) {
      F.set(set.features.subarray(0, set.size * FEATURE_COUNT), k * FEATURE_COUNT);
      Y.set(set.answers.subarray(0, set.size * m), k * m);
      k += set.size;
    }
    const fit = new HingeFit(this.groups, this.priors, F, Y, rows, this.alpha, this.beta, this.gamma);
    this.exact = fit.run(this.rounds);
    this.alpha.set(fit.alpha);
    this.beta.set(fit.beta);
    this.gamma.set(fit.gamma);
    this.updateAim();
  }

  /** aimAlpha and aimBeta from the fitted bands (see aimAlpha). */
  private updateAim(): void {
    for (let i = 0; i < FEATURE_COUNT; i++) {
      const [low, high] = i < COUNT_FEATURES_FROM ? [this.alpha[i], this.beta[i]] : leastWholeValues(this.alpha[i], this.beta[i]);
      this.aimAlpha[i] = low;
      this.aimBeta[i] = high;
    }
  }
}

/** F6..F15 (0-based 5..14) count windows: whole values. */
const SNAP = 0.01;
const COUNT_FEATURES_FROM = 5;

/**
 * The whole values v where gamma max(alpha - v, v - beta, 0) is least (alpha <= beta): those in
 * [alpha, beta], or, when none is, the nearer of the two around the band (both when as near).
 */
export function leastWholeValues(alpha: number, beta: number): [number, number] {
  // A fitted end within SNAP of a whole value is that value: a fit stops once it explains the
  // answers to 1e-6 of them, which leaves ends a little off, and an error of SNAP gamma at a
  // whole value is nothing to aim at. (+ 0 turns a -0 from Math.ceil into 0.)
  const low = Math.ceil(alpha - SNAP) + 0;
  const high = Math.floor(beta + SNAP) + 0;
  if (low <= high) return [low, high];
  // alpha and beta lie between high and low = high + 1.
  const below = alpha - high; // the error at `high`, over gamma
  const above = low - beta; // the error at `low`
  return below < above ? [high, high] : above < below ? [low, low] : [high, low];
}

/** Per bucket of equal feature values: count and sums over its rows (r: a partial residual). */
interface BucketSums {
  cnt: Float64Array;
  sF: Float64Array;
  sFF: Float64Array;
  sR: Float64Array;
  sRF: Float64Array;
  sRR: Float64Array;
}

function bucketSums(size: number): BucketSums {
  return {
    cnt: new Float64Array(size),
    sF: new Float64Array(size),
    sFF: new Float64Array(size),
    sR: new Float64Array(size),
    sRF: new Float64Array(size),
    sRR: new Float64Array(size),
  };
}

/** The buckets mirrored (F -> -F, order reversed), so the lower end is fitted as an upper one. */
function mirror(v: Float64Array, s: BucketSums, T: number, mv: Float64Array, ms: BucketSums): void {
  for (let t = 0; t < T; t++) {
    const u = T - 1 - t;
    mv[t] = -v[u];
    ms.cnt[t] = s.cnt[u];
    ms.sF[t] = -s.sF[u];
    ms.sFF[t] = s.sFF[u];
    ms.sR[t] = s.sR[u];
    ms.sRF[t] = -s.sRF[u];
    ms.sRR[t] = s.sRR[u];
  }
}

/**
 * The best (gamma, beta) for one feature's partial residuals r, bucketed by the sorted distinct
 * values v[0..T-1], with the lower end `low` held: rows below `low` have error gamma (low - F)
 * (sharing gamma), rows in [low, beta] none, rows above gamma (F - beta). Over each piece of
 * beta between consecutive values the loss is quadratic in (gamma, b = gamma beta): solved in
 * closed form, clamped to the piece; the prior's ridge terms count in the loss. Writes the
 * result into out = [gamma, beta, loss].
 */
function fitUpper(
  v: Float64Array,
  s: BucketSums,
  T: number,
  low: number,
  p: { gamma: number; end: number; wGamma: number; wBand: number; minGamma: number },
  out: Float64Array,
): void {
  // Rows below `low`: sum (r - gamma (low - F))^2 = bRR - 2 gamma P1 + gamma^2 P2.
  let first = 0;
  let bN = 0;
  let bF = 0;
  let bFF = 0;
  let bR = 0;
  let bRF = 0;
  let bRR = 0;
  while (first < T && v[first] < low) {
    bN += s.cnt[first];
    bF += s.sF[first];
    bFF += s.sFF[first];
    bR += s.sR[first];
    bRF += s.sRF[first];
    bRR += s.sRR[first];
    first++;
  }
  const P1 = low * bR - bRF;
  const P2 = bN * low * low - 2 * low * bF + bFF;
  // Above: every bucket from `first` on, then moved inside one by one.
  let n = 0;
  let SF = 0;
  let SFF = 0;
  let SR = 0;
  let SRF = 0;
  let SRR = 0;
  for (let t = first; t < T; t++) {
    n += s.cnt[t];
    SF += s.sF[t];
    SFF += s.sFF[t];
    SR += s.sR[t];
    SRF += s.sRF[t];
    SRR += s.sRR[t];
  }
  let inRR = 0;
  let bestLoss = Infinity;
  let bestGamma = p.gamma;
  let bestBeta = Math.max(low, p.end);
  const lossAt = (gamma: number, beta: number) => {
    const b = gamma * beta;
    const above = SRR - 2 * gamma * SRF + 2 * b * SR + gamma * gamma * SFF - 2 * gamma * b * SF + n * b * b;
    const below = bRR - 2 * gamma * P1 + gamma * gamma * P2;
    return above + below + inRR + p.wGamma * (gamma - p.gamma) ** 2 + p.wBand * (beta - p.end) ** 2;
  };
  /** gamma for a fixed beta (least squares with the prior), at least minGamma. */
  const gammaAt = (beta: number) => {
    const num = SRF - beta * SR + P1 + p.wGamma * p.gamma;
    const den = SFF - 2 * beta * SF + n * beta * beta + P2 + p.wGamma;
    const g = den > 0 ? num / den : p.gamma;
    return g > p.minGamma ? g : p.minGamma;
  };
  const consider = (gamma: number, beta: number) => {
    const loss = lossAt(gamma, beta);
    if (loss < bestLoss) {
      bestLoss = loss;
      bestGamma = gamma;
      bestBeta = beta;
    }
  };
  for (let t = first; t <= T; t++) {
    const lo = t === first ? low : v[t - 1];
    const hi = t < T ? v[t] : Infinity;
    if (n > 0) {
      // The 2 x 2 normal equations in (gamma, b); the beta prior is left to the clamped checks.
      const a11 = SFF + P2 + p.wGamma;
      const det = a11 * n - SF * SF;
      if (det > 0) {
        const r1 = SRF + P1 + p.wGamma * p.gamma;
        const gamma = (r1 * n - SF * SR) / det;
        const b = (a11 * -SR + SF * r1) / det;
        if (gamma > p.minGamma) {
          const beta = b / gamma;
          if (beta >= lo && beta <= hi) consider(gamma, beta);
        }
      }
      consider(gammaAt(lo), lo);
      if (hi < Infinity) consider(gammaAt(hi), hi);
      const prior = Math.min(hi, Math.max(lo, p.end));
      consider(gammaAt(prior), prior);
    } else {
      // Nothing above: beta is the prior's (kept above every value), gamma from the rows below.
      const beta = Math.max(lo, p.end);
      consider(gammaAt(beta), beta);
    }
    if (t < T) {
      n -= s.cnt[t];
      SF -= s.sF[t];
      SFF -= s.sFF[t];
      SR -= s.sR[t];
      SRF -= s.sRF[t];
      SRR -= s.sRR[t];
      inRR += s.sRR[t];
    }
  }
  out[0] = bestGamma;
  out[1] = bestBeta;
  out[2] = bestLoss;
}

/**
 * One refit's working set: the rows and the estimate being fitted. `run` backfits, splits the
 * unidentified sums by the prior, and says whether every row is explained.
 */
class HingeFit {
  readonly alpha: Float64Array;
  readonly beta: Float64Array;
  readonly gamma: Float64Array;
  /** The model's objectives per row and group. */
  private readonly pred: Float64Array;
  /** Per feature: the sorted distinct values, their count, and each row's bucket. */
  private readonly values: Float64Array[] = [];
  private readonly distinct = new Int32Array(FEATURE_COUNT);
  private readonly bucket: Int32Array[] = [];
  private readonly groupsOf: number[][];
  /** The features in some group. */
  private readonly active: number[];
  /** The Levenberg-Marquardt damping, kept across steps, and its buffers. */
  private lambda = 1e-3;
  private readonly slot = new Int32Array(FEATURE_COUNT).fill(-1);
  private readonly lm: {
    H: Float64Array;
    g: Float64Array;
    damped: Float64Array;
    step: Float64Array;
    cols: Int32Array;
    vals: Float64Array;
    next: { alpha: Float64Array; beta: Float64Array; gamma: Float64Array };
    spd: SpdWork;
    dataDiag: Float64Array;
  };

  constructor(
    private readonly groups: Int32Array[],
    private readonly priors: FeaturePrior[],
    private readonly F: Float64Array,
    private readonly Y: Float64Array,
    private readonly rows: number,
    alpha: Float64Array,
    beta: Float64Array,
    gamma: Float64Array,
  ) {
    this.alpha = alpha.slice();
    this.beta = beta.slice();
    this.gamma = gamma.slice();
    this.groupsOf = Array.from({ length: FEATURE_COUNT }, () => []);
    groups.forEach((g, m) => g.forEach((i) => this.groupsOf[i].push(m)));
    this.active = [];
    const column = new Float64Array(rows);
    for (let i = 0; i < FEATURE_COUNT; i++) {
      if (this.groupsOf[i].length === 0) {
        this.values.push(new Float64Array(0));
        this.bucket.push(new Int32Array(0));
        continue;
      }
      this.active.push(i);
      for (let k = 0; k < rows; k++) column[k] = F[k * FEATURE_COUNT + i];
      const sorted = column.slice().sort();
      let T = 0;
      for (let k = 0; k < rows; k++) if (T === 0 || sorted[k] !== sorted[T - 1]) sorted[T++] = sorted[k];
      const v = sorted.slice(0, T);
      const bucket = new Int32Array(rows);
      for (let k = 0; k < rows; k++) {
        let lo = 0;
        let hi = T - 1;
        const f = column[k];
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if (v[mid] < f) lo = mid + 1;
          else hi = mid;
        }
        bucket[k] = lo;
      }
      this.values.push(v);
      this.distinct[i] = T;
      this.bucket.push(bucket);
    }
    this.active.forEach((i, j) => (this.slot[i] = j));
    const P = 3 * this.active.length;
    this.lm = {
      H: new Float64Array(P * P),
      g: new Float64Array(P),
      damped: new Float64Array(P * P),
      step: new Float64Array(P),
      cols: new Int32Array(2 * FEATURE_COUNT),
      vals: new Float64Array(2 * FEATURE_COUNT),
      next: { alpha: new Float64Array(FEATURE_COUNT), beta: new Float64Array(FEATURE_COUNT), gamma: new Float64Array(FEATURE_COUNT) },
      spd: spdWork(P),
      dataDiag: new Float64Array(P),
    };
    this.pred = new Float64Array(rows * groups.length);
    this.predictAll();
  }

  private predictAll(): void {
    const { F, groups, alpha, beta, gamma } = this;
    const m = groups.length;
    for (let k = 0; k < this.rows; k++) {
      for (let q = 0; q < m; q++) {
        const g = groups[q];
        let sum = 0;
        for (let t = 0; t < g.length; t++) {
          const i = g[t];
          sum += hinge(F[k * FEATURE_COUNT + i], alpha[i], beta[i], gamma[i]);
        }
        this.pred[k * m + q] = sum;
      }
    }
  }

  /** Sum of the squared answers (the scale of the loss). */
  private answerSquares(): number {
    let sum = 0;
    for (let k = 0; k < this.Y.length; k++) sum += this.Y[k] * this.Y[k];
    return sum;
  }

  /** Sum of squared residuals over rows and groups. */
  private dataLoss(): number {
    let loss = 0;
    for (let k = 0; k < this.pred.length; k++) loss += (this.Y[k] - this.pred[k]) ** 2;
    return loss;
  }

  /** Whether every row and group is explained within the tolerance. */
  private explained(): boolean {
    for (let k = 0; k < this.pred.length; k++) {
      const f = this.Y[k];
      if (Math.abs(this.pred[k] - f) > TOLERANCE * (1 + Math.abs(f))) return false;
    }
    return true;
  }

  /** Sets feature i's hinge and updates the predictions. */
  private setFeature(i: number, alpha: number, beta: number, gamma: number): void {
    const m = this.groups.length;
    const { F, pred } = this;
    const a0 = this.alpha[i];
    const b0 = this.beta[i];
    const g0 = this.gamma[i];
    for (let k = 0; k < this.rows; k++) {
      const f = F[k * FEATURE_COUNT + i];
      const change = hinge(f, alpha, beta, gamma) - hinge(f, a0, b0, g0);
      if (change !== 0) for (const q of this.groupsOf[i]) pred[k * m + q] += change;
    }
    this.alpha[i] = alpha;
    this.beta[i] = beta;
    this.gamma[i] = gamma;
  }

  /** One backfitting step on feature i: (gamma, beta) with alpha held, then (gamma, alpha). */
  private backfit(i: number, scratch: { s: BucketSums; ms: BucketSums; mv: Float64Array; out: Float64Array }): void {
    const T = this.distinct[i];
    const v = this.values[i];
    const bucket = this.bucket[i];
    const m = this.groups.length;
    const { F, Y, pred } = this;
    const { s, ms, mv, out } = scratch;
    for (const a of [s.cnt, s.sF, s.sFF, s.sR, s.sRF, s.sRR]) a.fill(0, 0, T);
    const a0 = this.alpha[i];
    const b0 = this.beta[i];
    const g0 = this.gamma[i];
    for (let k = 0; k < this.rows; k++) {
      const f = F[k * FEATURE_COUNT + i];
      const own = hinge(f, a0, b0, g0);
      const b = bucket[k];
      for (const q of this.groupsOf[i]) {
        const r = Y[k * m + q] - pred[k * m + q] + own;
        s.cnt[b]++;
        s.sF[b] += f;
        s.sFF[b] += f * f;
        s.sR[b] += r;
        s.sRF[b] += r * f;
        s.sRR[b] += r * r;
      }
    }
    const p = this.priors[i];
    fitUpper(v, s, T, a0, { gamma: p.gamma, end: p.beta, wGamma: p.wGamma, wBand: p.wBand, minGamma: p.minGamma }, out);
    const beta = out[1];
    mirror(v, s, T, mv, ms);
    fitUpper(mv, ms, T, -beta, { gamma: p.gamma, end: -p.alpha, wGamma: p.wGamma, wBand: p.wBand, minGamma: p.minGamma }, out);
    const gamma = out[0];
    const alpha = -out[1];
    // The mirrored fit is the last word on gamma; its beta is `beta`, held.
    this.setFeature(i, Math.min(alpha, beta), beta, gamma);
  }

  /**
   * The features whose rows all lie beyond one end of their band (all above beta, or all below
   * alpha) only count through a sum per objective (gamma_i beta_i resp. gamma_i alpha_i): their
   * ends move, the sums kept, to the point nearest the prior (weights wBand), staying beyond
   * every observed value. Features in several objectives are left as they are. A feature with
   * one observed value is put back to its prior, its constant moved into the sum.
   */
  private splitSums(): void {
    const m = this.groups.length;
    for (let q = 0; q < m; q++) {
      const movable: { i: number; side: 1 | -1; limit: number }[] = [];
      let shift = 0; // the change of the group's constant to make up for (model units)
      for (const i of this.groups[q]) {
        if (this.groupsOf[i].length !== 1) continue;
        const v = this.values[i];
        const T = this.distinct[i];
        const p = this.priors[i];
        if (T === 1) {
          // One value c: its error is a constant. Back to the prior; the difference is made up below.
          const c = v[0];
          const before = hinge(c, this.alpha[i], this.beta[i], this.gamma[i]);
          const after = hinge(c, p.alpha, p.beta, p.gamma);
          shift += after - before;
          this.setFeature(i, p.alpha, p.beta, p.gamma);
        }
        if (v[0] > this.beta[i]) movable.push({ i, side: 1, limit: v[0] });
        else if (v[T - 1] < this.alpha[i]) movable.push({ i, side: -1, limit: v[T - 1] });
      }
      if (movable.length === 0) continue;
      // An end e_i moved by d_i changes the group's objective by -gamma_i d_i (above: the error
      // is gamma (F - beta)) or +gamma_i d_i (below). Keep sum s_i d_i = shift, with s_i = gamma_i
      // (above) or -gamma_i (below), nearest the prior: minimise sum w_i (e_i + d_i - e0_i)^2.
      const end = (x: { i: number; side: 1 | -1 }) => (x.side === 1 ? this.beta[x.i] : this.alpha[x.i]);
      const centre = (x: { i: number; side: 1 | -1 }) => (x.side === 1 ? this.priors[x.i].beta : this.priors[x.i].alpha);
      const weight = (x: { i: number }) => this.priors[x.i].wBand;
      const slope = (x: { i: number; side: 1 | -1 }) => x.side * this.gamma[x.i];
      const moved = new Map<number, number>();
      const free = new Set(movable.map((x) => x.i));
      for (let pass = 0; pass <= movable.length; pass++) {
        let fixedSum = 0;
        let num = shift;
        let den = 0;
        for (const x of movable) {
          if (free.has(x.i)) {
            num -= slope(x) * (centre(x) - end(x));
            den += slope(x) ** 2 / weight(x);
          } else fixedSum += slope(x) * moved.get(x.i)!;
        }
        const mu = den > 0 ? (num - fixedSum) / den : 0;
        let clamped = false;
        for (const x of movable) {
          if (!free.has(x.i)) continue;
          let d = centre(x) - end(x) + (mu * slope(x)) / weight(x);
          // Stay beyond the observations: beta <= min F (above), alpha >= max F (below).
          if (x.side === 1 && end(x) + d > x.limit) {
            d = x.limit - end(x);
            free.delete(x.i);
            clamped = true;
          } else if (x.side === -1 && end(x) + d < x.limit) {
            d = x.limit - end(x);
            free.delete(x.i);
            clamped = true;
          }
          moved.set(x.i, d);
        }
        if (!clamped) break;
      }
      for (const x of movable) {
        const d = moved.get(x.i) ?? 0;
        if (x.side === 1) {
          const beta = this.beta[x.i] + d;
          this.setFeature(x.i, Math.min(this.alpha[x.i], beta), beta, this.gamma[x.i]);
        } else {
          const alpha = this.alpha[x.i] + d;
          this.setFeature(x.i, alpha, Math.max(this.beta[x.i], alpha), this.gamma[x.i]);
        }
      }
    }
  }

  /** Data loss plus the prior's ridge terms, for the given estimate (default the current). */
  private totalLoss(alpha = this.alpha, beta = this.beta, gamma = this.gamma): number {
    const { F, Y, groups } = this;
    const m = groups.length;
    let loss = 0;
    for (let k = 0; k < this.rows; k++) {
      for (let q = 0; q < m; q++) {
        const g = groups[q];
        let sum = 0;
        for (let t = 0; t < g.length; t++) {
          const i = g[t];
          sum += hinge(F[k * FEATURE_COUNT + i], alpha[i], beta[i], gamma[i]);
        }
        loss += (Y[k * m + q] - sum) ** 2;
      }
    }
    for (const i of this.active) {
      const p = this.priors[i];
      loss += p.wGamma * (gamma[i] - p.gamma) ** 2 + p.wBand * ((alpha[i] - p.alpha) ** 2 + (beta[i] - p.beta) ** 2);
    }
    return loss;
  }

  /**
   * One Levenberg-Marquardt step in (gamma, alpha, beta) of every feature at once, taken only
   * when it lowers the loss (the damping raised until it does, a few times at most): what
   * backfitting does slowly when features move together (a change of one roll moves several).
   * The model's derivatives: d/dgamma = the hinge, d/dalpha = gamma below the band, d/dbeta =
   * -gamma above it. Returns whether a step was taken.
   */
  private levenbergMarquardt(): boolean {
    const { F, Y, groups, gamma, alpha, beta, active, slot } = this;
    const m = groups.length;
    const A = active.length;
    const P = 3 * A;
    const { H, g, damped, step, cols, vals, next, spd } = this.lm;
    H.fill(0);
    g.fill(0);
    for (let k = 0; k < this.rows; k++) {
      for (let q = 0; q < m; q++) {
        const group = groups[q];
        let nnz = 0;
        let model = 0;
        for (let t = 0; t < group.length; t++) {
          const i = group[t];
          const j = slot[i];
          const f = F[k * FEATURE_COUNT + i];
          const gi = gamma[i];
          if (f > beta[i]) {
            model += gi * (f - beta[i]);
            cols[nnz] = 3 * j;
            vals[nnz++] = f - beta[i];
            cols[nnz] = 3 * j + 2;
            vals[nnz++] = -gi;
          } else if (f < alpha[i]) {
            model += gi * (alpha[i] - f);
            cols[nnz] = 3 * j;
            vals[nnz++] = alpha[i] - f;
            cols[nnz] = 3 * j + 1;
            vals[nnz++] = gi;
          }
        }
        const r = Y[k * m + q] - model;
        // The columns come in increasing order (groups sorted, slots in feature order): the
        // upper triangle directly.
        for (let u = 0; u < nnz; u++) {
          const vu = vals[u];
          g[cols[u]] += vu * r;
          const row = cols[u] * P;
          for (let v = u; v < nnz; v++) H[row + cols[v]] += vu * vals[v];
        }
      }
    }
    const dataDiag = this.lm.dataDiag;
    for (let d = 0; d < P; d++) dataDiag[d] = H[d * P + d];
    for (let j = 0; j < A; j++) {
      const i = active[j];
      const p = this.priors[i];
      const G = 3 * j;
      H[G * P + G] += p.wGamma;
      g[G] -= p.wGamma * (gamma[i] - p.gamma);
      H[(G + 1) * P + G + 1] += p.wBand;
      g[G + 1] -= p.wBand * (alpha[i] - p.alpha);
      H[(G + 2) * P + G + 2] += p.wBand;
      g[G + 2] -= p.wBand * (beta[i] - p.beta);
    }
    for (let i = 0; i < P; i++) for (let j = 0; j < i; j++) H[i * P + j] = H[j * P + i];
    const current = this.totalLoss();
    next.alpha.set(alpha);
    next.beta.set(beta);
    next.gamma.set(gamma);
    for (let attempt = 0; attempt < 8; attempt++) {
      damped.set(H);
      for (let d = 0; d < P; d++) damped[d * P + d] += this.lambda * H[d * P + d] + 1e-12;
      if (solveSpd(damped, g, P, step, spd)) {
        for (let j = 0; j < A; j++) {
          const i = active[j];
          const gi = Math.max(gamma[i] + step[3 * j], this.priors[i].minGamma);
          // Each end stays between the observed values around it: the step's linear model holds
          // there only, and backfitting is what moves an end across values.
          // An end no row is beyond (no data on its column) moves by the prior only: it stays
          // within its piece, or that pull would drag it across observations.
          let a = dataDiag[3 * j + 1] > 0 ? alpha[i] + step[3 * j + 1] : this.withinPiece(i, alpha[i], alpha[i] + step[3 * j + 1]);
          let b = dataDiag[3 * j + 2] > 0 ? beta[i] + step[3 * j + 2] : this.withinPiece(i, beta[i], beta[i] + step[3 * j + 2]);
          if (a > b) a = b = (a + b) / 2;
          next.gamma[i] = gi;
          next.alpha[i] = a;
          next.beta[i] = b;
        }
        if (this.totalLoss(next.alpha, next.beta, next.gamma) < current) {
          alpha.set(next.alpha);
          beta.set(next.beta);
          gamma.set(next.gamma);
          this.predictAll();
          this.lambda = Math.max(1e-12, this.lambda / 8);
          return true;
        }
      }
      this.lambda *= 8;
    }
    return false;
  }

  /** `to` clamped to the observed values of feature i nearest `from` (below and above it). */
  private withinPiece(i: number, from: number, to: number): number {
    const v = this.values[i];
    const T = this.distinct[i];
    // The first value above `from`, and the last one below it.
    let lo = 0;
    let hi = T;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (v[mid] <= from) lo = mid + 1;
      else hi = mid;
    }
    const above = lo < T ? v[lo] : Infinity;
    let below = -Infinity;
    for (let t = lo - 1; t >= 0; t--) {
      if (v[t] < from) {
        below = v[t];
        break;
      }
    }
    return to < below ? below : to > above ? above : to;
  }

  /** Levenberg-Marquardt steps while they lower the loss by PROGRESS (LM_STEPS at most); the loss after. */
  private jointSteps(loss: number): number {
    for (let s = 0; s < LM_STEPS && !this.explained(); s++) {
      if (!this.levenbergMarquardt()) break;
      const next = this.dataLoss();
      const stalled = !(next < loss * (1 - PROGRESS));
      loss = next;
      if (stalled) break;
    }
    return loss;
  }

  /**
   * The fit of the file header: joint steps from the current estimate, then up to `rounds`
   * rounds of (SWEEPS_PER_ROUND backfitting sweeps, joint steps) while the rows are not
   * explained and a round lowers the loss by PROGRESS; then the sums are split. Returns whether
   * every row is explained.
   */
  run(rounds: number): boolean {
    let T = 1;
    for (const i of this.active) T = Math.max(T, this.distinct[i]);
    const scratch = { s: bucketSums(T), ms: bucketSums(T), mv: new Float64Array(T), out: new Float64Array(3) };
    // Joint steps first: when the current estimate has the rows on the right sides of the
    // bands, the model is nearly linear and the rest is a small move.
    let loss = this.jointSteps(this.dataLoss());
    for (let round = 0; round < rounds && !this.explained(); round++) {
      const before = loss;
      for (let s = 0; s < SWEEPS_PER_ROUND; s++) {
        for (const i of this.active) this.backfit(i, scratch);
        const next = this.dataLoss();
        const stalled = !(next < loss * (1 - PROGRESS));
        loss = next;
        if (stalled || this.explained()) break;
      }
      loss = this.jointSteps(loss);
      if (!(loss < before * (1 - PROGRESS))) break;
    }
    // Nearly there (residuals a millionth of the answers): polish with joint steps until done.
    if (!this.explained() && loss < 1e-8 * this.answerSquares()) {
      for (let s = 0; s < POLISH_STEPS && !this.explained(); s++) if (!this.levenbergMarquardt()) break;
      loss = this.dataLoss();
    }
    const fitted = { alpha: this.alpha.slice(), beta: this.beta.slice(), gamma: this.gamma.slice(), pred: this.pred.slice() };
    const wasExplained = this.explained();
    this.splitSums();
    if (wasExplained ? !this.explained() : this.dataLoss() > loss * (1 + 1e-6)) {
      // The split could not keep the sums (every end at its limit): keep the fit as it was.
      this.alpha.set(fitted.alpha);
      this.beta.set(fitted.beta);
      this.gamma.set(fitted.gamma);
      this.pred.set(fitted.pred);
    }
    return this.explained();
  }
}
