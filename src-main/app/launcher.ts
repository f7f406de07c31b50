/**
 * The one way a run starts: plan -> host -> outcome. Every entry point (the CLI's solve,
 * nqueens and experiment run, the API's RunService and experiment sessions, the benchmarks)
 * plans a run in this folder (runs.ts, dice.ts, nqueens.ts: what the worker runs, what the run
 * is, how its result is reported) and hands the plan to a Launcher, which alone owns a solver
 * host (src-main/host/pool.ts); the run comes back as a RunOutcome. The in-process path
 * (`--inline`, `experiment verify`) runs the same request through executeRun in this process,
 * with the same outcome. tests/main/app/launcher.test.ts checks that no module outside
 * src-main/app/ constructs a host or executes a request itself.
 */
import type { Disposable } from '../../src-shared/base/disposable.ts';
import { RunController } from '../../src-shared/core/control.ts';
import { partialResultOf } from '../../src-shared/core/driver.ts';
import {
  executeRun,
  executeRunSync,
  type ResultOf,
  type RunKindName,
  type RunKindTypes,
  type RunRequest,
  type SnapshotOf,
} from '../../src-shared/runtime/kinds/index.ts';
import type { RunApiTypes } from '../../src-shared/runtime/run-api.ts';
import { SolverHost, type HostRun, type HostStartOptions, type RunOutcome, type SolverHostOptions } from '../host/pool.ts';
import { launchProgram } from '../host/program-process.ts';
import { assertAdmitted } from './program-gate.ts';
import type { HvNormalisation } from '../../src-shared/problems/dice/hv-reference.ts';
import type { DiceConfig } from '../../src-shared/problems/dice/config.ts';

/** A run planned by the application layer: what the worker runs, what the run is, how its result is reported. */
export interface RunPlan<K extends RunKindName> {
  kind: K;
  request: RunKindTypes[K]['request'];
  started: Omit<RunApiTypes[K]['started'], 'runId' | 'createdAt'>;
  report(result: RunKindTypes[K]['result']): RunApiTypes[K]['result'];
}
export type AnyRunPlan = { [K in RunKindName]: RunPlan<K> }[RunKindName];

/** A launched run: its status, snapshots, pause, resume and cancel; await `outcome`. */
export type LaunchedRun<R extends RunRequest = RunRequest> = HostRun<R>;

/** Runs plans in worker processes: the solver host of this process (or of this command). */
export class Launcher implements Disposable {
  private readonly host: SolverHost;

  constructor(options: SolverHostOptions) {
    this.host = new SolverHost(options);
  }

  /** Runs in parallel (worker processes). */
  get parallelism(): number {
    return this.host.parallelism;
  }

  /**
   * The default hypervolume normalisation of a dice config, computed in a worker process of its
   * own (SolverHost.computeHvNormalisation): the same numbers as diceHvNormalisation, without
   * the main process doing the work. Use hvNormalisationFor (src-main/app/dice.ts), which
   * remembers them.
   */
  computeHvNormalisation(config: DiceConfig, signal?: AbortSignal): Promise<HvNormalisation> {
    return this.host.computeHvNormalisation(config, signal);
  }

  /** Each worker's memory limit in MB (null: none): the host's default share unless one was given. */
  get memoryLimitMb(): number | null {
    return this.host.memoryLimitMb;
  }

  /**
   * Queues a planned run; it starts as soon as a worker is free (and prepared: HostStartOptions).
   * A solver program's run must have passed the program gate (program-gate.ts): else this throws.
   */
  start<R extends RunRequest>(plan: { readonly request: R }, options: HostStartOptions<R> = {}): LaunchedRun<R> {
    assertAdmitted(plan.request);
    return this.host.start(plan.request, options);
  }

  /** Ends every worker; unfinished runs fail or are cancelled. */
  dispose(): void {
    this.host.dispose();
  }
}

export interface InProcessOptions<S> {
  onSnapshot?: (snapshot: S) => void;
  /** Cancels (and pauses) the run between steps. */
  control?: RunController;
}

/**
 * A planned run executed in this process instead of a worker (`--inline`): the worker's
 * executeRun with the worker's outcome (cancelled with the result so far, failed with the
 * reason), never rejecting.
 */
export async function runInProcess<R extends RunRequest>(
  plan: { readonly request: R },
  options: InProcessOptions<SnapshotOf<R>> = {},
): Promise<RunOutcome<ResultOf<R>>> {
  const control = options.control ?? new RunController();
  try {
    assertAdmitted(plan.request);
    const result = await executeRun(plan.request, { onSnapshot: options.onSnapshot, control, environment: { launchProgram } });
    return control.cancelled ? { status: 'cancelled', result, reason: 'cancelled' } : { status: 'done', result, reason: null };
  } catch (e) {
    // What the run evaluated before it failed, as a worker reports it (the driver keeps it on the error).
    return { status: 'failed', result: null, reason: e instanceof Error ? e.message : String(e), partial: (partialResultOf(e) as ResultOf<R> | null) ?? null };
  }
}

/**
 * The same, synchronously and without snapshots (verification, `experiment run --inline`). Not
 * for a solver program's run, which waits on its program: that one goes through runInProcess.
 */
export function runInProcessSync<R extends RunRequest>(plan: { readonly request: R }): RunOutcome<ResultOf<R>> {
  try {
    return { status: 'done', result: executeRunSync(plan.request), reason: null };
  } catch (e) {
    return { status: 'failed', result: null, reason: e instanceof Error ? e.message : String(e) };
  }
}
