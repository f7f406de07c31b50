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
import { estimateLeftMs, type SizedRun } from './time-left.ts';

/** How one grid run ended, as the runner stores it. */
export interface RunOutcome {
  /**
   * 'cancelled': stopped on request; 'refused': the program gate would not let it start (its
   * script changed since the experiment was added, its program cannot be found, it was not
   * allowed). Neither is stored (the run stays missing); a refusal stops the session, since
   * every later run would be refused for the same reason.
   */
  status: 'done' | 'failed' | 'cancelled' | 'refused';
  result: SolverResult | null;
  error: string | null;
  startedAt: Date;
  finishedAt: Date;
}

/** Where a run in flight is: its progress 0..1, the solver's running seconds and whether it is paused (when the executor knows). */
export interface RunProgress {
  fraction: number;
  seconds?: number;
  paused?: boolean;
}

/** How the runner has each grid run carried out (the executors: src-main/app/experiment-executor.ts). */
export interface Executor {
  /** Runs one grid point; never rejects (a failure is an outcome). */
  execute(run: RunSpec, onProgress?: (progress: RunProgress) => void): Promise<RunOutcome>;
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
  /** Estimated milliseconds left (estimateLeftMs in time-left.ts), null while no run has told its length. */
  etaMs: number | null;
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
  /** Remote entrants' runs not done yet: never run here (saikoro serve --competition plays them). */
  remote: number;
  /** Why the program gate refused a run, which stopped the session (nothing stored for it); null when none was. */
  refused: string | null;
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
    ...(run.blind ? { blind: true as const } : {}),
    ...(run.remote ? { remote: true as const } : {}),
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
  /**
   * A failed run stored there is final, as a done one: not run again (a competition's failure
   * policy: a failed run is scored on what it evaluated, and retried only when the organiser
   * asks). Default false: failed runs are retried.
   */
  failedAreFinal?: boolean;
  onProgress?: (event: ProgressEvent) => void;
  /**
   * Live state while runs are in flight: each run's progress (0..1), the session's overall, the
   * time left, and how many runs in flight are paused (a paused run's time does not count).
   */
  onTick?: (tick: {
    running: { run: RunSpec; fraction: number }[];
    overall: number;
    finished: number;
    todo: number;
    etaMs: number | null;
    paused: number;
  }) => void;
  /** Checked before each run starts; true stops the session after the runs in flight. */
  shouldStop?: () => boolean;
  /** The clock of the ETA (ms); Date.now by default. */
  now?: () => number;
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

/** What the time left reads of a grid run: its cell (instance and solver label) and its size. */
function sized(run: RunSpec): SizedRun {
  return { cell: `${run.instance}\u0000${run.label}`, solver: run.label, cost: run.budget.evaluations * run.config.n };
}

export async function runExperiment(runs: RunSpec[], options: RunExperimentOptions): Promise<RunSummary> {
  const doneIds = new Set<string>();
  for (const store of [options.target, ...(options.alsoDoneIn ?? [])])
    for (const [id, status] of store.runStatuses()) if (status === 'done' || options.failedAreFinal) doneIds.add(id);
  const todo = runs.filter((r) => !doneIds.has(r.id) && !r.remote);
  const remote = runs.filter((r) => !doneIds.has(r.id) && r.remote).length;
  // A project that can be read but not written: said before any run, not after the first one.
  const refusal = todo.length ? options.target.writeRefusal() : null;
  if (refusal) throw new ProjectError(`${options.target.path}: cannot store runs there: ${refusal}; nothing was run`, options.target.path);
  const summary: RunSummary = {
    total: runs.length,
    skipped: runs.length - todo.length - remote,
    done: 0,
    failed: 0,
    remaining: todo.length,
    remote,
    refused: null,
  };
  let next = 0;
  const now = options.now ?? Date.now;
  /** A run in flight: its progress, and the time it has held its job, paused time excluded. */
  interface InFlight {
    run: RunSpec;
    fraction: number;
    solverSeconds: number | null;
    /** The time held when the progress was last reported. */
    reportedMs: number;
    startedAt: number;
    pausedMs: number;
    pausedSince: number | null;
  }
  const running = new Map<string, InFlight>();
  const doneLengths: (SizedRun & { ms: number })[] = [];
  const heldMs = (r: InFlight, at: number) => at - r.startedAt - r.pausedMs - (r.pausedSince === null ? 0 : at - r.pausedSince);
  const timeLeft = (at: number) =>
    estimateLeftMs({
      jobs: options.jobs,
      done: doneLengths,
      inFlight: [...running.values()].map((r) => ({
        ...sized(r.run),
        ms: heldMs(r, at),
        fraction: r.fraction,
        reportedMs: r.reportedMs,
        solverMs: r.solverSeconds === null ? null : r.solverSeconds * 1000,
      })),
      waiting: todo.slice(next).map(sized),
    });
  const tick = () => {
    if (!options.onTick) return;
    const finished = summary.done + summary.failed;
    const partial = [...running.values()].reduce((s, r) => s + r.fraction, 0);
    const overall = sessionProgress(finished, partial, todo.length, running.size);
    const paused = [...running.values()].filter((r) => r.pausedSince !== null).length;
    options.onTick({
      running: [...running.values()].map(({ run, fraction }) => ({ run, fraction })),
      overall,
      finished,
      todo: todo.length,
      etaMs: timeLeft(now()),
      paused,
    });
  };
  const worker = async () => {
    while (next < todo.length && summary.refused === null && !options.shouldStop?.()) {
      const run = todo[next++];
      const entry: InFlight = { run, fraction: 0, solverSeconds: null, reportedMs: 0, startedAt: now(), pausedMs: 0, pausedSince: null };
      running.set(run.id, entry);
      tick();
      const outcome = await options.executor.execute(run, (progress) => {
        const at = now();
        if (progress.paused === true && entry.pausedSince === null) entry.pausedSince = at;
        if (progress.paused === false && entry.pausedSince !== null) {
          entry.pausedMs += at - entry.pausedSince;
          entry.pausedSince = null;
        }
        // A report of a pause or a resume alone carries the last progress: it says nothing of the time that progress took.
        if (progress.fraction !== entry.fraction || progress.seconds !== undefined) entry.reportedMs = heldMs(entry, at);
        entry.fraction = progress.fraction;
        if (progress.seconds !== undefined) entry.solverSeconds = progress.seconds;
        tick();
      });
      running.delete(run.id);
      // A run stopped on request is no result: it stays missing for the next session.
      if (outcome.status === 'cancelled') continue;
      // Nor is a run the gate refused: stored as failed, the next session would retry and fail it again, for ever.
      if (outcome.status === 'refused') {
        summary.refused ??= outcome.error ?? 'refused by the program gate';
        continue;
      }
      const record = recordOf(run, { ...outcome, status: outcome.status });
      options.target.putRun(record);
      summary.remaining--;
      if (outcome.status === 'done') {
        summary.done++;
        doneLengths.push({ ...sized(run), ms: heldMs(entry, now()) });
      } else summary.failed++;
      const finished = summary.done + summary.failed;
      options.onProgress?.({
        run,
        status: outcome.status,
        error: outcome.error,
        elapsedMs: record.elapsedMs,
        finished,
        todo: todo.length,
        etaMs: timeLeft(now()),
      });
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, options.jobs), Math.max(1, todo.length)) }, worker));
  // A solver program ran with the person's permissions (without the sandbox it can write the
  // project file): the file is checked as the next open would check it, so a damaged project
  // is an error now, not a success the next command refuses.
  if (summary.done + summary.failed > 0 && todo.some((r) => r.program)) {
    try {
      options.target.checkOnDisk();
    } catch (e) {
      if (!(e instanceof ProjectError)) throw e;
      throw new ProjectError(
        `${e.message}; found after the runs of a solver program, which can write to the project where it runs without the sandbox (its runs were stored as they ended, but the file is damaged)`,
        options.target.path,
      );
    }
  }
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
