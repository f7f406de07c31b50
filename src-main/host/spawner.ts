/**
 * How the host starts a worker process. The host takes a WorkerSpawner as a parameter: under
 * Node (CLI, web server, tests) it is `nodeSpawner`, which forks the worker (worker.ts through
 * tsx from source, worker.js from the build); in the
 * desktop app it is the Electron utility-process spawner in src-main/electron/solver-spawner.ts.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Disposable } from '../../src-shared/base/disposable.ts';
import { captureOutput, createWorkerChannel } from './channel.ts';
import type { HostMessage, WorkerMessage } from './protocol.ts';

export interface SpawnOptions {
  /** V8 old-space limit for the worker (--max-old-space-size), in MB; null for Node's default. */
  memoryLimitMb: number | null;
}

/** How a worker process ended. */
export interface WorkerExit {
  /** Exit code, or null when a signal ended it. */
  code: number | null;
  signal: string | null;
  /** The last lines the worker wrote to stdout/stderr, for the failure reason. */
  output: string;
}

/** One worker process as the host sees it. `dispose()` detaches listeners and kills the process. */
export interface WorkerChannel extends Disposable {
  readonly pid: number | undefined;
  send(message: HostMessage): void;
  onMessage(listener: (message: WorkerMessage) => void): Disposable;
  /** Fires once, when the process has ended for whatever reason. */
  onExit(listener: (exit: WorkerExit) => void): Disposable;
  /** Ends the process at once (SIGKILL under Node). */
  kill(): void;
}

export type WorkerSpawner = (options: SpawnOptions) => WorkerChannel;

/**
 * True when this module runs as TypeScript source (vitest, `npm run dev`), false when it runs
 * from the build (out/cli, out/main).
 */
const RUNNING_SOURCE = /\.[cm]?ts$/.test(fileURLToPath(import.meta.url));

/**
 * The worker entry beside this module: worker.ts when running from source, else the built
 * worker.js (the CLI's bundle in out/cli and the desktop's in out/main each have one).
 */
// Not `new URL('./worker.ts', import.meta.url)`: Vite rewrites that pattern into a page-relative
// asset URL when it transforms this file for a DOM test environment (the renderer tests run the
// real main side in-process).
export const WORKER_ENTRY = join(dirname(fileURLToPath(import.meta.url)), RUNNING_SOURCE ? 'worker.ts' : 'worker.js');

/** tsx's loader as a file URL, so `--import` works whatever the current directory is. */
function tsxLoader(): string {
  return pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
}

/**
 * Forks the worker under plain Node (worker.ts through tsx's loader when running from source,
 * the built worker.js otherwise), with structured-clone serialization, its own process group,
 * and the worker's output captured (not forwarded) for failure reasons.
 */
export function nodeSpawner(overrides: { workerPath?: string; env?: NodeJS.ProcessEnv } = {}): WorkerSpawner {
  const workerPath = overrides.workerPath ?? WORKER_ENTRY;
  // From source the worker is TypeScript (or imports it): tsx, a development dependency, loads it.
  const loader = RUNNING_SOURCE ? tsxLoader() : null;
  return (options) => {
    const execArgv = loader ? ['--import', loader] : [];
    if (options.memoryLimitMb !== null) execArgv.push(`--max-old-space-size=${Math.max(1, Math.round(options.memoryLimitMb))}`);
    const child = fork(workerPath, [], {
      execArgv,
      serialization: 'advanced',
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      env: overrides.env ?? process.env,
      // Its own process group, so Ctrl-C in a terminal reaches only the host, which cancels the
      // run and keeps its result. The worker still exits when the host's IPC channel closes.
      detached: true,
    });
    return childChannel(child);
  };
}

/** Wraps a forked ChildProcess as a WorkerChannel. */
export function childChannel(child: ChildProcess): WorkerChannel {
  return createWorkerChannel((events) => {
    captureOutput(events, child);
    events.listen(child, 'message', events.message);
    // A failed spawn emits 'error' and then 'close'; a failed send emits 'error' too.
    events.listen(child, 'error', (e: Error) => events.output(`\n${e.message}\n`));
    // 'close' (not 'exit') waits until stdout/stderr are drained, so the tail is complete. It
    // stays attached until it fires, so the exit listeners hear the end even after dispose().
    child.once('close', (code: number | null, signal: NodeJS.Signals | null) => events.exit(code, signal));
    return {
      get pid() {
        return child.pid;
      },
      send(message) {
        if (!child.connected) return;
        child.send(message, (e) => {
          if (e) events.output(`\nsend failed: ${e.message}\n`);
        });
      },
      kill() {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      },
    };
  });
}
