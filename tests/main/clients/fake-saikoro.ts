/**
 * Saikoro's side of the external-solver protocol (issue 18, version 1), played by a test: it
 * starts a program, sends the first line, answers its evaluate requests with the real
 * evaluator, counts the budget, cuts the batch that would pass it and answers it with
 * `"stop": "budget"`, then closes the program's stdin and ends it after a grace period. It
 * records everything the program wrote, so tests can check what a client sends without the
 * solver host. The real runner is src-main's; this one exists to test the clients against the
 * protocol as the issue defines it.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { diceConfig, type TrackName } from '../../../src-shared/problems/dice/config.ts';
import { DiceEvaluator } from '../../../src-shared/problems/dice/evaluate.ts';
import { SequenceError } from '../../../src-shared/problems/dice/sequence.ts';

export interface FakeRunOptions {
  command: string[];
  cwd?: string;
  track?: TrackName;
  n?: number;
  budget: number;
  seed?: number;
  blind?: boolean;
  /** Replaces the first line entirely (to test refusals). */
  firstLine?: string;
  /** Answer the K-th request (1-based) with `"stop": "cancelled"` and no results. */
  cancelAtRequest?: number;
  /** Close stdin instead of answering the K-th request (1-based). */
  closeAtRequest?: number;
  /** Milliseconds between closing stdin and SIGTERM (default 3000), then as long to SIGKILL. */
  graceMs?: number;
}

export interface ProtocolResult {
  objective?: number | number[];
  constraint?: number[];
  feasible?: boolean;
  error?: string;
}

export interface FakeRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Every evaluate request, as sent. */
  requests: unknown[][];
  /** The answers, as sent. */
  answers: { results: ProtocolResult[]; remaining: number; stop?: string }[];
  /** Evaluations counted (valid sequences answered). */
  evaluations: number;
  logs: string[];
  /** stdout lines that were neither evaluate nor log requests. */
  otherLines: string[];
  stderr: string;
  /** Whether the program had to be terminated after the grace period. */
  terminated: boolean;
  /** The best feasible sequence (SO, ties to the first) of everything evaluated. */
  best?: { x: string; f: number };
}

export function runFakeSaikoro(options: FakeRunOptions): Promise<FakeRun> {
  const track = options.track ?? 'so';
  const n = options.n ?? 50;
  const config = diceConfig({ track, n });
  const evaluator = new DiceEvaluator(config);
  const problem: Record<string, unknown> = { n, lower: 1, upper: 6, objectives: config.objectives.length, constraints: config.constraints.length };
  if (!options.blind) Object.assign(problem, { track, config });
  const first = options.firstLine ?? JSON.stringify({ protocol: 1, problem, budget: { evaluations: options.budget }, seed: options.seed ?? 1 });
  const graceMs = options.graceMs ?? 3000;

  const child = spawn(options.command[0], options.command.slice(1), { cwd: options.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
  const run: FakeRun = { code: null, signal: null, requests: [], answers: [], evaluations: 0, logs: [], otherLines: [], stderr: '', terminated: false };
  let remaining = options.budget;
  let stopped = false;
  const timers: NodeJS.Timeout[] = [];
  child.stderr.on('data', (c: Buffer) => (run.stderr += c.toString('utf8')));
  child.stdin.on('error', () => {}); // the program may exit before reading everything

  const stop = () => {
    stopped = true;
    child.stdin.end();
    timers.push(
      setTimeout(() => {
        run.terminated = true;
        child.kill('SIGTERM');
        timers.push(setTimeout(() => child.kill('SIGKILL'), graceMs));
      }, graceMs),
    );
  };

  const answer = (sequences: unknown[]) => {
    const results: ProtocolResult[] = [];
    let cut = false;
    for (const x of sequences) {
      if (remaining === 0) {
        cut = true;
        break;
      }
      try {
        if (typeof x !== 'string') throw new SequenceError(`a sequence must be a string of digits 1-6, got ${typeof x}`);
        const e = evaluator.evaluate(x);
        results.push({ objective: e.objectives.length === 1 ? e.objectives[0] : e.objectives, constraint: e.constraints, feasible: e.feasible });
        remaining--;
        run.evaluations++;
        if (e.feasible && e.objectives.length === 1 && (!run.best || e.objectives[0] < run.best.f)) run.best = { x, f: e.objectives[0] };
      } catch (err) {
        if (!(err instanceof SequenceError)) throw err;
        results.push({ error: err.message });
      }
    }
    // The batch that reaches the budget carries the stop, as does one that was cut.
    const message = cut || remaining === 0 ? { results, remaining, stop: 'budget' } : { results, remaining };
    run.answers.push(message);
    child.stdin.write(JSON.stringify(message) + '\n');
    if (message.stop) stop();
  };

  createInterface({ input: child.stdout }).on('line', (line) => {
    let message: { evaluate?: unknown; log?: unknown };
    try {
      message = JSON.parse(line);
    } catch {
      run.otherLines.push(line);
      return;
    }
    if (typeof message.log === 'string') run.logs.push(message.log);
    else if (Array.isArray(message.evaluate)) {
      run.requests.push(message.evaluate);
      if (stopped) return;
      const k = run.requests.length;
      if (k === options.closeAtRequest) stop();
      else if (k === options.cancelAtRequest) {
        const cancelled = { results: [], remaining, stop: 'cancelled' };
        run.answers.push(cancelled);
        child.stdin.write(JSON.stringify(cancelled) + '\n');
        stop();
      } else answer(message.evaluate);
    } else run.otherLines.push(line);
  });

  child.stdin.write(first + '\n');
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      for (const t of timers) clearTimeout(t);
      run.code = code;
      run.signal = signal;
      resolve(run);
    });
  });
}
