import type { NqueensRunFinishedEvent, NqueensRunReport, NqueensRunStarted, RunFinishedEvent, RunStarted, StartNqueensRunRequest, StartRunRequest } from '../../src-shared/api.ts';
import { configFromPartial, DEFAULT_N } from '../../src-shared/problems/dice/config.ts';
import { checkNqueensRequest } from '../../src-shared/problems/nqueens/request.ts';
import { verifySolution } from '../../src-shared/problems/nqueens/verify.ts';
import { resolveParams } from '../../src-shared/solvers/params.ts';
import { createDiceProblem } from '../../src-shared/solvers/problem.ts';
import { defaultSolverFor, findSolver, SolverError } from '../../src-shared/solvers/registry.ts';
import type { Disposable } from '../../src-shared/base/disposable.ts';
import type { SolverHost, SolverRun } from '../host/pool.ts';
import type { AnyRunRequest, NqueensResult, ResultOf, RunOutcome, SnapshotOf } from '../host/run.ts';
import type { ApiEventHub } from './events.ts';

/** The largest budget one UI run may ask for. */
export const MAX_RUN_EVALUATIONS = 1e9;

/** What the service needs of a run of either kind once it is started. */
type TrackedRun = Pick<SolverRun<AnyRunRequest>, 'isFinished' | 'cancel' | 'pause' | 'resume'>;

/**
 * Solver runs started through the API: validates a request the way `saikoro solve` (dice) or
 * `saikoro nqueens` does, queues it on the host, and forwards its snapshots and outcome as API
 * events. Owns the runs it started: dispose() cancels the unfinished ones. cancel and pause
 * take the runId of either kind.
 */
export class RunService implements Disposable {
  private readonly runs = new Map<string, TrackedRun>();

  constructor(
    private readonly host: SolverHost,
    private readonly events: ApiEventHub,
  ) {}

  start(request: StartRunRequest): RunStarted {
    if (typeof request !== 'object' || request === null) throw new TypeError('startRun: the request must be an object');
    const { seed, evaluations } = request;
    if (!Number.isSafeInteger(seed)) throw new RangeError(`seed must be an integer, got ${JSON.stringify(seed)}`);
    if (!Number.isSafeInteger(evaluations) || evaluations < 1 || evaluations > MAX_RUN_EVALUATIONS)
      throw new RangeError(`evaluations must be an integer from 1 to ${MAX_RUN_EVALUATIONS}, got ${JSON.stringify(evaluations)}`);
    const config = configFromPartial({ ...request.config, n: request.config?.n ?? DEFAULT_N });
    const problem = createDiceProblem(config);
    const m = problem.objectiveCount;
    const info = request.solver === undefined ? defaultSolverFor(problem.track, m) : findSolver(request.solver);
    if (info.objectives === 'single' && m !== 1) throw new SolverError(`solver ${info.name} is single-objective; this config has ${m} objectives`);
    if (info.objectives === 'multi' && m === 1) throw new SolverError(`solver ${info.name} is multi-objective; this config has one objective`);
    const params = resolveParams(info.name, info.params, request.params ?? {}, problem);

    const run = this.host.start({
      solver: info.name,
      params,
      seed,
      config,
      // As `saikoro solve`: a single-objective run may stop at a feasible f = 0.
      termination: { maxEvaluations: evaluations, ...(m === 1 ? { target: 0 } : {}) },
    });
    const runId = this.track(
      run,
      (id, snapshot) => this.events.emit('onRunSnapshot', { runId: id, snapshot }),
      (id, outcome) => {
        const event: RunFinishedEvent = { runId: id, status: outcome.status, reason: outcome.reason, result: outcome.result };
        this.events.emit('onRunFinished', event);
      },
    );
    return { runId, solver: info.name, params, objectiveCount: m };
  }

  /** An N-Queens run, checked as `saikoro nqueens` checks its options (NqueensRequestError names the field). */
  startNqueens(request: StartNqueensRunRequest): NqueensRunStarted {
    const { method, n, seed, params, maxQueens, stepLimit } = checkNqueensRequest(request);
    const run = this.host.start({ kind: 'nqueens', method, n, params, seed });
    const runId = this.track(
      run,
      (id, snapshot) => this.events.emit('onNqueensRunSnapshot', { runId: id, snapshot }),
      (id, outcome) => {
        const event: NqueensRunFinishedEvent = { runId: id, status: outcome.status, reason: outcome.reason, result: outcome.result && nqueensReport(outcome.result, maxQueens) };
        this.events.emit('onNqueensRunFinished', event);
      },
    );
    return { runId, method, n, seed, params, stepLimit };
  }

  /** Keeps a started run until it ends, forwarding its snapshots and its outcome; answers its API runId. */
  private track<R extends AnyRunRequest>(
    run: SolverRun<R>,
    onSnapshot: (runId: string, snapshot: SnapshotOf<R>) => void,
    onEnd: (runId: string, outcome: RunOutcome<ResultOf<R>>) => void,
  ): string {
    const runId = `run-${run.id}`;
    const listener = run.onSnapshot((snapshot) => onSnapshot(runId, snapshot));
    this.runs.set(runId, run);
    void run.outcome.then((outcome) => {
      listener.dispose();
      this.runs.delete(runId);
      onEnd(runId, outcome);
    });
    return runId;
  }

  cancel(runId: string): boolean {
    const run = this.runs.get(runId);
    if (!run || run.isFinished) return false;
    run.cancel();
    return true;
  }

  pause(runId: string, paused: boolean): boolean {
    const run = this.runs.get(runId);
    if (!run || run.isFinished) return false;
    if (paused) run.pause();
    else run.resume();
    return true;
  }

  get activeCount(): number {
    return this.runs.size;
  }

  dispose(): void {
    for (const run of this.runs.values()) run.cancel();
  }
}

/**
 * A finished N-Queens result as the API reports it: the first `maxQueens` queens (a board of
 * 10^7 would be 80 MB of JSON), and the solution checked again here with verifySolution.
 */
export function nqueensReport(r: NqueensResult, maxQueens: number): NqueensRunReport {
  const verified = r.solved && r.queens !== null && r.queens.length === r.n && verifySolution(r.queens);
  return {
    n: r.n,
    method: r.method,
    seed: r.seed,
    params: r.params,
    solved: r.solved,
    steps: r.steps,
    seconds: r.seconds,
    stopReason: r.stopReason,
    failure: r.failure ?? null,
    message: r.message,
    verified,
    queens: r.solved && r.queens ? r.queens.slice(0, maxQueens) : null,
  };
}
