/**
 * One remote entrant's run on a competition server (docs/competition.md, "Running it as a
 * service"): the same run as a local program's, through the same code. The dice kind of run
 * builds it from the grid run's request with the entrant as a solver program
 * (src-shared/solvers/program/solver.ts: counting, cuts, invalid sequences, "stop"), and the
 * driver steps it; only the program's pipe is replaced, by `RemoteIo`: its lines are the
 * requests that come over the network, its answers go back to whoever sent them. So a remote
 * entrant's stored result (best, front, exact trace, front log) is what a local run of the same
 * requests would have stored, and the competition's standings score both alike.
 *
 * Durable: each answer is handed to `persist` (the server's log, remote-log.ts) before it is
 * sent, with the request's valid sequences and how many were evaluated. A run that stopped in
 * the middle (the server was killed) is started again from those records: they are replayed
 * through the same run, answers dropped, and the run goes on from exactly where it was.
 */
import { RunClock } from '../../src-shared/core/control.ts';
import { drive } from '../../src-shared/core/driver.ts';
import type { StopReason } from '../../src-shared/core/termination.ts';
import type { RunSpec } from '../../src-shared/experiments/grid.ts';
import type { HvNormalisation } from '../../src-shared/problems/dice/hv-reference.ts';
import { diceRunKind, type DiceRunRequest } from '../../src-shared/runtime/kinds/dice.ts';
import { terminationOfBudget } from '../../src-shared/solvers/stopping.ts';
import { formatAnswer, formatErrorResult, STOP_OF, type ParsedSequences } from '../../src-shared/solvers/program/protocol.ts';
import type { ProgramExit, ProgramIo } from '../../src-shared/solvers/program/solver.ts';
import type { SolverResult } from '../../src-shared/solvers/types.ts';
import { packSequences, remoteHello, unpackSequences, type CheckedRequest, type RemoteHello } from '../../src-shared/competition/remote.ts';
import type { RemoteRequestRecord } from '../project/project-records.ts';

/** A request of the network waiting for its answer. */
interface LiveRequest {
  request: CheckedRequest;
  reply: (answer: string) => void;
  receivedAt: string;
}

/** The evaluations left in an answer: its "remaining" (formatAnswer writes it last but for "stop"). */
function remainingIn(answer: string): number {
  const at = answer.lastIndexOf('"remaining":');
  const value = Number.parseInt(answer.slice(at + 12), 10);
  if (at < 0 || !Number.isSafeInteger(value)) throw new Error(`an answer without its remaining evaluations: ${answer.slice(0, 80)}`);
  return value;
}

/**
 * The program's pipe of a remote run: `readLine` gives the stored requests first (the replay),
 * then the network's, one at a time; `write` takes the answer of the request read last, stores
 * it and sends it back. Nothing ever ends the "program" but `end()`.
 */
class RemoteIo implements ProgramIo {
  private helloWritten = false;
  private replayed = 0;
  private answeredReplay = 0;
  private waiting: ((line: string | null) => void) | null = null;
  private readonly queue: LiveRequest[] = [];
  private current: LiveRequest | null = null;
  private ended = false;
  /** Evaluations used, from the answers. */
  used = 0;
  /** An answer with "stop" has been written: the run is ending. */
  stopWritten = false;
  /** Requests stored (replayed and live): the next one's seq. */
  stored: number;

  constructor(
    private readonly budget: number,
    private readonly replay: readonly RemoteRequestRecord[],
    private readonly unpack: (record: RemoteRequestRecord) => string[],
    private readonly persist: (valid: Uint8Array[], seq: number, evaluations: number, receivedAt: string) => void,
    private readonly onLive: () => void,
  ) {
    this.stored = replay.length;
  }

  readLine(): Promise<string | null> {
    if (this.replayed < this.replay.length) {
      const record = this.replay[this.replayed++];
      return Promise.resolve(JSON.stringify({ evaluate: this.unpack(record) }));
    }
    this.onLive();
    if (this.ended) return Promise.resolve(null);
    const next = this.queue.shift();
    if (next) {
      this.current = next;
      return Promise.resolve(next.request.line);
    }
    return new Promise((resolve) => (this.waiting = resolve));
  }

  /** A request from the network (with at least one valid sequence); answered through `reply`. */
  submit(live: LiveRequest): void {
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = null;
      this.current = live;
      resolve(live.request.line);
    } else this.queue.push(live);
  }

  /** The requests that came but were not read (the run ended meanwhile). */
  drain(): LiveRequest[] {
    return this.queue.splice(0);
  }

  /** Ends the run as a program that ends on its own (the competition is over for it). */
  end(): void {
    this.ended = true;
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = null;
      resolve(null);
    }
  }

  write(text: string): void {
    if (!this.helloWritten) {
      this.helloWritten = true;
      return;
    }
    const used = this.budget - remainingIn(text);
    const evaluations = used - this.used;
    this.used = used;
    if (text.includes(',"stop":')) this.stopWritten = true;
    if (this.answeredReplay < this.replay.length) {
      const record = this.replay[this.answeredReplay++];
      if (record.evaluations !== evaluations)
        throw new Error(`request ${record.seq} of the run was stored with ${record.evaluations} evaluations; replayed, it has ${evaluations}`);
      return;
    }
    const live = this.current;
    if (!live) throw new Error('an answer with no request to answer');
    this.current = null;
    // Stored before it is sent: a kill after this loses nothing the entrant was told.
    this.persist(live.request.valid, this.stored++, evaluations, live.receivedAt);
    live.reply(text);
  }

  exited(): Promise<ProgramExit> {
    return Promise.resolve({ code: 0, signal: null });
  }

  stop(): Promise<ProgramExit & { how: 'exited' | 'terminated' | 'killed' }> {
    return Promise.resolve({ code: 0, signal: null, how: 'exited' });
  }

  appendLog(): void {}

  log(): string {
    return '';
  }

  lastErrorLine(): string | null {
    return null;
  }

  /** A live request's line is checked already (checkRequest): the run takes its sequences as they are. */
  parsedLine(line: string): { evaluate: ParsedSequences } | undefined {
    const live = this.current;
    return live !== null && live.request.line === line ? { evaluate: live.request.parsed } : undefined;
  }
}

/** What a remote run is: its grid run (remote), and its hypervolume normalisation (several objectives). */
export interface RemoteRunInput {
  run: RunSpec;
  hvNormalisation?: HvNormalisation;
  /** What the file holds of it already (Project.remoteRequests), in order. */
  stored: readonly RemoteRequestRecord[];
  /** The stored sequences of a record (inflated, unpacked). */
  unpack: (record: RemoteRequestRecord) => string[];
  /** Keeps an answered request for good before its answer leaves (the server's log). */
  persist: (record: RemoteRequestRecord) => void;
  /** Called once when the run has ended, with its result (program fields removed). */
  onEnd: (result: SolverResult) => void;
}

/** The command a remote run's program entry names (never started: it is a name in the run's request). */
const REMOTE_COMMAND = ['saikoro-remote-entrant'];

export class RemoteRun {
  readonly run: RunSpec;
  readonly budget: number;
  private readonly io: RemoteIo;
  private readonly clock = new RunClock();
  private readonly kind: ReturnType<typeof diceRunKind.create>;
  private readonly liveStarted: Promise<void>;
  private stopReason: StopReason | null = null;
  private replayingValue: boolean;
  private failure: Error | null = null;
  /** Resolves once the stored requests are replayed (or the run has ended). */
  readonly ready: Promise<void>;
  /** Resolves with the result once the run has ended. */
  readonly done: Promise<SolverResult>;

  constructor(private readonly input: RemoteRunInput) {
    const { run } = input;
    if (!run.remote) throw new Error(`run ${run.id} is not a remote entrant's`);
    this.run = run;
    this.budget = run.budget.evaluations;
    this.replayingValue = input.stored.length > 0;
    let live: () => void = () => {};
    this.liveStarted = new Promise<void>((resolve) => (live = resolve)).then(() => {
      this.replayingValue = false;
    });
    this.io = new RemoteIo(
      this.budget,
      input.stored,
      input.unpack,
      (valid, seq, evaluations, receivedAt) =>
        input.persist({ runId: run.id, seq, entrant: run.solver, evaluations, sequences: packSequences(valid, run.config.n), receivedAt }),
      live,
    );
    const request: DiceRunRequest = {
      kind: 'dice',
      solver: run.solver,
      params: {},
      seed: run.seed,
      config: run.config,
      termination: terminationOfBudget(run.budget),
      program: { command: REMOTE_COMMAND, blind: true },
      blind: true,
      ...(input.hvNormalisation ? { hvNormalisation: input.hvNormalisation } : {}),
    };
    this.kind = diceRunKind.create(request, this.clock, { launchProgram: () => this.io });
    this.done = drive(this.kind.run, this.kind.termination, { clock: this.clock, requireBudget: true }).then(
      (result) => {
        this.stopReason = result.stopReason;
        const clean = withoutProgram(result);
        // Requests that came while the run ended: it is over for them too.
        for (const late of this.io.drain()) late.reply(formatAnswer([], 0, this.remaining, STOP_OF[result.stopReason]));
        input.onEnd(clean);
        return clean;
      },
      (e: unknown) => {
        this.failure = e instanceof Error ? e : new Error(String(e));
        for (const late of this.io.drain()) late.reply(JSON.stringify({ error: `the run failed on the server: ${this.failure.message}` }));
        throw this.failure;
      },
    );
    this.done.catch(() => {});
    this.ready = Promise.race([
      this.liveStarted,
      this.done.then(
        () => undefined,
        () => undefined,
      ),
    ]);
  }

  /** True while the stored requests are being replayed (a restarted server resuming the run). */
  get replaying(): boolean {
    return this.replayingValue && this.stopReason === null;
  }

  /** Evaluations used. */
  get used(): number {
    return this.io.used;
  }

  get remaining(): number {
    return this.budget - this.io.used;
  }

  /** Requests stored for good. */
  get requests(): number {
    return this.io.stored;
  }

  /** Its last answer ("stop") is written: it is about to end, if it has not yet. */
  get stopping(): boolean {
    return this.io.stopWritten;
  }

  /** How the run ended, or null while it goes on. */
  get ended(): StopReason | null {
    return this.stopReason;
  }

  get failed(): Error | null {
    return this.failure;
  }

  hello(): RemoteHello {
    return remoteHello(this.run.config, this.budget, this.remaining, this.run.seed);
  }

  /**
   * Evaluates a checked request: its answer (a protocol answer line, with its newline), sent
   * once it is stored. A request with nothing valid in it is answered at once (its errors),
   * evaluating and storing nothing; so is a request to a run that has ended ("stop").
   */
  evaluate(request: CheckedRequest): Promise<string> {
    if (this.failure) return Promise.resolve(`${JSON.stringify({ error: `the run failed on the server: ${this.failure.message}` })}\n`);
    if (this.stopReason !== null) return Promise.resolve(formatAnswer([], 0, this.remaining, STOP_OF[this.stopReason]));
    if (request.errors !== null) return Promise.resolve(formatAnswer(request.errors.map(formatErrorResult), request.errors.length, this.remaining, null));
    return new Promise((resolve) => this.io.submit({ request, reply: resolve, receivedAt: new Date().toISOString() }));
  }

  /** The result as the run stands (its live standing); the run goes on. */
  currentResult(): SolverResult {
    return withoutProgram(this.kind.run.result({ seconds: this.clock.seconds(), stopReason: this.stopReason ?? 'solver' }) as SolverResult);
  }

  /** Ends the run where it is (the competition is over for it): its result is what it evaluated. */
  end(): Promise<SolverResult> {
    this.io.end();
    return this.done;
  }
}

/** A remote run's result: the program's fields (a name, an empty log) are not the entrant's. */
function withoutProgram(result: SolverResult): SolverResult {
  const { program, log, ...rest } = result;
  void program;
  void log;
  return rest;
}

/** Unpacks a record's sequences (as the file stores them: packed; `inflate` undoes the file's deflate). */
export function unpackRecord(record: RemoteRequestRecord, n: number, inflate: (bytes: Uint8Array) => Uint8Array): string[] {
  return unpackSequences(inflate(record.sequences), n);
}
