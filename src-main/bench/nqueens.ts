import type { BenchSuite, BenchTable } from './suite.ts';
import { median as sampleMedian } from '../../src-shared/stats/summary.ts';
import { defaultNeuralParams, slidesNeuralParams, type NeuralParams } from '../../src-shared/problems/nqueens/neural.ts';
import { defaultMinConflictsParams } from '../../src-shared/problems/nqueens/minconflicts.ts';
import { frameworkParams } from '../../src-shared/problems/nqueens/request.ts';
import type { MinConflictsParams } from '../../src-shared/problems/nqueens/minconflicts.ts';
import { runInProcessSync } from '../app/launcher.ts';
import { planNqueensRun } from '../app/nqueens.ts';

/**
 * One method run to its end in this process, planned as every N-Queens run (app/nqueens.ts)
 * and run through the launcher's in-process path; a failed run is a bench error.
 */
function solve(method: 'neural' | 'minconflicts', params: NeuralParams | MinConflictsParams, seed: number) {
  const outcome = runInProcessSync(planNqueensRun({ kind: 'nqueens', method, n: params.n, params: frameworkParams(method, params), seed }));
  if (!outcome.result) throw new Error(`nqueens ${method} N = ${params.n} seed ${seed}: ${outcome.reason}`);
  return outcome.result;
}

interface NeuralRow {
  preset: string;
  n: number;
  seeds: number;
  solved: number;
  medianSteps: number | null;
  maxSteps: number | null;
  medianSeconds: number;
  stepLimit: number;
  failures: Record<string, number>;
  params: NeuralParams;
}

interface MinConflictsRow {
  n: number;
  seeds: number;
  solved: number;
  medianSeconds: number;
  maxSeconds: number;
  medianSteps: number;
}

/** The median (src-shared/stats), null for no values. */
function median(xs: number[]): number | null {
  return xs.length ? sampleMedian(xs) : null;
}

function describeParams(p: NeuralParams): string {
  const kick =
    p.kick.length === 0 || p.kick.every === 0
      ? 'no kicks'
      : `kick C=${p.kick.value} x${p.kick.length} ${p.kick.every === 'auto' ? 'on repeat' : `every ${p.kick.every}`}`;
  return `${p.update}, A=${p.A}, B=${p.B}, C=${p.C}, ${kick}, ${p.clamp ? `|U|<=${p.clamp}` : 'U unbounded'}`;
}

function neuralRun(preset: string, make: (n: number) => NeuralParams, n: number, seeds: number, progress: (m: string) => void): NeuralRow {
  const params = make(n);
  const steps: number[] = [];
  const seconds: number[] = [];
  const failures: Record<string, number> = {};
  for (let seed = 1; seed <= seeds; seed++) {
    const o = solve('neural', params, seed);
    seconds.push(o.seconds);
    if (o.solved) steps.push(o.steps);
    else failures[o.failure ?? 'unknown'] = (failures[o.failure ?? 'unknown'] ?? 0) + 1;
  }
  const row: NeuralRow = {
    preset,
    n,
    seeds,
    solved: steps.length,
    medianSteps: median(steps),
    maxSteps: steps.length ? Math.max(...steps) : null,
    medianSeconds: median(seconds) ?? 0,
    stepLimit: params.maxSteps,
    failures,
    params,
  };
  progress(`  nqueens ${preset} N=${n}: ${row.solved}/${seeds} solved, median ${row.medianSteps ?? '-'} steps`);
  return row;
}

/**
 * The network's N values from SAIKORO_BENCH_NQUEENS_N: a comma list of N or ranges a-b, e.g.
 * "8-500" (every N from 8 to 500) or "8,16,100-120"; undefined when unset.
 */
export function nqueensBenchNs(raw: string | undefined): number[] | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const ns: number[] = [];
  for (const part of raw.split(',').map((s) => s.trim())) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part);
    const lo = m ? Number(m[1]) : NaN;
    const hi = m ? Number(m[2] ?? m[1]) : NaN;
    if (!m || lo < 4 || hi < lo || hi > 4000) throw new Error(`SAIKORO_BENCH_NQUEENS_N: "${part}" is not N or a range a-b with 4 <= a <= b <= 4000`);
    for (let n = lo; n <= hi; n++) ns.push(n);
  }
  return ns;
}

export const nqueensBench: BenchSuite = {
  async run({ quick, progress }) {
    const seeds = quick ? 3 : 20;
    const ns = nqueensBenchNs(process.env.SAIKORO_BENCH_NQUEENS_N) ?? (quick ? [8, 16, 32] : [8, 10, 12, 16, 20, 32, 50, 64, 100, 200, 500, 1000]);
    const slidesNs = quick ? [8, 10] : [8, 10, 12, 15, 20, 30, 50];
    const slidesLimit = 3000;
    const rows: NeuralRow[] = [];
    for (const n of ns) rows.push(neuralRun('default', defaultNeuralParams, n, seeds, progress));
    for (const n of slidesNs) rows.push(neuralRun('slides', (k) => ({ ...slidesNeuralParams(k), maxSteps: slidesLimit }), n, seeds, progress));

    const mcNs = quick ? [10_000, 100_000] : [1_000_000, 10_000_000];
    const mcSeeds = quick ? 2 : 3;
    const mcRows: MinConflictsRow[] = [];
    for (const n of mcNs) {
      const seconds: number[] = [];
      const steps: number[] = [];
      let solved = 0;
      for (let seed = 1; seed <= mcSeeds; seed++) {
        const o = solve('minconflicts', defaultMinConflictsParams(n), seed);
        seconds.push(o.seconds);
        steps.push(o.steps);
        if (o.solved) solved++;
        progress(`  nqueens min-conflicts N=${n} seed ${seed}: ${o.solved ? 'solved' : 'NOT solved'} in ${o.seconds.toFixed(2)} s`);
      }
      mcRows.push({ n, seeds: mcSeeds, solved, medianSeconds: median(seconds) ?? 0, maxSeconds: Math.max(...seconds), medianSteps: median(steps) ?? 0 });
    }

    const failureText = (f: Record<string, number>) =>
      Object.entries(f)
        .map(([mode, k]) => `${k} ${mode}`)
        .join(', ') || '-';
    const table = (preset: string, title: string): BenchTable => {
      const mine = rows.filter((r) => r.preset === preset);
      return {
        title,
        columns: ['N', 'solved', 'median steps', 'max steps', 'median time (s)', 'step limit', 'failures (mode)'],
        rows: mine.map((r) => [
          r.n,
          `${r.solved}/${r.seeds}`,
          r.medianSteps ?? '-',
          r.maxSteps ?? '-',
          Number(r.medianSeconds.toFixed(3)),
          r.stepLimit,
          failureText(r.failures),
        ]),
        notes: [
          `Parameters: ${describeParams(mine[0].params)}${preset === 'slides' ? ' (A = B = 1 for N <= 10, 0.8 to 14, 0.6 to 20, 0.5 beyond)' : ''}; threshold ${mine[0].params.threshold}, initial U uniform in threshold +- ${mine[0].params.initSpread}.`,
          `Seeds 1..${seeds}; a step updates all N*N neurons once; success verified independently of the network's counters. Failure modes: oscillation = outputs repeat with period 2, loop = longer period, stall = fixed non-solution, wander = no repeat seen in the last 64 steps.`,
        ],
      };
    };
    const tables: BenchTable[] = [
      table('default', 'N-Queens: hill-climbing network, lab default'),
      table('slides', 'N-Queens: hill-climbing network, the slides taken literally (synchronous)'),
      {
        title: 'N-Queens: min-conflicts (greedy start, permutation swaps, one core)',
        columns: ['N', 'solved', 'median time (s)', 'max time (s)', 'median repair steps'],
        rows: mcRows.map((r) => [r.n, `${r.solved}/${r.seeds}`, Number(r.medianSeconds.toFixed(2)), Number(r.maxSeconds.toFixed(2)), r.medianSteps]),
        notes: [
          `Seeds 1..${mcSeeds}; time includes the greedy start, the repair and the independent verification. Anchor: Sosic and Gu (1994), 3,000,000 queens in under 55 s.`,
        ],
      },
    ];
    return { tables, json: { neural: rows, minConflicts: mcRows, quick } };
  },
};
