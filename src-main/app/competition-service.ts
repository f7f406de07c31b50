/**
 * A competition as a service (docs/competition.md, "Running it as a service"): what
 * `saikoro serve --competition FILE` does for remote entrants, under the transport
 * (src-main/server/competition-endpoints.ts).
 *
 * - Tokens: an entrant's token is checked against the sha256 the file keeps (a revoked one is
 *   refused within a second: the answers are cached that long).
 * - Runs: the remote runs of the competition's experiments, one per problem and seed; an
 *   entrant plays its runs of a problem in seed order (or names the seed). Each is a RemoteRun
 *   (remote-run.ts): the local program's run with the network as its pipe, every answered
 *   request in the server's log (remote-log.ts) before its answer leaves, folded into the file
 *   every few seconds; its result stored as a done run once its budget is used.
 * - Resuming: at the start, what a killed server left in the log is folded in, and every remote
 *   run with stored requests is replayed (in the background); a reconnecting entrant goes on
 *   where it was.
 * - Limits per token: requests per second (a token bucket), connections at once, sequences per
 *   request, message size. A refusal is a RemoteRefusal whose message says what and costs no
 *   evaluation.
 * - The table: the standings and runtime ECDFs of every entrant, stored and live, recomputed at
 *   most every few seconds.
 */
import zlib from 'node:zlib';
import type { Competition, Entrant } from '../../src-shared/competition/competition.ts';
import {
  checkRequest,
  DEFAULT_REMOTE_LIMITS,
  packedBytes,
  RemoteRefusal,
  TokenBucket,
  unpackSequences,
  type RemoteHello,
  type RemoteLimits,
} from '../../src-shared/competition/remote.ts';
import { scoreRun, type RunScore } from '../../src-shared/competition/score.ts';
import { expandGrid, type RunSpec } from '../../src-shared/experiments/grid.ts';
import type { SolverResult } from '../../src-shared/solvers/types.ts';
import { Project } from '../project/store.ts';
import type { RemoteRequestRecord } from '../project/project-records.ts';
import { RemoteLog } from '../project/remote-log.ts';
import { recordOf } from '../experiments/runner.ts';
import { competitionOf, storedProblemConfig, tokenHashOf } from './competition.ts';
import { buildCompetitionReport, type CompetitionReport, type StoredRun } from '../report/competition.ts';
import type { HvNormaliser } from './dice.ts';
import { RemoteRun } from './remote-run.ts';

export interface CompetitionServiceOptions {
  /** The hypervolume normalisation of a multi-objective run's trace (a worker's, as for local runs). */
  normaliser: HvNormaliser;
  limits?: Partial<RemoteLimits>;
  /** Milliseconds between folds of the log into the file (default 2000). */
  foldIntervalMs?: number;
  /** Milliseconds a token's check, the stored runs and the table are reused (default 1000, 1000, 3000). */
  tokenCacheMs?: number;
  tableCacheMs?: number;
  /** Told of what went wrong in the background (a fold that failed, a run that could not resume). */
  onError?: (message: string) => void;
  /** The clock of the rate limits (ms). */
  now?: () => number;
}

/** Who is asking: an entrant (by its token) or the organiser (the server's own token). */
export type Caller = { kind: 'entrant'; entrant: string } | { kind: 'organiser' };

/** A remote run as an entrant sees it. */
export interface RunView {
  seed: number;
  state: 'new' | 'playing' | 'resuming' | 'done' | 'failed';
  evaluations: number;
  remaining: number;
  /** The run's score as it stands (best so far), or null before its first evaluation. */
  best: RunScore | null;
}

export interface ProblemView {
  id: string;
  track: string;
  n: number;
  objectives: number;
  constraints: number;
  runs: RunView[];
}

export interface EntrantView {
  entrant: string;
  /** Requests of this entrant refused for the rate since the server started (they cost nothing). */
  refusedForRate: number;
  budget: number;
  seeds: number;
  revealed: boolean;
  problems: ProblemView[];
}

/** How far an entrant is: its runs done, failed, playing (remote) and not yet played, and the evaluations they spent. */
export interface EntrantProgress {
  entrant: string;
  done: number;
  failed: number;
  live: number;
  missing: number;
  evaluations: number;
}

/** The leaderboard: `competition standings`' report with the remote runs still playing scored as they stand, and each entrant's progress. */
export interface LiveStandings {
  report: CompetitionReport;
  progress: EntrantProgress[];
}

/** Every run of a competition file's experiments (its grid), in the experiments' order. */
export function competitionGrid(project: Project): RunSpec[] {
  const competition = competitionOf(project);
  const byName = new Map(project.experiments().map((e) => [e.name, e.spec]));
  return competition.definition.tracks.flatMap((track) => {
    const spec = byName.get(track);
    return spec ? expandGrid(spec) : [];
  });
}

/** A connection's hold on its run: the run, and its place (problem, seed). */
export interface RunHandle {
  entrant: string;
  /** The token it came with (checked again at every request), or null for the organiser. */
  token: string | null;
  problem: string;
  seed: number;
  run: RemoteRun;
}

function deflate(bytes: Uint8Array): Uint8Array {
  return new Uint8Array(zlib.deflateRawSync(bytes, { level: 1 }));
}

/** Largest stored block of deflate (RFC 1951, 3.2.4). */
const STORED_BLOCK = 65535;

/** `bytes` as raw deflate of stored blocks (no compression): what any inflate reads back, made by a copy. */
export function storedDeflate(bytes: Uint8Array): Uint8Array {
  const blocks = Math.max(1, Math.ceil(bytes.length / STORED_BLOCK));
  const out = new Uint8Array(bytes.length + 5 * blocks);
  for (let b = 0, at = 0, o = 0; b < blocks; b++) {
    const length = Math.min(STORED_BLOCK, bytes.length - at);
    out[o] = b === blocks - 1 ? 1 : 0; // BFINAL, BTYPE 00 (stored), then to the byte's end
    out[o + 1] = length & 0xff;
    out[o + 2] = length >>> 8;
    out[o + 3] = ~length & 0xff;
    out[o + 4] = (~length >>> 8) & 0xff;
    out.set(bytes.subarray(at, at + length), o + 5);
    o += 5 + length;
    at += length;
  }
  return out;
}

/**
 * A request's packed sequences (`per` bytes each) as the file keeps them: raw deflate. An
 * entrant's similar sequences (a local search's neighbours) deflate to a few percent; random
 * ones, which share almost no byte with the sequence before them at the same place, do not
 * deflate (2% smaller at level 1), yet deflate spent about 10 µs a sequence of N = 840 trying,
 * on the thread that answers (measured: a third of what the server spent per evaluation besides
 * evaluating). Those go in stored blocks, a copy; either way `inflate` reads them back.
 */
export function deflateRecord(bytes: Uint8Array, per: number): Uint8Array {
  let same = 0;
  for (let i = per; i < bytes.length; i++) if (bytes[i] === bytes[i - per]) same++;
  return bytes.length > per && 4 * same < bytes.length - per ? storedDeflate(bytes) : deflate(bytes);
}

function inflate(bytes: Uint8Array): Uint8Array {
  return new Uint8Array(zlib.inflateRawSync(bytes));
}

export class CompetitionService {
  readonly limits: RemoteLimits;
  private readonly grid: RunSpec[];
  /** entrant -> problem -> its runs, by seed. */
  private readonly remoteRuns = new Map<string, Map<string, RunSpec[]>>();
  private readonly runsById = new Map<string, RunSpec>();
  private readonly live = new Map<string, Promise<RemoteRun>>();
  private readonly loaded = new Map<string, RemoteRun>();
  private readonly stored = new Map<string, StoredRun>();
  private storedAt = -Infinity;
  private pending: RemoteRequestRecord[] = [];
  private readonly tokens = new Map<string, { entrant: string | null; at: number }>();
  private readonly buckets = new Map<string, TokenBucket>();
  private readonly connections = new Map<string, number>();
  private readonly rateRefusals = new Map<string, number>();
  private table: { at: number; value: LiveStandings; version: number } | null = null;
  private version = 0;
  private readonly timer: NodeJS.Timeout;
  private closed = false;
  private readonly now: () => number;
  private entrantList: Entrant[];
  private competitionValue: Competition;

  private constructor(
    readonly project: Project,
    private readonly log: RemoteLog,
    private readonly options: CompetitionServiceOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.limits = { ...DEFAULT_REMOTE_LIMITS, ...options.limits };
    this.competitionValue = competitionOf(project);
    this.entrantList = project.entrants();
    this.grid = competitionGrid(project);
    for (const run of this.grid) {
      if (!run.remote) continue;
      this.runsById.set(run.id, run);
      const byProblem = this.remoteRuns.get(run.label) ?? new Map<string, RunSpec[]>();
      byProblem.set(
        run.instance,
        [...(byProblem.get(run.instance) ?? []), run].sort((a, b) => a.seed - b.seed),
      );
      this.remoteRuns.set(run.label, byProblem);
    }
    this.refreshStored(true);
    this.timer = setInterval(() => this.fold(), options.foldIntervalMs ?? 2000);
    this.timer.unref();
  }

  /**
   * Serves the competition file `file`: takes its server lock, folds what a killed server left
   * in the log, and resumes (replays) in the background every remote run with stored requests.
   */
  static open(file: string, options: CompetitionServiceOptions): CompetitionService {
    const project = Project.open(file);
    let log: RemoteLog | null = null;
    try {
      competitionOf(project);
      log = RemoteLog.open(file);
      if (log.leftOver.length) {
        project.putRemoteRequests(log.leftOver.map((r) => ({ ...r, sequences: deflate(r.sequences) })));
        log.clear();
      }
      const service = new CompetitionService(project, log, options);
      service.resumeAll();
      return service;
    } catch (e) {
      log?.close();
      project.close();
      throw e;
    }
  }

  get competition(): Competition {
    return this.competitionValue;
  }

  get revealed(): boolean {
    return this.competitionValue.secret !== null;
  }

  /** What the log held from a server that died, folded in at the start (records, torn bytes dropped). */
  get recovered(): { records: number; droppedBytes: number } {
    return { records: this.log.leftOver.length, droppedBytes: this.log.droppedBytes };
  }

  private resumeAll(): void {
    const counts = this.project.remoteRunCounts();
    for (const [id] of counts) {
      const run = this.runsById.get(id);
      if (!run || this.stored.get(id)?.status === 'done') continue;
      this.load(run).catch((e: unknown) =>
        this.options.onError?.(`could not resume remote run ${id} (${run.label} on ${run.instance}, seed ${run.seed}): ${(e as Error).message}`),
      );
    }
  }

  // -------------------------------------------------------------------------------------------
  // Tokens and limits

  /** The remote entrant whose valid token this is, or null. */
  entrantOf(token: string): string | null {
    const sha256 = tokenHashOf(token);
    const at = this.now();
    const cached = this.tokens.get(sha256);
    if (cached && at - cached.at < (this.options.tokenCacheMs ?? 1000)) return cached.entrant;
    const record = this.project.entrantToken(sha256);
    const entrant = record && record.revokedAt === null && this.remoteRuns.has(record.entrant) ? record.entrant : null;
    if (this.tokens.size > 10_000) this.tokens.clear();
    this.tokens.set(sha256, { entrant, at });
    return entrant;
  }

  /** Spends one request of the entrant's rate, or refuses (429, with when to try again). */
  takeRequest(entrant: string): void {
    let bucket = this.buckets.get(entrant);
    if (!bucket) this.buckets.set(entrant, (bucket = new TokenBucket(this.limits.requestsPerSecond, this.limits.burst, this.now())));
    const wait = bucket.take(this.now());
    if (wait > 0) this.rateRefusals.set(entrant, (this.rateRefusals.get(entrant) ?? 0) + 1);
    if (wait > 0)
      throw new RemoteRefusal(
        429,
        `too many requests: at most ${this.limits.requestsPerSecond} per second (bursts of ${this.limits.burst}) for this token; try again in ${wait.toFixed(3)} s; nothing was evaluated`,
        Math.ceil(wait * 1000) / 1000,
      );
  }

  /** Holds one of the entrant's connections (a WebSocket, a POST in flight), or refuses (429); release() gives it back. */
  acquireConnection(entrant: string): () => void {
    const open = this.connections.get(entrant) ?? 0;
    if (open >= this.limits.maxConnections)
      throw new RemoteRefusal(429, `too many connections: at most ${this.limits.maxConnections} at once for this token (close one first)`);
    this.connections.set(entrant, open + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.connections.set(entrant, (this.connections.get(entrant) ?? 1) - 1);
    };
  }

  /** The entrant's connections held now (what acquireConnection counts against the limit). */
  connectionsOf(entrant: string): number {
    return this.connections.get(entrant) ?? 0;
  }

  // -------------------------------------------------------------------------------------------
  // Runs

  /** The entrants that play remotely. */
  remoteEntrants(): string[] {
    return [...this.remoteRuns.keys()];
  }

  private runsOf(entrant: string, problem: string): RunSpec[] {
    const byProblem = this.remoteRuns.get(entrant);
    if (!byProblem) throw new RemoteRefusal(403, `${entrant} is not a remote entrant of this competition`);
    const runs = byProblem.get(problem);
    if (!runs) throw new RemoteRefusal(404, `this competition has no problem ${JSON.stringify(problem)} (GET /api/competition lists its problems)`);
    return runs;
  }

  private isOver(run: RunSpec): boolean {
    return this.stored.get(run.id)?.status === 'done' || (this.loaded.get(run.id)?.ended ?? null) !== null;
  }

  /**
   * The run a connection of `entrant` to `problem` plays: the seed asked for, or the first whose
   * budget is not used; replayed first if the server was restarted. Refused: another problem
   * than the competition's, a seed that is not one or is over, no budget left, after the reveal.
   */
  async openRun(entrant: string, problem: string, seed: number | null = null, token: string | null = null): Promise<RunHandle> {
    if (this.closed) throw new RemoteRefusal(503, 'the server is stopping');
    if (this.revealed) throw new RemoteRefusal(410, 'the competition is over: its secret has been revealed, and nothing more is evaluated');
    const runs = this.runsOf(entrant, problem);
    let run: RunSpec | undefined;
    if (seed !== null) {
      run = runs.find((r) => r.seed === seed);
      if (!run) throw new RemoteRefusal(404, `problem ${problem} has seeds 1 to ${runs.length}, not ${seed}`);
      if (this.isOver(run))
        throw new RemoteRefusal(409, `${entrant}'s run of ${problem} with seed ${seed} is over: its budget of ${run.budget.evaluations} evaluations is used`);
    } else {
      run = runs.find((r) => !this.isOver(r));
      if (!run)
        throw new RemoteRefusal(409, `${entrant} has used its whole budget on ${problem}: ${runs.length} run(s) of ${runs[0].budget.evaluations} evaluations`);
    }
    const loaded = await this.load(run);
    if (loaded.failed) throw new RemoteRefusal(500, `this run cannot go on: ${loaded.failed.message}`);
    return { entrant, token, problem, seed: run.seed, run: loaded };
  }

  private load(run: RunSpec): Promise<RemoteRun> {
    let promise = this.live.get(run.id);
    if (!promise) {
      promise = this.start(run);
      this.live.set(run.id, promise);
      promise.catch(() => this.live.delete(run.id));
    }
    return promise;
  }

  private async start(run: RunSpec): Promise<RemoteRun> {
    const hvNormalisation = run.config.objectives.length > 1 ? await this.options.normaliser(run.config) : undefined;
    const remote = new RemoteRun({
      run,
      ...(hvNormalisation ? { hvNormalisation } : {}),
      stored: this.project.remoteRequests(run.id),
      unpack: (record) => unpackSequences(inflate(record.sequences), run.config.n),
      persist: (record) => {
        this.log.append(record);
        this.pending.push(record);
        this.version++;
        if (this.pending.length >= 2000) this.fold();
      },
      onEnd: (result) => this.finished(run, result),
    });
    this.loaded.set(run.id, remote);
    await remote.ready;
    return remote;
  }

  /** A remote run that used its budget: stored as done (after its last requests are folded in). */
  private finished(run: RunSpec, result: SolverResult): void {
    this.fold();
    const finishedAt = new Date();
    const record = recordOf(run, { status: 'done', result, error: null, startedAt: new Date(finishedAt.getTime() - result.seconds * 1000), finishedAt });
    try {
      this.project.putRun(record);
      this.stored.set(run.id, { status: 'done', result });
    } catch (e) {
      this.options.onError?.(
        `could not store the finished remote run ${run.id} (${run.label} on ${run.instance}, seed ${run.seed}): ${(e as Error).message}; its requests are kept, and the next start stores it`,
      );
    }
    this.version++;
  }

  /** The hello of a connection: the blind first line, with the evaluations left. */
  hello(handle: RunHandle): RemoteHello {
    return handle.run.hello();
  }

  /**
   * One request's answer (a protocol answer line) on the run, or a RemoteRefusal that cost
   * nothing: the rate, the batch size, the message. A {"log"} message gets null (no answer).
   */
  async evaluate(handle: RunHandle, text: string): Promise<string | null> {
    if (this.closed) throw new RemoteRefusal(503, 'the server is stopping');
    if (handle.token !== null && this.entrantOf(handle.token) !== handle.entrant)
      throw new RemoteRefusal(401, 'this token has been revoked or replaced; nothing was evaluated');
    this.takeRequest(handle.entrant);
    const checked = checkRequest(text, handle.run.run.config.n, this.limits.maxBatch);
    if (checked === null) return null;
    return handle.run.evaluate(checked);
  }

  // -------------------------------------------------------------------------------------------
  // What the entrants and the organiser read

  /** Reads the stored runs again (at most once a second): local entrants' runs come from competition run, in another process. */
  private refreshStored(force = false): void {
    if (!force && this.now() - this.storedAt < 1000) return;
    this.storedAt = this.now();
    const statuses = this.project.runStatuses();
    const gridIds = new Set(this.grid.map((r) => r.id));
    const fresh = [...statuses].filter(([id, status]) => gridIds.has(id) && this.stored.get(id)?.status !== status).map(([id]) => id);
    if (!fresh.length) return;
    for (const r of this.project.runs(fresh)) this.stored.set(r.id, { status: r.status, result: r.result });
    this.version++;
  }

  private runView(run: RunSpec): RunView {
    const stored = this.stored.get(run.id);
    const loaded = this.loaded.get(run.id);
    const problem = this.competitionValue.problems.find((p) => p.id === run.instance)!;
    const score = (result: SolverResult | null) =>
      result && result.evaluations > 0
        ? scoreRun({ config: storedProblemConfig(problem), track: problem.track, budget: run.budget.evaluations, result }).score
        : null;
    if (stored?.status === 'done')
      return {
        seed: run.seed,
        state: 'done',
        evaluations: stored.result?.evaluations ?? 0,
        remaining: run.budget.evaluations - (stored.result?.evaluations ?? 0),
        best: score(stored.result),
      };
    if (loaded && loaded.failed) return { seed: run.seed, state: 'failed', evaluations: loaded.used, remaining: loaded.remaining, best: null };
    if (loaded) {
      const state = loaded.ended !== null ? 'done' : loaded.replaying ? 'resuming' : loaded.used > 0 ? 'playing' : 'new';
      return {
        seed: run.seed,
        state,
        evaluations: loaded.used,
        remaining: loaded.remaining,
        best: state === 'resuming' ? null : score(loaded.currentResult()),
      };
    }
    return { seed: run.seed, state: 'new', evaluations: 0, remaining: run.budget.evaluations, best: null };
  }

  /** An entrant's own history: per problem and seed, evaluations used and left, the best so far. */
  entrantView(entrant: string): EntrantView {
    const byProblem = this.remoteRuns.get(entrant);
    if (!byProblem) throw new RemoteRefusal(403, `${entrant} is not a remote entrant of this competition`);
    this.refreshStored();
    const { definition } = this.competitionValue;
    return {
      entrant,
      refusedForRate: this.rateRefusals.get(entrant) ?? 0,
      budget: definition.evaluations,
      seeds: definition.seeds,
      revealed: this.revealed,
      problems: this.competitionValue.problems.map((p) => {
        const config = storedProblemConfig(p);
        return {
          id: p.id,
          track: p.track,
          n: p.n,
          objectives: config.objectives.length,
          constraints: config.constraints.length,
          runs: (byProblem.get(p.id) ?? []).map((r) => this.runView(r)),
        };
      }),
    };
  }

  /** The standings and ECDFs of every entrant, stored and live (recomputed at most every few seconds, and only after a change). */
  standings(): LiveStandings {
    this.refreshStored();
    const at = this.now();
    if (this.table && (this.table.version === this.version || at - this.table.at < (this.options.tableCacheMs ?? 3000))) return this.table.value;
    const live = new Map<string, SolverResult>();
    for (const [id, run] of this.loaded) if (run.ended === null && !run.failed && run.used > 0) live.set(id, run.currentResult());
    const report = buildCompetitionReport(this.project, this.competitionValue, { stored: this.stored, live });
    const progress = new Map(this.entrantList.map((e) => [e.name, { entrant: e.name, done: 0, failed: 0, live: 0, missing: 0, evaluations: 0 }]));
    for (const run of this.grid) {
      const p = progress.get(run.label);
      if (!p) continue;
      const s = this.stored.get(run.id);
      const l = s?.status === 'done' ? undefined : live.get(run.id);
      if (l) (p.live++, (p.evaluations += l.evaluations));
      else if (!s) p.missing++;
      else (s.status === 'done' ? p.done++ : p.failed++, (p.evaluations += s.result?.evaluations ?? 0));
    }
    const value = { report, progress: [...progress.values()] };
    this.table = { at, value, version: this.version };
    return value;
  }

  /** Per remote run loaded or stored: evaluations used (what the tests compare across a restart). */
  counts(): Map<string, number> {
    const out = new Map<string, number>();
    for (const [id, run] of this.loaded) out.set(id, run.used);
    for (const [id, s] of this.stored) if (this.runsById.has(id) && s.status === 'done') out.set(id, s.result?.evaluations ?? 0);
    return out;
  }

  /** Ends every run with stored requests that has not ended (see endRemoteRuns); returns how many. */
  async endAll(): Promise<number> {
    this.resumeAll();
    let ended = 0;
    for (const [id, promise] of [...this.live]) {
      const run = await promise;
      if (run.ended !== null || this.stored.get(id)?.status === 'done') continue;
      await run.end();
      ended++;
    }
    return ended;
  }

  // -------------------------------------------------------------------------------------------

  /** Moves the answered requests from the log into the file (one transaction), then empties the log. */
  fold(): void {
    if (!this.pending.length) return;
    const batch = this.pending;
    try {
      this.project.putRemoteRequests(
        batch.map((r) => ({ ...r, sequences: deflateRecord(r.sequences, packedBytes(this.runsById.get(r.runId)?.config.n ?? r.sequences.length)) })),
      );
    } catch (e) {
      this.options.onError?.(`could not fold ${batch.length} request(s) into ${this.project.path}: ${(e as Error).message}; they stay in the log`);
      return;
    }
    this.pending = [];
    this.log.clear();
  }

  /**
   * Waits for the runs that have sent their last answer to be stored, folds the log in, and
   * closes the file and the log (the other runs stay as they are: a next start resumes them).
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    await Promise.allSettled([...this.loaded.values()].filter((r) => r.stopping).map((r) => r.done));
    try {
      this.fold();
    } finally {
      this.log.close();
      this.project.close();
    }
  }
}

/**
 * Ends every remote run that has played but not used its budget, as a program that stops early
 * ends: each is stored as done with what it evaluated (`competition reveal` does this first:
 * the competition is over). Runs never played stay missing. Refused while a server serves the
 * file (its lock). Returns the runs ended.
 */
export async function endRemoteRuns(file: string, normaliser: HvNormaliser): Promise<number> {
  const service = CompetitionService.open(file, { normaliser });
  try {
    return await service.endAll();
  } finally {
    await service.close();
  }
}
