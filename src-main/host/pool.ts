/**
 * The solver host: a pool of worker processes, one run at a time per worker, as many workers
 * as there are cores by default. Runs beyond that wait in a queue (a run may first be prepared:
 * HostStartOptions.prepare). Any run can be paused, resumed and cancelled. A worker that
 * crashes, is killed or exceeds its memory limit ends its run as failed with the reason
 * (exit-reason.ts); the other runs go on. This module is the queue and the workers' lifecycle;
 * the health watchdog that looks at busy workers from outside (memory, SIGSTOP, silence, wall
 * time) is watchdog.ts, and the normalisation's own worker is normalisation-worker.ts.
 *
 * Ownership: the host owns its workers (a DisposableStore per worker holds the process and its
 * listeners), its watchdog and every cancel timer; `dispose()` ends all of them.
 */
import os from 'node:os';
import { DisposableStore, Emitter, type Disposable } from '../../src-shared/base/disposable.ts';
import type { WorkerMessage } from './protocol.ts';
import type { AnyRunResult, DiceRunRequest, ResultOf, RunRequest, SnapshotOf } from '../../src-shared/runtime/kinds/index.ts';
import type { RunStatus } from '../../src-shared/runtime/run-api.ts';
import type { WorkerChannel, WorkerExit, WorkerSpawner } from './spawner.ts';
import { describeExit } from './exit-reason.ts';
import { computeHvNormalisationInWorker } from './normalisation-worker.ts';
import { HealthWatchdog, type WatchedWorker } from './watchdog.ts';
import { processState as readProcessState, type ProcessState } from './process-state.ts';
import { memoryRefusal } from '../../src-shared/solvers/memory.ts';
import { solvers } from '../../src-shared/solvers/registry.ts';
import type { ParamValue } from '../../src-shared/core/params.ts';
import type { HvNormalisation } from '../../src-shared/problems/dice/hv-reference.ts';
import type { DiceConfig } from '../../src-shared/problems/dice/config.ts';
import { defaultMemoryLimitMb } from './memory-limit.ts';
import { killProgramProcesses, type ProgramProcesses } from './program-kill.ts';
import { DEFAULT_GRACE_SECONDS } from '../../src-shared/solvers/program/protocol.ts';

/** How a run ended. `result` is present when done, and when cancelled after it had started. */
export interface RunOutcome<Result = AnyRunResult> {
  status: 'done' | 'failed' | 'cancelled';
  /** The run's result; null unless it is done or cancelled. */
  result: Result | null;
  /** Why it failed or was cancelled; null when done. */
  reason: string | null;
  /**
   * A failed run only: what it had evaluated when it failed (a program that exited early, broke
   * the protocol, flooded), when there is one. Kept apart from `result`, which only a run that
   * ended well has; a competition scores a failed run on it (docs/competition.md).
   */
  partial?: Result | null;
}

export interface SolverHostOptions {
  spawn: WorkerSpawner;
  /** Parallel runs (worker processes); defaults to the number of cores. */
  parallelism?: number;
  /**
   * Memory limit per worker in MB (V8 heap flag and a resident-memory watchdog); left out: the
   * default share of this machine's memory (defaultMemoryLimitMb); null: none.
   */
  memoryLimitMb?: number | null;
  /** How long a cancelled run may take to stop before its worker is killed (ms). Default 2000. */
  cancelGraceMs?: number;
  /** A run that takes longer than this (ms of wall time, pauses included) fails and its worker is killed; null: no limit (default). */
  runTimeoutMs?: number | null;
  /** A worker stopped by a signal (kill -STOP) this long (ms) fails its run and is killed. Default 30,000. */
  stoppedGraceMs?: number;
  /** Where the system cannot say a worker is stopped: silence this long (ms) counts as stopped. Default 120,000. */
  heartbeatTimeoutMs?: number;
  /** How often the host looks at its busy workers (ms). Default 500. */
  watchIntervalMs?: number;
  /** What the host can see of a process (tests stand in their own). */
  processState?: (pid: number) => ProcessState;
}

export interface HostStartOptions<R extends RunRequest> {
  /**
   * Work to do before the run may start, outside this process's event loop (a multi-objective
   * run's normalisation, computed in a worker): the run waits in the queue, listed as queued,
   * until this gives the request to run. Aborted when the run is cancelled or the host shuts down.
   */
  prepare?: (request: R, signal: AbortSignal) => Promise<R>;
}

export function defaultParallelism(): number {
  return Math.max(1, typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length);
}

/** A worker of the pool, as its health watchdog sees it too (watchdog.ts). */
interface PoolWorker extends WatchedWorker {
  channel: WorkerChannel;
  /** Owns the channel and its listeners. */
  store: DisposableStore;
  ready: boolean;
  run: HostRun | null;
  runSince: number;
  lastHeard: number;
  /** The processes of its run's solver program while it runs (the worker tells them). */
  program: ProgramProcesses | null;
}

/**
 * A run in the host. Listen to its snapshots and status; await `outcome`. `R` is its request's
 * type, and with it the snapshot and result types of its kind (src-shared/runtime/kinds/).
 */
export class HostRun<R extends RunRequest = RunRequest> {
  private statusValue: RunStatus = 'queued';
  private snapshotValue: SnapshotOf<R> | null = null;
  private readonly snapshotEmitter = new Emitter<SnapshotOf<R>>();
  private readonly statusEmitter = new Emitter<RunStatus>();
  private settle!: (outcome: RunOutcome<ResultOf<R>>) => void;
  /** Resolves once, when the run is done, failed or cancelled. Never rejects. */
  readonly outcome: Promise<RunOutcome<ResultOf<R>>>;
  /** Set while the user wants the run paused (also before it has started). */
  pauseRequested = false;
  cancelRequested = false;
  /** The pid of the worker running it, while it runs. */
  pid: number | undefined;

  /** While the run is being prepared (HostStartOptions.prepare): aborts the preparation. It waits in the queue meanwhile. */
  preparation: AbortController | null = null;

  constructor(
    readonly id: string,
    private requestValue: R,
    private readonly host: SolverHost,
  ) {
    this.outcome = new Promise((resolve) => (this.settle = resolve));
  }

  /** What the worker runs (once prepared, the prepared request). */
  get request(): R {
    return this.requestValue;
  }
  /** @internal */
  prepared(request: R): void {
    this.preparation = null;
    this.requestValue = request;
  }

  get status(): RunStatus {
    return this.statusValue;
  }
  get lastSnapshot(): SnapshotOf<R> | null {
    return this.snapshotValue;
  }
  get isFinished(): boolean {
    return this.statusValue === 'done' || this.statusValue === 'failed' || this.statusValue === 'cancelled';
  }

  readonly onSnapshot = (listener: (snapshot: SnapshotOf<R>) => void): Disposable => this.snapshotEmitter.listen(listener);
  readonly onStatus = (listener: (status: RunStatus) => void): Disposable => this.statusEmitter.listen(listener);

  pause(): void {
    this.host.pause(this.erased());
  }
  resume(): void {
    this.host.resume(this.erased());
  }
  cancel(): void {
    this.host.cancel(this.erased());
  }
  /** This run as the host handles every run, whatever its kind. */
  private erased(): HostRun {
    return this as unknown as HostRun;
  }

  /** @internal */
  setStatus(status: RunStatus): void {
    if (this.isFinished || this.statusValue === status) return;
    this.statusValue = status;
    this.statusEmitter.fire(status);
  }
  /** @internal */
  pushSnapshot(snapshot: SnapshotOf<R>): void {
    if (this.isFinished) return;
    this.snapshotValue = snapshot;
    this.snapshotEmitter.fire(snapshot);
  }
  /** @internal */
  finish(outcome: RunOutcome<ResultOf<R>>): void {
    if (this.isFinished) return;
    this.setStatus(outcome.status);
    this.pid = undefined;
    this.settle(outcome);
    this.snapshotEmitter.dispose();
    this.statusEmitter.dispose();
  }
}

export class SolverHost implements Disposable {
  readonly parallelism: number;
  private readonly spawn: WorkerSpawner;
  /** Each worker's memory limit in MB (null: none), the default share unless one was given. */
  readonly memoryLimitMb: number | null;
  private readonly cancelGraceMs: number;
  private readonly watchdog: HealthWatchdog<PoolWorker>;
  private readonly workers = new Set<PoolWorker>();
  private readonly queue: HostRun[] = [];
  private readonly active = new Map<string, HostRun>();
  private readonly cancelTimers = new Map<HostRun, NodeJS.Timeout>();
  private readonly store = new DisposableStore();
  private readonly runEmitter = this.store.add(new Emitter<HostRun>());
  private nextId = 1;
  /** Makes run ids unique across hosts and restarts ("run-k3x9-1"), so a stale id never finds another run. */
  private readonly tag = Math.random().toString(36).slice(2, 6);

  constructor(options: SolverHostOptions) {
    this.spawn = options.spawn;
    this.parallelism = Math.max(1, Math.floor(options.parallelism ?? defaultParallelism()));
    this.memoryLimitMb = options.memoryLimitMb === undefined ? defaultMemoryLimitMb(this.parallelism) : options.memoryLimitMb;
    this.cancelGraceMs = options.cancelGraceMs ?? 2000;
    this.watchdog = new HealthWatchdog<PoolWorker>(
      {
        runTimeoutMs: options.runTimeoutMs ?? null,
        stoppedGraceMs: options.stoppedGraceMs ?? 30_000,
        heartbeatTimeoutMs: options.heartbeatTimeoutMs ?? 120_000,
        watchIntervalMs: options.watchIntervalMs ?? 500,
        processState: options.processState ?? readProcessState,
      },
      () => [...this.workers].filter((w) => w.run !== null && !w.run.isFinished),
      (worker, reason) => this.fail(worker, worker.run!, reason),
    );
    this.store.defer(() => this.shutdown());
  }

  private fail(worker: PoolWorker, run: HostRun, reason: string): void {
    this.clearCancelTimer(run);
    worker.run = null;
    run.finish({ status: 'failed', result: null, reason });
    this.retire(worker);
    this.dispatch();
  }

  /** Fires for every run started on this host. */
  readonly onRun = (listener: (run: HostRun) => void): Disposable => this.runEmitter.listen(listener);

  /**
   * Queues a run of any kind; it starts as soon as a worker is free (and, with
   * `options.prepare`, once prepared).
   */
  start<R extends RunRequest>(request: R, options: HostStartOptions<R> = {}): HostRun<R> {
    if (this.store.isDisposed) throw new Error('the solver host has been disposed');
    const run = new HostRun<R>(`run-${this.tag}-${this.nextId++}`, request, this) as unknown as HostRun;
    this.active.set(run.id, run);
    void run.outcome.then(() => this.active.delete(run.id));
    this.runEmitter.fire(run);
    // Settings that cannot fit in the worker's memory fail at once, without a worker.
    const tooBig = request.kind === 'dice' ? diceMemoryRefusal(request, request.memoryLimitMb ?? this.memoryLimitMb) : null;
    if (tooBig) {
      run.finish({ status: 'failed', result: null, reason: tooBig });
      return run as unknown as HostRun<R>;
    }
    this.queue.push(run);
    if (options.prepare) this.prepare(run as unknown as HostRun<R>, options.prepare);
    this.dispatch();
    return run as unknown as HostRun<R>;
  }

  /**
   * A queued run held back until `prepare` gives its final request (after this call returns,
   * so that the caller has its run first); it can be paused or cancelled meanwhile (a cancel
   * aborts the preparation). A failed preparation fails the run with the reason.
   */
  private prepare<R extends RunRequest>(run: HostRun<R>, prepare: NonNullable<HostStartOptions<R>['prepare']>): void {
    const controller = new AbortController();
    run.preparation = controller;
    void Promise.resolve()
      .then(() => prepare(run.request, controller.signal))
      .then(
        (request) => {
          if (run.isFinished || controller.signal.aborted) return;
          run.prepared(request);
          this.dispatch();
        },
        (e: unknown) => {
          if (run.isFinished || controller.signal.aborted) return;
          run.preparation = null;
          this.removeFromQueue(run as unknown as HostRun);
          run.finish({ status: 'failed', result: null, reason: `the run could not be prepared: ${e instanceof Error ? e.message : String(e)}` });
        },
      );
  }

  /** Runs every request and resolves with their outcomes, in order. */
  async runAll<R extends RunRequest = DiceRunRequest>(requests: R[], onRun?: (run: HostRun<R>, index: number) => void): Promise<RunOutcome<ResultOf<R>>[]> {
    const runs = requests.map((r, i) => {
      const run = this.start(r);
      onRun?.(run, i);
      return run;
    });
    return Promise.all(runs.map((r) => r.outcome));
  }

  /** Runs not yet finished. */
  get runs(): HostRun[] {
    return [...this.active.values()];
  }

  get workerCount(): number {
    return this.workers.size;
  }

  pause(run: HostRun): void {
    if (run.isFinished || run.pauseRequested) return;
    run.pauseRequested = true;
    const worker = this.workerOf(run);
    if (worker) worker.channel.send({ type: 'pause', runId: run.id });
    else run.setStatus('paused');
  }

  resume(run: HostRun): void {
    if (run.isFinished || !run.pauseRequested) return;
    run.pauseRequested = false;
    const worker = this.workerOf(run);
    if (worker) worker.channel.send({ type: 'resume', runId: run.id });
    else {
      run.setStatus('queued');
      this.dispatch();
    }
  }

  cancel(run: HostRun): void {
    if (run.isFinished || run.cancelRequested) return;
    run.cancelRequested = true;
    const worker = this.workerOf(run);
    if (!worker) {
      this.removeFromQueue(run);
      run.preparation?.abort(new Error('the run was cancelled'));
      run.finish({ status: 'cancelled', result: null, reason: 'cancelled' });
      return;
    }
    worker.channel.send({ type: 'cancel', runId: run.id });
    // A worker still loading hears the cancel once it is ready; the grace period starts then.
    if (worker.ready) this.startCancelTimer(worker, run);
  }

  /**
   * A worker stuck in a long step gets a grace period to stop its run, then is killed (its
   * program first). A solver program's run gets its program's stop sequence on top (stdin
   * closed, grace, SIGTERM, grace: docs/external-solvers.md), so that a cancel keeps what the
   * run found.
   */
  private startCancelTimer(worker: PoolWorker, run: HostRun): void {
    if (this.cancelTimers.has(run)) return;
    const program = (run.request as DiceRunRequest).program;
    const graceMs = this.cancelGraceMs + (program ? 2 * (program.grace ?? DEFAULT_GRACE_SECONDS) * 1000 : 0);
    const timer = setTimeout(() => {
      this.cancelTimers.delete(run);
      if (run.isFinished) return;
      run.finish({ status: 'cancelled', result: null, reason: `cancelled (worker did not stop within ${graceMs} ms and was killed)` });
      this.retire(worker);
      this.dispatch();
    }, graceMs);
    this.cancelTimers.set(run, timer);
  }

  dispose(): void {
    this.store.dispose();
  }

  /**
   * The default hypervolume normalisation of a dice config, computed in a worker process of its
   * own (normalisation-worker.ts), with this host's memory limit and outside the pool's count,
   * so it never waits behind runs and the main process stays free. An abort kills the worker
   * and rejects with the signal's reason; so does the host's disposal.
   */
  computeHvNormalisation(config: DiceConfig, signal?: AbortSignal): Promise<HvNormalisation> {
    if (this.store.isDisposed) return Promise.reject(new Error('the solver host has been disposed'));
    return computeHvNormalisationInWorker(
      config,
      { spawn: this.spawn, memoryLimitMb: this.memoryLimitMb, owner: this.store, id: `norm-${this.tag}-${this.nextId++}` },
      signal,
    );
  }

  private shutdown(): void {
    this.watchdog.dispose();
    for (const timer of this.cancelTimers.values()) clearTimeout(timer);
    this.cancelTimers.clear();
    for (const run of this.queue.splice(0)) {
      run.preparation?.abort(new Error('the solver host shut down'));
      run.finish({ status: 'cancelled', result: null, reason: 'the solver host shut down' });
    }
    for (const worker of [...this.workers]) {
      worker.run?.finish({ status: 'cancelled', result: null, reason: 'the solver host shut down' });
      this.retire(worker);
    }
  }

  private workerOf(run: HostRun): PoolWorker | undefined {
    for (const w of this.workers) if (w.run === run) return w;
    return undefined;
  }

  private removeFromQueue(run: HostRun): void {
    const i = this.queue.indexOf(run);
    if (i >= 0) this.queue.splice(i, 1);
  }

  /** Starts queued runs on idle workers, spawning workers up to the parallelism. */
  private dispatch(): void {
    if (this.store.isDisposed) return;
    for (;;) {
      const next = this.queue.find((r) => !r.pauseRequested && !r.preparation);
      if (!next) return;
      let worker = [...this.workers].find((w) => w.run === null);
      if (!worker) {
        if (this.workers.size >= this.parallelism) return;
        try {
          worker = this.spawnWorker();
        } catch (e) {
          this.removeFromQueue(next);
          next.finish({ status: 'failed', result: null, reason: `could not start a worker: ${e instanceof Error ? e.message : String(e)}` });
          continue;
        }
      }
      this.removeFromQueue(next);
      this.assign(worker, next);
    }
  }

  private spawnWorker(): PoolWorker {
    const store = new DisposableStore();
    const channel = store.add(this.spawn({ memoryLimitMb: this.memoryLimitMb }));
    const now = Date.now();
    const hostLimit = this.memoryLimitMb;
    const worker: PoolWorker = {
      channel,
      store,
      ready: false,
      run: null,
      runSince: now,
      lastHeard: now,
      stoppedSince: null,
      program: null,
      get pid() {
        return channel.pid;
      },
      get memoryLimitMb() {
        return (this.run?.request as { memoryLimitMb?: number } | undefined)?.memoryLimitMb ?? hostLimit;
      },
    };
    this.workers.add(worker);
    store.add(channel.onMessage((m) => this.onMessage(worker, m)));
    store.add(channel.onExit((exit) => this.onExit(worker, exit)));
    channel.send({ type: 'init', memoryLimitMb: this.memoryLimitMb });
    return worker;
  }

  private assign(worker: PoolWorker, run: HostRun): void {
    worker.run = run;
    worker.runSince = worker.lastHeard = Date.now();
    worker.stoppedSince = null;
    run.pid = worker.channel.pid;
    run.setStatus('running');
    // Messages sent before the worker has loaded wait in the IPC channel.
    worker.channel.send({ type: 'start', runId: run.id, request: run.request });
    this.watchdog.update();
  }

  private onMessage(worker: PoolWorker, message: WorkerMessage): void {
    worker.lastHeard = Date.now();
    if (message.type === 'heartbeat' || message.type === 'normalisation') return;
    if (message.type === 'ready') {
      worker.ready = true;
      if (worker.run?.cancelRequested) this.startCancelTimer(worker, worker.run);
      return;
    }
    if (message.type === 'program') {
      // Kept whatever the run's state: a program that outlives its run is still killed with the worker.
      worker.program = message.processes;
      return;
    }
    const run = worker.run;
    if (!run || run.id !== message.runId) return; // a late message for a run already ended
    switch (message.type) {
      case 'started':
        run.pid = worker.channel.pid;
        break;
      case 'snapshot':
        run.pushSnapshot(message.snapshot);
        break;
      case 'paused':
        run.setStatus('paused');
        break;
      case 'resumed':
        run.setStatus('running');
        break;
      case 'done':
        this.release(worker, run, { status: 'done', result: message.result, reason: null });
        break;
      case 'cancelled':
        this.release(worker, run, { status: 'cancelled', result: message.result, reason: 'cancelled' });
        break;
      case 'failed':
        // A fatal failure (memory watchdog) is followed by the worker's exit.
        if (message.fatal) {
          worker.run = null;
          this.clearCancelTimer(run);
          run.finish({ status: 'failed', result: null, reason: message.reason });
          this.retire(worker);
          this.dispatch();
        } else this.release(worker, run, { status: 'failed', result: null, reason: message.reason, partial: message.result ?? null });
        break;
    }
  }

  private release(worker: PoolWorker, run: HostRun, outcome: RunOutcome<AnyRunResult>): void {
    worker.run = null;
    this.clearCancelTimer(run);
    run.finish(outcome);
    this.dispatch();
  }

  private clearCancelTimer(run: HostRun): void {
    const timer = this.cancelTimers.get(run);
    if (timer) clearTimeout(timer);
    this.cancelTimers.delete(run);
  }

  private onExit(worker: PoolWorker, exit: WorkerExit): void {
    const run = worker.run;
    // A worker that died (killed, crashed) could not end its program.
    this.killProgram(worker);
    this.workers.delete(worker);
    worker.run = null;
    worker.store.dispose();
    if (run && !run.isFinished) {
      this.clearCancelTimer(run);
      run.finish({ status: 'failed', result: null, reason: describeExit(exit, this.memoryLimitMb) });
    }
    this.dispatch();
  }

  /** Kills every process of the worker's program, if one still runs (program-kill.ts). */
  private killProgram(worker: PoolWorker): void {
    if (worker.program) killProgramProcesses(worker.program);
    worker.program = null;
  }

  /** Kills a worker and forgets it; its program first, which the worker can no longer stop once killed. */
  private retire(worker: PoolWorker): void {
    this.killProgram(worker);
    this.workers.delete(worker);
    worker.run = null;
    worker.store.dispose();
  }
}

/** A dice request's memory refusal (src-shared/solvers/memory.ts), its parameters' plain defaults filled in. */
function diceMemoryRefusal(request: DiceRunRequest, limitMb: number | null): string | null {
  if (limitMb === null || request.program || typeof request.solver !== 'string' || !request.config || !Array.isArray(request.config.objectives)) return null;
  const info = solvers.find((s) => s.name === request.solver);
  const params: Record<string, ParamValue> = {};
  for (const spec of info?.params ?? []) if (typeof spec.default !== 'function') params[spec.name] = spec.default as ParamValue;
  Object.assign(params, request.params);
  return memoryRefusal({ solver: request.solver, params, n: request.config.n, objectiveCount: request.config.objectives.length }, limitMb);
}
