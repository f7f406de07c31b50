/** The dice problem behind the solver framework's Problem interface. */
import { trackOf, validateConfig, type DiceConfig } from '../problems/dice/config.ts';
import { DiceEvaluator, createValues, type DiceEvaluation, type DiceValues } from '../problems/dice/evaluate.ts';
import { DiceState } from '../problems/dice/incremental.ts';
import { constraintScales } from './constraints.ts';
import type { Problem } from './types.ts';

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
}

export function createDiceProblem(config: DiceConfig): DiceProblem {
  return new DiceProblem(config);
}
