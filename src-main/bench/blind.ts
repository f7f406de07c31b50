/**
 * `saikoro bench blind`: how close each track's default solver comes, blind, to its sighted
 * self on hidden instances (issue 26). A blind run gets only N, M, L, the budget, the seed and
 * the answers, and learns the bands from the answers (src-shared/solvers/band-learner.ts); a
 * sighted one reads them from the config. Both run the same seeds on the same instances,
 * through the solver host's worker pool (as many in parallel as there are cores).
 *
 * The instances are the competition's secret draws (src-shared/competition/suite.ts,
 * problemConfig; docs/competition.md states the distribution): instances 1..K at length N under
 * the bench's own secret BENCH_SECRET, which is public, so anyone can draw the same ones.
 *
 * Per instance and track: the median over the seeds of the best feasible f (one objective;
 * blind / sighted, lower is better, the aim is at most 1.10) or of the hypervolume of the final
 * feasible front (several; blind / sighted, higher is better), normalised by the competition's
 * fixed score reference (src-shared/competition/score-reference.ts), and the median wall time
 * of a run inside its worker, blind and sighted.
 *
 * Settings come from the environment (the bench command has no per-suite options):
 *   SAIKORO_BENCH_TRACKS     tracks (default so,mo2,mo3,mo5,mo7; --quick so,mo2)
 *   SAIKORO_BENCH_N          sequence length (default 840; --quick 120)
 *   SAIKORO_BENCH_INSTANCES  hidden instances per track, 1..K (default 5; --quick 2)
 *   SAIKORO_BENCH_BUDGETS    evaluation budgets, comma-separated (default 20000; --quick 2000)
 *   SAIKORO_BENCH_SEEDS      runs per instance and mode (default 5; --quick 2)
 *   SAIKORO_BENCH_PARALLEL   parallel runs (default: the number of cores)
 */
import { TRACK_NAMES, type TrackName } from '../../src-shared/problems/dice/config.ts';
import { problemConfig } from '../../src-shared/competition/suite.ts';
import { scoreHypervolume } from '../../src-shared/competition/score-reference.ts';
import { DEFAULT_SOLVERS } from '../../src-shared/solvers/registry.ts';
import type { SolverResult } from '../../src-shared/solvers/types.ts';
import { quantileOfSorted } from '../../src-shared/stats/summary.ts';
import { defaultParallelism, type RunOutcome } from '../host/pool.ts';
import { planDiceRun, type DiceRunPlan } from '../app/dice.ts';
import { Launcher } from '../app/launcher.ts';
import { nodeSpawner, type WorkerSpawner } from '../host/spawner.ts';
import { envReaders, formatNumber, type BenchContext, type BenchSuite, type BenchTable } from './suite.ts';

/** The bench's secret: public, so the hidden instances it measures on can be drawn by anyone. */
export const BENCH_SECRET = 'saikoro-bench-blind';

export interface BlindBenchOptions {
  tracks: TrackName[];
  n: number;
  instances: number;
  budgets: number[];
  seeds: number;
  parallelism: number;
}

export function blindBenchOptions(env: NodeJS.ProcessEnv, quick: boolean): BlindBenchOptions {
  const { integer, list } = envReaders(env);
  const tracks = (list('SAIKORO_BENCH_TRACKS') ?? (quick ? ['so', 'mo2'] : [...TRACK_NAMES])).map((t) => {
    if (!(TRACK_NAMES as readonly string[]).includes(t)) throw new Error(`SAIKORO_BENCH_TRACKS: unknown track "${t}" (known: ${TRACK_NAMES.join(', ')})`);
    return t as TrackName;
  });
  const budgets = (list('SAIKORO_BENCH_BUDGETS') ?? [quick ? '2000' : '20000']).map((b) => {
    const v = Number(b);
    if (!Number.isSafeInteger(v) || v < 1) throw new Error(`SAIKORO_BENCH_BUDGETS: "${b}" is not a positive integer`);
    return v;
  });
  return {
    tracks,
    n: integer('SAIKORO_BENCH_N', quick ? 120 : 840),
    instances: integer('SAIKORO_BENCH_INSTANCES', quick ? 2 : 5),
    budgets,
    seeds: integer('SAIKORO_BENCH_SEEDS', quick ? 2 : 5),
    parallelism: integer('SAIKORO_BENCH_PARALLEL', defaultParallelism()),
  };
}

/** One run's figure: best feasible f (Infinity without one) or the front's hypervolume (0 when empty). */
export interface BlindRunFigure {
  seed: number;
  blind: boolean;
  value: number;
  seconds: number;
  evaluations: number;
  status: RunOutcome['status'];
  reason: string | null;
}

export interface BlindCell {
  track: TrackName;
  instance: number;
  budget: number;
  solver: string;
  sighted: BlindRunFigure[];
  blind: BlindRunFigure[];
  /** Medians over the seeds. */
  sightedMedian: number;
  blindMedian: number;
  /** blind / sighted: f ratio (one objective, lower is better), HV ratio (several, higher is better). */
  ratio: number | null;
  sightedSeconds: number;
  blindSeconds: number;
}

export interface BlindBenchResult {
  options: BlindBenchOptions;
  cells: BlindCell[];
}

const median = (values: readonly number[]) =>
  quantileOfSorted(
    [...values].sort((a, b) => a - b),
    0.5,
  );

/** blind / sighted, or null when it says nothing (both infeasible, both fronts empty). */
export function blindRatio(single: boolean, blind: number, sighted: number): number | null {
  if (single) {
    if (!Number.isFinite(sighted)) return Number.isFinite(blind) ? 0 : null;
    if (!Number.isFinite(blind)) return Infinity;
    return sighted > 0 ? blind / sighted : blind > 0 ? Infinity : 1;
  }
  return sighted > 0 ? blind / sighted : blind > 0 ? Infinity : null;
}

function figureOf(track: TrackName, n: number, seed: number, blind: boolean, outcome: RunOutcome<SolverResult>): BlindRunFigure {
  const single = track === 'so';
  const r = outcome.result;
  if (outcome.status !== 'done' || !r)
    return {
      seed,
      blind,
      value: single ? Infinity : 0,
      seconds: r?.seconds ?? 0,
      evaluations: r?.evaluations ?? 0,
      status: outcome.status,
      reason: outcome.reason,
    };
  const value = single
    ? r.best && r.best.feasible
      ? r.best.objectives[0]
      : Infinity
    : scoreHypervolume(
        r.front.map((s) => s.objectives),
        track,
        n,
      );
  return { seed, blind, value, seconds: r.seconds, evaluations: r.evaluations, status: outcome.status, reason: null };
}

/** Runs every (track, instance, budget, seed, sighted/blind) through one worker pool. */
export async function runBlindBench(
  options: BlindBenchOptions,
  progress: (message: string) => void,
  spawn: WorkerSpawner = nodeSpawner(),
): Promise<BlindBenchResult> {
  interface Planned {
    track: TrackName;
    instance: number;
    budget: number;
    seed: number;
    blind: boolean;
    plan: DiceRunPlan;
  }
  const planned: Planned[] = [];
  for (const track of options.tracks) {
    for (let instance = 1; instance <= options.instances; instance++) {
      const config = problemConfig(BENCH_SECRET, track, options.n, instance);
      for (const budget of options.budgets)
        for (let seed = 1; seed <= options.seeds; seed++)
          for (const blind of [false, true]) {
            // The whole budget (no stop at f = 0), without the trace's hypervolume (the solver timed alone).
            const plan = planDiceRun({
              config,
              solver: DEFAULT_SOLVERS[track],
              seed,
              evaluations: budget,
              wholeBudget: true,
              snapshotIntervalMs: 1000,
              traceHypervolume: false,
              ...(blind ? { blind: true } : {}),
            });
            planned.push({ track, instance, budget, seed, blind, plan });
          }
    }
  }
  const launcher = new Launcher({ spawn, parallelism: options.parallelism });
  const outcomes: RunOutcome<SolverResult>[] = new Array(planned.length);
  let finished = 0;
  try {
    progress(`blind: ${planned.length} runs on ${launcher.parallelism} worker(s)`);
    await Promise.all(
      planned.map(async (p, i) => {
        outcomes[i] = await launcher.start(p.plan).outcome;
        finished++;
        const o = outcomes[i];
        progress(
          `blind: ${finished}/${planned.length}  ${p.track} instance ${p.instance} ${p.blind ? 'blind' : 'sighted'} budget ${p.budget} seed ${p.seed}: ${o.status === 'done' ? o.result!.message : `${o.status}: ${o.reason}`}`,
        );
      }),
    );
  } finally {
    launcher.dispose();
  }
  const cells = new Map<string, BlindCell>();
  planned.forEach((p, i) => {
    const key = `${p.track}|${p.instance}|${p.budget}`;
    let cell = cells.get(key);
    if (!cell) {
      cell = {
        track: p.track,
        instance: p.instance,
        budget: p.budget,
        solver: DEFAULT_SOLVERS[p.track],
        sighted: [],
        blind: [],
        sightedMedian: NaN,
        blindMedian: NaN,
        ratio: null,
        sightedSeconds: NaN,
        blindSeconds: NaN,
      };
      cells.set(key, cell);
    }
    (p.blind ? cell.blind : cell.sighted).push(figureOf(p.track, options.n, p.seed, p.blind, outcomes[i]));
  });
  for (const cell of cells.values()) {
    cell.sightedMedian = median(cell.sighted.map((r) => r.value));
    cell.blindMedian = median(cell.blind.map((r) => r.value));
    cell.ratio = blindRatio(cell.track === 'so', cell.blindMedian, cell.sightedMedian);
    cell.sightedSeconds = median(cell.sighted.map((r) => r.seconds));
    cell.blindSeconds = median(cell.blind.map((r) => r.seconds));
  }
  return { options, cells: [...cells.values()] };
}

export function renderBlindBench(result: BlindBenchResult): BenchTable[] {
  const { options } = result;
  const tables: BenchTable[] = [];
  const show = (single: boolean, v: number) => (Number.isNaN(v) ? '-' : single ? (Number.isFinite(v) ? formatNumber(v) : 'infeasible') : v.toFixed(4));
  for (const track of options.tracks) {
    const single = track === 'so';
    for (const budget of options.budgets) {
      const cells = result.cells.filter((c) => c.track === track && c.budget === budget).sort((a, b) => a.instance - b.instance);
      const what = single ? 'f' : 'HV';
      const rows = cells.map((c) => [
        `${track}-n${options.n}-i${c.instance}`,
        show(single, c.sightedMedian),
        show(single, c.blindMedian),
        c.ratio === null ? '-' : c.ratio.toFixed(3),
        c.sightedSeconds.toFixed(2),
        c.blindSeconds.toFixed(2),
      ]);
      const ratios = cells.map((c) => c.ratio).filter((r): r is number => r !== null && Number.isFinite(r));
      const notes = [
        `${DEFAULT_SOLVERS[track]} (the track's default), ${options.seeds} seeds (1..${options.seeds}) per instance, sighted and blind, ${formatNumber(budget)} evaluations each; hidden instances 1..${options.instances} drawn by the competition's generator under the public secret "${BENCH_SECRET}" (problemConfig). Medians over the seeds; wall time is a run's time inside its worker, ${options.parallelism} runs in parallel.`,
        single
          ? 'Ratio = median best feasible f blind / sighted (lower is better for blind; the aim is at most 1.10).'
          : "Ratio = median hypervolume blind / sighted (higher is better for blind), the final feasible front normalised by the competition's fixed score reference for the track and N.",
      ];
      if (ratios.length) {
        const sorted = [...ratios].sort((a, b) => a - b);
        notes.push(
          `Over the instances: median ratio ${median(sorted).toFixed(3)}, from ${sorted[0].toFixed(3)} to ${sorted[sorted.length - 1].toFixed(3)}; median wall time blind / sighted ${(median(cells.map((c) => c.blindSeconds)) / median(cells.map((c) => c.sightedSeconds))).toFixed(2)}.`,
        );
      }
      const failed = cells.flatMap((c) =>
        [...c.sighted, ...c.blind]
          .filter((r) => r.status !== 'done')
          .map((r) => `instance ${c.instance} ${r.blind ? 'blind' : 'sighted'} seed ${r.seed}: ${r.status}: ${r.reason}`),
      );
      if (failed.length) notes.push(`Runs that did not finish: ${failed.join('; ')}.`);
      tables.push({
        title: `${track === 'so' ? 'SO' : `M = ${track.slice(2)}`}, N = ${options.n}, ${formatNumber(budget)} evaluations: ${DEFAULT_SOLVERS[track]} blind against sighted on hidden instances`,
        columns: ['instance', `median ${what} sighted`, `median ${what} blind`, 'blind / sighted', 'wall s sighted', 'wall s blind'],
        rows,
        notes,
      });
    }
  }
  return tables;
}

export const blindBench: BenchSuite = {
  async run(context: BenchContext) {
    const options = blindBenchOptions(process.env, context.quick);
    const result = await runBlindBench(options, context.progress);
    return { tables: renderBlindBench(result), json: result };
  },
};
