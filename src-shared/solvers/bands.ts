/**
 * What a dice solver knows of the bands it aims with: the config's own on a sighted problem, or
 * estimates learnt from the answers on a blind one (src-shared/problems/dice/blind.ts,
 * band-learner.ts). The solvers that aim at features out of their band (barrier.ts, so/ils.ts)
 * read `alpha` and `beta` from here and pass every answer they get to `observe`; they never
 * look at the config themselves.
 */
import { asBlindDiceProblem, dicePublicInfo, type ObservableValues } from '../problems/dice/blind.ts';
import { asDiceProblem } from '../problems/dice/problem.ts';
import type { Problem } from '../core/problem.ts';
import { BandLearner, PUBLIC_PRIOR } from './band-learner.ts';

export interface BandKnowledge {
  /** Lower and upper band ends per feature (15, 0-based), current: a learner updates them in place. */
  readonly alpha: Float64Array;
  readonly beta: Float64Array;
  /** Whether answers teach anything (false: the bands are known; `observe` does nothing). */
  readonly learning: boolean;
  /** An answer: the values of a sequence the solver evaluated (its features and objectives). */
  observe(values: ObservableValues): void;
  /** The learner behind a blind solver's bands, or null when they are known. */
  readonly learner: BandLearner | null;
}

/** The config's own bands (a sighted solver on the dice problem). */
class KnownBands implements BandKnowledge {
  readonly learning = false;
  readonly learner = null;
  constructor(
    readonly alpha: Float64Array,
    readonly beta: Float64Array,
  ) {}
  observe(): void {}
}

/** Bands learnt from the answers, starting from the public config (a blind solver). */
class LearntBands implements BandKnowledge {
  readonly learning = true;
  readonly alpha: Float64Array;
  readonly beta: Float64Array;
  constructor(readonly learner: BandLearner) {
    this.alpha = learner.aimAlpha;
    this.beta = learner.aimBeta;
  }
  observe(values: ObservableValues): void {
    this.learner.observe(values.features, values.objectives);
  }
}

/**
 * The band knowledge a solver has of this problem: known on the sighted dice problem, learnt on
 * the blind one, null off the dice problem.
 */
export function bandKnowledge(problem: Problem): BandKnowledge | null {
  const dice = asDiceProblem(problem);
  if (dice) return new KnownBands(Float64Array.from(dice.config.alpha), Float64Array.from(dice.config.beta));
  const blind = asBlindDiceProblem(problem);
  if (blind) return new LearntBands(new BandLearner(dicePublicInfo(blind)!.config.objectives, PUBLIC_PRIOR));
  return null;
}
