/**
 * How an experiment's runs are executed, for the CLI's `experiment run` and the app's
 * experiment sessions alike: each grid run is planned by the application layer (planGridRun)
 * and launched (src-main/app/launcher.ts) in a worker process, so a crashing or runaway solver
 * cannot take the runner down; the CLI launches it on its own Launcher, the app through its
 * RunService (which shows it with every other run). `--inline` and verification run the same
 * request in this process (runInProcessSync), which gives the worker's result.
 */
import type { RunSpec } from '../../src-shared/experiments/grid.ts';
import type { DiceRunRequest } from '../../src-shared/runtime/kinds/index.ts';
import { Launcher, runInProcess, runInProcessSync, type LaunchedRun, type RunPlan } from './launcher.ts';
import { ProgramGate, type GateContext } from './program-gate.ts';
import { planGridRun } from './runs.ts';
import { hvPreparation, needsHvNormalisation } from './dice.ts';
import { nodeSpawner, type WorkerSpawner } from '../host/spawner.ts';
import type { Executor, RunOutcome } from '../experiments/runner.ts';

/**
 * How an executor's solver programs pass the program gate (program-gate.ts): the gate, and the
 * project (or folder) and action its question names. Runs without a program need none.
 */
export interface Admission {
  gate: ProgramGate;
  context: GateContext;
}

/**
 * One grid run in this process. A solver program's run passes the gate first (its working
 * directory resolved against the project's folder, its files checked) and is driven
 * asynchronously: the program is its own process.
 */
/**
 * A grid run planned and, a program's, admitted by the gate: the one rule of both executors (the
 * CLI's and the app's runs, their retries, verification) for whether a run may start. A plan
 * that cannot be made is a failed run; a program the gate refuses (its script changed since the
 * experiment was added, its executable not found, not allowed) is a refused one, which the
 * runner does not store: stored as failed, every retry would meet the same refusal.
 */
async function admittedPlan(
  run: RunSpec,
  experiment: string | null,
  admission: Admission | null,
  snapshotIntervalMs?: number,
): Promise<RunPlan<'dice'> | RunOutcome> {
  const startedAt = new Date();
  let plan: RunPlan<'dice'>;
  try {
    plan = planGridRun(run, experiment, snapshotIntervalMs === undefined ? {} : { snapshotIntervalMs });
  } catch (e) {
    return { status: 'failed', result: null, error: (e as Error).message, startedAt, finishedAt: new Date() };
  }
  if (!run.launch) return plan;
  if (!admission)
    return {
      status: 'refused',
      result: null,
      error: `run ${run.id} is a solver program's (${run.solver}): it runs only through the program gate`,
      startedAt,
      finishedAt: new Date(),
    };
  try {
    return await admission.gate.admit(plan, admission.context);
  } catch (e) {
    return { status: 'refused', result: null, error: (e as Error).message, startedAt, finishedAt: new Date() };
  }
}

const isOutcome = (v: RunPlan<'dice'> | RunOutcome): v is RunOutcome => 'status' in v;

export async function runInline(run: RunSpec, admission: Admission | null = null): Promise<RunOutcome> {
  const startedAt = new Date();
  const plan = await admittedPlan(run, null, admission);
  if (isOutcome(plan)) return plan;
  const outcome = run.launch ? await runInProcess(plan) : runInProcessSync(plan);
  return { status: outcome.status === 'done' ? 'done' : 'failed', result: outcome.result, error: outcome.reason, startedAt, finishedAt: new Date() };
}

export function inlineExecutor(admission: Admission | null = null): Executor {
  return {
    execute: async (run) => {
      // Let progress output and signals through between runs.
      await new Promise((resolve) => setImmediate(resolve));
      return runInline(run, admission);
    },
    dispose: () => {},
  };
}

export interface LaunchingExecutorOptions {
  /** Launches a planned grid run (on a Launcher, or through the app's RunService). */
  launch(run: RunSpec, plan: RunPlan<'dice'>): LaunchedRun<DiceRunRequest>;
  /** The experiment the runs belong to, named in their titles; null for none. */
  experiment?: string | null;
  /** Minimum milliseconds between a run's snapshots (the worker's default when left out). */
  snapshotIntervalMs?: number;
  /** True once the session stops: a run planned after that is not launched (it stays missing). */
  shouldStop?: () => boolean;
  /** Called when a launched run has ended. */
  onEnded?: (run: RunSpec) => void;
  /** How solver programs pass the program gate (and where their relative paths start); null: runs without programs only. */
  admission: Admission | null;
  dispose?: () => void;
}

/** The one executor of grid runs in worker processes: plan, launch, the outcome as the runner stores it. */
export function launchingExecutor(options: LaunchingExecutorOptions): Executor {
  return {
    async execute(run, onProgress) {
      const startedAt = new Date();
      const plan = await admittedPlan(run, options.experiment ?? null, options.admission, options.snapshotIntervalMs);
      if (isOutcome(plan)) return plan;
      if (options.shouldStop?.()) return { status: 'cancelled', result: null, error: 'cancelled', startedAt, finishedAt: new Date() };
      const handle = options.launch(run, plan);
      let begun: Date | null = null;
      let fraction = 0;
      const listeners = [
        handle.onStatus((status) => {
          if (status === 'running') begun ??= new Date();
          // A pause and a resume said at once (the next snapshot may be a while), so the time left stops and starts with them.
          if (status === 'paused' || status === 'running') onProgress?.({ fraction, paused: status === 'paused' });
        }),
        handle.onSnapshot((snapshot) => {
          fraction = snapshot.progress;
          onProgress?.({ fraction, seconds: snapshot.seconds, paused: snapshot.paused });
        }),
      ];
      const outcome = await handle.outcome;
      for (const l of listeners) l.dispose();
      options.onEnded?.(run);
      const finishedAt = new Date();
      const ranFrom = begun ?? startedAt;
      if (outcome.status === 'done' && outcome.result) return { status: 'done', result: outcome.result, error: null, startedAt: ranFrom, finishedAt };
      // Stopped on request (the session cancelled, the executor disposed as a second Ctrl-C does): no result, not a failure.
      if (outcome.status === 'cancelled') return { status: 'cancelled', result: null, error: outcome.reason ?? 'cancelled', startedAt: ranFrom, finishedAt };
      // A failed run keeps what it evaluated (a competition scores it on that: docs/competition.md).
      return { status: 'failed', result: outcome.partial ?? null, error: outcome.reason ?? outcome.status, startedAt: ranFrom, finishedAt };
    },
    dispose: () => options.dispose?.(),
  };
}

/**
 * The CLI's executor: a Launcher of its own with `jobs` workers, disposed with the executor.
 * Without memoryLimitMb each worker has the host's default share of the machine's memory.
 * `admission`: how solver programs pass the gate (and where their relative paths start).
 */
export function hostExecutor(options: {
  jobs: number;
  spawn?: WorkerSpawner;
  memoryLimitMb?: number | null;
  runTimeoutMs?: number | null;
  admission?: Admission | null;
}): Executor {
  const launcher = new Launcher({
    spawn: options.spawn ?? nodeSpawner(),
    parallelism: options.jobs,
    memoryLimitMb: options.memoryLimitMb,
    runTimeoutMs: options.runTimeoutMs ?? null,
  });
  // A multi-objective run waits in the queue while a worker computes its instance's normalisation (once per instance).
  const prepare = hvPreparation(launcher);
  return launchingExecutor({
    launch: (_run, plan) => launcher.start(plan, needsHvNormalisation(plan) ? { prepare } : {}),
    snapshotIntervalMs: 500,
    admission: options.admission ?? null,
    dispose: () => launcher.dispose(),
  });
}
