/**
 * Runs of every kind started through the API: each request is planned by the application
 * layer (src-main/app/runs.ts: checked as the CLI checks its options, resolved), launched
 * (src-main/app/launcher.ts), and tracked here under the host's run id. Snapshots and the end are forwarded
 * as API events and kept, so that getRun / listRuns can tell a reloaded page (or another tab)
 * everything about a run still going or recently finished.
 *
 * Ownership: the service owns its runs' listeners; dispose() cancels the unfinished runs.
 */
import type { DiceRunStarted, FinishedStatus, RunFinishedEvent, RunInfo, RunSnapshotEvent, RunStarted, StartRunRequest } from '../../src-shared/api.ts';
import { DisposableStore, type Disposable } from '../../src-shared/base/disposable.ts';
import { progressPoint, type AnyRunResult, type DiceRunRequest, type RunKindName, type RunRequest } from '../../src-shared/runtime/kinds/index.ts';
import { appendPoint } from '../../src-shared/runtime/progress.ts';
import { planRun } from './runs.ts';
import { RUN_KIND_DESCRIPTORS, type RunKindDescriptor } from './run-kinds.ts';
import type { AnyRunPlan, Launcher, LaunchedRun, RunPlan } from './launcher.ts';
import { hvPreparation, knownHvNormalisation, needsHvNormalisation, withHvNormalisation } from './dice.ts';
import type { HostStartOptions, RunOutcome } from '../host/pool.ts';
import type { HvNormalisation } from '../../src-shared/problems/dice/hv-reference.ts';
import type { DiceConfig } from '../../src-shared/problems/dice/config.ts';
import { requestSignal } from './request-context.ts';
import type { ApiEventHub } from './events.ts';
import type { ProgramGate } from './program-gate.ts';

/** Finished runs kept for getRun / listRuns, the oldest dropped first. */
export const FINISHED_RUNS_KEPT = 100;

interface Tracked {
  info: RunInfo;
  /** What runs (a prepared run's plan once it has its normalisation). */
  handle: LaunchedRun;
  plan: AnyRunPlan;
  /** The worker's own result (before the API's report), kept for saveRun; large boards are not kept. */
  hostResult: AnyRunResult | null;
}

/** A run the service launched: what it is, and its handle on the host. */
export interface Launched {
  started: RunStarted;
  handle: LaunchedRun;
}

export class RunService implements Disposable {
  private readonly runs = new Map<string, Tracked>();
  private readonly store = new DisposableStore();

  constructor(
    private readonly launcher: Launcher,
    private readonly events: ApiEventHub,
    /** Every solver program passes it (program-gate.ts), on what the plan will really run. */
    private readonly gate: ProgramGate,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * Plans and queues a run, and answers at once; its events may reach listeners before this
   * answers. Nothing heavy happens in this process, and nothing waits for it: a multi-objective
   * run whose normalisation is not known yet is listed as queued while a worker computes it
   * (hvNormalisationFor; the run's RunStarted then has it, as getRun and listRuns show), and
   * starts once it is there; cancelling it meanwhile stops that worker. A call whose client has
   * gone before it is carried out (requestSignal(), set by the web server) launches nothing.
   * The plan, whatever the request's `kind` said, passes the program gate: a program's run
   * starts only once the gate's policy allowed what it will really run (the open project's
   * folder is where its relative paths start).
   */
  async start(request: StartRunRequest): Promise<RunStarted> {
    const signal = requestSignal();
    signal?.throwIfAborted();
    const planned = await planRun(request, { memoryLimitMb: this.launcher.memoryLimitMb });
    const plan = await this.gate.admit(planned, { project: this.gate.openProject(), action: 'Starting this run' });
    signal?.throwIfAborted();
    return this.launchPrepared(plan).started;
  }

  /**
   * Queues a planned run (startRun's, or an experiment session's) and answers at once: a
   * multi-objective run whose normalisation is not known yet waits in the queue, listed as
   * queued, while a worker computes it (hvPreparation); its RunStarted is then replaced by one
   * with the normalisation, and the run starts.
   */
  launchPrepared(plan: AnyRunPlan): Launched {
    if (!needsHvNormalisation(plan)) return this.launch(plan);
    const known = knownHvNormalisation(plan.request.config);
    if (known) return this.launch(withHvNormalisation(plan, known));
    const prepare = hvPreparation(this);
    return this.launch(plan, (tracked) => async (request, aborted) => {
      const prepared = await prepare(request as DiceRunRequest, aborted);
      const hvNormalisation = prepared.hvNormalisation!;
      tracked.plan = withHvNormalisation(plan, hvNormalisation);
      // Replaced, not changed: the answer already given (an in-process caller holds it) stays as it was.
      tracked.info.started = { ...(tracked.info.started as DiceRunStarted), hvNormalisation };
      return prepared;
    });
  }

  /** A dice config's normalisation, computed in a worker process of the launcher (for hvNormalisationFor). */
  computeHvNormalisation(config: DiceConfig, signal?: AbortSignal): Promise<HvNormalisation> {
    return this.launcher.computeHvNormalisation(config, signal);
  }

  /**
   * Queues a planned run (the API's, or an experiment's) and tracks it like every other;
   * `preparation` says what must happen before it may start (HostStartOptions.prepare).
   */
  launch(plan: AnyRunPlan, preparation?: (tracked: Tracked) => NonNullable<HostStartOptions<RunRequest>['prepare']>): Launched {
    let tracked: Tracked | undefined;
    // The host calls prepare after start has returned, when the run is tracked.
    const handle = this.launcher.start<RunRequest>(plan, preparation ? { prepare: (request, signal) => preparation(tracked!)(request, signal) } : {});
    const runId = handle.id;
    const started = { ...plan.started, runId, createdAt: this.now().toISOString() } as RunStarted;
    const info = { runId, kind: plan.kind, started, status: handle.status, snapshot: null, result: null, reason: null, history: [] } as RunInfo;
    tracked = { info, handle, plan, hostResult: null };
    const run = tracked;
    this.runs.set(runId, run);
    const listeners = new DisposableStore();
    this.store.add(listeners);
    listeners.add(handle.onStatus((status) => (info.status = status)));
    listeners.add(
      handle.onSnapshot((snapshot) => {
        info.snapshot = snapshot as never;
        appendPoint(info.history, progressPoint(info.started, snapshot));
        this.events.emit('onRunSnapshot', { runId, kind: plan.kind, snapshot } as RunSnapshotEvent);
      }),
    );
    void handle.outcome.then((outcome) => {
      this.store.delete(listeners);
      this.finish(run, run.plan, outcome);
    });
    return { started, handle };
  }

  /** The host request and the worker's result of a finished run (for saveRun), or null. */
  finishedRun(runId: string): { plan: AnyRunPlan; info: RunInfo; hostResult: AnyRunResult | null } | null {
    const t = this.runs.get(runId);
    return t && t.handle.isFinished ? { plan: t.plan, info: structuredClone(t.info), hostResult: t.hostResult } : null;
  }

  private finish(tracked: Tracked, plan: AnyRunPlan, outcome: RunOutcome): void {
    const { info } = tracked;
    const result = outcome.result === null ? null : (plan as RunPlan<RunKindName>).report(outcome.result as never);
    const keep = outcome.result !== null && (RUN_KIND_DESCRIPTORS[plan.kind] as RunKindDescriptor<RunKindName>).keepResult(outcome.result as never);
    tracked.hostResult = keep ? outcome.result : null;
    info.status = outcome.status;
    info.result = result as never;
    info.reason = outcome.reason;
    const event = { runId: info.runId, kind: info.kind, status: outcome.status as FinishedStatus, reason: outcome.reason, result } as RunFinishedEvent;
    this.events.emit('onRunFinished', event);
    this.forgetOldFinished();
  }

  private forgetOldFinished(): void {
    const finished = [...this.runs.values()].filter((t) => t.handle.isFinished);
    for (const t of finished.slice(0, Math.max(0, finished.length - FINISHED_RUNS_KEPT))) this.runs.delete(t.info.runId);
  }

  get(runId: string): RunInfo | null {
    const t = this.runs.get(runId);
    return t ? structuredClone(t.info) : null;
  }

  /** The unfinished runs, then the finished ones, each newest first. */
  list(): RunInfo[] {
    const all = [...this.runs.values()].reverse();
    return [...all.filter((t) => !t.handle.isFinished), ...all.filter((t) => t.handle.isFinished)].map((t) => structuredClone(t.info));
  }

  cancel(runId: string): boolean {
    const t = this.runs.get(runId);
    if (!t || t.handle.isFinished) return false;
    t.handle.cancel();
    return true;
  }

  pause(runId: string, paused: boolean): boolean {
    const t = this.runs.get(runId);
    if (!t || t.handle.isFinished) return false;
    if (paused) t.handle.pause();
    else t.handle.resume();
    return true;
  }

  /** Each worker's memory limit in MB (null: none), as the host applies it. */
  get workerMemoryLimitMb(): number | null {
    return this.launcher.memoryLimitMb;
  }

  get activeCount(): number {
    return [...this.runs.values()].filter((t) => !t.handle.isFinished).length;
  }

  dispose(): void {
    for (const t of this.runs.values()) if (!t.handle.isFinished) t.handle.cancel();
    this.store.dispose();
  }
}
