/**
 * The dice problem behind the generic Problem interface (src-shared/runtime/problem.ts), with
 * both optional capabilities: incremental evaluation (DiceState) and the full evaluation as
 * the reported numbers.
 */
import { trackOf, validateConfig, type DiceConfig } from '../problems/dice/config.ts';
import { DiceEvaluator, createValues, type DiceEvaluation, type DiceValues } from '../problems/dice/evaluate.ts';
import { DiceState } from '../problems/dice/incremental.ts';
import { constraintScales } from './constraints.ts';
import type { Problem } from '../runtime/problem.ts';

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
