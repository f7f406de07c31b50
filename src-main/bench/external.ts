/**
 * `saikoro bench external`: the external-solver protocol's cost per evaluation
 * (docs/external-solvers.md). The same random search at N = 840 (single objective, the whole
 * budget, batches of 100) runs twice through the one driver in this process: once as the
 * built-in `random` solver, once as a tiny Node program speaking the protocol over a pipe
 * (src-main/host/program-process.ts), in its sandbox where the machine has bubblewrap.
 * Evaluations per second of each, and the difference per evaluation: what the pipe, the JSON and
 * the second process add. And what a program's start costs: from the launch to its first
 * request, in the sandbox (the folder copied, bwrap's namespaces) and without it.
 */
import { trackConfig } from '../../src-shared/problems/dice/config.ts';
import { RunClock } from '../../src-shared/core/control.ts';
import { drive } from '../../src-shared/core/driver.ts';
import { givenProgramSolver } from '../../src-shared/solvers/program/solver.ts';
import { DiceProblem } from '../../src-shared/problems/dice/problem.ts';
import { SolverRun, type GivenSolver } from '../../src-shared/solvers/solver-run.ts';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launchProgram, type LaunchOptions } from '../host/program-process.ts';
import { sandboxSupport } from '../host/sandbox.ts';
import { helloMessage } from '../../src-shared/solvers/program/protocol.ts';
import type { BenchSuite } from './suite.ts';

const N = 840;
const BATCH = 100;

/**
 * The external solver: random sequences from a seeded xorshift, BATCH per request, until the
 * answer says stop or stdin ends. Written to cost little itself, so the figure is the protocol's.
 */
const RANDOM_PROGRAM = `
let buffer = '', n = 0, state = 1;
const faces = '123456';
const next = () => { state ^= state << 13; state ^= state >>> 17; state ^= state << 5; return state >>> 0; };
const ask = () => {
  const batch = new Array(${BATCH});
  for (let b = 0; b < ${BATCH}; b++) { let s = ''; for (let i = 0; i < n; i++) s += faces[next() % 6]; batch[b] = s; }
  process.stdout.write(JSON.stringify({ evaluate: batch }) + '\\n');
};
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  buffer += chunk;
  let nl;
  while ((nl = buffer.indexOf('\\n')) >= 0) {
    const line = buffer.slice(0, nl);
    buffer = buffer.slice(nl + 1);
    if (n === 0) { const hello = JSON.parse(line); n = hello.problem.n; state = (hello.seed * 2654435761) >>> 0 || 1; ask(); continue; }
    if (line.includes('"stop"')) process.exit(0);
    ask();
  }
});
process.stdin.on('end', () => process.exit(0));
`;

export interface ExternalBenchFigures {
  n: number;
  batch: number;
  evaluations: number;
  /** Evaluations per second of the whole run, in process and through the pipe. */
  inProcessPerSecond: number;
  externalPerSecond: number;
  /**
   * The same with the evaluator's own time taken out: what the solver around it costs. For the
   * program, the protocol (pipe, JSON both ways, waiting on the other process): the figure the
   * issue asks >= 50,000 of.
   */
  inProcessWithoutEvaluationPerSecond: number;
  pipeWithoutEvaluationPerSecond: number;
  /** Microseconds the protocol adds to each evaluation (external minus in-process time per evaluation). */
  overheadMicroseconds: number;
  /** The sandbox the program ran in ("bubblewrap 0.8.0"), or why none. */
  sandbox: string;
  /** Milliseconds from the launch to the program's first request (median of `starts`): in the sandbox (null without one) and without it. */
  startSandboxedMs: number | null;
  startPlainMs: number;
  starts: number;
}

/** Milliseconds from the launch of the program to its first request (the sandbox made, the process started). */
async function timeStart(folder: string, options: LaunchOptions): Promise<number> {
  const t0 = performance.now();
  const io = launchProgram({ command: [process.execPath, '-e', RANDOM_PROGRAM], cwd: folder }, { maxLineBytes: 8 * 1024 * 1024 }, options);
  io.write(`${JSON.stringify(helloMessage(trackConfig('so', N), 100, 1, true))}\n`);
  const first = await io.readLine(60_000);
  const ms = performance.now() - t0;
  await io.stop(1000);
  if (first === null) throw new Error('bench external: the program ended before its first request');
  return ms;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** The dice problem, timing its own evaluations. */
class TimedProblem extends DiceProblem {
  evaluationMs = 0;
  override evaluate(x: Uint8Array, F: Float64Array, G: Float64Array): void {
    const t0 = performance.now();
    super.evaluate(x, F, G);
    this.evaluationMs += performance.now() - t0;
  }
}

/** Evaluations per second of a whole run, and with the evaluator's time taken out. */
async function timeRun(
  evaluations: number,
  solver: (problem: DiceProblem) => string | GivenSolver,
  params: Record<string, number>,
): Promise<{ total: number; withoutEvaluation: number }> {
  const problem = new TimedProblem(trackConfig('so', N));
  const clock = new RunClock();
  const start = performance.now();
  const run = new SolverRun(problem, solver(problem), params, 1, { maxEvaluations: evaluations }, { clock });
  const result = await drive(run, run.termination, { clock });
  const ms = performance.now() - start;
  if (result.evaluations !== evaluations)
    throw new Error(`bench external: ${result.solver} stopped after ${result.evaluations} evaluations: ${result.message}`);
  return { total: (evaluations * 1000) / ms, withoutEvaluation: (evaluations * 1000) / (ms - problem.evaluationMs) };
}

export const externalBench: BenchSuite = {
  async run(context) {
    const evaluations = context.quick ? 5_000 : 100_000;
    const repeats = context.quick ? 1 : 3;
    const inProcess: { total: number; withoutEvaluation: number }[] = [];
    const external: { total: number; withoutEvaluation: number }[] = [];
    // The program's own folder (a sandbox copies it): an empty one.
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-bench-external-'));
    const program = { command: [process.execPath, '-e', RANDOM_PROGRAM], cwd: folder, grace: 5 };
    const support = sandboxSupport();
    const starts = context.quick ? 3 : 15;
    const startSandboxed: number[] = [];
    const startPlain: number[] = [];
    try {
      for (let r = 0; r < repeats; r++) {
        context.progress(`external: in-process random search, ${evaluations} evaluations (${r + 1}/${repeats})`);
        inProcess.push(await timeRun(evaluations, () => 'random', { batch: BATCH }));
        context.progress(`external: the same through the protocol (${r + 1}/${repeats})`);
        external.push(await timeRun(evaluations, (problem) => givenProgramSolver('bench-random', program, launchProgram, problem.config), {}));
      }
      context.progress(`external: a program's start, ${starts} times in the sandbox and without`);
      for (let r = 0; r < starts; r++) {
        if (support.available) startSandboxed.push(await timeStart(folder, { sandbox: 'auto' }));
        startPlain.push(await timeStart(folder, { sandbox: 'off' }));
      }
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
    const best = (rates: { total: number; withoutEvaluation: number }[], key: 'total' | 'withoutEvaluation') =>
      Math.round(Math.max(...rates.map((r) => r[key])));
    const figures: ExternalBenchFigures = {
      n: N,
      batch: BATCH,
      evaluations,
      inProcessPerSecond: best(inProcess, 'total'),
      externalPerSecond: best(external, 'total'),
      inProcessWithoutEvaluationPerSecond: best(inProcess, 'withoutEvaluation'),
      pipeWithoutEvaluationPerSecond: best(external, 'withoutEvaluation'),
      overheadMicroseconds: Math.round((1e6 / best(external, 'total') - 1e6 / best(inProcess, 'total')) * 100) / 100,
      sandbox: support.available ? support.version : `none: ${support.reason}`,
      startSandboxedMs: startSandboxed.length ? Math.round(median(startSandboxed) * 10) / 10 : null,
      startPlainMs: Math.round(median(startPlain) * 10) / 10,
      starts,
    };
    return {
      tables: [
        {
          title: `External-solver protocol at N = ${N}, batches of ${BATCH} (random search, ${evaluations.toLocaleString('en-US')} evaluations, best of ${repeats})`,
          columns: ['solver', 'evaluations/s', 'µs per evaluation', "evaluations/s without the evaluator's time"],
          rows: [
            [
              'built-in random (in process)',
              figures.inProcessPerSecond,
              Math.round((1e6 / figures.inProcessPerSecond) * 100) / 100,
              figures.inProcessWithoutEvaluationPerSecond,
            ],
            [
              'Node program through the pipe',
              figures.externalPerSecond,
              Math.round((1e6 / figures.externalPerSecond) * 100) / 100,
              figures.pipeWithoutEvaluationPerSecond,
            ],
            ['difference (the protocol)', '', figures.overheadMicroseconds, ''],
          ],
          notes: [
            `Both through the one driver in this process; the program in its sandbox (${figures.sandbox}). The program draws its sequences in its own process, in parallel with the evaluation here, so on an idle multi-core machine the difference can even be negative.`,
            '"Without the evaluator\'s time": the run\'s wall time minus the time inside the evaluator: for the program, the pipe, the JSON both ways and the waits on the other process.',
          ],
        },
        {
          title: `A program's start: from its launch to its first request (median of ${starts})`,
          columns: ['where', 'ms'],
          rows: [
            ['in the sandbox (folder copied, bwrap)', figures.startSandboxedMs ?? 'no sandbox here'],
            ['without a sandbox', figures.startPlainMs],
          ],
          notes: ['Node starting `node -e` with the protocol loop in an empty folder; the sandbox adds the scratch folder, bwrap and its namespaces.'],
        },
      ],
      json: figures,
    };
  },
};
