/**
 * A solver program's process under Node, for the external-solver protocol
 * (src-shared/solvers/program/solver.ts): spawned without a shell (in the sandbox of
 * sandbox.ts where the system has bubblewrap), its stdout split into lines, its stderr kept as
 * the run's log, with the limits that keep a misbehaving program from taking the worker down
 * with it:
 *
 * - a line longer than `maxLineBytes` fails the run (a flood), naming the line;
 * - more than LOG_FLOOD_BYTES of stderr and {"log"} messages fail the run (a flood);
 *   the log itself keeps its first and last LOG_KEEP_BYTES / 2;
 * - while Saikoro is not reading (paused, evaluating), stdout is paused once HIGH_WATER_BYTES
 *   wait unread, so a program that writes ahead blocks in its write instead of filling memory;
 * - while more than ANSWERS_HIGH_WATER_BYTES of answers wait unread in the program's stdin,
 *   Saikoro reads no further request, so a program that never reads its answers cannot make
 *   them pile up in the worker (it then blocks in its own write, and its timeout ends it);
 * - no line within the read's timeout fails the run (a hang).
 *
 * Ownership: the program runs in a process group (a session) of its own, and, sandboxed, in a
 * PID namespace of its own. When its main process ends, or Saikoro stops it, or the worker
 * exits, every process of the program is killed: the group, and on Linux every process that
 * carries the run's marker variable (PROGRAM_MARKER) in its environment, which reaches children
 * that started a session of their own. `stop` ends it politely first (stdin closed, grace,
 * SIGTERM to every process of the program, grace, SIGKILL).
 *
 * Where the machine lets Saikoro make cgroups, the program also runs in a cgroup of its own
 * (cgroup.ts): its memory limit holds for all its processes together (the kernel ends one past
 * it, and the run's exit names the limit), its tasks are capped, its CPU time is counted for all
 * of them (the run fails at its CPU-time limit, read every CPU_WATCH_MS), and every process in
 * it is killed at the end.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import type { Readable, Writable } from 'node:stream';
import type { ProgramExit, ProgramIo, ProgramLaunch } from '../../src-shared/solvers/program/solver.ts';
import {
  cgroupCpuSeconds,
  cgroupOomKills,
  cgroupSupport,
  CPU_WATCH_MS,
  killProgramCgroup,
  makeProgramCgroup,
  removeProgramCgroup,
  type ProgramCgroup,
} from './cgroup.ts';
import { findExecutable } from './find-executable.ts';
import { killProgramProcesses, newMarker, PROGRAM_MARKER, type ProgramProcesses } from './program-kill.ts';
import { processesInPidNamespace } from './process-state.ts';
import { disposeScratch, makeScratch, programView, sandboxCommand, sandboxSupport, type ProgramLimits, type SandboxPlace, type Scratch } from './sandbox.ts';

/** How much of the log a result keeps (its start and its end). */
export const LOG_KEEP_BYTES = 64 * 1024;
/** Log output (stderr and {"log"} messages) beyond which the run fails as a flood. */
export const LOG_FLOOD_BYTES = 64 * 1024 * 1024;
/** Unread stdout above which the program's stdout is paused. */
const HIGH_WATER_BYTES = 16 * 1024 * 1024;
/** Answers waiting unread in the program's stdin above which no further request is read. */
export const ANSWERS_HIGH_WATER_BYTES = 16 * 1024 * 1024;
/**
 * After the program's main process has ended (and its other processes were killed), how long
 * its stdout may stay open (held by a process that escaped) before it counts as ended.
 */
const STDOUT_AFTER_EXIT_MS = 1000;
/** A program's CPU-time limit unless the run sets one (seconds): a day. */
export const DEFAULT_PROGRAM_CPU_SECONDS = 24 * 3600;

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

export interface LaunchOptions {
  /** 'auto' (the default): bubblewrap where this machine has it (sandbox.ts), else none, said in the log; 'off': none. */
  sandbox?: 'auto' | 'off';
  /** The program's own limits (default: a day of CPU time, no memory limit). */
  limits?: Partial<ProgramLimits>;
  /** Told the program's processes once it has started, and null once they have all ended (the worker tells its host). */
  onProcesses?: (processes: ProgramProcesses | null) => void;
}

/** Starts a solver program (ProgramLauncher, with the options only Node offers). */
export function launchProgram(launch: ProgramLaunch, limits: { maxLineBytes: number }, options: LaunchOptions = {}): ProgramIo {
  return new NodeProgram(launch, limits.maxLineBytes, options);
}

/** The signal a sandboxed program died of: bwrap exits with 128 + its number, as a shell does. */
function signalOfStatus(code: number | null): NodeJS.Signals | null {
  if (code === null || code <= 128 || code > 128 + 64) return null;
  const entry = Object.entries(os.constants.signals).find(([, n]) => n === code - 128);
  return entry ? (entry[0] as NodeJS.Signals) : null;
}

/**
 * The line of a program's stderr that says what went wrong: the last one, except Node's
 * trailer ("Node.js v20.20.2") and stack frames, so that a Node program's uncaught error gives
 * its "Error: ..." line and a Python traceback its last line.
 */
export function telling(lines: readonly string[]): string | null {
  const kept = lines.map((l) => l.trimEnd()).filter((l) => l.trim() !== '');
  while (kept.length && /^Node\.js v\d+\.\d+\.\d+$/.test(kept[kept.length - 1].trim())) kept.pop();
  let lastFrame = -1;
  for (let i = kept.length - 1; i >= 0; i--)
    if (/^\s+at\s/.test(kept[i])) {
      lastFrame = i;
      break;
    }
  if (lastFrame >= 0) {
    let first = lastFrame;
    while (first > 0 && /^\s+at\s/.test(kept[first - 1])) first--;
    if (first > 0) return kept[first - 1].trim();
  }
  return kept.length ? kept[kept.length - 1].trim() : null;
}

class NodeProgram implements ProgramIo {
  private child: ChildProcess | null = null;
  private stdin: Writable | null = null;
  private stdout: Readable | null = null;
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
  /** The last lines of stderr (for the failure's hint), and the line being written. */
  private stderrLines: string[] = [];
  private stderrPartial = '';
  private processes: ProgramProcesses | null = null;
  private scratch: Scratch | null = null;
  private sandboxed = false;
  private cgroup: ProgramCgroup | null = null;
  private cgroupWatch: NodeJS.Timeout | null = null;
  private oomKills = 0;
  /** The limit that ended the program, if one did (said in its exit). */
  private limitHit: string | null = null;
  private readonly limits: ProgramLimits;
  /** The sandbox's PID namespace and its first process (bwrap's own init), from bwrap's status. */
  private namespace: { pid: number; inode: number } | null = null;
  private readonly killOnExit = () => {
    this.killAll();
    this.removeCgroup();
  };

  constructor(
    launch: ProgramLaunch,
    private readonly maxLineBytes: number,
    private readonly options: LaunchOptions,
  ) {
    this.limits = { cpuSeconds: options.limits?.cpuSeconds ?? DEFAULT_PROGRAM_CPU_SECONDS, memoryMb: options.limits?.memoryMb ?? null };
    const cwd = launch.cwd ?? process.cwd();
    const word = launch.command[0];
    const where = launch.cwd ? ` in ${launch.cwd}` : '';
    const env = { ...process.env, ...(launch.env ?? {}) };
    const executable = launch.executable ?? findExecutable(word, cwd, env.PATH);
    if (executable === null) {
      this.notStarted(`could not start the program ${JSON.stringify(word)}${where}: no such program or directory (ENOENT)`);
      return;
    }
    const limits = this.limits;
    const support = options.sandbox === 'off' ? null : sandboxSupport();
    let place: SandboxPlace | null = null;
    if (support?.available) {
      try {
        this.scratch = makeScratch(launch.view ?? programView(executable, launch.command.slice(1), cwd));
      } catch (e) {
        this.notStarted(`could not start the program ${JSON.stringify(word)}${where}: ${(e as Error).message}`);
        return;
      }
      place = { bwrap: support.bwrap, scratch: this.scratch, statusFd: 3 };
      this.sandboxed = true;
    } else if (support && !support.available) {
      this.logText.push(`[saikoro] this program runs without a sandbox: ${support.reason}; Saikoro kills its process group at the end of the run\n`);
    }
    if (process.platform === 'linux') {
      const groups = cgroupSupport();
      try {
        this.cgroup = makeProgramCgroup(limits);
      } catch (e) {
        this.logText.push(`[saikoro] ${(e as Error).message}; its limits hold per process (rlimits)\n`);
      }
      if (!groups.available) this.logText.push(`[saikoro] no cgroup for this program: ${groups.reason}; its limits hold per process (rlimits)\n`);
    }
    const marker = newMarker();
    const command = sandboxCommand({ file: executable, args: launch.command.slice(1), cwd }, place, limits, this.cgroup?.procs ?? []);
    const wrapped = command.file !== executable;
    let child: ChildProcess;
    try {
      child = spawn(command.file, command.args, {
        ...(wrapped ? {} : { argv0: word }),
        cwd: command.cwd,
        env: { ...env, [PROGRAM_MARKER]: marker },
        stdio: ['pipe', 'pipe', 'pipe', place ? 'pipe' : 'ignore'],
        // A session (and process group) of its own: every process of the program can be killed at once.
        detached: process.platform !== 'win32',
        windowsHide: true,
      });
    } catch (e) {
      this.notStarted(`could not start the program ${JSON.stringify(word)}${where}: ${(e as Error).message}`);
      this.removeCgroup();
      return;
    }
    this.child = child;
    if (this.cgroup) this.cgroupWatch = setInterval(() => this.watchCgroup(), CPU_WATCH_MS).unref();
    this.stdin = child.stdin!;
    this.stdout = child.stdout!;
    process.on('exit', this.killOnExit);
    child.on('error', (e: NodeJS.ErrnoException) => {
      const why = e.code === 'ENOENT' ? 'no such program or directory (ENOENT)' : e.code === 'EACCES' ? 'permission denied (EACCES)' : e.message;
      this.fail(new ProgramFailure(`could not start the program ${JSON.stringify(word)}${where}: ${why}`));
      // A program that never started never exits: count it as ended.
      if (child.pid === undefined) this.onExit(null, null);
    });
    if (child.pid !== undefined) {
      this.processes = { pid: child.pid, marker, ...(this.cgroup ? { cgroups: [...new Set(Object.values(this.cgroup.dirs))] } : {}) };
      options.onProcesses?.(this.processes);
    }
    child.on('exit', (code, signal) => this.onExit(code, signal));
    child.on('close', () => this.cleanUp());
    // Writes after the program has gone fail with EPIPE: the exit says what happened.
    this.stdin.on('error', () => {});
    this.stdin.on('drain', () => this.deliver());
    this.stdout.on('data', (chunk: Buffer) => this.onStdout(chunk));
    this.stdout.on('end', () => {
      this.stdoutEnded = true;
      this.deliver();
    });
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (text: string) => this.onStderr(text));
    const status = child.stdio[3] as Readable | null | undefined;
    if (status) {
      let text = '';
      status.setEncoding('utf8');
      status.on('data', (chunk: string) => {
        text += chunk;
        const pid = /"child-pid"\s*:\s*(\d+)/.exec(text);
        const inode = /"pid-namespace"\s*:\s*(\d+)/.exec(text);
        if (pid && inode && !this.namespace) this.namespace = { pid: Number(pid[1]), inode: Number(inode[1]) };
      });
      status.on('error', () => {});
    }
  }

  /**
   * The cgroup while the program runs: its processes' CPU time together against the limit (the
   * run fails there, as at a hang), and the OOM killer's count (said in the log).
   */
  private watchCgroup(): void {
    const group = this.cgroup;
    if (!group || this.exitInfo) return;
    this.noteOomKills();
    const used = cgroupCpuSeconds(group);
    const limit = this.limits.cpuSeconds;
    if (used !== null && limit !== null && used > limit && !this.failure) {
      this.fail(
        new ProgramFailure(
          `the program's processes together used ${Number(used.toFixed(1))} s of CPU time, over its CPU-time limit of ${limit} s (its cgroup); it was stopped`,
        ),
      );
      this.limitHit = `its processes together over the CPU-time limit of ${limit} s`;
      this.signal('SIGKILL');
    }
  }

  /** What the OOM killer did in the program's cgroup since the last look, in the log. */
  private noteOomKills(): void {
    if (!this.cgroup) return;
    const kills = cgroupOomKills(this.cgroup);
    if (kills <= this.oomKills) return;
    this.oomKills = kills;
    this.limitHit = `its processes together over the memory limit of ${this.limits.memoryMb} MB (its cgroup): the kernel ended ${kills} of them`;
    this.logText.push(`[saikoro] ${this.limitHit}\n`);
  }

  private removeCgroup(): void {
    if (this.cgroupWatch) clearInterval(this.cgroupWatch);
    this.cgroupWatch = null;
    if (this.cgroup) removeProgramCgroup(this.cgroup);
    this.cgroup = null;
  }

  /** The program could not be started: the first read fails with why, and it has ended. */
  private notStarted(message: string): void {
    this.failure = new ProgramFailure(message);
    this.exitInfo = { code: null, signal: null };
    this.stdoutEnded = true;
  }

  private onExit(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.exitInfo) return;
    const fromSandbox = this.sandboxed && signal === null ? signalOfStatus(code) : null;
    this.noteOomKills();
    const exit: ProgramExit = fromSandbox ? { code: null, signal: fromSandbox } : { code, signal };
    if (this.limitHit && exit.code !== 0) exit.limit = this.limitHit;
    this.exitInfo = exit;
    // The run of this program is over: none of its processes may outlive it.
    this.killAll();
    for (const w of this.exitWaiters.splice(0)) w(this.exitInfo);
    // Without a process there is no more output (a program that never started has no stdout end);
    // a process that escaped the kill may still hold stdout: after a while it counts as ended.
    if (this.child?.pid === undefined) {
      this.stdoutEnded = true;
      this.deliver();
    } else if (!this.stdoutEnded)
      setTimeout(() => {
        if (this.stdoutEnded) return;
        this.stdoutEnded = true;
        this.stdout?.destroy();
        this.deliver();
        this.cleanUp();
      }, STDOUT_AFTER_EXIT_MS).unref();
  }

  /** SIGKILL to every process of the program (see program-kill.ts). */
  private killAll(): void {
    if (this.cgroup) killProgramCgroup(this.cgroup);
    if (this.processes) killProgramProcesses(this.processes);
    if (this.child && this.exitInfo === null) this.child.kill('SIGKILL');
  }

  /** After the end: the listeners, the scratch folder, the host told. */
  private cleanUp(): void {
    process.off('exit', this.killOnExit);
    this.removeCgroup();
    if (this.scratch) {
      disposeScratch(this.scratch);
      this.scratch = null;
    }
    if (this.processes) {
      this.processes = null;
      this.options.onProcesses?.(null);
    }
  }

  /**
   * A polite signal (SIGTERM) to every process of the program: its process group, or in the
   * sandbox every process of its PID namespace but bwrap's own init (bwrap would die of it, and
   * its namespace with it, before the program could end on its own). SIGKILL ends them all.
   */
  private signal(signal: NodeJS.Signals): void {
    if (!this.child || this.exitInfo) return;
    if (signal === 'SIGKILL') return this.killAll();
    if (this.sandboxed && this.namespace) {
      for (const pid of processesInPidNamespace(this.namespace.inode))
        if (pid !== this.namespace.pid)
          try {
            process.kill(pid, signal);
          } catch {
            // already gone
          }
      return;
    }
    try {
      process.kill(process.platform === 'win32' ? this.child.pid! : -this.child.pid!, signal);
    } catch {
      this.child.kill(signal);
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
    if (this.queuedBytes > HIGH_WATER_BYTES) this.stdout!.pause();
    this.deliver();
  }

  private flood(): void {
    this.partial = [];
    this.partialBytes = 0;
    this.fail(
      new ProgramFailure(`the program's line ${this.lineCount + 1} is longer than the limit of ${formatBytes(this.maxLineBytes)} (a flood); it was stopped`),
    );
    this.stdout!.destroy();
    this.signal('SIGKILL');
  }

  private onStderr(text: string): void {
    this.logText.push(text);
    const lines = (this.stderrPartial + text).split('\n');
    this.stderrPartial = (lines.pop() ?? '').slice(-1000);
    if (lines.length) this.stderrLines = [...this.stderrLines, ...lines.map((l) => l.slice(0, 1000))].slice(-40);
    this.checkLogFlood();
  }

  private checkLogFlood(): void {
    if (this.logText.total > LOG_FLOOD_BYTES && !this.failure) {
      this.fail(
        new ProgramFailure(`the program wrote more than ${formatBytes(LOG_FLOOD_BYTES)} to its log (stderr and {"log"} messages; a flood); it was stopped`),
      );
      this.signal('SIGKILL');
    }
  }

  private fail(e: Error): void {
    if (this.failure) return;
    this.failure = e;
    this.deliver();
  }

  /** Answers written but not yet read by the program, in bytes. */
  private unreadAnswers(): number {
    return this.stdin && !this.stdin.destroyed ? this.stdin.writableLength : 0;
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
    if (this.unreadAnswers() > ANSWERS_HIGH_WATER_BYTES && !this.exitInfo) return;
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
    if (this.queuedBytes <= HIGH_WATER_BYTES / 2 && this.stdout!.isPaused()) this.stdout!.resume();
    return line;
  }

  readLine(timeoutMs: number): Promise<string | null> {
    if (this.failure) return Promise.reject(this.failure);
    const backlog = this.unreadAnswers() > ANSWERS_HIGH_WATER_BYTES && !this.exitInfo;
    if (!backlog && this.linesHead < this.lines.length) return Promise.resolve(this.takeLine());
    if (!backlog && this.stdoutEnded) return Promise.resolve(null);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiter = null;
        const unread = this.unreadAnswers();
        this.fail(
          new ProgramFailure(
            unread > ANSWERS_HIGH_WATER_BYTES
              ? `the program did not read its answers for ${formatSeconds(timeoutMs)} (${unread.toLocaleString('en-US')} bytes of answers unread; its timeout; a hang); it was stopped`
              : `the program sent no request for ${formatSeconds(timeoutMs)} (its timeout; a hang); it was stopped`,
          ),
        );
        reject(this.failure!);
      }, timeoutMs);
      this.waiter = { resolve, reject, timer };
    });
  }

  write(text: string): void {
    if (!this.stdin || this.exitInfo || this.stdin.destroyed || this.stdin.writableEnded) return;
    this.stdin.write(text);
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
    if (this.stdin && !this.stdin.writableEnded) this.stdin.end();
    let exit = await this.whenExited(graceMs);
    if (exit) return { ...exit, how: 'exited' };
    this.signal('SIGTERM');
    exit = await this.whenExited(graceMs);
    if (exit) return { ...exit, how: 'terminated' };
    this.signal('SIGKILL');
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
    return telling([...this.stderrLines, this.stderrPartial]);
  }
}
