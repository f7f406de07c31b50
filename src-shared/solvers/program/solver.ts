/**
 * A solver program as a solver of a dice run (src-shared/solvers/solver-run.ts): the program's
 * requests become the run's asks, so the run counts, keeps the best or the front and traces
 * exactly as it does for the built-in solvers, whatever the program claims.
 *
 * The answer to a request is written when the driver asks for the next step (the run goes on)
 * or when the run ends (then it carries "stop"). So a paused run answers nothing (the program
 * waits on its read), and the batch that would pass the budget is cut where the budget ran out.
 * A request larger than one step is evaluated over several steps and answered once.
 *
 * The process itself is behind `ProgramIo`: src-main/host/program-process.ts spawns it under
 * Node; this module imports no node:*.
 */
import type { DiceConfig } from '../../problems/dice/config.ts';
import type { StopReason } from '../../core/termination.ts';
import type { Ask, Evaluated, ProgramRecord, SetupContext, SolverInfo, SolverResult } from '../types.ts';
import type { ParamValues } from '../../core/params.ts';
import type { Problem } from '../../core/problem.ts';
import type { GivenSolver, RunnableSolver } from '../solver-run.ts';
import type { ProgramAdmission, ProgramView } from './admission.ts';
import {
  DEFAULT_GRACE_SECONDS,
  DEFAULT_TIMEOUT_SECONDS,
  formatAnswer,
  formatErrorResult,
  formatResult,
  helloMessage,
  parseProgramLine,
  ProtocolError,
  type ParsedProgramLine,
  type ParsedSequences,
  STOP_OF,
  type ProgramSpec,
} from './protocol.ts';

/** How a program process ended. */
export interface ProgramExit {
  code: number | null;
  signal: string | null;
  /** Which limit ended it, when one did (its cgroup's memory, its CPU time): said in the run's reason. */
  limit?: string;
}

/** A running program, as the protocol needs it. Implemented under Node by src-main/host/program-process.ts. */
export interface ProgramIo {
  /**
   * The next line of the program's stdout (without its newline), or null once stdout has ended.
   * Rejects with an Error whose message says why: the program could not be started, a line
   * or the log is over its limit (a flood), or no line came within `timeoutMs` (a hang).
   */
  readLine(timeoutMs: number): Promise<string | null>;
  /** Writes to the program's stdin (one call per message). */
  write(text: string): void;
  /** Resolves when the process has ended (after stdout ended: waits up to `timeoutMs`, then null). */
  exited(timeoutMs: number): Promise<ProgramExit | null>;
  /** Closes stdin, waits `graceMs` for an exit, sends SIGTERM, waits `graceMs`, sends SIGKILL. */
  stop(graceMs: number): Promise<ProgramExit & { how: 'exited' | 'terminated' | 'killed' }>;
  /** Adds a line to the run's log (the program's {"log"} messages; stderr goes there by itself). */
  appendLog(text: string): void;
  /** The log so far: stderr and {"log"} messages, bounded (the start and the end are kept). */
  log(): string;
  /** The last non-empty line of stderr, for failure messages. */
  lastErrorLine(): string | null;
  /**
   * The request `line` (the line readLine gave last) as this io has parsed it already, or
   * undefined (then the solver parses it). A competition server checks each request before the
   * run reads it (src-main/app/remote-run.ts): the run then takes the sequences as they were
   * checked, instead of parsing 100 sequences a second time.
   */
  parsedLine?(line: string): ParsedProgramLine | undefined;
}

/** What the program is given to start: argv, working directory, added environment. */
export interface ProgramLaunch {
  /** The executable to start (absolute, as the program gate resolved it); command[0] is then only its argv[0]. */
  executable?: string;
  command: string[];
  cwd?: string;
  env?: Record<string, string>;
  /** What the gate hashed for the program to see (admission.ts); passed along unread. */
  view?: ProgramView;
}

export type ProgramLauncher = (launch: ProgramLaunch, limits: { maxLineBytes: number }) => ProgramIo;

/** Requests in a row that evaluate nothing (all invalid, or empty) before the run fails. */
export const MAX_IDLE_REQUESTS = 10_000;
/**
 * The longest line a program may write, whatever N: far below the longest string Node can hold
 * (2^29 - 24 characters), which a line of 1024 sequences passes above N = 524,271.
 */
export const MAX_LINE_BYTES_CAP = 128 * 1024 * 1024;
/**
 * The largest line the program may write: 8 MiB, or 1024 sequences of length N where that is
 * more, at most MAX_LINE_BYTES_CAP (N = 10^7: 13 sequences a line).
 */
export function maxLineBytes(n: number): number {
  return Math.min(MAX_LINE_BYTES_CAP, Math.max(8 * 1024 * 1024, 1024 * (n + 16)));
}
/** How many sequences of length N one request can hold under the line limit (each is written "...",). */
export function maxBatchSequences(n: number): number {
  return Math.floor((maxLineBytes(n) - '{"evaluate":[]}'.length) / (n + 3));
}

interface PendingRequest {
  /** One formatted result per sequence, filled as they are evaluated (invalid ones at once). */
  results: string[];
  /** Indices of the valid sequences, and their faces. */
  valid: number[];
  faces: Uint8Array[];
  /** Valid sequences evaluated so far. */
  evaluated: number;
  /** Valid sequences handed out in the current ask. */
  asked: number;
}

export class ProgramSolver implements RunnableSolver {
  private io: ProgramIo | null = null;
  private n = 0;
  private budget: number | null = null;
  private used = 0;
  private lineNumber = 0;
  private idleRequests = 0;
  private pending: PendingRequest | null = null;
  private ended: ProgramExit | null = null;
  private exit: ProgramRecord['exit'] = null;
  private readonly timeoutMs: number;
  private readonly graceMs: number;

  constructor(
    private readonly spec: ProgramSpec,
    private readonly launch: ProgramLauncher,
    private readonly config: DiceConfig,
    private readonly admission?: ProgramAdmission,
  ) {
    this.timeoutMs = (spec.timeout ?? DEFAULT_TIMEOUT_SECONDS) * 1000;
    this.graceMs = (spec.grace ?? DEFAULT_GRACE_SECONDS) * 1000;
  }

  setup(problem: Problem, _params: ParamValues, seed: number, context?: SetupContext): void {
    this.n = problem.n;
    this.budget = context?.maxEvaluations ?? null;
    const { command, env } = this.spec;
    const admission = this.admission;
    // Started where the program gate resolved it; the result records the cwd the entry gives.
    const cwd = admission?.cwd ?? this.spec.cwd;
    this.io = this.launch(
      {
        command,
        ...(admission ? { executable: admission.executable } : {}),
        ...(admission?.view ? { view: admission.view } : {}),
        ...(cwd !== undefined ? { cwd } : {}),
        ...(env !== undefined ? { env } : {}),
      },
      { maxLineBytes: maxLineBytes(problem.n) },
    );
    this.io.write(`${JSON.stringify(helloMessage(this.config, this.budget, seed, this.spec.blind === true))}\n`);
  }

  private remaining(): number | null {
    return this.budget === null ? null : this.budget - this.used;
  }

  ask(limit: number): Ask | Promise<Ask> {
    const p = this.pending;
    if (p && p.evaluated < p.valid.length) return this.handOut(p, limit);
    if (this.ended) return { candidates: [] };
    return this.nextRequest(limit);
  }

  private handOut(p: PendingRequest, limit: number): Ask {
    const count = Math.min(limit, p.valid.length - p.evaluated);
    p.asked = count;
    return { candidates: p.faces.slice(p.evaluated, p.evaluated + count) };
  }

  /** Answers the request before (the run goes on), then reads lines until the next request. */
  private async nextRequest(limit: number): Promise<Ask> {
    const io = this.io!;
    if (this.pending) this.answer(null);
    for (;;) {
      const line = await io.readLine(this.timeoutMs);
      if (line === null) return this.programEnded();
      const lineNumber = ++this.lineNumber;
      const message = io.parsedLine?.(line) ?? parseProgramLine(line, lineNumber, this.n);
      if ('log' in message) {
        io.appendLog(message.log);
        continue;
      }
      const p = this.request(message.evaluate);
      if (p.valid.length > 0) {
        this.idleRequests = 0;
        this.pending = p;
        return this.handOut(p, limit);
      }
      if (++this.idleRequests > MAX_IDLE_REQUESTS)
        throw new ProtocolError(`the program sent ${MAX_IDLE_REQUESTS} requests in a row with nothing to evaluate (line ${this.lineNumber}); it is stuck`);
      this.pending = p;
      this.answer(null);
    }
  }

  private request(parsed: ParsedSequences): PendingRequest {
    const results = new Array<string>(parsed.count);
    for (const { index, message } of parsed.errors) results[index] = formatErrorResult(message);
    return { results, valid: parsed.valid, faces: parsed.faces, evaluated: 0, asked: 0 };
  }

  /**
   * stdout has ended: exit code 0 ends the run with what it evaluated; anything else fails it,
   * and so does an exit before any evaluation (a run that evaluated nothing has failed) and a
   * program that closed its stdout but did not exit (Saikoro then stopped it).
   */
  private async programEnded(): Promise<Ask> {
    const exit = await this.io!.exited(this.graceMs);
    if (!exit) {
      const stopped = await this.stopProgram();
      this.ended = stopped;
      throw new ProtocolError(
        `the program closed its stdout after ${this.evaluationsText()} but did not exit within ${formatSeconds(this.graceMs)}; Saikoro stopped it (${stopped.how === 'exited' ? 'it exited once its stdin closed' : stopped.how === 'terminated' ? 'SIGTERM' : 'SIGKILL'})${this.stderrHint()}`,
      );
    }
    this.ended = exit;
    if (exit.code !== 0) throw new ProtocolError(`${describeProgramExit(exit)} after ${this.evaluationsText()}${this.stderrHint()}`);
    if (this.used === 0)
      throw new ProtocolError(
        `the program exited (code 0) without evaluating anything${this.budget === null ? '' : ` of its ${this.budget} evaluations`}: a run that evaluated nothing has failed${this.stderrHint()}`,
      );
    return { candidates: [] };
  }

  private evaluationsText(): string {
    return this.budget === null ? `${this.used} evaluations` : `${this.used} of ${this.budget} evaluations`;
  }

  private stderrHint(): string {
    const last = this.io?.lastErrorLine();
    return last ? `; its stderr ends: ${last.length > 200 ? `${last.slice(0, 200)}…` : last}` : '';
  }

  tell(evaluated: readonly Evaluated[]): void {
    const p = this.pending;
    if (!p) return;
    for (let k = 0; k < evaluated.length; k++) {
      const e = evaluated[k];
      p.results[p.valid[p.evaluated + k]] = formatResult(e.F, e.G, e.feasible);
    }
    p.evaluated += evaluated.length;
    p.asked = 0;
    this.used += evaluated.length;
  }

  /**
   * Writes the pending request's answer: every result when it is complete; otherwise the
   * results up to the first sequence not evaluated (the cut), with `stop`.
   */
  private answer(stop: string | null): void {
    const p = this.pending;
    if (!p) return;
    this.pending = null;
    const count = p.evaluated < p.valid.length ? p.valid[p.evaluated] : p.results.length;
    this.io!.write(formatAnswer(p.results, count, this.remaining(), stop));
  }

  done(): boolean {
    return this.ended !== null;
  }

  finishedWhy(): string {
    return `the program ended on its own after ${this.evaluationsText()}`;
  }

  private async stopProgram(): Promise<ProgramExit & { how: 'exited' | 'terminated' | 'killed' }> {
    const stopped = await this.io!.stop(this.graceMs);
    this.exit = { code: stopped.code, signal: stopped.signal, how: stopped.how };
    return stopped;
  }

  /**
   * Ends the program after the run: the pending answer with "stop" (when the run stopped while
   * the program waited on one), then stdin closed, the grace period, SIGTERM, SIGKILL.
   * `stop` null: the run failed; the program is stopped without an answer.
   */
  async finish(stop: StopReason | null): Promise<void> {
    if (!this.io) return;
    if (this.ended) {
      if (!this.exit) this.exit = { ...this.ended, how: 'exited' };
      return;
    }
    if (stop !== null) this.answer(STOP_OF[stop]);
    await this.stopProgram();
  }

  resultExtras(): Partial<SolverResult> {
    const record: ProgramRecord = {
      command: [...this.spec.command],
      cwd: this.spec.cwd ?? null,
      blind: this.spec.blind === true,
      hashes: this.spec.hashes ? { ...this.spec.hashes } : null,
      exit: this.exit,
    };
    return { program: record, log: this.io?.log() ?? '' };
  }

  /** The log so far and the last stderr line, for a failure's reason. */
  failureHint(): string {
    return this.stderrHint();
  }
}

function formatSeconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Number((ms / 1000).toFixed(1))} s`;
}

export function describeProgramExit(exit: ProgramExit): string {
  const limit = exit.limit ? ` (${exit.limit})` : '';
  if (exit.signal) return `the program was killed by ${exit.signal}${limit}`;
  if (exit.code === 0) return 'the program exited';
  return `the program exited with code ${exit.code}${limit}`;
}

/** The registry-like description of a program solver, under the name its entry gives it. */
export function programSolverInfo(name: string, create: () => ProgramSolver): SolverInfo {
  return {
    name,
    title: `program ${name}`,
    summary: 'a solver program speaking the external-solver protocol (docs/external-solvers.md)',
    objectives: 'any',
    baseline: false,
    params: [],
    create,
  } as SolverInfo;
}

/** The solver of a dice run whose solver is a program. */
export function givenProgramSolver(
  name: string,
  spec: ProgramSpec,
  launch: ProgramLauncher,
  config: DiceConfig,
  admission?: ProgramAdmission,
): GivenSolver & { solver: ProgramSolver } {
  const solver = new ProgramSolver(spec, launch, config, admission);
  return { info: programSolverInfo(name, () => solver as never), solver };
}
