/**
 * The solver host's spawner in the desktop app: each worker is an Electron utility process
 * running the bundled worker entry (src-main/host/worker.ts -> out/main/worker.js, an entry of
 * electron.vite.config.ts). The worker talks through process.parentPort; messages are
 * structured clones. Call only after app 'ready'.
 */
import { utilityProcess, type UtilityProcess } from 'electron';
import { fileURLToPath } from 'node:url';
import { toDisposable } from '../../src-shared/base/disposable.ts';
import { isWorkerMessage, type WorkerMessage } from '../host/protocol.ts';
import { OutputTail, type WorkerChannel, type WorkerExit, type WorkerSpawner } from '../host/spawner.ts';

/** Beside out/main/index.js once built. */
const WORKER_BUNDLE = fileURLToPath(new URL('./worker.js', import.meta.url));

export function electronSpawner(workerPath: string = WORKER_BUNDLE): WorkerSpawner {
  return (options) => {
    const execArgv = options.memoryLimitMb === null ? [] : [`--max-old-space-size=${Math.max(1, Math.round(options.memoryLimitMb))}`];
    const child = utilityProcess.fork(workerPath, [], { serviceName: 'Saikoro solver', stdio: 'pipe', execArgv });
    return utilityChannel(child);
  };
}

function utilityChannel(child: UtilityProcess): WorkerChannel {
  const tail = new OutputTail();
  const onOutput = (chunk: Buffer) => tail.push(chunk);
  child.stdout?.on('data', onOutput);
  child.stderr?.on('data', onOutput);
  const messageListeners = new Set<(m: WorkerMessage) => void>();
  const exitListeners = new Set<(e: WorkerExit) => void>();
  let exited: WorkerExit | null = null;
  let killed = false;
  // Messages sent before the process has spawned wait here.
  let pending: unknown[] | null = [];
  const onSpawn = () => {
    const queued = pending ?? [];
    pending = null;
    for (const m of queued) child.postMessage(m);
  };
  child.once('spawn', onSpawn);
  const onMessage = (m: unknown) => {
    if (isWorkerMessage(m)) for (const l of [...messageListeners]) l(m);
  };
  // A V8 fatal error (out of memory among them) is reported before 'exit'.
  const onError = (type: string, location: string) => tail.push(`\n${type} at ${location}${/heap|memory/i.test(location) ? ' (heap out of memory)' : ''}\n`);
  const onExit = (code: number) => {
    exited = { code: killed ? null : code, signal: killed ? 'SIGTERM' : null, output: tail.toString() };
    for (const l of [...exitListeners]) l(exited);
    exitListeners.clear();
  };
  child.on('message', onMessage);
  child.on('error', onError);
  child.once('exit', onExit);
  const channel: WorkerChannel = {
    get pid() {
      return child.pid;
    },
    send(message) {
      if (exited) return;
      if (pending) pending.push(message);
      else child.postMessage(message);
    },
    onMessage(listener) {
      messageListeners.add(listener);
      return toDisposable(() => messageListeners.delete(listener));
    },
    onExit(listener) {
      if (exited) {
        const e = exited;
        queueMicrotask(() => listener(e));
        return toDisposable(() => {});
      }
      exitListeners.add(listener);
      return toDisposable(() => exitListeners.delete(listener));
    },
    kill() {
      if (exited || killed) return;
      killed = true;
      child.kill();
    },
    dispose() {
      channel.kill();
      messageListeners.clear();
      child.off('message', onMessage);
      child.off('error', onError);
      child.off('spawn', onSpawn);
      child.stdout?.off('data', onOutput);
      child.stderr?.off('data', onOutput);
    },
  };
  return channel;
}
