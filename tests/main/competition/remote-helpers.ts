// What the competition-server tests share: a competition file made through the CLI and served,
// its entrants entered as programs and run locally by competition run, the local run of a program
// on a competition problem (the executor experiment run uses, blind), results compared on what
// the standings read, the Python client's runs, and a Node entrant:
// examples/solvers/random_search.mjs's random search over a real WebSocket, which resumes after a
// reconnection from the hello.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { expect } from 'vitest';
import { startAppServer, type AppServer } from '../../../src-main/server/app-server.ts';
import { Project } from '../../../src-main/project/store.ts';
import { competitionGrid } from '../../../src-main/app/competition-service.ts';
import { competitionOf } from '../../../src-main/app/competition.ts';
import { buildCompetitionReport } from '../../../src-main/report/competition.ts';
import type { RemoteLimits } from '../../../src-shared/competition/remote.ts';
import type { RunRecord } from '../../../src-main/project/project-records.ts';
import { runCli } from '../cli/io.ts';
import { expandGrid } from '../../../src-shared/experiments/grid.ts';
import { validateSpec } from '../../../src-shared/experiments/spec.ts';
import type { SolverResult } from '../../../src-shared/solvers/types.ts';
import { runInline } from '../../../src-main/app/experiment-executor.ts';
import { commandLineGate } from '../../../src-main/app/program-gate.ts';
import type { Competition } from '../../../src-shared/competition/competition.ts';

export const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
export const LOCAL_SEARCH = path.join(ROOT, 'examples', 'solvers', 'local_search.py');
export const RANDOM_SEARCH = path.join(ROOT, 'examples', 'solvers', 'random_search.mjs');

/**
 * The local run of `command` as an entrant named `name` on a problem (its config with the
 * secret bands), blind, with this seed and budget: the runner's in-process executor through the
 * program gate, as experiment run and competition run go, in a folder of its own holding
 * `files` (a program's folder is copied into its sandbox).
 */
export async function localRun(
  competition: Competition,
  problem: string,
  name: string,
  command: string[],
  seed: number,
  files: string[],
): Promise<SolverResult> {
  const p = competition.problems.find((q) => q.id === problem)!;
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-local-run-'));
  try {
    for (const f of files) fs.copyFileSync(f, path.join(folder, path.basename(f)));
    const spec = validateSpec({
      name: 'local',
      blind: true,
      instances: [{ name: problem, track: p.track, n: p.n, config: p.bands, hidden: true }],
      solvers: [{ name, command }],
      seeds: [seed],
      budget: { evaluations: competition.definition.evaluations },
    });
    const [run] = expandGrid(spec);
    const outcome = await runInline(run, { gate: commandLineGate(), context: { project: null, folder, action: 'a local run for the test' } });
    expect(outcome.status, outcome.error ?? '').toBe('done');
    return outcome.result!;
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

/** The hostile-solver fixture's well-behaved twin: tests/fixtures/external/fake-solver.mjs. */
export const FAKE_SOLVER = path.join(ROOT, 'tests', 'fixtures', 'external', 'fake-solver.mjs');

/** The one sequence fake-solver.mjs's `same` mode asks for, N long: faces 1 to 6 in turn. */
export function sameSequence(n: number): string {
  return Array.from({ length: n }, (_, i) => String(1 + (i % 6))).join('');
}

/** `saikoro competition ARGS...` in `cwd` (in-process), which must succeed. */
export async function competitionCli(cwd: string, ...args: string[]): Promise<string> {
  const r = await runCli(['competition', ...args], { cwd });
  expect(r.code, `competition ${args.join(' ')}: ${r.stderr}`).toBe(0);
  return r.stdout;
}

/** The competition the server tests play: so and mo2 at N = 60, one instance each, 300 evaluations, two seeds. */
export async function newCompetition(cwd: string, file: string, secret: string): Promise<void> {
  await competitionCli(cwd, 'new', file, '--tracks', 'so,mo2', '--n', '60', '--instances', '1', '--budget', '300', '--seeds', '2', '--secret', secret);
}

/** Enters a remote entrant and returns its token (competition enter --remote, competition token). */
export async function enterRemote(cwd: string, file: string, name: string): Promise<string> {
  await competitionCli(cwd, 'enter', file, '--name', name, '--remote');
  return (await competitionCli(cwd, 'token', file, '--entrant', name)).trim();
}

/** A program entrant: a command run in a folder holding `files` (copied there), as an organiser enters one. */
export interface ProgramEntry {
  name: string;
  command: string;
  files: string[];
}

/** Enters a program with competition enter --dir --command, its folder `entry-NAME` beside the file. */
export async function enterProgram(cwd: string, file: string, entry: ProgramEntry): Promise<void> {
  const dir = path.join(cwd, `entry-${entry.name}`);
  fs.mkdirSync(dir, { recursive: true });
  for (const f of entry.files) fs.copyFileSync(f, path.join(dir, path.basename(f)));
  await competitionCli(cwd, 'enter', file, '--name', entry.name, '--dir', `entry-${entry.name}`, '--command', entry.command);
}

/**
 * The report of the same competition (newCompetition with `secret`) with these entrants entered
 * as programs (or built-in solvers) and run by `competition run`: what the served standings must equal.
 */
export async function localCompetition(
  cwd: string,
  file: string,
  secret: string,
  entrants: (ProgramEntry | { name: string; solver: string })[],
): Promise<Record<string, unknown>> {
  await newCompetition(cwd, file, secret);
  for (const e of entrants)
    if ('solver' in e) await competitionCli(cwd, 'enter', file, '--name', e.name, '--solver', e.solver);
    else await enterProgram(cwd, file, e);
  await competitionCli(cwd, 'run', file, '--jobs', '1');
  const project = Project.open(path.join(cwd, file), { readOnly: true });
  try {
    return JSON.parse(JSON.stringify(buildCompetitionReport(project, competitionOf(project))));
  } finally {
    project.close();
  }
}

/** An entrant's runs in a competition file (remote or not), in the grid's order, with what is stored of each. */
export function storedRuns(file: string, entrant: string): { problem: string; seed: number; record: RunRecord | null }[] {
  const project = Project.open(file, { readOnly: true });
  try {
    const grid = competitionGrid(project).filter((r) => r.label === entrant);
    const stored = new Map(project.runs(grid.map((r) => r.id)).map((r) => [r.id, r]));
    return grid.map((r) => ({ problem: r.instance, seed: r.seed, record: stored.get(r.id) ?? null }));
  } finally {
    project.close();
  }
}

/** startAppServer serving the competition file `cwd/file` on 127.0.0.1 (a port of its own), with a stand-in renderer. */
export async function serveCompetition(
  cwd: string,
  file: string,
  organiser: string,
  options: { limits?: Partial<RemoteLimits>; heartbeatSeconds?: number } = {},
): Promise<AppServer> {
  fs.mkdirSync(path.join(cwd, 'renderer'), { recursive: true });
  fs.writeFileSync(path.join(cwd, 'renderer', 'index.html'), '<!doctype html><title>renderer</title>');
  return startAppServer({
    port: 0,
    rendererDir: path.join(cwd, 'renderer'),
    build: 'never',
    workspace: cwd,
    token: organiser,
    parallelism: 1,
    competition: { file: path.join(cwd, file), ...options },
  });
}

/** `python3 ARGS...` from the repository's root. */
export function runPython(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('python3', args, { cwd: ROOT, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The Python client beside the examples. */
export const CLIENT = path.join(ROOT, 'clients', 'python', 'saikoro_client.py');
/** local_search.py as an entrant runs it locally: its folder holds it and the client. */
export const PY_LOCAL = { command: ['python3', 'local_search.py'], files: [LOCAL_SEARCH, CLIENT] };
/** random_search.mjs as an entrant runs it locally. */
export const NODE_LOCAL = { command: ['node', 'random_search.mjs', '--batch', '100'], files: [RANDOM_SEARCH] };

/** The same two as program entrants of a local competition (localCompetition), named py and node. */
export const PY_PROGRAM: ProgramEntry = { name: 'py', command: PY_LOCAL.command.join(' '), files: PY_LOCAL.files };
export const NODE_PROGRAM: ProgramEntry = { name: 'node', command: NODE_LOCAL.command.join(' '), files: NODE_LOCAL.files };

/**
 * Served standings (the leaderboard's or `competition standings --json` of the served file) against
 * the local competition's report: every run done, the same standings, tests and ECDFs, these entrants.
 */
export function expectSameStandings(served: Record<string, unknown>, expected: Record<string, unknown>, entrants: string[], runs: number): void {
  expect(served.runs).toEqual({ total: runs, done: runs, failed: 0, live: 0, missing: 0 });
  expect(served.standings).toEqual(expected.standings);
  expect(served.friedman).toEqual(expected.friedman);
  expect(served.pairwise).toEqual(expected.pairwise);
  expect(served.ecdfs).toEqual(expected.ecdfs);
  expect(served.contradictions).toEqual([]);
  expect((served.standings as { entrant: string }[]).map((s) => s.entrant).sort()).toEqual([...entrants].sort());
}

/** What the standings and ECDFs read of a result (no wall times, no program record or log). */
export function comparable(result: SolverResult | null): unknown {
  if (result === null) return null;
  const { seconds, trace, program, log, ...rest } = result;
  void seconds;
  void program;
  void log;
  return { ...rest, trace: trace.map(({ seconds: s, ...point }) => (void s, point)) };
}

/** examples/solvers/random_search.mjs's generator (splitmix32 seeded with the run's seed). */
export function generator(seed: number): () => number {
  let state = seed % 2 ** 32 >>> 0;
  return () => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return ((z ^ (z >>> 16)) >>> 0) / 2 ** 32;
  };
}

export interface Hello {
  protocol: 1;
  problem: { n: number; lower: number; upper: number; objectives: number; constraints: number; track?: unknown; config?: unknown };
  budget: { evaluations: number };
  seed: number;
  remaining: number;
}

export interface Answer {
  results?: ({ objective: number | number[]; constraint: number[]; feasible: boolean } | { error: string })[];
  remaining?: number;
  stop?: string;
  error?: string;
  retry?: number;
}

/** A WebSocket that queues its messages, so a test reads them in order with next(). */
export class Socket {
  readonly ws: WebSocket;
  private readonly messages: string[] = [];
  private readonly waiters: ((m: string | null) => void)[] = [];
  closed: { code: number; reason: string } | null = null;
  refused: Promise<{ status: number; body: string }>;
  readonly opened: Promise<boolean>;

  constructor(url: string, headers: Record<string, string> = {}) {
    this.ws = new WebSocket(url, { headers });
    let refuse: (r: { status: number; body: string }) => void = () => {};
    this.refused = new Promise((resolve) => (refuse = resolve));
    this.opened = new Promise((resolve) => {
      this.ws.on('open', () => resolve(true));
      this.ws.on('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c));
        res.on('end', () => {
          refuse({ status: res.statusCode ?? 0, body });
          resolve(false);
        });
      });
      this.ws.on('error', () => resolve(false));
    });
    this.ws.on('message', (data) => {
      const text = String(data);
      const waiter = this.waiters.shift();
      if (waiter) waiter(text);
      else this.messages.push(text);
    });
    this.ws.on('close', (code, reason) => {
      this.closed = { code, reason: String(reason) };
      for (const w of this.waiters.splice(0)) w(null);
    });
  }

  /** The next message (parsed), or null once the socket has closed. */
  next<T = Answer>(): Promise<T | null> {
    const m = this.messages.shift();
    if (m !== undefined) return Promise.resolve(JSON.parse(m) as T);
    if (this.closed) return Promise.resolve(null);
    return new Promise((resolve) => this.waiters.push((text) => resolve(text === null ? null : (JSON.parse(text) as T))));
  }

  send(message: unknown): void {
    this.ws.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      this.ws.once('close', () => resolve());
      this.ws.close();
    });
  }
}

export function wsUrl(origin: string, problem: string, query = ''): string {
  return `${origin.replace(/^http/, 'ws')}api/competition/${problem}${query}`;
}

export const bearer = (token: string): Record<string, string> => ({ Authorization: `Bearer ${token}` });

/** A WebSocket on a problem (with the token in its header) and its hello; throws with the refusal if the server refused it. */
export async function openPlay(origin: string, token: string, problem: string, query = ''): Promise<{ socket: Socket; hello: Hello }> {
  const socket = new Socket(wsUrl(origin, problem, query), bearer(token));
  if (!(await socket.opened)) {
    const refused = await socket.refused;
    throw new Error(`refused ${refused.status}: ${refused.body}`);
  }
  return { socket, hello: (await socket.next<Hello>())! };
}

/** GET /api/competition with the token: an entrant's own history, or every remote entrant's for the organiser. */
export async function competitionView(origin: string, token: string) {
  return (await fetch(`${origin}api/competition`, { headers: bearer(token) })).json();
}

/**
 * The Node entrant: random_search.mjs's requests (batches of `batch` from the run's seed) over
 * a WebSocket, until the stop. After a reconnection the hello's `remaining` says how much of the
 * budget is used, and the same random stream goes on from there (whole batches: the server
 * counted each answered batch once). `beforeRequest(k)` is awaited before the k-th request of
 * this socket (k from 0), the socket open (another entrant's turn, mid-run). Returns how many
 * evaluations it was answered on this socket.
 */
export async function playRandomSearch(
  origin: string,
  token: string,
  problem: string,
  options: { batch?: number; stopAfter?: number; beforeRequest?: (request: number) => Promise<void> } = {},
): Promise<{ hello: Hello; answered: number; stop: string | null; closed: boolean }> {
  const batch = options.batch ?? 100;
  const { socket, hello } = await openPlay(origin, token, problem);
  const { n, lower, upper } = hello.problem;
  const random = generator(hello.seed);
  const roll = () => lower + Math.floor(random() * (upper - lower + 1));
  const used = hello.budget.evaluations - hello.remaining;
  expect(used % batch).toBe(0);
  for (let k = 0; k < used / batch; k++) for (let i = 0; i < batch * n; i++) roll();
  let answered = 0;
  for (let requests = 0; ; requests++) {
    if (options.stopAfter !== undefined && requests >= options.stopAfter) {
      await socket.close();
      return { hello, answered, stop: null, closed: false };
    }
    await options.beforeRequest?.(requests);
    socket.send({ evaluate: Array.from({ length: batch }, () => Array.from({ length: n }, roll).join('')) });
    const answer = await socket.next();
    if (answer === null) return { hello, answered, stop: null, closed: true };
    expect(answer.error).toBeUndefined();
    answered += answer.results!.length;
    if (answer.stop) {
      await socket.close();
      return { hello, answered, stop: answer.stop, closed: false };
    }
  }
}
