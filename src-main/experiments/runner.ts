/**
 * Runs an experiment's missing and failed runs, writing each to the project the moment it
 * ends (one transaction per run), so an interrupted run loses only what was in flight and the
 * next `experiment run` picks up where it stopped. With a shard, the runs go to a separate
 * results file that `saikoro merge` folds back in.
 */
import { expandGrid, shardOf, type RunSpec } from '../../src-shared/experiments/grid.ts';
import type { ExperimentSpec } from '../../src-shared/experiments/spec.ts';
import { memoryRefusal } from '../../src-shared/solvers/memory.ts';
import { appVersion } from '../project/app-version.ts';
import { ProjectError } from '../project/errors.ts';
import { hostName, type RunRecord } from '../project/project-records.ts';
import type { Project } from '../project/store.ts';
import type { SolverResult } from '../../src-shared/solvers/types.ts';

/** How one grid run ended, as the runner stores it. */
export interface RunOutcome {
  /** 'cancelled': stopped on request; such a run is not stored (it stays missing). */
  status: 'done' | 'failed' | 'cancelled';
  result: SolverResult | null;
  error: string | null;
  startedAt: Date;
  finishedAt: Date;
}

/** How the runner has each grid run carried out (the executors: src-main/app/experiment-executor.ts). */
export interface Executor {
  /** Runs one grid point; never rejects (a failure is an outcome). `onProgress` gets 0..1. */
  execute(run: RunSpec, onProgress?: (fraction: number) => void): Promise<RunOutcome>;
  /** Stops everything in flight. */
  dispose(): void;
}

export interface ProgressEvent {
  run: RunSpec;
  status: 'done' | 'failed';
  error: string | null;
  elapsedMs: number;
  /** Runs finished in this session, and how many this session had to do. */
  finished: number;
  todo: number;
  /** Estimated milliseconds left, from the mean run time so far and the parallelism. */
  etaMs: number;
}

export interface RunSummary {
  /** Runs in the grid (or the shard). */
  total: number;
  /** Already done before this session. */
  skipped: number;
  done: number;
  failed: number;
  /** Not run because the session was stopped. */
  remaining: number;
}

export function recordOf(run: RunSpec, outcome: RunOutcome & { status: 'done' | 'failed' }): RunRecord {
  const elapsedMs = outcome.result ? outcome.result.seconds * 1000 : outcome.finishedAt.getTime() - outcome.startedAt.getTime();
  return {
    id: run.id,
    instance: run.instance,
    label: run.label,
    config: run.config,
    solver: run.solver,
    params: run.params,
    seed: run.seed,
    budget: run.budget,
    program: run.program ?? null,
    status: outcome.status,
    error: outcome.error,
    result: outcome.result,
    appVersion: appVersion(),
    host: hostName(),
    startedAt: outcome.startedAt.toISOString(),
    finishedAt: outcome.finishedAt.toISOString(),
    elapsedMs,
    evaluations: outcome.result ? outcome.result.evaluations : null,
  };
}

/**
 * The first run (one per instance and solver label) whose settings are estimated to need more
 * memory than a worker's limit (src-shared/solvers/memory.ts), as "LABEL on INSTANCE: why", or
 * null when every run fits (or there is no limit). Program solvers are not estimated.
 */
export function runThatCannotFit(runs: readonly RunSpec[], limitMb: number | null): string | null {
  if (limitMb === null) return null;
  const seen = new Set<string>();
  for (const run of runs) {
    const key = `${run.instance}\u0000${run.label}`;
    if (seen.has(key) || run.program) continue;
    seen.add(key);
    const tooBig = memoryRefusal({ solver: run.solver, params: run.params, n: run.config.n, objectiveCount: run.config.objectives.length }, limitMb);
    if (tooBig) return `${run.label} on ${run.instance}: ${tooBig}`;
  }
  return null;
}

/** The runs of a spec (or of one shard of it). */
export function plannedRuns(spec: ExperimentSpec, shard?: { k: number; n: number }): RunSpec[] {
  const runs = expandGrid(spec);
  return shard ? shardOf(runs, shard.k, shard.n) : runs;
}

export interface RunExperimentOptions {
  executor: Executor;
  /** Parallel runs in flight. */
  jobs: number;
  /** Where finished runs are written. */
  target: Project;
  /** Further stores whose done runs count as done (the project, when writing a shard file). */
  alsoDoneIn?: Project[];
  onProgress?: (event: ProgressEvent) => void;
  /** Live state while runs are in flight: each run's progress (0..1) and the session's overall. */
  onTick?: (tick: { running: { run: RunSpec; fraction: number }[]; overall: number; finished: number; todo: number; etaMs: number | null }) => void;
  /** Checked before each run starts; true stops the session after the runs in flight. */
  shouldStop?: () => boolean;
  /** The clock of the ETA (ms); Date.now by default. */
  now?: () => number;
}

/**
 * Milliseconds left in a session, null until a run has finished (no rate to go by): the larger
 * of the whole session's rate (elapsed time over the share done, runs in flight counted by
 * their progress) and the slowest run in flight's own rate. The second is what is left at the
 * end, when fewer runs than jobs remain and the session's rate no longer applies.
 */
export function estimateLeftMs(state: { elapsedMs: number; overall: number; finished: number; running: readonly { fraction: number; elapsedMs: number }[] }): number | null {
  if (state.finished === 0 || state.overall <= 0) return null;
  let left = (state.elapsedMs * (1 - Math.min(1, state.overall))) / state.overall;
  for (const r of state.running) if (r.fraction > 0) left = Math.max(left, (r.elapsedMs * (1 - Math.min(1, r.fraction))) / r.fraction);
  return left;
}

/**
 * The most a session's progress says while a run is in flight: a run whose solver has used its
 * whole budget (progress 1) has not ended until its outcome is back and stored, so 1 (what the
 * app shows as 100%) is said only once every run has ended; 0.99 stays under 100% however a
 * client rounds it.
 */
export const PROGRESS_WHILE_IN_FLIGHT = 0.99;

/** A session's progress (0..1): runs finished, plus the runs in flight by their own progress, over the runs to do. */
export function sessionProgress(finished: number, inFlightProgress: number, todo: number, inFlight: number): number {
  if (todo === 0) return 1;
  const overall = Math.min(1, (finished + inFlightProgress) / todo);
  return inFlight > 0 ? Math.min(overall, PROGRESS_WHILE_IN_FLIGHT) : overall;
}

export async function runExperiment(runs: RunSpec[], options: RunExperimentOptions): Promise<RunSummary> {
  const doneIds = new Set<string>();
  for (const store of [options.target, ...(options.alsoDoneIn ?? [])]) for (const [id, status] of store.runStatuses()) if (status === 'done') doneIds.add(id);
  const todo = runs.filter((r) => !doneIds.has(r.id));
  // A project that can be read but not written: said before any run, not after the first one.
  const refusal = todo.length ? options.target.writeRefusal() : null;
  if (refusal) throw new ProjectError(`${options.target.path}: cannot store runs there: ${refusal}; nothing was run`, options.target.path);
  const summary: RunSummary = { total: runs.length, skipped: runs.length - todo.length, done: 0, failed: 0, remaining: todo.length };
  let next = 0;
  let elapsedTotal = 0;
  const jobs = Math.max(1, options.jobs);
  const now = options.now ?? Date.now;
  const began = now();
  const running = new Map<string, { run: RunSpec; fraction: number; startedAt: number }>();
  const tick = () => {
    if (!options.onTick) return;
    const finished = summary.done + summary.failed;
    const partial = [...running.values()].reduce((s, r) => s + r.fraction, 0);
    const overall = sessionProgress(finished, partial, todo.length, running.size);
    const at = now();
    const etaMs = estimateLeftMs({ elapsedMs: at - began, overall, finished, running: [...running.values()].map((r) => ({ fraction: r.fraction, elapsedMs: at - r.startedAt })) });
    options.onTick({ running: [...running.values()].map(({ run, fraction }) => ({ run, fraction })), overall, finished, todo: todo.length, etaMs });
  };
  const worker = async () => {
    while (next < todo.length && !options.shouldStop?.()) {
      const run = todo[next++];
      running.set(run.id, { run, fraction: 0, startedAt: now() });
      tick();
      const outcome = await options.executor.execute(run, (fraction) => {
        const entry = running.get(run.id);
        if (entry) entry.fraction = fraction;
        tick();
      });
      running.delete(run.id);
      // A run stopped on request is no result: it stays missing for the next session.
      if (outcome.status === 'cancelled') continue;
      const record = recordOf(run, { ...outcome, status: outcome.status });
      options.target.putRun(record);
      summary.remaining--;
      if (outcome.status === 'done') summary.done++;
      else summary.failed++;
      elapsedTotal += record.elapsedMs;
      const finished = summary.done + summary.failed;
      options.onProgress?.({
        run,
        status: outcome.status,
        error: outcome.error,
        elapsedMs: record.elapsedMs,
        finished,
        todo: todo.length,
        etaMs: ((elapsedTotal / finished) * (todo.length - finished)) / jobs,
      });
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, Math.max(1, todo.length)) }, worker));
  return summary;
}

export interface ExperimentStatus {
  name: string;
  total: number;
  done: number;
  failed: number;
  missing: number;
  /** Per instance and solver label. */
  cells: { instance: string; label: string; total: number; done: number; failed: number }[];
}

/**
 * How far an experiment is in a project, from the stored runs' statuses (Project.runStatuses):
 * its runs done, failed and missing, in all and per instance and solver label. The one count
 * behind `experiment status`, `project info`, the app's experiment list and `saikoro merge`;
 * `onNotDone` is told each run that is not done, in grid order. `runs` is the spec's grid
 * (expandGrid) when the caller has it already.
 */
export function experimentStatus(
  spec: ExperimentSpec,
  statuses: ReadonlyMap<string, 'done' | 'failed'>,
  runs: readonly RunSpec[] = expandGrid(spec),
  onNotDone?: (run: RunSpec, status: 'missing' | 'failed') => void,
): ExperimentStatus {
  const cells = new Map<string, ExperimentStatus['cells'][number]>();
  const status: ExperimentStatus = { name: spec.name, total: runs.length, done: 0, failed: 0, missing: 0, cells: [] };
  for (const run of runs) {
    const key = `${run.instance}\u0000${run.label}`;
    let cell = cells.get(key);
    if (!cell) cells.set(key, (cell = { instance: run.instance, label: run.label, total: 0, done: 0, failed: 0 }));
    cell.total++;
    const s = statuses.get(run.id);
    if (s === 'done') (status.done++, cell.done++);
    else if (s === 'failed') (status.failed++, cell.failed++, onNotDone?.(run, 'failed'));
    else (status.missing++, onNotDone?.(run, 'missing'));
  }
  status.cells = [...cells.values()];
  return status;
}
