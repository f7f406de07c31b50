/**
 * The solver framework's contract (pymoo-style ask/tell). Everything here is plain data or a
 * small interface so that the worker host, the CLI and the renderer can share it.
 *
 * A run is a request ({kind: 'dice', solver, params, seed, config, termination}) that the
 * launcher (src-main/app/launcher.ts) hands to a worker, or runs in process, through
 * executeRun (src-shared/runtime/kinds/): the dice kind builds
 *   problem  = createDiceProblem(config)            (problems/dice/problem.ts)
 *   solver   = findSolver(name).create()            (registry.ts)
 *   run      = new SolverRun(problem, solver, ...)  (solver-run.ts)
 * and the driver (src-shared/core/driver.ts) steps the run. The run calls
 * `solver.setup(problem, params, seed)`, then the driver repeatedly steps it:
 *   ask(limit) -> the run evaluates ask.candidates -> tell(evaluated)
 * until the termination fires, the solver says it is done, or the run is cancelled.
 *
 * Counting evaluations: every candidate whose objective values are computed counts as one
 * evaluation, fully or incrementally. The run counts `candidates.length` itself; a solver
 * that evaluates internally (local search on DiceState.peekSet / peekSwap) reports those in
 * `ask.internal.evaluations`. One step never spends more than `limit` evaluations in total.
 */
import type { TrackName } from '../problems/dice/config.ts';
import type { Problem, ProblemCapability } from '../core/problem.ts';
import type { StopReason, Termination } from '../core/termination.ts';
import type { ParamSpec, ParamValue, ParamValues } from '../core/params.ts';
import type { FrontLog } from './front-log.ts';

/** One evaluated candidate. `violation` and `feasible` come from constraints.ts only. */
export interface Evaluated {
  readonly x: Uint8Array;
  readonly F: Float64Array;
  readonly G: Float64Array;
  /** Total normalised constraint violation (0 when feasible). */
  readonly violation: number;
  readonly feasible: boolean;
}

// ---------------------------------------------------------------------------------------------
// Solver

/** A solution found inside a step (internal evaluation) that the driver should consider. */
export interface Reported {
  readonly solution: Evaluated;
  /** 1-based index, within this step's internal evaluations, of the evaluation that produced it. */
  readonly at: number;
}

/** What a solver wants done in one step. */
export interface Ask {
  /** Candidates for the driver to evaluate fully; passed back to tell() in the same order. */
  readonly candidates: readonly Uint8Array[];
  /**
   * Work the solver did itself during ask(): evaluations spent (peeks count one each) and
   * the solutions worth recording, in the order they were evaluated: at least every new best
   * it found (SO) or every point that entered its own archive (MO), so that the run's trace
   * holds each at its exact evaluation.
   */
  readonly internal?: { readonly evaluations: number; readonly reported: readonly Reported[] };
}

/** What a solver may know about the run it is in (e.g. to size an annealing schedule). */
export interface SetupContext {
  /** The evaluation budget, when the termination has one. */
  readonly maxEvaluations?: number;
}

export interface Solver {
  /** Binds the problem, validated params and the seed; all randomness flows from the seed. */
  setup(problem: Problem, params: ParamValues, seed: number, context?: SetupContext): void;
  /** The next step, spending at most `limit` (>= 1) evaluations in total. */
  ask(limit: number): Ask;
  /** The evaluated ask.candidates (possibly an empty list), in order. */
  tell(evaluated: readonly Evaluated[]): void;
  /** True when the solver has nothing more to do (e.g. exhausted); optional. */
  done?(): boolean;
  /** After setup: parameters whose value the setup derives (a size given as 0 = automatic), as used. */
  effectiveParams?(): Record<string, ParamValue>;
}

// ---------------------------------------------------------------------------------------------
// Registry entries

/** Which problems a solver handles: single objective only, several only, or any. */
export type ObjectiveSupport = 'single' | 'multi' | 'any';

export interface SolverInfo {
  /** Lookup key, kebab-case, e.g. "ga", "ils". */
  readonly name: string;
  readonly title: string;
  readonly summary: string;
  readonly objectives: ObjectiveSupport;
  /** Kept for honest comparison, not to win. */
  readonly baseline: boolean;
  readonly params: readonly ParamSpec[];
  /** Capabilities the solver needs of a problem (local search: incremental evaluation). */
  readonly requires?: readonly ProblemCapability[];
  create(): Solver;
}

// ---------------------------------------------------------------------------------------------
// Results, snapshots, traces (plain JSON: no typed arrays, no Infinity/NaN)

export interface SolutionRecord {
  /** The sequence as a string of digits 1-6. */
  x: string;
  objectives: number[];
  /** g_d in the order of config.constraints. */
  constraints: number[];
  feasible: boolean;
  /** Total normalised violation (constraints.ts). */
  violation: number;
}

/**
 * A point of a run's trace (docs/solvers.md, "Traces"). Single objective: one point per
 * improvement of the best (feasibility first: the violation while nothing is feasible, then f)
 * among the solutions the run sees (every candidate it evaluates, each answer of a program's
 * batch, and what a solver reports of its own evaluations, Ask.internal, which must hold each
 * new best), dated at the evaluation that found it, and a last point at the run's end unless the
 * last improvement is at it (results without traceExact, stored before: one point per improving
 * step, dated at the step's end). Several objectives:
 * a sample of the front at the end of each step that changed it, thinned when long (the exact
 * record is SolverResult.frontLog).
 */
export interface TracePoint {
  /** SO: the evaluation that found the new best (the last point: the run's count). MO: the count at the end of the step. */
  evaluations: number;
  /** Running time when the point was recorded (a solver's own reports: the end of its ask). */
  seconds: number;
  /** SO: best objective value so far (feasible if `feasible`); MO: null. */
  best: number | null;
  /** SO: violation of that best (0 once feasible); MO: least violation seen. */
  violation: number;
  feasible: boolean;
  /** MO: size of the feasible non-dominated archive; SO: null. */
  frontSize: number | null;
  /** MO: SolverRunOptions.frontIndicator of the feasible front (e.g. hypervolume), else null. */
  indicator: number | null;
}

export interface Snapshot {
  evaluations: number;
  seconds: number;
  /** 0..1 from the termination (max over the evaluation and time budgets). */
  progress: number;
  paused: boolean;
  /** Whether any feasible solution has been found. */
  feasibleFound: boolean;
  /** SO: the current best (feasibility first). MO: least-violating solution while no feasible one exists, else null. */
  best: SolutionRecord | null;
  /** MO: objective vectors of the current feasible non-dominated archive; SO: []. */
  front: number[][];
  /**
   * MO with M <= 3: the front's indicator as the trace records it (normalised hypervolume),
   * computed in the worker so the app draws it without redoing the work; otherwise null.
   */
  indicator: number | null;
}

export interface SolverResult {
  solver: string;
  params: Record<string, ParamValue>;
  seed: number;
  track: TrackName | null;
  n: number;
  objectiveCount: number;
  termination: Termination;
  evaluations: number;
  seconds: number;
  /** SO: a feasible solution was found (and the target reached, if one was set). MO: the front is non-empty. */
  success: boolean;
  message: string;
  stopReason: StopReason;
  /**
   * SO: the best solution by the feasibility-first order (feasible when success).
   * MO: null when the front is non-empty, else the least-violating solution seen.
   */
  best: SolutionRecord | null;
  /** Evaluation count at which `best` was first evaluated (null without best). */
  bestFoundAt: number | null;
  /** Evaluation count of the first feasible solution, or null. */
  firstFeasibleAt: number | null;
  /** MO: the feasible non-dominated archive, sorted by objectives; SO: []. */
  front: SolutionRecord[];
  /**
   * The convergence trace (TracePoint). With `traceExact` (every result since exact traces): SO,
   * every improvement of the best at its exact evaluation, then the end; MO, a thinned sample per
   * step. Without it (results stored before): one point per improving step, thinned when long.
   */
  trace: TracePoint[];
  /** True when the trace holds every SO improvement at its exact evaluation (absent in older results). */
  traceExact?: boolean;
  /**
   * MO: every insertion into the feasible archive with its evaluation count (front-log.ts),
   * from which the front, and its hypervolume for any reference point, is rebuilt at any
   * evaluation. Absent for SO and in results stored before it existed.
   */
  frontLog?: FrontLog;
  /** A solver program's run only: what ran and how it ended (docs/external-solvers.md). */
  program?: ProgramRecord;
  /** A solver program's run only: its stderr and {"log"} messages, bounded (start and end kept). */
  log?: string;
}

/** What the result of a solver program's run says about the program. */
export interface ProgramRecord {
  command: string[];
  cwd: string | null;
  blind: boolean;
  /** sha256 of the arguments that are files in the project's folder, as stored with the spec. */
  hashes: Record<string, string> | null;
  /** How the process ended: its exit code or signal, and whether Saikoro had to end it. */
  exit: { code: number | null; signal: string | null; how: 'exited' | 'terminated' | 'killed' } | null;
}
