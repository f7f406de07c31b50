import type { RunFinishedEvent, RunStarted, StartRunRequest } from '../../src-shared/api.ts';
import { configFromPartial, DEFAULT_N } from '../../src-shared/problems/dice/config.ts';
import { resolveParams } from '../../src-shared/solvers/params.ts';
import { createDiceProblem } from '../../src-shared/solvers/problem.ts';
import { defaultSolverFor, findSolver, SolverError } from '../../src-shared/solvers/registry.ts';
import type { Disposable } from '../host/disposable.ts';
import type { SolverHost, SolverRun } from '../host/pool.ts';
import type { ApiEventHub } from './events.ts';

/** The largest budget one UI run may ask for. */
export const MAX_RUN_EVALUATIONS = 1e9;

/**
 * Solver runs started through the API: validates a request the way `saikoro solve` does,
 * queues it on the host, and forwards its snapshots and outcome as API events. Owns the runs
 * it started: dispose() cancels the unfinished ones.
 */
export class RunService implements Disposable {
  private readonly runs = new Map<string, { run: SolverRun; listeners: Disposable[] }>();

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
    const runId = `run-${run.id}`;
    const listeners = [run.onSnapshot((snapshot) => this.events.emit('onRunSnapshot', { runId, snapshot }))];
    this.runs.set(runId, { run, listeners });
    void run.outcome.then((outcome) => {
      for (const l of listeners) l.dispose();
      this.runs.delete(runId);
      const event: RunFinishedEvent = { runId, status: outcome.status, reason: outcome.reason, result: outcome.result };
      this.events.emit('onRunFinished', event);
    });
    return { runId, solver: info.name, params, objectiveCount: m };
  }

  cancel(runId: string): boolean {
    const entry = this.runs.get(runId);
    if (!entry || entry.run.isFinished) return false;
    entry.run.cancel();
    return true;
  }

  pause(runId: string, paused: boolean): boolean {
    const entry = this.runs.get(runId);
    if (!entry || entry.run.isFinished) return false;
    if (paused) entry.run.pause();
    else entry.run.resume();
    return true;
  }

  get activeCount(): number {
    return this.runs.size;
  }

  dispose(): void {
    for (const { run } of this.runs.values()) run.cancel();
  }
}
