/**
 * A solver run on a problem, as a Steppable of the generic driver (src-shared/core/driver.ts):
 * each step is one ask -> evaluate -> tell, with exact evaluation counting, the best (SO) or
 * the feasible front (MO), a convergence trace, and a plain-JSON result. The driver owns
 * termination, pause, cancel and snapshots. The dice kind of run
 * (src-shared/runtime/kinds/dice.ts) builds one from a request; every run, in a worker or in
 * process (src-main/app/launcher.ts), goes through it.
 */
import { RunClock } from '../core/control.ts';
import type { RunEnd, RunProgress, Steppable } from '../core/driver.ts';
import { validateTermination } from '../core/termination.ts';
import { makeEvaluated, totalViolation } from './constraints.ts';
import { BestKeeper, RunFront, type Kept } from './front.ts';
import { resolveParams } from '../core/params.ts';
import { asDiceProblem } from '../problems/dice/problem.ts';
import { blindDiceProblem } from '../problems/dice/blind.ts';
import { checkSolverFits, findSolver, SolverError } from './registry.ts';
import type { Ask, Evaluated, Snapshot, SolutionRecord, Solver, SolverInfo, SolverResult, TracePoint } from './types.ts';
import type { ParamValue } from '../core/params.ts';
import type { Problem } from '../core/problem.ts';
import type { StopReason, Termination } from '../core/termination.ts';
import { formatSequence } from '../problems/dice/sequence.ts';

export interface SolverRunOptions {
  /** Upper bound on the evaluations of one step (default 1000). */
  maxStepEvaluations?: number;
  /**
   * MO: the trace (a sample per step, for charts) is thinned to between traceLimit and
   * 2 * traceLimit points (default 200). A single-objective trace holds every improvement.
   */
  traceLimit?: number;
  /** MO: the front log's size at its first compaction (default FRONT_LOG_LIMIT, front-log.ts). */
  frontLogLimit?: number;
  /** The run's clock, for the trace's seconds: pass the one the driver reads (default a new one). */
  clock?: RunClock;
  /** MO: an indicator of the feasible front (e.g. normalised hypervolume) recorded in the trace. */
  frontIndicator?: (front: number[][]) => number;
  /**
   * When the indicator is computed: 'every' trace point (default), or, where it is costly
   * (hypervolume at M >= 4), 'doubling': at the first trace point once the evaluations reach
   * INDICATOR_FIRST_AT, then at the first one after each doubling, and at the final point.
   * Other points carry null, and thinning the trace never drops a point that carries it.
   * Both depend on evaluation counts only, so traces stay reproducible.
   */
  frontIndicatorSchedule?: 'every' | 'doubling';
  /**
   * The solver sees the problem blind (src-shared/problems/dice/blind.ts): N, the groups, the
   * constraints' block lengths and percent points and the answers, never the bands and weights.
   * The run itself (counting, best, front, reports) still uses the problem as given.
   */
  blind?: boolean;
}

/** The first evaluation count at which the 'doubling' schedule computes the indicator. */
export const INDICATOR_FIRST_AT = 1000;

/** The problem as a blind solver sees it (the dice problem only). */
function blindView(problem: Problem): Problem {
  const dice = asDiceProblem(problem);
  if (!dice) throw new SolverError(`a blind run needs the dice problem, not ${problem.name}`);
  return blindDiceProblem(dice);
}

/** A solution as results report it: the problem's reported numbers (the dice full evaluation). */
function record(problem: Problem, e: Evaluated): SolutionRecord {
  const reported = problem.report ? problem.report(e.x) : { objectives: Array.from(e.F), constraints: Array.from(e.G) };
  const violation = totalViolation(reported.constraints, problem.constraintScales);
  return { x: formatSequence(e.x), objectives: reported.objectives, constraints: reported.constraints, feasible: violation <= 0, violation };
}

function compareVectors(a: readonly number[], b: readonly number[]): number {
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return a[k] - b[k];
  return 0;
}

/**
 * A solver as a run drives it: a registered one, whose ask is synchronous, or one whose ask
 * waits on something outside (a solver program: src-shared/solvers/program/), which makes
 * the run's steps asynchronous. Everything else (counting, best, front, trace) is the same.
 */
export interface RunnableSolver extends Omit<Solver, 'ask'> {
  ask(limit: number): Ask | Promise<Ask>;
  /** Why the solver finished (done() true), for the result's message; default "the solver finished". */
  finishedWhy?(): string;
  /** Fields the result carries besides the common ones (a program's command and log). */
  resultExtras?(): Partial<SolverResult>;
  /** Releases what the solver holds outside (a program) when the run ends (null: it failed). */
  finish?(stopReason: StopReason | null): Promise<void>;
}

/** A solver given directly instead of by registry name. */
export interface GivenSolver {
  info: SolverInfo;
  solver: RunnableSolver;
}

/** One solver run, advanced step by step by the driver. */
export class SolverRun implements Steppable<Snapshot, SolverResult> {
  readonly info: SolverInfo;
  readonly params: Record<string, ParamValue>;
  readonly termination: Termination;
  readonly maxStep: number;
  readonly clock: RunClock;
  evaluations = 0;
  lastImprovementAt = 0;
  readonly solverName: string;
  private readonly solver: RunnableSolver;
  private readonly single: boolean;
  private readonly bestKeeper = new BestKeeper();
  private readonly front: RunFront;
  private firstFeasibleAt: number | null = null;
  private readonly trace: TracePoint[] = [];
  private readonly traceLimit: number;
  private nextIndicatorAt = INDICATOR_FIRST_AT;

  constructor(
    readonly problem: Problem,
    solver: string | GivenSolver,
    rawParams: Readonly<Record<string, unknown>>,
    readonly seed: number,
    termination: Termination,
    private readonly options: SolverRunOptions = {},
  ) {
    this.info = typeof solver === 'string' ? findSolver(solver) : solver.info;
    this.solverName = this.info.name;
    const seen = options.blind ? blindView(problem) : problem;
    checkSolverFits(this.info, seen);
    this.single = problem.objectiveCount === 1;
    if (!Number.isSafeInteger(seed)) throw new SolverError(`seed must be an integer, got ${seed}`);
    this.termination = validateTermination({ ...termination });
    if (this.termination.target !== undefined && !this.single) throw new SolverError('termination target applies to single-objective problems only');
    this.params = resolveParams(this.info.name, this.info.params, rawParams, seen);
    this.maxStep = Math.max(1, Math.floor(options.maxStepEvaluations ?? 1000));
    this.traceLimit = Math.max(2, Math.floor(options.traceLimit ?? 200));
    this.front = new RunFront(options.frontLogLimit);
    this.clock = options.clock ?? new RunClock();
    this.solver = typeof solver === 'string' ? this.info.create() : solver.solver;
    this.solver.setup(seen, this.params, seed, { maxEvaluations: this.termination.maxEvaluations });
  }

  get work(): number {
    return this.evaluations;
  }

  /** The evaluation count of the last solution considered: the solver's reports must come in order. */
  private lastConsideredAt = 0;

  private consider(e: Evaluated, at: number): boolean {
    if (at < this.lastConsideredAt)
      throw new SolverError(`solver ${this.info.name} reported a solution of evaluation ${at} after one of evaluation ${this.lastConsideredAt}`);
    this.lastConsideredAt = at;
    if (e.feasible && this.firstFeasibleAt === null) this.firstFeasibleAt = at;
    if (!this.single) return this.front.consider(e, at);
    if (!this.bestKeeper.consider(e, at)) return false;
    // Every improvement of the best, at the evaluation that found it.
    this.trace.push(this.tracePoint(at, this.clock.seconds()));
    return true;
  }

  /** One ask/evaluate/tell step spending at most `limit` evaluations (waiting when the ask does). */
  step(limit: number): void | Promise<void> {
    const ask = this.solver.ask(limit);
    if (ask instanceof Promise) return ask.then((a) => this.evaluateAsk(a, limit));
    this.evaluateAsk(ask, limit);
  }

  private evaluateAsk(ask: Ask, limit: number): void {
    const internal = ask.internal?.evaluations ?? 0;
    const spent = internal + ask.candidates.length;
    if (!Number.isInteger(internal) || internal < 0 || spent > limit) {
      throw new SolverError(`solver ${this.info.name} spent ${spent} evaluations in a step limited to ${limit}`);
    }
    if (spent === 0 && !this.solver.done?.()) throw new SolverError(`solver ${this.info.name} made a step without evaluating anything`);
    const before = this.evaluations;
    let improved = false;
    for (const r of ask.internal?.reported ?? []) {
      if (r.at < 1 || r.at > internal) throw new SolverError(`solver ${this.info.name} reported a solution at evaluation ${r.at} of a step with ${internal}`);
      if (this.consider(r.solution, before + r.at)) improved = true;
    }
    const evaluated: Evaluated[] = [];
    const { problem } = this;
    for (let i = 0; i < ask.candidates.length; i++) {
      const x = ask.candidates[i];
      const F = new Float64Array(problem.objectiveCount);
      const G = new Float64Array(problem.constraintCount);
      problem.evaluate(x, F, G);
      const e = makeEvaluated(problem, x, F, G);
      evaluated.push(e);
      if (this.consider(e, before + internal + i + 1)) improved = true;
    }
    this.evaluations += spent;
    this.solver.tell(evaluated);
    if (!improved) return;
    this.lastImprovementAt = this.evaluations;
    if (!this.single) this.pushTrace();
  }

  targetReached(target: number): boolean {
    const best = this.bestKeeper.best?.solution;
    return best !== undefined && best.feasible && best.F[0] <= target;
  }

  finished(): boolean {
    return this.solver.done?.() ?? false;
  }

  async close(stopReason: StopReason | null): Promise<void> {
    await this.solver.finish?.(stopReason);
  }

  /** The indicator of the current feasible front if the schedule asks for it now (`final`: the last point). */
  private frontIndicator(final: boolean): number | null {
    const indicator = this.options.frontIndicator;
    if (!indicator || this.front.size === 0) return null;
    if (this.options.frontIndicatorSchedule === 'doubling' && !final) {
      if (this.evaluations < this.nextIndicatorAt) return null;
      this.nextIndicatorAt = 2 * this.evaluations;
    }
    return indicator(this.frontObjectives());
  }

  /** A trace point of the current best or front after `evaluations` evaluations. */
  private tracePoint(evaluations: number, seconds: number, final = false): TracePoint {
    if (this.single) {
      const b = this.bestKeeper.best?.solution;
      return {
        evaluations,
        seconds,
        best: b ? b.F[0] : null,
        violation: b ? b.violation : 0,
        feasible: b ? b.feasible : false,
        frontSize: null,
        indicator: null,
      };
    }
    const size = this.front.size;
    const least = this.front.leastViolating?.solution;
    const indicator = this.frontIndicator(final);
    return { evaluations, seconds, best: null, violation: size ? 0 : (least?.violation ?? 0), feasible: size > 0, frontSize: size, indicator };
  }

  /** MO: a sample of the front at the end of a step that changed it, the trace thinned when long. */
  private pushTrace(): void {
    const trace = this.trace;
    trace.push(this.tracePoint(this.evaluations, this.clock.seconds()));
    if (trace.length >= 2 * this.traceLimit) {
      // Keep the first point and every other one after it, and every point that carries an
      // indicator computed on the 'doubling' schedule (a few dozen at most: they are the
      // only ones with the hypervolume for M >= 4).
      const keepIndicators = this.options.frontIndicatorSchedule === 'doubling';
      let w = 1;
      for (let r = 1; r < trace.length; r++) if (r % 2 === 0 || (keepIndicators && trace[r].indicator !== null)) trace[w++] = trace[r];
      trace.length = w;
    }
  }

  private frontObjectives(): number[][] {
    return this.front.archive.points();
  }

  private current(): Kept | null {
    return this.single ? this.bestKeeper.best : this.front.size ? null : this.front.leastViolating;
  }

  snapshot(progress: RunProgress): Snapshot {
    const kept = this.current();
    return {
      evaluations: this.evaluations,
      seconds: progress.seconds,
      progress: progress.progress,
      paused: progress.paused,
      feasibleFound: this.firstFeasibleAt !== null,
      best: kept ? record(this.problem, kept.solution) : null,
      front: this.single ? [] : this.frontObjectives(),
      indicator:
        this.options.frontIndicator && this.options.frontIndicatorSchedule !== 'doubling' && this.front.size
          ? this.options.frontIndicator(this.frontObjectives())
          : null,
    };
  }

  /**
   * The result as the run stands: its last trace point goes on a copy, so the run can be asked
   * while it goes on (a competition server's live standings) and its later result is the same.
   */
  result(end: RunEnd): SolverResult {
    const { stopReason } = end;
    const trace = this.trace.slice();
    const last = trace[trace.length - 1];
    if (!last || last.evaluations !== this.evaluations) trace.push(this.tracePoint(this.evaluations, this.clock.seconds(), true));
    else if (last.indicator === null && !this.single) trace[trace.length - 1] = { ...last, indicator: this.frontIndicator(true) };
    const kept = this.current();
    const best = kept ? record(this.problem, kept.solution) : null;
    const front = this.single
      ? []
      : this.front
          .members()
          .map((m) => record(this.problem, m.solution))
          .sort((a, b) => compareVectors(a.objectives, b.objectives));
    const success = this.single ? best !== null && best.feasible : front.length > 0;
    return {
      solver: this.info.name,
      params: { ...this.params },
      seed: this.seed,
      track: asDiceProblem(this.problem)?.track ?? null,
      n: this.problem.n,
      objectiveCount: this.problem.objectiveCount,
      termination: { ...this.termination },
      evaluations: this.evaluations,
      seconds: end.seconds,
      success,
      message: this.message(stopReason, success, best, front.length),
      stopReason,
      best,
      bestFoundAt: kept ? kept.foundAt : null,
      firstFeasibleAt: this.firstFeasibleAt,
      front,
      trace,
      traceExact: true,
      ...(this.single ? {} : { frontLog: this.front.frontLog() }),
      ...this.solver.resultExtras?.(),
    };
  }

  private message(stop: StopReason, success: boolean, best: SolutionRecord | null, frontSize: number): string {
    const why: Record<StopReason, string> = {
      evaluations: `after ${this.evaluations} evaluations (budget used)`,
      time: `after ${this.evaluations} evaluations (time limit)`,
      target: `after ${this.evaluations} evaluations (target reached)`,
      stall: `after ${this.evaluations} evaluations (no improvement for ${this.termination.stallEvaluations})`,
      solver: `after ${this.evaluations} evaluations (${this.solver.finishedWhy?.() ?? 'the solver finished'})`,
      cancelled: `after ${this.evaluations} evaluations (cancelled)`,
    };
    if (!success) {
      const least = best ? `; least total normalised violation ${best.violation}` : '';
      return `no feasible solution found ${why[stop]}${least}`;
    }
    if (this.single) {
      const missed = this.termination.target !== undefined && stop !== 'target' ? `; target ${this.termination.target} not reached` : '';
      return `best feasible f = ${best!.objectives[0]} ${why[stop]}${missed}`;
    }
    return `${frontSize} feasible non-dominated solutions ${why[stop]}`;
  }
}
