/**
 * The part of a WorkerChannel that does not depend on how the process was started: message
 * listeners, exit listeners (the end is told once; a listener added later hears it in a
 * microtask), the tail of the process's output for failure reasons, and disposal. A spawner
 * (spawner.ts for child_process.fork, src-main/electron/solver-spawner.ts for Electron's
 * utilityProcess) supplies only how to send to and kill its kind of process, and reports what
 * the process does through ProcessEvents.
 */
import type { EventEmitter } from 'node:events';
import { DisposableStore, Emitter, toDisposable } from '../../src-shared/base/disposable.ts';
import { isWorkerMessage, type HostMessage, type WorkerMessage } from './protocol.ts';
import type { WorkerChannel, WorkerExit } from './spawner.ts';

/** Keeps the last `limit` characters of a process's output. */
export class OutputTail {
  private text = '';
  constructor(private readonly limit = 4000) {}
  push(chunk: Buffer | string): void {
    this.text = (this.text + chunk.toString()).slice(-this.limit);
  }
  toString(): string {
    return this.text;
  }
}

/** What a spawner reports about its process. */
export interface ProcessEvents {
  /** A message from the process; anything that is not a WorkerMessage is dropped. */
  message(message: unknown): void;
  /** Output or a diagnostic, kept for the failure reason. */
  output(chunk: Buffer | string): void;
  /** The process has ended; only the first call counts. */
  exit(code: number | null, signal: string | null): void;
  /**
   * Listens to the process or one of its streams until the channel is disposed. Not for the
   * exit event: that listener must stay until the process has ended, so that exit listeners
   * hear the end even after `dispose()`.
   */
  listen(emitter: EventEmitter | null | undefined, event: string, listener: (...args: any[]) => void): void;
}

/** The process-specific part of a channel. */
export interface ProcessControl {
  readonly pid: number | undefined;
  /** Called only before the process has ended. */
  send(message: HostMessage): void;
  /** Ends the process at once; called at most once, and only before it has ended. */
  kill(): void;
}

/**
 * Builds a WorkerChannel: `connect` attaches the spawner's listeners to its process, reporting
 * through the given events, and returns how to send to and kill it.
 */
export function createWorkerChannel(connect: (events: ProcessEvents) => ProcessControl): WorkerChannel {
  const tail = new OutputTail();
  const messages = new Emitter<WorkerMessage>();
  const exits = new Emitter<WorkerExit>();
  // The spawner's listeners on the process, detached by dispose().
  const attached = new DisposableStore();
  let exited: WorkerExit | null = null;
  let killed = false;

  const control = connect({
    message(message) {
      if (isWorkerMessage(message)) messages.fire(message);
    },
    output(chunk) {
      tail.push(chunk);
    },
    exit(code, signal) {
      if (exited) return;
      exited = { code, signal, output: tail.toString() };
      exits.fire(exited);
      exits.dispose();
    },
    listen(emitter, event, listener) {
      if (!emitter) return;
      emitter.on(event, listener);
      attached.defer(() => emitter.off(event, listener));
    },
  });

  const channel: WorkerChannel = {
    get pid() {
      return control.pid;
    },
    send(message) {
      if (!exited) control.send(message);
    },
    onMessage: messages.listen,
    onExit(listener) {
      if (exited) {
        const exit = exited;
        queueMicrotask(() => listener(exit));
        return toDisposable(() => {});
      }
      return exits.listen(listener);
    },
    kill() {
      if (exited || killed) return;
      killed = true;
      control.kill();
    },
    dispose() {
      channel.kill();
      messages.dispose();
      attached.dispose();
    },
  };
  return channel;
}

/** Keeps a process's stdout and stderr in the channel's output tail. */
export function captureOutput(events: ProcessEvents, streams: { stdout?: EventEmitter | null; stderr?: EventEmitter | null }): void {
  const onOutput = (chunk: Buffer) => events.output(chunk);
  events.listen(streams.stdout, 'data', onOutput);
  events.listen(streams.stderr, 'data', onOutput);
}
