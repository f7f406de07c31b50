/**
 * The driver: ask -> evaluate -> tell until termination, with pause / cancel between steps,
 * throttled snapshots, and a plain-JSON result.
 *
 * `runSolver` is async and yields to the host's event loop about every `sliceMilliseconds`, so
 * a worker can receive "pause" / "cancel" messages mid-run; `runSolverSync` is the same loop
 * without yielding (benchmarks, tests). Both go through `SolverRun`, which a host may also
 * drive step by step.
 */
import { makeEvaluated, totalViolation } from './constraints.ts';
import { BestKeeper, FrontKeeper, type Kept } from './front.ts';
import { resolveParams } from './params.ts';
import { findSolver, SolverError } from './registry.ts';
import { terminationProgress, validateTermination } from './termination.ts';
import type { Evaluated, ParamValue, Problem, RunControl, Snapshot, SolutionRecord, Solver, SolverInfo, SolverResult, StopReason, Termination, TracePoint } from './types.ts';
import { formatSequence } from '../problems/dice/sequence.ts';

export interface RunOptions {
  /** Minimum milliseconds between two snapshots (default 200, i.e. 5 per second). */
  snapshotInterval?: number;
  /** runSolver yields to the event loop after about this many milliseconds of work (default 20). */
  sliceMilliseconds?: number;
  /** Upper bound on the evaluations of one step (default 1000). */
  maxStepEvaluations?: number;
  /** The trace is thinned to between traceLimit and 2 * traceLimit points (default 200). */
  traceLimit?: number;
  /** Milliseconds clock (default performance.now, else Date.now). */
  clock?: () => number;
  /** How runSolver yields to the host (default setTimeout 0). */
  yieldToHost?: () => Promise<void>;
  /** MO: an indicator of the feasible front (e.g. normalised hypervolume) recorded in the trace. */
  frontIndicator?: (front: number[][]) => number;
  /**
   * When the indicator is computed: 'every' trace point (default), or, where it is costly
   * (hypervolume at M >= 4), 'doubling': at the first trace point once the evaluations reach
   * INDICATOR_FIRST_AT, then at the first one after each doubling, and at the final point.
   * Other points carry null. Both depend on evaluation counts only, so traces stay reproducible.
   */
  frontIndicatorSchedule?: 'every' | 'doubling';
}

/** The first evaluation count at which the 'doubling' schedule computes the indicator. */
export const INDICATOR_FIRST_AT = 1000;

interface HostGlobals {
  performance?: { now(): number };
  setTimeout?: (callback: () => void, ms: number) => unknown;
}
const host = globalThis as unknown as HostGlobals;
const defaultClock = (): number => (host.performance ? host.performance.now() : Date.now());
const defaultYield = (): Promise<void> => new Promise((resolve) => (host.setTimeout ? host.setTimeout(resolve, 0) : resolve()));

/** Pause / resume / cancel from the host. */
export class RunController implements RunControl {
  cancelled = false;
  paused = false;
  private waiters: (() => void)[] = [];

  pause(): void {
    if (!this.cancelled) this.paused = true;
  }

  resume(): void {
    this.paused = false;
    this.release();
  }

  cancel(): void {
    this.cancelled = true;
    this.paused = false;
    this.release();
  }

  whenResumed(): Promise<void> {
    if (!this.paused || this.cancelled) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private release(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }
}

function record(problem: Problem, e: Evaluated): SolutionRecord {
  // The full evaluation, so the reported numbers are exactly what `saikoro eval` prints.
  const full = problem.fullEvaluation(e.x);
  const violation = totalViolation(full.constraints, problem.constraintScales);
  return { x: formatSequence(e.x), objectives: full.objectives, constraints: full.constraints, feasible: violation <= 0, violation };
}

function compareVectors(a: readonly number[], b: readonly number[]): number {
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return a[k] - b[k];
  return 0;
}

/** One run, advanced step by step. */
export class SolverRun {
  readonly info: SolverInfo;
  readonly params: Record<string, ParamValue>;
  readonly termination: Termination;
  evaluations = 0;
  stopReason: StopReason | null = null;
  private readonly solver: Solver;
  private readonly single: boolean;
  private readonly bestKeeper = new BestKeeper();
  private readonly frontKeeper = new FrontKeeper();
  private firstFeasibleAt: number | null = null;
  private lastImprovementAt = 0;
  private readonly trace: TracePoint[] = [];
  private readonly clock: () => number;
  private readonly startedAt: number;
  private pausedMs = 0;
  private readonly maxStep: number;
  private readonly traceLimit: number;
  private nextIndicatorAt = INDICATOR_FIRST_AT;

  constructor(
    readonly problem: Problem,
    readonly solverName: string,
    rawParams: Readonly<Record<string, unknown>>,
    readonly seed: number,
    termination: Termination,
    private readonly options: RunOptions = {},
  ) {
    this.info = findSolver(solverName);
    if (problem.objectiveCount < 1) throw new SolverError(`the problem has no objectives; solvers need at least one`);
    this.single = problem.objectiveCount === 1;
    if (this.single && this.info.objectives === 'multi') throw new SolverError(`solver ${this.info.name} is multi-objective; this problem has one objective`);
    if (!this.single && this.info.objectives === 'single') throw new SolverError(`solver ${this.info.name} is single-objective; this problem has ${problem.objectiveCount} objectives`);
    if (!Number.isSafeInteger(seed)) throw new SolverError(`seed must be an integer, got ${seed}`);
    this.termination = validateTermination({ ...termination });
    if (this.termination.target !== undefined && !this.single) throw new SolverError('termination target applies to single-objective problems only');
    this.params = resolveParams(this.info.name, this.info.params, rawParams, problem);
    this.maxStep = Math.max(1, Math.floor(options.maxStepEvaluations ?? 1000));
    this.traceLimit = Math.max(2, Math.floor(options.traceLimit ?? 200));
    this.clock = options.clock ?? defaultClock;
    this.startedAt = this.clock();
    this.solver = this.info.create();
    this.solver.setup(problem, this.params, seed, { maxEvaluations: this.termination.maxEvaluations });
  }

  /** Seconds of running time (pauses excluded). */
  seconds(): number {
    return (this.clock() - this.startedAt - this.pausedMs) / 1000;
  }

  addPausedTime(ms: number): void {
    this.pausedMs += ms;
  }

  private consider(e: Evaluated, at: number): boolean {
    if (e.feasible && this.firstFeasibleAt === null) this.firstFeasibleAt = at;
    return this.single ? this.bestKeeper.consider(e, at) : this.frontKeeper.consider(e, at);
  }

  /** One ask/evaluate/tell step; returns false once the run has stopped. */
  step(): boolean {
    if (this.stopReason) return false;
    const t = this.termination;
    const remaining = t.maxEvaluations === undefined ? Infinity : t.maxEvaluations - this.evaluations;
    const limit = Math.min(this.maxStep, remaining);
    const ask = this.solver.ask(limit);
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
    if (improved) {
      this.lastImprovementAt = this.evaluations;
      this.pushTrace();
    }
    this.checkTermination();
    return this.stopReason === null;
  }

  private checkTermination(): void {
    const t = this.termination;
    const best = this.bestKeeper.best?.solution;
    if (t.target !== undefined && best && best.feasible && best.F[0] <= t.target) this.stopReason = 'target';
    else if (t.maxEvaluations !== undefined && this.evaluations >= t.maxEvaluations) this.stopReason = 'evaluations';
    else if (t.stallEvaluations !== undefined && this.evaluations - this.lastImprovementAt >= t.stallEvaluations) this.stopReason = 'stall';
    else if (t.maxSeconds !== undefined && this.seconds() >= t.maxSeconds) this.stopReason = 'time';
    else if (this.solver.done?.()) this.stopReason = 'solver';
  }

  cancel(): void {
    if (!this.stopReason) this.stopReason = 'cancelled';
  }

  /** The indicator of the current feasible front if the schedule asks for it now (`final`: the last point). */
  private frontIndicator(final: boolean): number | null {
    const indicator = this.options.frontIndicator;
    if (!indicator || this.frontKeeper.members.length === 0) return null;
    if (this.options.frontIndicatorSchedule === 'doubling' && !final) {
      if (this.evaluations < this.nextIndicatorAt) return null;
      this.nextIndicatorAt = 2 * this.evaluations;
    }
    return indicator(this.frontObjectives());
  }

  /** A trace point now; on an improvement (SO) it is dated at the evaluation that found the best. */
  private tracePoint(atImprovement = false, final = false): TracePoint {
    const seconds = this.seconds();
    if (this.single) {
      const kept = this.bestKeeper.best;
      const b = kept?.solution;
      const evaluations = atImprovement && kept ? kept.foundAt : this.evaluations;
      return { evaluations, seconds, best: b ? b.F[0] : null, violation: b ? b.violation : 0, feasible: b ? b.feasible : false, frontSize: null, indicator: null };
    }
    const members = this.frontKeeper.members;
    const least = this.frontKeeper.leastViolating?.solution;
    const indicator = this.frontIndicator(final);
    return { evaluations: this.evaluations, seconds, best: null, violation: members.length ? 0 : (least?.violation ?? 0), feasible: members.length > 0, frontSize: members.length, indicator };
  }

  private pushTrace(): void {
    const trace = this.trace;
    trace.push(this.tracePoint(true));
    if (trace.length >= 2 * this.traceLimit) {
      // Keep the first point and every other one after it; the newest is re-added at the end.
      let w = 1;
      for (let r = 2; r < trace.length; r += 2) trace[w++] = trace[r];
      trace.length = w;
    }
  }

  private frontObjectives(): number[][] {
    return this.frontKeeper.members.map((m) => Array.from(m.solution.F));
  }

  private current(): Kept | null {
    return this.single ? this.bestKeeper.best : this.frontKeeper.members.length ? null : this.frontKeeper.leastViolating;
  }

  snapshot(paused = false): Snapshot {
    const kept = this.current();
    return {
      evaluations: this.evaluations,
      seconds: this.seconds(),
      progress: this.stopReason && this.stopReason !== 'cancelled' ? 1 : terminationProgress(this.termination, this.evaluations, this.seconds()),
      paused,
      feasibleFound: this.firstFeasibleAt !== null,
      best: kept ? record(this.problem, kept.solution) : null,
      front: this.single ? [] : this.frontObjectives(),
    };
  }

  result(): SolverResult {
    const stopReason = this.stopReason ?? 'cancelled';
    const last = this.trace[this.trace.length - 1];
    if (!last || last.evaluations !== this.evaluations) this.trace.push(this.tracePoint(false, true));
    else if (last.indicator === null && !this.single) this.trace[this.trace.length - 1] = { ...last, indicator: this.frontIndicator(true) };
    const kept = this.current();
    const best = kept ? record(this.problem, kept.solution) : null;
    const front = this.single ? [] : this.frontKeeper.members.map((m) => record(this.problem, m.solution)).sort((a, b) => compareVectors(a.objectives, b.objectives));
    const success = this.single ? best !== null && best.feasible : front.length > 0;
    return {
      solver: this.info.name,
      params: { ...this.params },
      seed: this.seed,
      track: this.problem.track,
      n: this.problem.n,
      objectiveCount: this.problem.objectiveCount,
      termination: { ...this.termination },
      evaluations: this.evaluations,
      seconds: this.seconds(),
      success,
      message: this.message(stopReason, success, best, front.length),
      stopReason,
      best,
      bestFoundAt: kept ? kept.foundAt : null,
      firstFeasibleAt: this.firstFeasibleAt,
      front,
      trace: this.trace.slice(),
    };
  }

  private message(stop: StopReason, success: boolean, best: SolutionRecord | null, frontSize: number): string {
    const why: Record<StopReason, string> = {
      evaluations: `after ${this.evaluations} evaluations (budget used)`,
      time: `after ${this.evaluations} evaluations (time limit)`,
      target: `after ${this.evaluations} evaluations (target reached)`,
      stall: `after ${this.evaluations} evaluations (no improvement for ${this.termination.stallEvaluations})`,
      solver: `after ${this.evaluations} evaluations (the solver finished)`,
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

/** The driver without yielding: runs to termination and returns the result. */
export function runSolverSync(problem: Problem, solverName: string, params: Readonly<Record<string, unknown>>, seed: number, termination: Termination, options: RunOptions = {}): SolverResult {
  const run = new SolverRun(problem, solverName, params, seed, termination, options);
  while (run.step());
  return run.result();
}

/**
 * The driver for hosts: yields to the event loop every ~sliceMilliseconds, polls `control`
 * between steps (pause waits for resume, with the paused time excluded from the clock; cancel
 * stops with stopReason "cancelled" and still returns the result so far), and sends a
 * snapshot at most every `snapshotInterval` ms plus one at the end.
 */
export async function runSolver(
  problem: Problem,
  solverName: string,
  params: Readonly<Record<string, unknown>>,
  seed: number,
  termination: Termination,
  onSnapshot?: (snapshot: Snapshot) => void,
  control?: RunControl,
  options: RunOptions = {},
): Promise<SolverResult> {
  const run = new SolverRun(problem, solverName, params, seed, termination, options);
  const clock = options.clock ?? defaultClock;
  const yieldToHost = options.yieldToHost ?? defaultYield;
  const slice = options.sliceMilliseconds ?? 20;
  const interval = options.snapshotInterval ?? 200;
  let sliceStart = clock();
  // Throttled on the run's own clock (the `seconds` the snapshots carry), so consecutive
  // snapshots are at least `interval` apart in the time they report.
  let lastSnapshotSeconds = -Infinity;
  for (;;) {
    if (control?.cancelled) {
      run.cancel();
      break;
    }
    if (control?.paused) {
      onSnapshot?.(run.snapshot(true));
      const pausedAt = clock();
      await control.whenResumed();
      run.addPausedTime(clock() - pausedAt);
      sliceStart = clock();
      continue;
    }
    if (!run.step()) break;
    const now = clock();
    if (onSnapshot && (run.seconds() - lastSnapshotSeconds) * 1000 >= interval) {
      const snapshot = run.snapshot();
      lastSnapshotSeconds = snapshot.seconds;
      onSnapshot(snapshot);
    }
    if (now - sliceStart >= slice) {
      await yieldToHost();
      sliceStart = clock();
    }
  }
  onSnapshot?.(run.snapshot());
  return run.result();
}
