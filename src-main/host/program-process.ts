/**
 * A solver program's process under Node, for the external-solver protocol
 * (src-shared/solvers/program/solver.ts): spawned without a shell, its stdout split into
 * lines, its stderr kept as the run's log, with the limits that keep a misbehaving program
 * from taking the worker down with it:
 *
 * - a line longer than `maxLineBytes` fails the run (a flood), naming the line;
 * - more than LOG_FLOOD_BYTES of stderr and {"log"} messages fail the run (a flood);
 *   the log itself keeps its first and last LOG_KEEP_BYTES / 2;
 * - while Saikoro is not reading (paused, evaluating), stdout is paused once HIGH_WATER_BYTES
 *   wait unread, so a program that writes ahead blocks in its write instead of filling memory;
 * - no line within the read's timeout fails the run (a hang).
 *
 * Ownership: the process is killed (SIGKILL) if the worker exits while it runs; `stop` ends it
 * politely (stdin closed, grace, SIGTERM, grace, SIGKILL).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import type { ProgramExit, ProgramIo, ProgramLaunch, ProgramLauncher } from '../../src-shared/solvers/program/solver.ts';

/** How much of the log a result keeps (its start and its end). */
export const LOG_KEEP_BYTES = 64 * 1024;
/** Log output (stderr and {"log"} messages) beyond which the run fails as a flood. */
export const LOG_FLOOD_BYTES = 64 * 1024 * 1024;
/** Unread stdout above which the program's stdout is paused. */
const HIGH_WATER_BYTES = 16 * 1024 * 1024;

class ProgramFailure extends Error {
  override name = 'ProgramFailure';
}

function formatSeconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Number((ms / 1000).toFixed(1))} s`;
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Number((bytes / (1024 * 1024)).toFixed(1))} MiB` : `${bytes} bytes`;
}

/** The log: the first half of what it may keep, then always the latest other half. */
class BoundedLog {
  private head = '';
  private tail = '';
  private dropped = 0;
  total = 0;
  constructor(private readonly keep: number) {}
  push(text: string): void {
    this.total += text.length;
    const half = this.keep / 2;
    if (this.head.length < half) {
      const room = half - this.head.length;
      this.head += text.slice(0, room);
      text = text.slice(room);
    }
    if (!text) return;
    this.tail += text;
    if (this.tail.length > half) {
      this.dropped += this.tail.length - half;
      this.tail = this.tail.slice(-half);
    }
  }
  toString(): string {
    return this.dropped ? `${this.head}\n[... ${this.dropped} characters of the log left out ...]\n${this.tail}` : this.head + this.tail;
  }
}

export const launchProgram: ProgramLauncher = (launch: ProgramLaunch, limits: { maxLineBytes: number }): ProgramIo => new NodeProgram(launch, limits.maxLineBytes);

class NodeProgram implements ProgramIo {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly lines: string[] = [];
  private linesHead = 0;
  private queuedBytes = 0;
  private partial: Buffer[] = [];
  private partialBytes = 0;
  private lineCount = 0;
  private stdoutEnded = false;
  private failure: Error | null = null;
  private waiter: { resolve: (line: string | null) => void; reject: (e: Error) => void; timer: NodeJS.Timeout | null } | null = null;
  private exitInfo: ProgramExit | null = null;
  private readonly exitWaiters: ((exit: ProgramExit) => void)[] = [];
  private readonly logText = new BoundedLog(LOG_KEEP_BYTES);
  private lastStderrLine: string | null = null;
  private stderrPartial = '';
  private readonly killOnExit = () => this.child.kill('SIGKILL');

  constructor(
    launch: ProgramLaunch,
    private readonly maxLineBytes: number,
  ) {
    this.child = spawn(launch.executable ?? launch.command[0], launch.command.slice(1), {
      argv0: launch.command[0],
      cwd: launch.cwd,
      env: launch.env ? { ...process.env, ...launch.env } : process.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
    process.on('exit', this.killOnExit);
    this.child.on('error', (e: NodeJS.ErrnoException) => {
      const why = e.code === 'ENOENT' ? 'no such program or directory (ENOENT)' : e.code === 'EACCES' ? 'permission denied (EACCES)' : e.message;
      this.fail(new ProgramFailure(`could not start the program ${JSON.stringify(launch.command[0])}${launch.cwd ? ` in ${launch.cwd}` : ''}: ${why}`));
      // A program that never started never exits: count it as ended.
      if (this.child.pid === undefined) this.onExit(null, null);
    });
    this.child.on('exit', (code, signal) => this.onExit(code, signal));
    // Writes after the program has gone fail with EPIPE: the exit says what happened.
    this.child.stdin.on('error', () => {});
    this.child.stdout.on('data', (chunk: Buffer) => this.onStdout(chunk));
    this.child.stdout.on('end', () => {
      this.stdoutEnded = true;
      this.deliver();
    });
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (text: string) => this.onStderr(text));
  }

  private onExit(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.exitInfo) return;
    process.off('exit', this.killOnExit);
    this.exitInfo = { code, signal };
    for (const w of this.exitWaiters.splice(0)) w(this.exitInfo);
    // Without a process there is no more output (a program that never started has no stdout end).
    if (this.child.pid === undefined) {
      this.stdoutEnded = true;
      this.deliver();
    }
  }

  private onStdout(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(10, start);
      if (nl < 0) break;
      const piece = chunk.subarray(start, nl);
      if (this.partialBytes + piece.length > this.maxLineBytes) return this.flood();
      let line: string;
      if (this.partial.length === 0) line = piece.toString('utf8');
      else {
        this.partial.push(piece);
        line = Buffer.concat(this.partial, this.partialBytes + piece.length).toString('utf8');
        this.partial = [];
        this.partialBytes = 0;
      }
      this.lineCount++;
      // A trailing carriage return (a program on Windows line endings) is not part of the JSON.
      this.lines.push(line.endsWith('\r') ? line.slice(0, -1) : line);
      this.queuedBytes += line.length;
      start = nl + 1;
    }
    if (start < chunk.length) {
      const rest = chunk.subarray(start);
      this.partialBytes += rest.length;
      if (this.partialBytes > this.maxLineBytes) return this.flood();
      this.partial.push(rest);
    }
    if (this.queuedBytes > HIGH_WATER_BYTES) this.child.stdout.pause();
    this.deliver();
  }

  private flood(): void {
    this.fail(new ProgramFailure(`the program's line ${this.lineCount + 1} is longer than the limit of ${formatBytes(this.maxLineBytes)} (a flood); it was stopped`));
    this.child.stdout.destroy();
    this.child.kill('SIGKILL');
  }

  private onStderr(text: string): void {
    this.logText.push(text);
    const lines = (this.stderrPartial + text).split('\n');
    this.stderrPartial = (lines.pop() ?? '').slice(-1000);
    for (let i = lines.length - 1; i >= 0; i--)
      if (lines[i].trim()) {
        this.lastStderrLine = lines[i].trim().slice(0, 1000);
        break;
      }
    this.checkLogFlood();
  }

  private checkLogFlood(): void {
    if (this.logText.total > LOG_FLOOD_BYTES && !this.failure) {
      this.fail(new ProgramFailure(`the program wrote more than ${formatBytes(LOG_FLOOD_BYTES)} to its log (stderr and {"log"} messages; a flood); it was stopped`));
      this.child.kill('SIGKILL');
    }
  }

  private fail(e: Error): void {
    if (this.failure) return;
    this.failure = e;
    this.deliver();
  }

  /** Hands the next line (or the end, or the failure) to a waiting read. */
  private deliver(): void {
    const w = this.waiter;
    if (!w) return;
    let line: string | null | undefined;
    if (this.failure) {
      this.waiter = null;
      if (w.timer) clearTimeout(w.timer);
      w.reject(this.failure);
      return;
    }
    if (this.linesHead < this.lines.length) line = this.takeLine();
    else if (this.stdoutEnded) line = null;
    else return;
    this.waiter = null;
    if (w.timer) clearTimeout(w.timer);
    w.resolve(line);
  }

  private takeLine(): string {
    const line = this.lines[this.linesHead];
    this.lines[this.linesHead++] = '';
    if (this.linesHead > 1024 && this.linesHead * 2 > this.lines.length) {
      this.lines.splice(0, this.linesHead);
      this.linesHead = 0;
    }
    this.queuedBytes -= line.length;
    if (this.queuedBytes <= HIGH_WATER_BYTES / 2 && this.child.stdout.isPaused()) this.child.stdout.resume();
    return line;
  }

  readLine(timeoutMs: number): Promise<string | null> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.linesHead < this.lines.length) return Promise.resolve(this.takeLine());
    if (this.stdoutEnded) return Promise.resolve(null);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiter = null;
        this.fail(new ProgramFailure(`the program sent no request for ${formatSeconds(timeoutMs)} (its timeout; a hang); it was stopped`));
        reject(this.failure!);
      }, timeoutMs);
      this.waiter = { resolve, reject, timer };
    });
  }

  write(text: string): void {
    if (this.exitInfo || this.child.stdin.destroyed || this.child.stdin.writableEnded) return;
    this.child.stdin.write(text);
  }

  private whenExited(timeoutMs: number): Promise<ProgramExit | null> {
    if (this.exitInfo) return Promise.resolve(this.exitInfo);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(null), timeoutMs);
      this.exitWaiters.push((exit) => {
        clearTimeout(timer);
        resolve(exit);
      });
    });
  }

  exited(timeoutMs: number): Promise<ProgramExit | null> {
    return this.whenExited(timeoutMs);
  }

  async stop(graceMs: number): Promise<ProgramExit & { how: 'exited' | 'terminated' | 'killed' }> {
    if (!this.child.stdin.writableEnded) this.child.stdin.end();
    let exit = await this.whenExited(graceMs);
    if (exit) return { ...exit, how: 'exited' };
    this.child.kill('SIGTERM');
    exit = await this.whenExited(graceMs);
    if (exit) return { ...exit, how: 'terminated' };
    this.child.kill('SIGKILL');
    exit = (await this.whenExited(60_000)) ?? { code: null, signal: 'SIGKILL' };
    return { ...exit, how: 'killed' };
  }

  appendLog(text: string): void {
    this.logText.push(text.endsWith('\n') ? text : `${text}\n`);
    this.checkLogFlood();
  }

  log(): string {
    return this.logText.toString();
  }

  lastErrorLine(): string | null {
    return this.stderrPartial.trim() ? this.stderrPartial.trim() : this.lastStderrLine;
  }
}
