/**
 * The dice problem behind the generic Problem interface (src-shared/core/problem.ts), with
 * both optional capabilities: incremental evaluation (DiceState) and the full evaluation as
 * the reported numbers.
 *
 * Normalisation: g_d is divided by s_d = 6^d / B_d (B_d = floor(N/d) blocks, at least 1).
 * Since chi_d = (6^d / B_d) * S2_d - B_d, where S2_d is the sum of squared block counts, the
 * scaled value g_d / s_d is the distance of the integer S2_d from its allowed band. Every
 * constraint is therefore measured in the same currency (squared-count units): one repeated
 * block at d = 12 costs 2 (instead of about 10^9 raw), and a change of one roll moves S2_d of
 * every d by the even integer 2 (c_new - c_old) + 2. See docs/solvers.md.
 */
import { trackOf, validateConfig, type DiceConfig } from './config.ts';
import { DiceEvaluator, createValues, type DiceEvaluation, type DiceValues } from './evaluate.ts';
import { DiceState } from './incremental.ts';
import type { Problem } from '../../core/problem.ts';

/** The per-constraint divisors s_d = 6^d / max(1, floor(N / d)). */
export function constraintScales(n: number, blockLengths: readonly number[]): Float64Array {
  return Float64Array.from(blockLengths, (d) => 6 ** d / Math.max(1, Math.floor(n / d)));
}

export class DiceProblem implements Problem {
  readonly name = 'dice';
  readonly n: number;
  readonly lower = 1;
  readonly upper = 6;
  readonly objectiveCount: number;
  readonly constraintCount: number;
  readonly constraintScales: Float64Array;
  readonly constraintLabels: readonly string[];
  readonly track;
  private readonly evaluator: DiceEvaluator;
  private readonly scratch: DiceValues;

  constructor(readonly config: DiceConfig) {
    validateConfig(config);
    this.n = config.n;
    this.objectiveCount = config.objectives.length;
    this.constraintCount = config.constraints.length;
    this.constraintScales = constraintScales(config.n, config.constraints);
    this.constraintLabels = config.constraints.map((d) => `g_${d}`);
    this.track = trackOf(config.objectives) ?? null;
    this.evaluator = new DiceEvaluator(config);
    this.scratch = createValues(config);
  }

  evaluate(x: Uint8Array, F: Float64Array, G: Float64Array): void {
    this.evaluator.evaluateInto(x, this.scratch);
    F.set(this.scratch.objectives);
    G.set(this.scratch.constraints);
  }

  createState(x: Uint8Array): DiceState {
    return new DiceState(this.config, x);
  }

  fullEvaluation(x: Uint8Array): DiceEvaluation {
    return this.evaluator.evaluate(x);
  }

  /** The full evaluation, so reported numbers are exactly what `saikoro eval` prints. */
  report(x: Uint8Array): { objectives: number[]; constraints: number[] } {
    const full = this.evaluator.evaluate(x);
    return { objectives: full.objectives, constraints: full.constraints };
  }
}

/** The dice problem behind a generic one, or null (solvers use it for dice-specific guidance). */
export function asDiceProblem(problem: Problem): DiceProblem | null {
  return problem instanceof DiceProblem ? problem : null;
}

export function createDiceProblem(config: DiceConfig): DiceProblem {
  return new DiceProblem(config);
}
