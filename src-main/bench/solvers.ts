/**
 * `saikoro bench solvers` (`npm run bench:solvers`): solver quality at equal evaluations, with
 * wall time, on the default bands and weights; every run goes through the solver host's worker
 * pool, as many in parallel as there are cores. Median and interquartile range over the seeds.
 *
 *   so50    SO, N = 50: evaluations to the first feasible solution with f = 0 (runs stop there;
 *           a run that never gets there is censored at the cap).
 *   so840   SO, N = 840: best feasible f after each budget (20,000 and 1,000,000), wall time.
 *   so2520  SO, N = 2520: the same.
 *   mo2     M = 2, N = 840: hypervolume of the final feasible front after each budget.
 *   mo3     M = 3, N = 840: the same.
 *   so840time, mo2time   as so840 and mo2, but every run gets the same wall time instead of
 *           the same evaluations (default 10 s), to show what cheap incremental evaluations buy.
 *   random-so840, random-so2520, random-mo2, random-mo3   (not run by default) as so840, so2520,
 *           mo2 and mo3, on the default config (config 0) and on SAIKORO_BENCH_CONFIGS random
 *           configs around it (randomDiceConfig with seeds 1..K: bands, weights, constrained d's and
 *           percent points; src-shared/problems/dice/random-config.ts). The table gives each
 *           config's medians and the ratio of the track's default solver to the baseline (ga for SO:
 *           f ratio, lower is better; nsga2 for MO: HV ratio, higher is better), and compares the
 *           ratio on the random configs with the one on the default config.
 *
 * Hypervolume uses the dice normalisation of src-shared/problems/dice/hv-reference.ts (ideal 0, nadir
 * the median objective of 1000 random sequences, reference 1.1 in every normalised objective);
 * the table notes state the numbers.
 *
 * Settings come from the environment (the bench command has no per-suite options):
 *   SAIKORO_BENCH_SEEDS      runs per solver and case (default 10; --quick 2)
 *   SAIKORO_BENCH_BUDGETS    evaluation budgets, comma-separated (default 20000,1000000; --quick 2000)
 *   SAIKORO_BENCH_SECONDS    wall-time budgets of the *time cases, in seconds (default 10; --quick 1)
 *   SAIKORO_BENCH_CAP        evaluation cap of the so50 case (default 1000000; --quick 5000)
 *   SAIKORO_BENCH_CASES      cases to run (default so50,so840,so2520,mo2,mo3,so840time,mo2time)
 *   SAIKORO_BENCH_CONFIGS    random configs per random-* case (default 10; --quick 2)
 *   SAIKORO_BENCH_SOLVERS    solvers to run (default: every solver that handles the case)
 *   SAIKORO_BENCH_PARALLEL   parallel runs (default: the number of cores)
 */
import { TRACK_OBJECTIVES, trackConfig, type DiceConfig, type TrackName } from '../../src-shared/problems/dice/config.ts';
import { randomDiceConfig } from '../../src-shared/problems/dice/random-config.ts';
import { diceHvNormalisation, normalisedHypervolume, type HvNormalisation } from '../../src-shared/problems/dice/hv-reference.ts';
import { DEFAULT_SOLVERS, solvers as registeredSolvers } from '../../src-shared/solvers/registry.ts';
import { handlesObjectives } from '../../src-shared/solvers/objective-support.ts';
import type { SolverInfo, SolverResult } from '../../src-shared/solvers/types.ts';
import { defaultParallelism } from '../host/pool.ts';
import type { RunOutcome } from '../host/pool.ts';
import { planDiceRun, type DiceRunPlan } from '../app/dice.ts';
import { Launcher } from '../app/launcher.ts';
import { nodeSpawner, type WorkerSpawner } from '../host/spawner.ts';
import { envReaders, formatNumber, type BenchContext, type BenchSuite, type BenchTable } from './suite.ts';
import { quantileOfSorted } from '../../src-shared/stats/summary.ts';

export const CASE_NAMES = [
  'so50',
  'so840',
  'so2520',
  'mo2',
  'mo3',
  'so840time',
  'mo2time',
  'random-so840',
  'random-so2520',
  'random-mo2',
  'random-mo3',
] as const;
export type CaseName = (typeof CASE_NAMES)[number];
/** The cases run when SAIKORO_BENCH_CASES is not set (the random ones are asked for by name). */
export const DEFAULT_CASES: readonly CaseName[] = ['so50', 'so840', 'so2520', 'mo2', 'mo3', 'so840time', 'mo2time'];
/** The baseline the default solver is compared with on random configs. */
const RANDOM_BASELINE = { so: 'ga', mo: 'nsga2' } as const;

interface CaseSpec {
  name: CaseName;
  track: TrackName;
  n: number;
  title: string;
  /** 'first-hit': evaluations to a feasible f = 0; 'best-f': best feasible f; 'hv': hypervolume. */
  metric: 'first-hit' | 'best-f' | 'hv';
  /** Budgets are seconds of wall time (options.seconds) instead of evaluations. */
  timed?: boolean;
  /** Run on the default config and options.configs random ones. */
  random?: boolean;
}

const CASES: Record<CaseName, CaseSpec> = {
  so50: { name: 'so50', track: 'so', n: 50, title: 'SO, N = 50: evaluations to the first feasible solution with f = 0', metric: 'first-hit' },
  so840: { name: 'so840', track: 'so', n: 840, title: 'SO, N = 840: best feasible f', metric: 'best-f' },
  so2520: { name: 'so2520', track: 'so', n: 2520, title: 'SO, N = 2520: best feasible f', metric: 'best-f' },
  mo2: { name: 'mo2', track: 'mo2', n: 840, title: 'M = 2, N = 840: hypervolume of the final feasible front', metric: 'hv' },
  mo3: { name: 'mo3', track: 'mo3', n: 840, title: 'M = 3, N = 840: hypervolume of the final feasible front', metric: 'hv' },
  'random-so840': { name: 'random-so840', track: 'so', n: 840, title: 'SO, N = 840, random configs: best feasible f', metric: 'best-f', random: true },
  'random-so2520': { name: 'random-so2520', track: 'so', n: 2520, title: 'SO, N = 2520, random configs: best feasible f', metric: 'best-f', random: true },
  'random-mo2': {
    name: 'random-mo2',
    track: 'mo2',
    n: 840,
    title: 'M = 2, N = 840, random configs: hypervolume of the final feasible front',
    metric: 'hv',
    random: true,
  },
  'random-mo3': {
    name: 'random-mo3',
    track: 'mo3',
    n: 840,
    title: 'M = 3, N = 840, random configs: hypervolume of the final feasible front',
    metric: 'hv',
    random: true,
  },
  so840time: { name: 'so840time', track: 'so', n: 840, title: 'SO, N = 840, equal wall time: best feasible f', metric: 'best-f', timed: true },
  mo2time: {
    name: 'mo2time',
    track: 'mo2',
    n: 840,
    title: 'M = 2, N = 840, equal wall time: hypervolume of the final feasible front',
    metric: 'hv',
    timed: true,
  },
};

export interface SolverBenchOptions {
  seeds: number;
  budgets: number[];
  /** Wall-time budgets of the *time cases, in seconds. */
  seconds: number[];
  /** Evaluation cap of the so50 case. */
  cap: number;
  cases: CaseName[];
  /** Random configs per random-* case (besides the default config, config 0). */
  configs: number;
  /** Solver names, or null for every solver that handles the case. */
  solvers: string[] | null;
  parallelism: number;
}

export function benchOptions(env: NodeJS.ProcessEnv, quick: boolean): SolverBenchOptions {
  const { integer, list } = envReaders(env);
  const budgets = (list('SAIKORO_BENCH_BUDGETS') ?? (quick ? ['2000'] : ['20000', '1000000'])).map((b) => {
    const v = Number(b);
    if (!Number.isSafeInteger(v) || v < 1) throw new Error(`SAIKORO_BENCH_BUDGETS: "${b}" is not a positive integer`);
    return v;
  });
  const seconds = (list('SAIKORO_BENCH_SECONDS') ?? [quick ? '1' : '10']).map((b) => {
    const v = Number(b);
    if (!Number.isFinite(v) || v <= 0) throw new Error(`SAIKORO_BENCH_SECONDS: "${b}" is not a positive number`);
    return v;
  });
  const cases = (list('SAIKORO_BENCH_CASES') ?? [...DEFAULT_CASES]).map((c) => {
    if (!(CASE_NAMES as readonly string[]).includes(c)) throw new Error(`SAIKORO_BENCH_CASES: unknown case "${c}" (known: ${CASE_NAMES.join(', ')})`);
    return c as CaseName;
  });
  const solvers = list('SAIKORO_BENCH_SOLVERS');
  for (const s of solvers ?? []) if (!registeredSolvers.some((r) => r.name === s)) throw new Error(`SAIKORO_BENCH_SOLVERS: unknown solver "${s}"`);
  return {
    seeds: integer('SAIKORO_BENCH_SEEDS', quick ? 2 : 10),
    budgets,
    seconds,
    cap: integer('SAIKORO_BENCH_CAP', quick ? 5000 : 1_000_000),
    cases,
    configs: integer('SAIKORO_BENCH_CONFIGS', quick ? 2 : 10),
    solvers,
    parallelism: integer('SAIKORO_BENCH_PARALLEL', defaultParallelism()),
  };
}

/** The p-quantile (Hyndman & Fan type 7, as R and NumPy) of values that may include +Infinity (censored or infeasible). */
export function quantileWithInfinity(values: readonly number[], p: number): number {
  return quantileOfSorted(
    [...values].sort((a, b) => a - b),
    p,
  );
}

export interface RunFigure {
  seed: number;
  status: RunOutcome['status'];
  /** first-hit: evaluations to f = 0 (Infinity if never); best-f: f (Infinity if infeasible); hv: hypervolume. */
  value: number;
  evaluations: number;
  seconds: number;
  feasible: boolean;
  frontSize: number | null;
  reason: string | null;
}

export interface CellSummary {
  case: CaseName;
  /** 0: the default config; k >= 1: randomDiceConfig(k) (random-* cases). */
  config: number;
  budget: number;
  solver: string;
  role: string;
  runs: RunFigure[];
  median: number;
  q1: number;
  q3: number;
  /** Runs that reached the case's goal: f = 0 (so50), a feasible solution (best-f), a non-empty front (hv). */
  reached: number;
  medianSeconds: number;
  medianEvaluations: number;
}

function roleOf(info: SolverInfo): string {
  if (info.baseline) return 'baseline';
  return Object.values(DEFAULT_SOLVERS).includes(info.name) ? 'strong (default)' : '';
}

function applicable(spec: CaseSpec, info: SolverInfo): boolean {
  return handlesObjectives(info.objectives, TRACK_OBJECTIVES[spec.track].length);
}

/** Baselines first, then the others, then the defaults (the strong solvers) last, for reading across. */
function solverOrder(a: SolverInfo, b: SolverInfo): number {
  const rank = (s: SolverInfo) => (s.baseline ? 0 : roleOf(s) ? 2 : 1);
  return rank(a) - rank(b);
}

function figureOf(spec: CaseSpec, seed: number, outcome: RunOutcome<SolverResult>, norm: HvNormalisation | null): RunFigure {
  const r: SolverResult | null = outcome.result;
  if (outcome.status !== 'done' || !r)
    return {
      seed,
      status: outcome.status,
      value: spec.metric === 'hv' ? 0 : Infinity,
      evaluations: r?.evaluations ?? 0,
      seconds: r?.seconds ?? 0,
      feasible: false,
      frontSize: null,
      reason: outcome.reason,
    };
  const base = { seed, status: outcome.status, evaluations: r.evaluations, seconds: r.seconds, reason: null };
  if (spec.metric === 'hv') {
    const front = r.front.map((s) => s.objectives);
    return { ...base, value: normalisedHypervolume(front, norm!), feasible: front.length > 0, frontSize: front.length };
  }
  const f = r.best && r.best.feasible ? r.best.objectives[0] : Infinity;
  if (spec.metric === 'first-hit')
    return { ...base, value: f === 0 && r.bestFoundAt !== null ? r.bestFoundAt : Infinity, feasible: r.success, frontSize: null };
  return { ...base, value: f, feasible: r.success, frontSize: null };
}

export interface SolverBenchResult {
  options: SolverBenchOptions;
  /** Per case (its default config), and per "case:k" for the random configs k >= 1. */
  normalisation: Partial<Record<string, HvNormalisation>>;
  cells: CellSummary[];
}

/** The config k of a case: the track's defaults for k = 0, randomDiceConfig(k) above. */
export function benchConfig(name: CaseName, k: number): DiceConfig {
  const spec = CASES[name];
  return k === 0 ? trackConfig(spec.track, spec.n) : randomDiceConfig(k, spec.track, spec.n);
}

const normKey = (name: CaseName, k: number) => (k === 0 ? name : `${name}:${k}`);

/** Runs every (case, budget, solver, seed) through one worker pool and summarises per cell. */
export async function runSolverBench(
  options: SolverBenchOptions,
  progress: (message: string) => void,
  spawn: WorkerSpawner = nodeSpawner(),
): Promise<SolverBenchResult> {
  interface Planned {
    spec: CaseSpec;
    config: number;
    info: SolverInfo;
    budget: number;
    seed: number;
    plan: DiceRunPlan;
  }
  const planned: Planned[] = [];
  const normalisation: Partial<Record<string, HvNormalisation>> = {};
  for (const name of options.cases) {
    const spec = CASES[name];
    const infos = registeredSolvers.filter((s) => applicable(spec, s) && (!options.solvers || options.solvers.includes(s.name))).sort(solverOrder);
    const budgets = spec.metric === 'first-hit' ? [options.cap] : spec.timed ? options.seconds : options.budgets;
    for (let k = 0; k <= (spec.random ? options.configs : 0); k++) {
      const config = benchConfig(name, k);
      if (spec.metric === 'hv') normalisation[normKey(name, k)] = diceHvNormalisation(config);
      for (const budget of budgets)
        for (const info of infos)
          for (let seed = 1; seed <= options.seeds; seed++) {
            // Planned as every dice run is (the one stopping policy: a single-objective run stops
            // at f = 0, nothing beats it), without the trace's hypervolume (the solver timed alone).
            const plan = planDiceRun({
              config,
              solver: info.name,
              seed,
              ...(spec.timed ? { evaluations: 0, seconds: budget } : { evaluations: budget }),
              snapshotIntervalMs: 1000,
              traceHypervolume: false,
            });
            planned.push({ spec, config: k, info, budget, seed, plan });
          }
    }
  }
  // Longest runs first, so the pool does not end waiting on one long run (a second of a timed
  // run counts as about 2,000 evaluations at N = 840 here).
  const cost = (p: Planned) => (p.spec.timed ? p.budget * 2000 : p.budget) * p.spec.n;
  const order = planned.map((_, i) => i).sort((a, b) => cost(planned[b]) - cost(planned[a]) || a - b);
  const launcher = new Launcher({ spawn, parallelism: options.parallelism });
  const outcomes: RunOutcome<SolverResult>[] = new Array(planned.length);
  let finished = 0;
  try {
    progress(`solvers: ${planned.length} runs on ${launcher.parallelism} worker(s)`);
    await Promise.all(
      order.map(async (i) => {
        const p = planned[i];
        outcomes[i] = await launcher.start(p.plan).outcome;
        finished++;
        const o = outcomes[i];
        const where = p.spec.random ? `${p.spec.name} config ${p.config}` : p.spec.name;
        progress(
          `solvers: ${finished}/${planned.length}  ${where} ${p.info.name} budget ${p.budget} seed ${p.seed}: ${o.status === 'done' ? o.result!.message : `${o.status}: ${o.reason}`}`,
        );
      }),
    );
  } finally {
    launcher.dispose();
  }

  const cells = new Map<string, CellSummary>();
  planned.forEach((p, i) => {
    const key = `${p.spec.name}|${p.config}|${p.budget}|${p.info.name}`;
    let cell = cells.get(key);
    if (!cell) {
      cell = {
        case: p.spec.name,
        config: p.config,
        budget: p.budget,
        solver: p.info.name,
        role: roleOf(p.info),
        runs: [],
        median: NaN,
        q1: NaN,
        q3: NaN,
        reached: 0,
        medianSeconds: NaN,
        medianEvaluations: NaN,
      };
      cells.set(key, cell);
    }
    cell.runs.push(figureOf(p.spec, p.seed, outcomes[i], normalisation[normKey(p.spec.name, p.config)] ?? null));
  });
  for (const cell of cells.values()) {
    const values = cell.runs.map((r) => r.value);
    cell.median = quantileWithInfinity(values, 0.5);
    cell.q1 = quantileWithInfinity(values, 0.25);
    cell.q3 = quantileWithInfinity(values, 0.75);
    const metric = CASES[cell.case].metric;
    cell.reached = cell.runs.filter((r) => (metric === 'first-hit' ? Number.isFinite(r.value) : r.feasible)).length;
    cell.medianSeconds = quantileWithInfinity(
      cell.runs.map((r) => r.seconds),
      0.5,
    );
    cell.medianEvaluations = quantileWithInfinity(
      cell.runs.map((r) => r.evaluations),
      0.5,
    );
  }
  return { options, normalisation, cells: [...cells.values()] };
}

function show(value: number, metric: CaseSpec['metric'], cap: number): string {
  if (Number.isNaN(value)) return '-';
  if (!Number.isFinite(value)) return metric === 'first-hit' ? `> ${formatNumber(cap)}` : 'infeasible';
  return metric === 'hv' ? value.toFixed(4) : formatNumber(value);
}

function iqr(cell: CellSummary, metric: CaseSpec['metric'], cap: number): string {
  if (!Number.isFinite(cell.q1)) return '-';
  const width = cell.q3 - cell.q1;
  const w = Number.isFinite(width) ? (metric === 'hv' ? width.toFixed(4) : formatNumber(width)) : 'n/a';
  return `${w} (${show(cell.q1, metric, cap)} to ${show(cell.q3, metric, cap)})`;
}

function failures(cells: CellSummary[]): string[] {
  const failed = cells.flatMap((c) =>
    c.runs.filter((r) => r.status !== 'done').map((r) => `${c.solver} seed ${r.seed} (budget ${c.budget}): ${r.status}: ${r.reason}`),
  );
  return failed.length ? [`Runs that did not finish: ${failed.join('; ')}.`] : [];
}

/**
 * The default solver's lead over the baseline in one cell pair: f ratio (default / baseline,
 * lower is better) for SO, HV ratio (higher is better) for MO; null when it says nothing (both
 * infeasible, both fronts empty).
 */
export function leadRatio(metric: CaseSpec['metric'], strong: number, baseline: number): number | null {
  if (metric === 'hv') return baseline > 0 ? strong / baseline : strong > 0 ? Infinity : null;
  if (!Number.isFinite(baseline)) return Number.isFinite(strong) ? 0 : null;
  if (!Number.isFinite(strong)) return Infinity;
  return baseline > 0 ? strong / baseline : strong > 0 ? Infinity : null;
}

/** One table per budget for a random-* case: each config's medians and the default solver's ratio to the baseline. */
function renderRandom(result: SolverBenchResult, name: CaseName): BenchTable[] {
  const { options } = result;
  const spec = CASES[name];
  const cells = result.cells.filter((c) => c.case === name);
  const solverNames = [...new Set(cells.map((c) => c.solver))];
  const strong = DEFAULT_SOLVERS[spec.track];
  const baseline = spec.track === 'so' ? RANDOM_BASELINE.so : RANDOM_BASELINE.mo;
  const what = spec.metric === 'hv' ? 'HV' : 'f';
  const better = spec.metric === 'hv' ? 'higher' : 'lower';
  const tables: BenchTable[] = [];
  for (const budget of options.budgets) {
    const at = (solver: string, k: number) => cells.find((c) => c.solver === solver && c.budget === budget && c.config === k);
    const ratios: (number | null)[] = [];
    const rows: (string | number)[][] = [];
    for (let k = 0; k <= options.configs; k++) {
      const config = benchConfig(name, k);
      const s = at(strong, k);
      const b = at(baseline, k);
      const ratio = s && b ? leadRatio(spec.metric, s.median, b.median) : null;
      ratios.push(ratio);
      const constrained = config.constraints.map((d, l) => `${d}:${config.lowerBounds[l]}-${config.upperBounds[l]}`).join(' ');
      rows.push([
        k === 0 ? '0 (default)' : k,
        constrained,
        ...solverNames.map((sn) => show(at(sn, k)?.median ?? NaN, spec.metric, options.cap)),
        ratio === null ? '-' : ratio.toFixed(3),
      ]);
    }
    const random = ratios.slice(1).filter((r): r is number => r !== null);
    const ahead = (r: number) => (spec.metric === 'hv' ? r >= ratios[0]! : r <= ratios[0]!);
    const notes = [
      `${options.seeds} seeds (1..${options.seeds}) per solver and config, ${formatNumber(budget)} evaluations; config 0 is the default, configs 1..${options.configs} are randomDiceConfig(k) (bands, weights, constrained d's and percent points around the defaults; the column lists each constrained d with p_d-P_d). Medians over the seeds.`,
      `Ratio = median ${what} of ${strong} (the default) / that of ${baseline} (the baseline); ${better} is better for ${strong}.`,
    ];
    if (ratios[0] !== null && random.length > 0) {
      const sorted = [...random].sort((a, b) => a - b);
      notes.push(
        `Default config: ${ratios[0]!.toFixed(3)}. Random configs: median ${quantileWithInfinity(sorted, 0.5).toFixed(3)}, from ${sorted[0].toFixed(3)} to ${sorted[sorted.length - 1].toFixed(3)}; at least as far ahead as on the default config on ${random.filter(ahead).length} of ${random.length}.`,
      );
    }
    if (spec.metric === 'hv')
      notes.push(
        'HV of the final feasible front, normalised per config as in the mo2 and mo3 tables (ideal 0, nadir = the median objective of 1000 random sequences of that config, reference 1.1).',
      );
    notes.push(...failures(cells.filter((c) => c.budget === budget)));
    tables.push({
      title: `${spec.title}, ${formatNumber(budget)} evaluations`,
      columns: ['config', 'constrained d (p-P)', ...solverNames.map((s) => `median ${what} ${s}`), `${strong} / ${baseline}`],
      rows,
      notes,
    });
  }
  return tables;
}

export function renderSolverBench(result: SolverBenchResult): BenchTable[] {
  const { options } = result;
  const tables: BenchTable[] = [];
  const seedsNote = `${options.seeds} seeds (1..${options.seeds}) per solver; default bands and weights; solver parameters at their defaults. IQR = q3 - q1 (Hyndman-Fan type 7 quartiles), quartiles in brackets.`;
  for (const name of options.cases) {
    const spec = CASES[name];
    if (spec.random) {
      tables.push(...renderRandom(result, name));
      continue;
    }
    const cells = result.cells.filter((c) => c.case === name);
    const solverNames = [...new Set(cells.map((c) => c.solver))];
    const cellOf = (solver: string, budget: number) => cells.find((c) => c.solver === solver && c.budget === budget)!;
    if (spec.metric === 'first-hit') {
      tables.push({
        title: spec.title,
        columns: ['solver', 'role', 'reached f = 0', 'median evaluations', 'IQR (q1 to q3)', 'median wall s'],
        rows: solverNames.map((s) => {
          const c = cellOf(s, options.cap);
          return [
            s,
            c.role,
            `${c.reached}/${c.runs.length}`,
            show(c.median, spec.metric, options.cap),
            iqr(c, spec.metric, options.cap),
            c.medianSeconds.toFixed(2),
          ];
        }),
        notes: [
          seedsNote,
          `Each run stops at its first feasible f = 0 or after ${formatNumber(options.cap)} evaluations; a run that never reaches f = 0 counts as "> ${formatNumber(options.cap)}" (censored).`,
          ...failures(cells),
        ],
      });
      continue;
    }
    const columns = ['solver', 'role'];
    const what = spec.metric === 'hv' ? 'HV' : 'f';
    const budgets = spec.timed ? options.seconds : options.budgets;
    for (const b of budgets) {
      columns.push(
        spec.timed ? `median ${what} @ ${b} s` : `median ${what} @ ${formatNumber(b)}`,
        `IQR ${what}`,
        spec.metric === 'hv' ? 'non-empty fronts' : 'feasible runs',
      );
      columns.push(spec.timed ? 'median evaluations' : 'median wall s');
    }
    const rows = solverNames.map((s) => {
      const row: (string | number)[] = [s, cellOf(s, budgets[0]).role];
      for (const b of budgets) {
        const c = cellOf(s, b);
        row.push(show(c.median, spec.metric, options.cap), iqr(c, spec.metric, options.cap), `${c.reached}/${c.runs.length}`);
        row.push(spec.timed ? formatNumber(c.medianEvaluations) : c.medianSeconds.toFixed(2));
      }
      return row;
    });
    const notes = [seedsNote];
    if (spec.timed)
      notes.push(
        `Every run gets the same wall time (${budgets.map((b) => `${b} s`).join(', ')}) in its worker, ${options.parallelism} runs in parallel; figures depend on the machine and its load.`,
      );
    if (spec.metric === 'best-f')
      notes.push(
        'f of the best feasible solution (lower is better); "infeasible" when the quantile falls on runs without a feasible solution. A run stops early at f = 0. Wall time is the run\'s time inside its worker.',
      );
    const norm = result.normalisation[name];
    if (norm)
      notes.push(
        `Hypervolume (higher is better) of the final feasible non-dominated front, objectives normalised as (f - ideal) / (nadir - ideal) with ideal = (${norm.ideal.join(', ')}) and nadir = (${norm.nadir.map((v) => formatNumber(v)).join(', ')}); reference point (${norm.reference.join(', ')}); an empty front scores 0. (${norm.method})`,
      );
    notes.push(...failures(cells));
    tables.push({ title: spec.title, columns, rows, notes });
  }
  return tables;
}

export const solversBench: BenchSuite = {
  async run(context: BenchContext) {
    const options = benchOptions(process.env, context.quick);
    const result = await runSolverBench(options, context.progress);
    return { tables: renderSolverBench(result), json: result };
  },
};
