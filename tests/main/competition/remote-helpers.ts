// What the competition-server tests share: a competition file made through the CLI, the local
// run of a program on a competition problem (the executor experiment run uses, blind), results
// compared on what the standings read, and a Node entrant: examples/solvers/random_search.mjs's
// random search over a real WebSocket, which resumes after a reconnection from the hello.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { expect } from 'vitest';
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

/** The Python client beside the examples. */
export const CLIENT = path.join(ROOT, 'clients', 'python', 'saikoro_client.py');
/** local_search.py as an entrant runs it locally: its folder holds it and the client. */
export const PY_LOCAL = { command: ['python3', 'local_search.py'], files: [LOCAL_SEARCH, CLIENT] };
/** random_search.mjs as an entrant runs it locally. */
export const NODE_LOCAL = { command: ['node', 'random_search.mjs', '--batch', '100'], files: [RANDOM_SEARCH] };

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

/**
 * The Node entrant: random_search.mjs's requests (batches of `batch` from the run's seed) over
 * a WebSocket, until the stop. After a reconnection the hello's `remaining` says how much of the
 * budget is used, and the same random stream goes on from there (whole batches: the server
 * counted each answered batch once). Returns how many evaluations it was answered on this socket.
 */
export async function playRandomSearch(
  origin: string,
  token: string,
  problem: string,
  options: { batch?: number; stopAfter?: number } = {},
): Promise<{ hello: Hello; answered: number; stop: string | null; closed: boolean }> {
  const batch = options.batch ?? 100;
  const socket = new Socket(wsUrl(origin, problem), { Authorization: `Bearer ${token}` });
  if (!(await socket.opened)) {
    const refused = await socket.refused;
    throw new Error(`refused ${refused.status}: ${refused.body}`);
  }
  const hello = (await socket.next<Hello>())!;
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
