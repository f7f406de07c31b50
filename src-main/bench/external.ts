/**
 * `saikoro bench external`: the external-solver protocol's cost per evaluation
 * (docs/external-solvers.md). The same random search at N = 840 (single objective, the whole
 * budget, batches of 100) runs twice through the one driver in this process: once as the
 * built-in `random` solver, once as a tiny Node program speaking the protocol over a pipe
 * (src-main/host/program-process.ts). Evaluations per second of each, and the difference per
 * evaluation: what the pipe, the JSON and the second process add.
 */
import { trackConfig } from '../../src-shared/problems/dice/config.ts';
import { RunClock } from '../../src-shared/core/control.ts';
import { drive } from '../../src-shared/core/driver.ts';
import { givenProgramSolver } from '../../src-shared/solvers/program/solver.ts';
import { DiceProblem } from '../../src-shared/problems/dice/problem.ts';
import { SolverRun, type GivenSolver } from '../../src-shared/solvers/solver-run.ts';
import { launchProgram } from '../host/program-process.ts';
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
}

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
async function timeRun(evaluations: number, solver: (problem: DiceProblem) => string | GivenSolver, params: Record<string, number>): Promise<{ total: number; withoutEvaluation: number }> {
  const problem = new TimedProblem(trackConfig('so', N));
  const clock = new RunClock();
  const start = performance.now();
  const run = new SolverRun(problem, solver(problem), params, 1, { maxEvaluations: evaluations }, { clock });
  const result = await drive(run, run.termination, { clock });
  const ms = performance.now() - start;
  if (result.evaluations !== evaluations) throw new Error(`bench external: ${result.solver} stopped after ${result.evaluations} evaluations: ${result.message}`);
  return { total: (evaluations * 1000) / ms, withoutEvaluation: (evaluations * 1000) / (ms - problem.evaluationMs) };
}

export const externalBench: BenchSuite = {
  async run(context) {
    const evaluations = context.quick ? 5_000 : 100_000;
    const repeats = context.quick ? 1 : 3;
    const inProcess: { total: number; withoutEvaluation: number }[] = [];
    const external: { total: number; withoutEvaluation: number }[] = [];
    const program = { command: [process.execPath, '-e', RANDOM_PROGRAM], grace: 5 };
    for (let r = 0; r < repeats; r++) {
      context.progress(`external: in-process random search, ${evaluations} evaluations (${r + 1}/${repeats})`);
      inProcess.push(await timeRun(evaluations, () => 'random', { batch: BATCH }));
      context.progress(`external: the same through the protocol (${r + 1}/${repeats})`);
      external.push(await timeRun(evaluations, (problem) => givenProgramSolver('bench-random', program, launchProgram, problem.config), {}));
    }
    const best = (rates: { total: number; withoutEvaluation: number }[], key: 'total' | 'withoutEvaluation') => Math.round(Math.max(...rates.map((r) => r[key])));
    const figures: ExternalBenchFigures = {
      n: N,
      batch: BATCH,
      evaluations,
      inProcessPerSecond: best(inProcess, 'total'),
      externalPerSecond: best(external, 'total'),
      inProcessWithoutEvaluationPerSecond: best(inProcess, 'withoutEvaluation'),
      pipeWithoutEvaluationPerSecond: best(external, 'withoutEvaluation'),
      overheadMicroseconds: Math.round((1e6 / best(external, 'total') - 1e6 / best(inProcess, 'total')) * 100) / 100,
    };
    return {
      tables: [
        {
          title: `External-solver protocol at N = ${N}, batches of ${BATCH} (random search, ${evaluations.toLocaleString('en-US')} evaluations, best of ${repeats})`,
          columns: ['solver', 'evaluations/s', 'µs per evaluation', 'evaluations/s without the evaluator\'s time'],
          rows: [
            ['built-in random (in process)', figures.inProcessPerSecond, Math.round((1e6 / figures.inProcessPerSecond) * 100) / 100, figures.inProcessWithoutEvaluationPerSecond],
            ['Node program through the pipe', figures.externalPerSecond, Math.round((1e6 / figures.externalPerSecond) * 100) / 100, figures.pipeWithoutEvaluationPerSecond],
            ['difference (the protocol)', '', figures.overheadMicroseconds, ''],
          ],
          notes: [
            'Both through the one driver in this process. The program draws its sequences in its own process, in parallel with the evaluation here, so on an idle multi-core machine the difference can even be negative.',
            '"Without the evaluator\'s time": the run\'s wall time minus the time inside the evaluator: for the program, the pipe, the JSON both ways and the waits on the other process.',
          ],
        },
      ],
      json: figures,
    };
  },
};
