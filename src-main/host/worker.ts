/**
 * The one worker entry, for Electron utility processes and Node child processes alike. It
 * talks to the host through `process.parentPort` when that exists (Electron), otherwise
 * through `process.on('message')` / `process.send` (child_process.fork with an IPC channel).
 *
 * One run at a time, of any kind: executeRun (src-shared/runtime/kinds/) builds it from the
 * request and drives it with the one driver, posting throttled snapshots, then the result.
 * Pause, resume and cancel act between steps. A watchdog ends the worker when its resident
 * memory exceeds the limit.
 *
 * Ownership: the transport listeners live as long as the process; each run owns its
 * watchdog timer, cleared when the run ends.
 */
import './parent-watch.ts'; // ends this worker with its parent, even while a run keeps it busy
import { RunController } from '../../src-shared/core/control.ts';
import { partialResultOf } from '../../src-shared/core/driver.ts';
import { executeRun } from '../../src-shared/runtime/kinds/index.ts';
import { diceHvNormalisationSteps } from '../../src-shared/problems/dice/hv-reference.ts';
import type { DiceConfig } from '../../src-shared/problems/dice/config.ts';
import { launchProgram } from './program-process.ts';
import type { ProgramLauncher } from '../../src-shared/solvers/program/solver.ts';
import type { HostMessage, WorkerMessage } from './protocol.ts';
import type { AnyRunResult, AnyRunSnapshot, RunRequest } from '../../src-shared/runtime/kinds/index.ts';

interface Transport {
  send(message: WorkerMessage, then?: () => void): void;
  listen(listener: (message: HostMessage) => void): void;
}

interface ElectronParentPort {
  on(event: 'message', listener: (event: { data: unknown }) => void): void;
  postMessage(message: unknown): void;
}

function connect(): Transport {
  const parentPort = (process as unknown as { parentPort?: ElectronParentPort }).parentPort;
  if (parentPort) {
    return {
      send(message, then) {
        parentPort.postMessage(message);
        if (then) setTimeout(then, 20);
      },
      listen(listener) {
        parentPort.on('message', (event) => listener(event.data as HostMessage));
      },
    };
  }
  if (!process.send) throw new Error('worker.ts must be started by the solver host (no IPC channel)');
  // When the host goes away the IPC channel closes; a worker never outlives its host.
  process.on('disconnect', () => process.exit(0));
  return {
    send(message, then) {
      process.send!(message, undefined, {}, () => then?.());
    },
    listen(listener) {
      process.on('message', (m) => listener(m as HostMessage));
    },
  };
}

const MB = 1024 * 1024;
const transport = connect();
// Ctrl-C in a terminal signals the whole process group: the host decides what to do with the
// run (the CLI cancels it and prints what was found), so the worker does not die of it.
process.on('SIGINT', () => {});
let memoryLimitMb: number | null = null;
let current: { runId: string; control: RunController } | null = null;

async function execute(runId: string, request: RunRequest): Promise<void> {
  const control = new RunController();
  current = { runId, control };
  const limit = request.memoryLimitMb ?? memoryLimitMb;
  let exceeded = false;
  const watchdog =
    limit === null
      ? null
      : setInterval(() => {
          const rss = process.memoryUsage.rss();
          if (rss <= limit * MB || exceeded) return;
          exceeded = true;
          const reason = `memory limit exceeded: the worker used ${Math.ceil(rss / MB)} MB, the limit is ${limit} MB`;
          transport.send({ type: 'failed', runId, reason, fatal: true }, () => process.exit(1));
        }, 100);
  const onSnapshot = (snapshot: AnyRunSnapshot) => transport.send({ type: 'snapshot', runId, snapshot });
  try {
    transport.send({ type: 'started', runId });
    // A program gets the run's memory limit as its own (sandbox.ts), and the host hears of its
    // processes, to kill them before it kills this worker.
    const programLimits = {
      memoryMb: limit,
      ...(request.kind === 'dice' && request.programCpuSeconds !== undefined ? { cpuSeconds: request.programCpuSeconds } : {}),
    };
    const launch: ProgramLauncher = (program, limits) =>
      launchProgram(program, limits, { limits: programLimits, onProcesses: (processes) => transport.send({ type: 'program', runId, processes }) });
    const result = await executeRun(request, { onSnapshot, control, environment: { launchProgram: launch } });
    // A run that ended by itself before a cancel arrived is done, not cancelled.
    transport.send(result.stopReason === 'cancelled' ? { type: 'cancelled', runId, result } : { type: 'done', runId, result });
  } catch (e) {
    const partial = partialResultOf(e) as AnyRunResult | null;
    transport.send({ type: 'failed', runId, reason: e instanceof Error ? e.message : String(e), fatal: false, ...(partial ? { result: partial } : {}) });
  } finally {
    if (watchdog) clearInterval(watchdog);
    current = null;
  }
}

/** The dice normalisation in slices of 25 sequences, the event loop free between them (heartbeats go on). */
async function normalise(id: string, config: DiceConfig): Promise<void> {
  try {
    const steps = diceHvNormalisationSteps(config, { slice: 25 });
    let next = steps.next();
    while (!next.done) {
      await new Promise((resolve) => setImmediate(resolve));
      next = steps.next();
    }
    transport.send({ type: 'normalisation', id, normalisation: next.value, reason: null });
  } catch (e) {
    transport.send({ type: 'normalisation', id, normalisation: null, reason: e instanceof Error ? e.message : String(e) });
  }
}

transport.listen((message) => {
  switch (message.type) {
    case 'init':
      memoryLimitMb = message.memoryLimitMb;
      break;
    case 'normalise':
      void normalise(message.id, message.config);
      break;
    case 'start':
      if (current) transport.send({ type: 'failed', runId: message.runId, reason: `this worker is busy with ${current.runId}`, fatal: false });
      else void execute(message.runId, message.request);
      break;
    case 'pause':
    case 'resume':
    case 'cancel': {
      if (current?.runId !== message.runId) break;
      const control = current.control;
      if (message.type === 'pause') {
        control.pause();
        transport.send({ type: 'paused', runId: message.runId });
      } else if (message.type === 'resume') {
        control.resume();
        transport.send({ type: 'resumed', runId: message.runId });
      } else control.cancel();
      break;
    }
  }
});
transport.send({ type: 'ready', pid: process.pid });
// A sign of life while the event loop turns, for hosts on systems that cannot see a stopped process.
setInterval(() => transport.send({ type: 'heartbeat' }), 1000).unref();
