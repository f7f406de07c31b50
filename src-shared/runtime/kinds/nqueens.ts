/**
 * N-Queens as a kind of run: one of the two methods of src-shared/problems/nqueens/solvers.ts
 * (the hill-climbing network and min-conflicts) on an N x N board, stepped by the generic
 * driver (steps are the work it counts). A solved board is confirmed by verifySolution, a
 * recount independent of the method's counters, before it is reported.
 */
import { findNqueensSolver, type NqueensProgress, type NqueensStepper } from '../../problems/nqueens/solvers.ts';
import { verifySolution } from '../../problems/nqueens/verify.ts';
import { resolveParams } from '../../core/params.ts';
import type { ParamValue } from '../../core/params.ts';
import type { RunEnd, RunProgress, Steppable } from '../../core/driver.ts';
import type { StopReason, Termination } from '../../core/termination.ts';
import type { KindRun, RunRequestBase } from './base.ts';
import { nqueensPoint } from '../progress.ts';

export type NqueensMethod = 'neural' | 'minconflicts';
export const NQUEENS_METHODS: readonly NqueensMethod[] = ['neural', 'minconflicts'];

export interface NqueensRunRequest extends RunRequestBase {
  kind: 'nqueens';
  method: NqueensMethod;
  n: number;
  /**
   * The method's parameters by their framework names (see describeNqueensSolvers: A, B,
   * C, kick, kickEvery, kickLength, update, threshold, clamp, maxSteps / samples, greedyTries,
   * noise, maxSteps); missing ones take their defaults, bad ones fail the run with the reason.
   * `maxSteps` is the method's own step limit: a run that reaches it unsolved reports its
   * failure mode.
   */
  params: Record<string, ParamValue>;
  seed: number;
  /** The run's budget on top of the method's step limit: steps and seconds (pauses excluded). */
  limits?: { steps?: number; seconds?: number };
}

/** A live snapshot: the method's counts plus what every snapshot says. */
export interface NqueensSnapshot extends NqueensProgress, RunProgress {}

/**
 * How an N-Queens run ended. The first six fields are `saikoro nqueens --json`'s. `queens[r]` is
 * the 0-based column of the queen in row r, present only when solved, and then confirmed by
 * verifySolution.
 */
export interface NqueensResult {
  n: number;
  method: NqueensMethod;
  solved: boolean;
  steps: number;
  seconds: number;
  queens: number[] | null;
  kind: 'nqueens';
  seed: number;
  /** Every parameter, defaults filled in. */
  params: Record<string, ParamValue>;
  /** 'solver': solved or the method's step limit; 'evaluations' / 'time': the limits; 'cancelled'. */
  stopReason: StopReason;
  /** Why an unsolved run failed (network: loop, oscillation, stall, wander; min-conflicts: pairs left). */
  failure?: string;
  /**
   * Min-conflicts: the attacking pairs its greedy start left (MinConflicts.initialConflicts);
   * absent for the network and for a run stopped during the greedy start.
   */
  initialConflicts?: number;
  message: string;
}

/** Checks the request's shape; the method's own checks (N, parameters) happen when it is built. */
function checkRequest(request: NqueensRunRequest): void {
  if (!NQUEENS_METHODS.includes(request.method))
    throw new Error(`nqueens: unknown method ${JSON.stringify(request.method)} (known: ${NQUEENS_METHODS.join(', ')})`);
  if (!Number.isSafeInteger(request.n) || request.n < 1) throw new Error(`nqueens: n must be a positive integer, got ${JSON.stringify(request.n)}`);
  if (!Number.isSafeInteger(request.seed)) throw new Error(`nqueens: seed must be an integer, got ${JSON.stringify(request.seed)}`);
  if (typeof request.params !== 'object' || request.params === null || Array.isArray(request.params)) throw new Error('nqueens: params must be an object');
  const { steps, seconds } = request.limits ?? {};
  if (steps !== undefined && !(Number.isSafeInteger(steps) && steps >= 1))
    throw new Error(`nqueens: limits.steps must be a positive integer, got ${JSON.stringify(steps)}`);
  if (seconds !== undefined && !(typeof seconds === 'number' && seconds > 0))
    throw new Error(`nqueens: limits.seconds must be a positive number, got ${JSON.stringify(seconds)}`);
}

/** A method's stepper as a Steppable: steps are its work; it sizes its own slices adaptively. */
class NqueensRun implements Steppable<NqueensSnapshot, NqueensResult> {
  constructor(
    private readonly request: NqueensRunRequest,
    private readonly params: Record<string, ParamValue>,
    private readonly stepper: NqueensStepper,
  ) {}

  get work(): number {
    return this.stepper.steps;
  }
  step(limit: number): void {
    this.stepper.advance(limit);
  }
  finished(): boolean {
    return this.stepper.finished;
  }
  snapshot(progress: RunProgress): NqueensSnapshot {
    return { ...this.stepper.progress(), ...progress };
  }
  result(end: RunEnd): NqueensResult {
    const { n, method, seed } = this.request;
    const solved = this.stepper.solved;
    const failure = solved ? undefined : this.stepper.failure();
    const steps = this.stepper.steps;
    const initialConflicts = this.stepper.initialConflicts();
    const stop = end.stopReason;
    const message = solved
      ? `solved N = ${n} in ${steps} steps`
      : stop === 'cancelled'
        ? `cancelled after ${steps} steps`
        : stop === 'solver'
          ? `not solved within the step limit (${steps} steps)${failure ? `: ${failure}` : ''}`
          : `stopped by the ${stop === 'time' ? 'time' : 'step'} budget after ${steps} steps`;
    return {
      n,
      method,
      solved,
      steps,
      seconds: end.seconds,
      queens: solved ? this.stepper.queens() : null,
      kind: 'nqueens',
      seed,
      params: this.params,
      stopReason: solved ? 'solver' : stop,
      ...(failure !== undefined ? { failure } : {}),
      ...(initialConflicts !== null ? { initialConflicts } : {}),
      message,
    };
  }
}

export const nqueensRunKind = {
  name: 'nqueens',
  progressPoint: (snapshot: NqueensSnapshot) => nqueensPoint(snapshot),
  /** The live history stands: a result has no trace. */
  finalPoints: () => null,
  create(request: NqueensRunRequest): KindRun<NqueensSnapshot, NqueensResult> {
    checkRequest(request);
    const info = findNqueensSolver(`nqueens-${request.method}`);
    const params = resolveParams(info.name, info.params, request.params, request.n);
    const termination: Termination = {};
    if (request.limits?.steps !== undefined) termination.maxEvaluations = request.limits.steps;
    if (request.limits?.seconds !== undefined) termination.maxSeconds = request.limits.seconds;
    return {
      run: new NqueensRun(request, params, info.create(request.n, params, request.seed)),
      termination,
      requireBudget: false,
      check(result) {
        const q = result.queens;
        if (result.solved && (q === null || q.length !== result.n || !verifySolution(q)))
          throw new Error(`nqueens: ${result.method} reported a solution for N = ${result.n} that does not verify`);
      },
    };
  },
} as const;
