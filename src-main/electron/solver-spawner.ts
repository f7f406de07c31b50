/**
 * The solver host's spawner in the desktop app: each worker is an Electron utility process
 * running the bundled worker entry (src-main/host/worker.ts -> out/main/worker.js, an entry of
 * electron.vite.config.ts). The worker talks through process.parentPort; messages are
 * structured clones. Call only after app 'ready'.
 */
import { utilityProcess, type UtilityProcess } from 'electron';
import { fileURLToPath } from 'node:url';
import { captureOutput, createWorkerChannel } from '../host/channel.ts';
import type { HostMessage } from '../host/protocol.ts';
import type { WorkerChannel, WorkerSpawner } from '../host/spawner.ts';

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
  return createWorkerChannel((events) => {
    captureOutput(events, child);
    events.listen(child, 'message', events.message);
    // A V8 fatal error (out of memory among them) is reported before 'exit'.
    events.listen(child, 'error', (type: string, location: string) =>
      events.output(`\n${type} at ${location}${/heap|memory/i.test(location) ? ' (heap out of memory)' : ''}\n`),
    );
    // Messages sent before the process has spawned wait here.
    let pending: HostMessage[] | null = [];
    events.listen(child, 'spawn', () => {
      const queued = pending ?? [];
      pending = null;
      for (const m of queued) child.postMessage(m);
    });
    // utilityProcess reports only an exit code; kill() sends SIGTERM, so report that as the signal.
    let killed = false;
    child.once('exit', (code: number) => events.exit(killed ? null : code, killed ? 'SIGTERM' : null));
    return {
      get pid() {
        return child.pid;
      },
      send(message) {
        if (pending) pending.push(message);
        else child.postMessage(message);
      },
      kill() {
        killed = true;
        child.kill();
      },
    };
  });
}
