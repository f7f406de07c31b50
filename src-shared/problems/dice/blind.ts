/**
 * The dice problem as a blind solver sees it (issue 26, "Every solver blind"). In EC-Comp 2020
 * the bands alpha, beta and the weights gamma were secret: an entrant saw N, M, L, the budget,
 * the seed and the answers (f and g of each sequence it asked about). What was public, and is
 * public here: N, the feature groups (hence M), the constrained block lengths and their percent
 * points (hence the quantiles q(p_d), q(P_d)), and the features' definitions, so a solver may
 * compute F_i(x) and chi_d(x) itself. What is not: alpha, beta, gamma, and every number made of
 * them but the answers. The per-feature errors E_i are not answers (the answers are f_m and g_d),
 * so a blind state shows features, chi, objectives and constraints, never errors.
 *
 * Leaking is made impossible by structure, not by convention: BlindDiceProblem and BlindState
 * keep the sighted problem and its incremental state in #private fields, which no code outside
 * the class body can read (no property, no reflection, no prototype walk reaches them); what
 * their methods return holds only typed arrays of features, chi, objectives and constraints.
 * tests/shared/problems/dice/blind.test.ts walks everything a solver can reach from them and
 * finds no band or weight, and `asDiceProblem` (the sighted problem) is null for them.
 *
 * Every evaluation through them is an evaluation of the real problem (the same numbers, the
 * same counting): they only choose what the solver sees.
 */
import type { DiceConfig } from './config.ts';
import { blockQuantile } from './chi2.ts';
import { DiceProblem, asDiceProblem } from './problem.ts';
import type { IncrementalState, IncrementalValues, Problem } from '../../core/problem.ts';

/** The public part of a dice config: what every solver may know, blind or not. */
export interface PublicDiceConfig {
  readonly n: number;
  /** Feature groups (1-based feature indices); objective m is the sum of the errors of group m. */
  readonly objectives: readonly (readonly number[])[];
  /** Constrained block lengths d, in the order of the constraint values. */
  readonly constraints: readonly number[];
  /** Percent points p_d and P_d per constrained d. */
  readonly lowerBounds: readonly number[];
  readonly upperBounds: readonly number[];
}

/** What a dice solver may know of its problem, sighted or blind: the public config and its quantiles. */
export interface DicePublicInfo {
  readonly config: PublicDiceConfig;
  /** q(p_d) and q(P_d) per constraint (q(0) = 0, q(1) = Infinity). */
  readonly lower: Float64Array;
  readonly upper: Float64Array;
}

/**
 * The values of an incremental state a dice solver may read: the features and chi_d (computable
 * from x by anyone) and the answers. A sighted state's DiceValues has these (and the errors).
 */
export interface ObservableValues extends IncrementalValues {
  readonly features: Float64Array;
  readonly chi: Float64Array;
}

/** A frozen copy of the public part of a config. */
export function publicConfig(config: DiceConfig | PublicDiceConfig): PublicDiceConfig {
  return Object.freeze({
    n: config.n,
    objectives: Object.freeze(config.objectives.map((g) => Object.freeze([...g]))),
    constraints: Object.freeze([...config.constraints]),
    lowerBounds: Object.freeze([...config.lowerBounds]),
    upperBounds: Object.freeze([...config.upperBounds]),
  });
}

function publicInfo(config: PublicDiceConfig): DicePublicInfo {
  return Object.freeze({
    config,
    lower: Float64Array.from(config.constraints, (d, l) => blockQuantile(d, config.lowerBounds[l])),
    upper: Float64Array.from(config.constraints, (d, l) => blockQuantile(d, config.upperBounds[l])),
  });
}

/**
 * An incremental state that shows only what a blind solver may see. The sighted state (which
 * holds the whole config) is in a #private field; `values` and the peeks return views of its
 * buffers without the errors. The views are made once per buffer (a state has three), so a
 * peek costs one more call and no copy.
 */
export class BlindState implements IncrementalState {
  readonly #state: IncrementalState;
  readonly #buffers: IncrementalValues[] = [];
  readonly #views: ObservableValues[] = [];

  constructor(state: IncrementalState) {
    this.#state = state;
  }

  #view(values: IncrementalValues): ObservableValues {
    const buffers = this.#buffers;
    for (let i = 0; i < buffers.length; i++) if (buffers[i] === values) return this.#views[i];
    const v = values as ObservableValues;
    const view: ObservableValues = Object.freeze({ features: v.features, chi: v.chi, objectives: v.objectives, constraints: v.constraints });
    buffers.push(values);
    this.#views.push(view);
    return view;
  }

  get values(): ObservableValues {
    return this.#view(this.#state.values);
  }

  face(p: number): number {
    return this.#state.face(p);
  }

  set(p: number, value: number): void {
    this.#state.set(p, value);
  }

  swap(p: number, q: number): void {
    this.#state.swap(p, q);
  }

  peekSet(p: number, value: number): ObservableValues {
    return this.#view(this.#state.peekSet(p, value));
  }

  peekSwap(p: number, q: number): ObservableValues {
    return this.#view(this.#state.peekSwap(p, q));
  }

  reset(x: Uint8Array): void {
    this.#state.reset(x);
  }

  sequence(): Uint8Array {
    return this.#state.sequence();
  }
}

/**
 * The dice problem without its bands and weights: evaluates with the true config (the sighted
 * problem in a #private field), shows the public config, and offers incremental states that
 * show features, chi and the answers. No `report` (the run reports from the sighted problem).
 */
export class BlindDiceProblem implements Problem {
  readonly name = 'dice';
  readonly n: number;
  readonly lower = 1;
  readonly upper = 6;
  readonly objectiveCount: number;
  readonly constraintCount: number;
  readonly constraintScales: Float64Array;
  readonly constraintLabels: readonly string[];
  /** The public config and its quantiles. */
  readonly info: DicePublicInfo;
  readonly #problem: DiceProblem;

  constructor(problem: DiceProblem) {
    this.#problem = problem;
    this.info = publicInfo(publicConfig(problem.config));
    this.n = problem.n;
    this.objectiveCount = problem.objectiveCount;
    this.constraintCount = problem.constraintCount;
    this.constraintScales = Float64Array.from(problem.constraintScales);
    this.constraintLabels = Object.freeze([...problem.constraintLabels]);
    Object.freeze(this);
  }

  evaluate(x: Uint8Array, F: Float64Array, G: Float64Array): void {
    this.#problem.evaluate(x, F, G);
  }

  createState(x: Uint8Array): BlindState {
    return new BlindState(this.#problem.createState(x));
  }
}

/** The blind view of a sighted dice problem (its evaluations are the problem's own). */
export function blindDiceProblem(problem: DiceProblem): BlindDiceProblem {
  return new BlindDiceProblem(problem);
}

/** The blind dice problem behind a generic one, or null. */
export function asBlindDiceProblem(problem: Problem): BlindDiceProblem | null {
  return problem instanceof BlindDiceProblem ? problem : null;
}

const infoOfSighted = new WeakMap<DiceProblem, DicePublicInfo>();

/**
 * What a solver may know of a dice problem, sighted or blind (the public config and quantiles),
 * or null off the dice problem. The bands and weights are never part of it: a sighted solver
 * reads them from the sighted problem (src-shared/solvers/bands.ts), a blind one learns them.
 */
export function dicePublicInfo(problem: Problem): DicePublicInfo | null {
  const blind = asBlindDiceProblem(problem);
  if (blind) return blind.info;
  const dice = asDiceProblem(problem);
  if (!dice) return null;
  let info = infoOfSighted.get(dice);
  if (!info) {
    info = publicInfo(publicConfig(dice.config));
    infoOfSighted.set(dice, info);
  }
  return info;
}
