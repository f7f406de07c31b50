/**
 * buildReport: reads one experiment of a project and computes everything a report shows
 * (ReportData, types.ts). The statistics are `compareExperiment`'s, per metric, so every table
 * holds the numbers `saikoro compare --json` prints for the same file.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { CompareError, compareExperiment, METRICS, type Comparison, type MetricName, type StoredRun } from '../../src-shared/experiments/compare.ts';
import { expandGrid, type RunSpec } from '../../src-shared/experiments/grid.ts';
import { instanceConfig, programOf, seedList, solverLabel, SpecError, type ExperimentSpec, type InstanceSpec } from '../../src-shared/experiments/spec.ts';
import {
  defaultNormalisationMethod,
  diceHvNormalisation,
  formatHvNormalisation,
  HV_NORMALISATION_IN_PROCESS_MAX_N,
} from '../../src-shared/problems/dice/hv-reference.ts';
import { normalise } from '../../src-shared/metrics/hypervolume.ts';
import { upgradeSpec } from '../../src-shared/experiments/normalisation.ts';
import { HIDDEN_TEXT, redactComparison } from '../../src-shared/competition/hidden.ts';
import { trackConfig, type DiceConfig } from '../../src-shared/problems/dice/config.ts';
import { evaluateDice } from '../../src-shared/problems/dice/evaluate.ts';
import type { SolutionRecord, SolverResult } from '../../src-shared/solvers/types.ts';
import type { ParamValue } from '../../src-shared/core/params.ts';
import { baselineMarks } from '../../src-shared/experiments/baseline-marks.ts';
import { quantileOfSorted } from '../../src-shared/stats/summary.ts';
import { cannotDiffer, floorSentence, runsNeeded } from '../../src-shared/stats/attainable.ts';
import { appVersion } from '../project/app-version.ts';
import type { RunRecord } from '../project/project-records.ts';
import type { Project } from '../project/store.ts';
import { attainmentData } from './attainment.ts';
import { instanceMetricValues, metricApplies, runHypervolume } from './indicators.ts';
import {
  REPORT_VERSION,
  SIGNIFICANCE,
  type BestSolution,
  type BoxplotData,
  type ConvergenceData,
  type FrontData,
  type InstanceReport,
  type MetricTable,
  type TableRow,
  type ReportData,
  type ReportRun,
  type ReportSetup,
  type ReportSolution,
  type SetupInstance,
  type SetupParam,
  type SolverBest,
} from './types.ts';

/** A report that cannot be made; `kind` says whether the request (usage) or the data (input) is at fault. */
export class ReportError extends Error {
  constructor(
    readonly kind: 'usage' | 'input',
    message: string,
  ) {
    super(message);
    this.name = 'ReportError';
  }
}

export interface ReportOptions {
  /** Indicators for the tables and charts (default: defaultMetrics of the experiment). */
  metrics?: readonly string[];
  /** Solver label the +/−/= marks compare against (default: the spec's first solver). */
  baseline?: string;
  /** The report's date (default: now). */
  generatedAt?: Date;
}

/** Preferred indicators, in table order; the default is those that apply to some instance. */
const DEFAULT_METRICS: readonly MetricName[] = ['best', 'hv', 'igd+', 'feasibility'];

/** Points of the convergence chart's evaluation axis (log-spaced). */
const CONVERGENCE_POINTS = 60;

export function defaultMetrics(spec: ExperimentSpec): MetricName[] {
  const objectiveCounts = spec.instances.map((i) => instanceConfig(i).objectives.length);
  return DEFAULT_METRICS.filter((m) => objectiveCounts.some((k) => metricApplies(m, k)));
}

export function buildReport(project: Project, experimentName: string, options: ReportOptions = {}): ReportData {
  const file = path.basename(project.path);
  const experiment = project.experiment(experimentName);
  if (!experiment) {
    const known = project.experiments().map((e) => e.name);
    throw new ReportError('input', `${file}: no experiment named "${experimentName}" (has: ${known.join(', ') || 'none'})`);
  }
  const spec = upgradeSpec(experiment.spec);
  const labels = spec.solvers.map(solverLabel);

  const metrics = parseMetrics(options.metrics, spec);
  const baseline = options.baseline ?? labels[0];
  if (!labels.includes(baseline))
    throw new ReportError('input', `${file}: experiment ${spec.name} has no solver "${baseline}" for --baseline (solvers: ${labels.join(', ')})`);

  let grid: RunSpec[];
  try {
    grid = expandGrid(spec);
  } catch (e) {
    if (e instanceof SpecError) throw new ReportError('input', `${file}: experiment ${spec.name}: ${e.message}`);
    throw e;
  }
  const records = new Map(project.runs([...new Set(grid.map((r) => r.id))]).map((r) => [r.id, r]));
  const results = new Map<string, SolverResult>();
  for (const [id, r] of records) if (r.status === 'done' && r.result) results.set(id, r.result);
  if (results.size === 0) {
    const failed = [...records.values()].filter((r) => r.status === 'failed').length;
    throw new ReportError(
      'input',
      `${file}: experiment ${spec.name} has no finished runs (${grid.length} in the grid, ${failed} failed); run them first: saikoro experiment run ${file} ${spec.name}`,
    );
  }

  const stored = new Map<string, StoredRun>([...results].map(([id, result]) => [id, { id, result }]));
  // A competition's hidden instances: no bands, weights, per-feature errors or normalisation before the reveal.
  const hidden = project.hiddenInstances();
  let comparisons: Comparison[];
  try {
    comparisons = metrics.map((m) => redactComparison(compareExperiment(spec, stored, m), hidden));
  } catch (e) {
    if (e instanceof CompareError || e instanceof SpecError) throw new ReportError('input', `${file}: ${e.message}`);
    throw e;
  }

  // Per-run values of every metric, by instance.
  const configs = new Map(spec.instances.map((i) => [i.name, instanceConfig(i)]));
  const values = new Map<MetricName, Map<string, number | null>>(metrics.map((m) => [m, new Map()]));
  for (const instance of spec.instances) {
    const runs = grid.filter((r) => r.instance === instance.name);
    const m = configs.get(instance.name)!.objectives.length;
    for (const metric of metrics) for (const [id, v] of instanceMetricValues(metric, instance, m, runs, results)) values.get(metric)!.set(id, v);
  }

  const runs: ReportRun[] = grid.map((run) => {
    const record = records.get(run.id);
    const status = record ? record.status : 'missing';
    return {
      id: run.id,
      instance: run.instance,
      solver: run.label,
      solverName: run.solver,
      seed: run.seed,
      status,
      error: record?.error ?? null,
      evaluations: record?.evaluations ?? null,
      seconds: record ? record.elapsedMs / 1000 : null,
      indicators: Object.fromEntries(metrics.map((m) => [m, status === 'done' ? (values.get(m)!.get(run.id) ?? null) : null])),
      appVersion: record?.appVersion ?? null,
      finishedAt: record?.finishedAt ?? null,
    };
  });

  return {
    format: 'saikoro-report',
    version: REPORT_VERSION,
    experiment: { name: spec.name, description: spec.description ?? null },
    generatedAt: (options.generatedAt ?? new Date()).toISOString(),
    appVersion: appVersion(),
    source: { file, runsHash: runsHash([...records.values()]), runsHashed: records.size },
    setup: setupOf(spec, grid, records, hidden),
    metrics,
    baseline,
    significance: SIGNIFICANCE,
    comparisons: comparisons.map(jsonSafe),
    tables: comparisons.map((c) => metricTable(c, baseline)),
    runs,
    solutions: solutionsOf(grid, results),
    instances: spec.instances.map((instance) =>
      instanceReport(
        instance,
        configs.get(instance.name)!,
        grid.filter((r) => r.instance === instance.name),
        results,
        labels,
        metrics,
        values,
        baseline,
        hidden.has(instance.name),
      ),
    ),
  };
}

function parseMetrics(asked: readonly string[] | undefined, spec: ExperimentSpec): MetricName[] {
  if (!asked || asked.length === 0) return defaultMetrics(spec);
  const out: MetricName[] = [];
  for (const m of asked) {
    if (!(METRICS as readonly string[]).includes(m)) throw new ReportError('usage', `--metric: must be one of ${METRICS.join(', ')}, got "${m}"`);
    if (!out.includes(m as MetricName)) out.push(m as MetricName);
  }
  return out;
}

/**
 * SHA-256 (hex) over the stored runs, in ascending id order, of
 * JSON.stringify([id, status, error, result]) + "\n" each (docs/report.md).
 */
export function runsHash(records: readonly RunRecord[]): string {
  const hash = createHash('sha256');
  for (const r of [...records].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)))
    hash.update(JSON.stringify([r.id, r.status, r.error, r.result]) + '\n');
  return hash.digest('hex');
}

/** Infinity and NaN become null, as in any JSON output. */
function jsonSafe<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

const finiteOrNull = (v: number): number | null => (Number.isFinite(v) ? v : null);

function sameList(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

function setupOf(spec: ExperimentSpec, grid: readonly RunSpec[], records: ReadonlyMap<string, RunRecord>, hidden: ReadonlySet<string>): ReportSetup {
  const instances: SetupInstance[] = spec.instances.map((instance) => {
    const config = instanceConfig(instance);
    if (hidden.has(instance.name)) {
      const track = instance.track ?? 'so';
      const defaults = trackConfig(track, config.n);
      const defaultConstraints =
        sameList(config.constraints, defaults.constraints) &&
        sameList(config.lowerBounds, defaults.lowerBounds) &&
        sameList(config.upperBounds, defaults.upperBounds);
      return {
        name: instance.name,
        track,
        n: config.n,
        objectives: config.objectives.map((g) => [...g]),
        bands: null,
        hidden: true,
        constraints: config.constraints.map((d, k) => ({ d, lower: config.lowerBounds[k], upper: config.upperBounds[k] })),
        defaultConstraints,
        normalisation: null,
      };
    }
    const track = instance.track ?? 'so';
    const defaults = trackConfig(track, config.n);
    const defaultBands = sameList(config.alpha, defaults.alpha) && sameList(config.beta, defaults.beta) && sameList(config.gamma, defaults.gamma);
    const defaultConstraints =
      sameList(config.constraints, defaults.constraints) &&
      sameList(config.lowerBounds, defaults.lowerBounds) &&
      sameList(config.upperBounds, defaults.upperBounds);
    const norm = instance.normalisation;
    return {
      name: instance.name,
      track,
      n: config.n,
      objectives: config.objectives.map((g) => [...g]),
      bands: defaultBands ? null : { alpha: [...config.alpha], beta: [...config.beta], gamma: [...config.gamma] },
      constraints: config.constraints.map((d, k) => ({ d, lower: config.lowerBounds[k], upper: config.upperBounds[k] })),
      defaultConstraints,
      normalisation: norm ? { ideal: [...norm.ideal], nadir: [...norm.nadir], method: norm.method ?? null } : null,
    };
  });
  const solvers = spec.solvers.map((s) => {
    const label = solverLabel(s);
    const byInstance = spec.instances.map((i) => ({ instance: i.name, params: grid.find((r) => r.label === label && r.instance === i.name)?.params ?? {} }));
    const names = [...new Set(byInstance.flatMap((b) => Object.keys(b.params)))].sort();
    const params: SetupParam[] = names.map((name) => {
      const each = byInstance.filter((b) => name in b.params).map((b) => ({ instance: b.instance, value: b.params[name] as ParamValue }));
      const same = each.every((e) => e.value === each[0].value);
      return { name, value: same ? each[0].value : null, byInstance: same ? null : each };
    });
    const program = programOf(s);
    return {
      label,
      name: s.name,
      params,
      ...(program
        ? {
            program: {
              command: [...program.command],
              cwd: program.cwd ?? null,
              blind: program.blind === true,
              hashes: program.hashes ? { ...program.hashes } : null,
            },
          }
        : {}),
    };
  });
  const statuses = grid.map((r) => records.get(r.id)?.status ?? 'missing');
  return {
    instances,
    solvers,
    seeds: seedList(spec.seeds),
    budget: { ...spec.budget },
    runs: {
      total: grid.length,
      done: statuses.filter((s) => s === 'done').length,
      failed: statuses.filter((s) => s === 'failed').length,
      missing: statuses.filter((s) => s === 'missing').length,
    },
    runVersions: [...new Set([...records.values()].map((r) => r.appVersion))].sort(),
  };
}

/**
 * Why the marks of some instances are "=" whatever their runs found, or null: too few runs for
 * the rank-sum test to reach p < SIGNIFICANCE after Holm over the comparisons with the baseline
 * (src-shared/stats/attainable.ts), and how many runs per solver could.
 */
function fewRunsNote(rows: TableRow[], baseline: string): string | null {
  const groups = new Map<string, { instances: string[]; n1: number; n2: number; comparisons: number }>();
  for (const row of rows) {
    const base = row.cells.find((c) => c.solver === baseline);
    const others = row.cells.filter((c) => c.solver !== baseline && c.pHolm !== null);
    if (!base || !others.length) continue;
    if (!others.every((c) => cannotDiffer(c.n, base.n, others.length, SIGNIFICANCE))) continue;
    const smallest = Math.min(...others.map((c) => c.n));
    const [n1, n2] = [Math.min(smallest, base.n), Math.max(smallest, base.n)];
    const key = `${n1}|${n2}|${others.length}`;
    const group = groups.get(key) ?? { instances: [], n1, n2, comparisons: others.length };
    group.instances.push(row.instance);
    groups.set(key, group);
  }
  if (!groups.size) return null;
  return [...groups.values()]
    .map(
      (g) =>
        `${floorSentence(g.n1, g.n2, g.comparisons, SIGNIFICANCE, `comparisons with ${baseline}`)}, so every mark on ${g.instances.join(', ')} is = whatever the runs found; ${runsNeeded(SIGNIFICANCE, g.comparisons)} runs per solver can show a difference.`,
    )
    .join(' ');
}

/**
 * One table row per instance. The +/−/= marks compare each solver with the baseline by the one
 * rule of src-shared/experiments/baseline-marks.ts (the Compare view's too): compare's
 * Mann-Whitney p of the pair, Holm-adjusted over the instance's comparisons with the baseline,
 * and the direction from A12.
 */
export function metricTable(c: Comparison, baseline: string): MetricTable {
  const better = (a: number, b: number) => (c.higherIsBetter ? a > b : a < b);
  const rows = c.instances.map((inst) => {
    const aggregates = inst.solvers.map((s) => (s.summary ? s.summary[c.aggregate] : null));
    let best: number | null = null;
    for (const a of aggregates) if (a !== null && (best === null || better(a, best))) best = a;
    const marks = baselineMarks(inst, baseline, SIGNIFICANCE);
    return {
      instance: inst.instance,
      cells: inst.solvers.map((s, k) => {
        const { pair, pHolm, a12, mark } = marks[k];
        return {
          solver: s.label,
          n: s.summary?.n ?? 0,
          withoutValue: s.withoutValue,
          missing: s.missing,
          median: s.summary?.median ?? null,
          q1: s.summary?.q1 ?? null,
          q3: s.summary?.q3 ?? null,
          iqr: s.summary?.iqr ?? null,
          mean: s.summary?.mean ?? null,
          best: aggregates[k] !== null && aggregates[k] === best,
          vsBaseline: mark,
          p: pair?.p ?? null,
          pHolm,
          a12,
        };
      }),
    };
  });
  const f = c.friedman;
  return {
    metric: c.metric,
    higherIsBetter: c.higherIsBetter,
    aggregate: c.aggregate,
    rows,
    fewRuns: fewRunsNote(rows, baseline),
    skipped: c.skipped.map((s) => ({ ...s })),
    friedman: f
      ? {
          instances: [...f.instances],
          ranks: f.labels.map((solver, i) => ({ solver, averageRank: f.averageRanks[i] })),
          chiSquare: f.chiSquare,
          p: f.p,
          imanDavenport: finiteOrNull(f.imanDavenport),
          imanDavenportP: f.imanDavenportP,
        }
      : null,
    friedmanNote: c.friedmanNote,
  };
}

function solutionRow(run: RunSpec, kind: 'best' | 'front', s: SolutionRecord, blocks: number[]): ReportSolution {
  return {
    run: run.id,
    instance: run.instance,
    solver: run.label,
    seed: run.seed,
    kind,
    x: s.x,
    objectives: [...s.objectives],
    constraints: [...s.constraints],
    constraintBlocks: blocks,
    feasible: s.feasible,
    violation: s.violation,
  };
}

function solutionsOf(grid: readonly RunSpec[], results: ReadonlyMap<string, SolverResult>): ReportSolution[] {
  const out: ReportSolution[] = [];
  for (const run of grid) {
    const result = results.get(run.id);
    if (!result) continue;
    const blocks = [...run.config.constraints];
    if (result.front.length) for (const s of result.front) out.push(solutionRow(run, 'front', s, blocks));
    else if (result.best) out.push(solutionRow(run, 'best', result.best, blocks));
  }
  return out;
}

/** Candidates for "best": SO the run's best; MO the front members, or the best when the front is empty. */
function candidates(result: SolverResult): SolutionRecord[] {
  if (result.front.length) return result.front;
  return result.best ? [result.best] : [];
}

function pickBest(
  runs: readonly RunSpec[],
  results: ReadonlyMap<string, SolverResult>,
  score: (s: SolutionRecord) => number,
): { run: RunSpec; solution: SolutionRecord } | null {
  let chosen: { run: RunSpec; solution: SolutionRecord } | null = null;
  const beats = (a: SolutionRecord, b: SolutionRecord) => {
    if (a.feasible !== b.feasible) return a.feasible;
    if (a.feasible) return score(a) < score(b);
    return a.violation < b.violation;
  };
  for (const run of runs) {
    const result = results.get(run.id);
    if (!result) continue;
    for (const s of candidates(result)) if (!chosen || beats(s, chosen.solution)) chosen = { run, solution: s };
  }
  return chosen;
}

function instanceReport(
  instance: InstanceSpec,
  config: DiceConfig,
  runs: readonly RunSpec[],
  results: ReadonlyMap<string, SolverResult>,
  labels: readonly string[],
  metrics: readonly MetricName[],
  values: ReadonlyMap<MetricName, ReadonlyMap<string, number | null>>,
  baseline: string,
  hidden: boolean,
): InstanceReport {
  const m = config.objectives.length;
  const norm = m < 2 ? null : (instance.normalisation ?? diceDefaultNormalisation(instance, config) ?? frontBox(m, runs, results));
  const done = (label: string) => runs.filter((r) => r.label === label && results.has(r.id));

  const boxplots: BoxplotData[] = metrics
    .filter((metric) => metricApplies(metric, m))
    .map((metric) => ({
      metric,
      higherIsBetter: metric === 'hv' || metric === 'feasibility',
      solvers: labels.map((solver) => ({
        solver,
        values: done(solver)
          .map((r) => values.get(metric)!.get(r.id) ?? null)
          .filter((v): v is number => v !== null),
      })),
    }));

  // SO: the smallest objective; MO: the smallest sum of normalised objectives.
  const score =
    m === 1 ? (s: SolutionRecord) => s.objectives[0] : (s: SolutionRecord) => normalise([s.objectives], norm!.ideal, norm!.nadir)[0].reduce((a, b) => a + b, 0);
  const bestBySolver: SolverBest[] = [];
  for (const solver of labels) {
    const pick = pickBest(done(solver), results, score);
    if (pick) bestBySolver.push(solverBest(pick.run, pick.solution));
  }
  const overall = pickBest(runs, results, score);
  let best: BestSolution | null = null;
  if (overall) {
    const evaluation = evaluateDice(overall.solution.x, config);
    best = {
      ...solverBest(overall.run, overall.solution),
      rule:
        m === 1
          ? 'the feasible solution with the smallest objective over all runs (if none is feasible, the smallest total violation)'
          : 'the feasible front member with the smallest sum of normalised objectives over all runs (if no front has one, the smallest total violation)',
      features: evaluation.features,
      // The errors E_i = gamma_i x the distance outside the band would give the bands and weights away.
      errors: hidden ? null : evaluation.errors,
      alpha: hidden ? null : [...config.alpha],
      beta: hidden ? null : [...config.beta],
      ...(hidden ? { hidden: true as const } : {}),
      constraints: config.constraints.map((d, k) => ({
        d,
        chi: evaluation.chi[k],
        lower: evaluation.bounds[k][0],
        upper: evaluation.bounds[k][1],
        g: evaluation.constraints[k],
      })),
    };
  }

  return {
    instance: instance.name,
    objectives: m,
    boxplots,
    convergence: convergenceOf(config, runs, results, labels, m >= 2 ? diceDefaultNormalisation(instance, config) : null, hidden),
    fronts:
      m >= 2
        ? frontsOf(
            config,
            norm!,
            labels.map((l) => done(l)),
            labels,
            results,
            hidden,
          )
        : null,
    attainment:
      m === 2
        ? attainmentData(
            labels.map((solver) => ({ solver, fronts: done(solver).map((r) => results.get(r.id)!.front.map((s) => s.objectives)) })),
            baseline,
          )
        : null,
    best,
    bestBySolver,
  };
}

function solverBest(run: RunSpec, s: SolutionRecord): SolverBest {
  return { solver: run.label, run: run.id, seed: run.seed, x: s.x, objectives: [...s.objectives], feasible: s.feasible, violation: s.violation };
}

/** Log-spaced integer evaluation counts from 1 to max, at most `points` of them. */
export function evaluationGrid(max: number, points = CONVERGENCE_POINTS): number[] {
  const top = Math.max(1, Math.round(max));
  const out = new Set<number>();
  for (let k = 0; k < points; k++) out.add(Math.round(10 ** ((Math.log10(top) * k) / (points - 1))));
  out.add(top);
  return [...out].sort((a, b) => a - b);
}

/**
 * The dice default normalisation of an instance (what the runs' traces record) without the
 * main process computing it at large N: the instance's stored one when it is that default,
 * computed here only up to N = 2,520 (HV_NORMALISATION_IN_PROCESS_MAX_N); otherwise null.
 */
function diceDefaultNormalisation(instance: InstanceSpec, config: DiceConfig): { ideal: number[]; nadir: number[]; method?: string } | null {
  if (instance.normalisation?.method === defaultNormalisationMethod()) return instance.normalisation;
  return config.n <= HV_NORMALISATION_IN_PROCESS_MAX_N ? diceHvNormalisation(config) : null;
}

/** An instance without a stored normalisation at large N (an old spec): ideal 0, nadir the largest objective on the runs' fronts. */
function frontBox(m: number, runs: readonly RunSpec[], results: ReadonlyMap<string, SolverResult>): { ideal: number[]; nadir: number[]; method: string } {
  const nadir = new Array<number>(m).fill(0);
  for (const run of runs)
    for (const s of results.get(run.id)?.front ?? []) s.objectives.forEach((v, k) => (nadir[k] = Number.isFinite(v) ? Math.max(nadir[k], v) : nadir[k]));
  return {
    ideal: new Array<number>(m).fill(0),
    nadir: nadir.map((v) => (v > 0 ? v : 1)),
    method: "ideal 0; nadir = the largest objective on the runs' fronts (the instance stores no normalisation)",
  };
}

function convergenceOf(
  config: DiceConfig,
  runs: readonly RunSpec[],
  results: ReadonlyMap<string, SolverResult>,
  labels: readonly string[],
  defaultNorm: { ideal: number[]; nadir: number[] } | null,
  hidden = false,
): ConvergenceData | null {
  const m = config.objectives.length;
  const withResults = runs.filter((r) => results.has(r.id));
  if (!withResults.length) return null;
  const max = Math.max(runs[0].budget.evaluations, ...withResults.map((r) => results.get(r.id)!.evaluations));
  const evaluations = evaluationGrid(max);
  // The value of one run after e evaluations: the last trace point at or before e.
  const series = (result: SolverResult): number[] => {
    const trace = m === 1 ? result.trace : result.trace.filter((t) => t.indicator !== null || t.frontSize === 0);
    const out: number[] = [];
    let k = -1;
    for (const e of evaluations) {
      while (k + 1 < trace.length && trace[k + 1].evaluations <= e) k++;
      const t = k >= 0 ? trace[k] : null;
      if (m === 1) out.push(t && t.feasible && t.best !== null ? t.best : Infinity);
      else out.push(t ? (t.indicator ?? 0) : 0);
    }
    return out;
  };
  const solvers = labels.map((solver) => {
    const mine = withResults.filter((r) => r.label === solver).map((r) => series(results.get(r.id)!));
    const q = (p: number) =>
      evaluations.map((_, i) => {
        if (!mine.length) return null;
        // A run with no feasible solution yet is +Infinity: a quartile that touches one is not drawn.
        const column = mine.map((s) => s[i]).sort((a, b) => a - b);
        return finiteOrNull(quantileOfSorted(column, p));
      });
    return { solver, runs: mine.length, q1: q(0.25), median: q(0.5), q3: q(0.75) };
  });
  if (m === 1)
    return {
      indicator: 'best',
      higherIsBetter: false,
      caption:
        "Best feasible objective value against evaluations (log scale): median and interquartile band over the runs of each solver, from each run's stored trace. A run without a feasible solution yet counts as worst; where a quartile is such a run, it is not drawn.",
      evaluations,
      solvers,
    };
  return {
    indicator: 'hv',
    higherIsBetter: true,
    caption: `Normalised hypervolume of the feasible front against evaluations (log scale): median and interquartile band over the runs of each solver, from each run's stored trace. The runs record it under the dice default normalisation, ${hidden ? `(${HIDDEN_TEXT})` : defaultNorm ? formatHvNormalisation(defaultNorm) : `${defaultNormalisationMethod()} (at N = ${config.n.toLocaleString('en-US')} not computed for the report)`}; where a trace point has no value (M >= 4 records it at doublings of the evaluations) the last recorded value is carried forward; an empty front counts 0.`,
    evaluations,
    solvers,
  };
}

function frontsOf(
  config: DiceConfig,
  norm: { ideal: number[]; nadir: number[] },
  doneBySolver: RunSpec[][],
  labels: readonly string[],
  results: ReadonlyMap<string, SolverResult>,
  hidden = false,
): FrontData {
  const solvers: FrontData['solvers'] = [];
  labels.forEach((solver, k) => {
    const scored = doneBySolver[k]
      .map((run) => ({ run, hv: runHypervolume(results.get(run.id)!, norm) }))
      .sort((a, b) => a.hv - b.hv || a.run.seed - b.run.seed);
    if (!scored.length) return;
    const median = scored[Math.ceil(scored.length / 2) - 1];
    solvers.push({ solver, run: median.run.id, seed: median.run.seed, hv: median.hv, points: results.get(median.run.id)!.front.map((s) => [...s.objectives]) });
  });
  return {
    caption: `Feasible front of each solver's median run by normalised hypervolume (the lower median for an even number of runs; normalisation ${hidden ? HIDDEN_TEXT : formatHvNormalisation(norm)}), in raw objectives.`,
    axes: config.objectives.map((_, i) => `f${i + 1}`),
    solvers,
  };
}
