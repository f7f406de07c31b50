/**
 * A problem, whatever it is (pymoo's Problem): its shape (integer variables in [lower, upper],
 * M objectives to minimise, constraint values G with 0 meaning satisfied) and one evaluation
 * hook that fills F and G. Optional capabilities are asked for by the solvers that need them:
 * incremental evaluation (`createState`) for local search, and `report` for the numbers a
 * result shows. The dice problem (src-shared/problems/dice/problem.ts) is one implementation.
 */

export interface Problem {
  readonly name: string;
  /** Number of variables N. */
  readonly n: number;
  /** Every variable is an integer in [lower, upper]. */
  readonly lower: number;
  readonly upper: number;
  /** Number of objectives M (1 = single objective). */
  readonly objectiveCount: number;
  readonly constraintCount: number;
  /** Divisor per constraint used to normalise violations (src-shared/solvers/constraints.ts). */
  readonly constraintScales: Float64Array;
  /** Human labels of the constraints, e.g. "g_3". */
  readonly constraintLabels: readonly string[];
  /** Fills F (length M) and G (length constraintCount) for x (length N). */
  evaluate(x: Uint8Array, F: Float64Array, G: Float64Array): void;
  /** Capability: an incremental evaluator positioned at x, for local search. */
  createState?(x: Uint8Array): IncrementalState;
  /** Capability: the objectives and constraints a result reports for x (default: evaluate's). */
  report?(x: Uint8Array): { objectives: number[]; constraints: number[] };
}

export interface IncrementalValues {
  readonly objectives: Float64Array;
  readonly constraints: Float64Array;
}

/**
 * Incremental evaluation: a solution and its values, changed one variable (or one swap) at a
 * time; `peek...` answers "what would it be" without committing. Each counts as one evaluation.
 */
export interface IncrementalState {
  readonly values: IncrementalValues;
  /** The value of variable p. */
  face(p: number): number;
  set(p: number, value: number): void;
  swap(p: number, q: number): void;
  peekSet(p: number, value: number): IncrementalValues;
  peekSwap(p: number, q: number): IncrementalValues;
  /** Replaces the whole solution (a full evaluation). */
  reset(x: Uint8Array): void;
  /** A copy of the current solution. */
  sequence(): Uint8Array;
}

/** The capabilities a solver may require of a problem. */
export type ProblemCapability = 'incremental';

export function hasCapability(problem: Problem, capability: ProblemCapability): boolean {
  switch (capability) {
    case 'incremental':
      return typeof problem.createState === 'function';
  }
}

/** An incremental state at x; throws when the problem does not offer the capability. */
export function incrementalState(problem: Problem, x: Uint8Array): IncrementalState {
  if (!problem.createState) throw new Error(`problem ${problem.name} has no incremental evaluation, which this solver needs`);
  return problem.createState(x);
}
