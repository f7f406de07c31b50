/**
 * ReportData: everything a report's tables and charts are made from, as plain JSON (no
 * Infinity or NaN: an infinite statistic is null). `buildReport` (build.ts) makes it from a
 * project; every renderer (html.ts, csv.ts, json.ts, latex.ts, pdf.ts) reads only this.
 * The JSON form is described by docs/report.schema.json; docs/report.md explains the fields.
 */
import type { Comparison, MetricName } from '../../src-shared/experiments/compare.ts';
import type { BudgetSpec } from '../../src-shared/experiments/spec.ts';
import type { TrackName } from '../../src-shared/problems/dice/config.ts';
import type { ParamValue } from '../../src-shared/core/params.ts';
import { MARK_SIGNIFICANCE, type BaselineMark } from '../../src-shared/experiments/baseline-marks.ts';

/** Bumped when a field changes meaning or goes away (docs/report.schema.json). */
export const REPORT_VERSION = 1;

/** Pair tests with a Holm-adjusted p below this count as a difference (+ or −): the marks' rule's (baseline-marks.ts). */
export const SIGNIFICANCE = MARK_SIGNIFICANCE;

export interface ReportData {
  format: 'saikoro-report';
  version: typeof REPORT_VERSION;
  experiment: { name: string; description: string | null };
  /** ISO 8601 time the report was made, and the Saikoro that made it. */
  generatedAt: string;
  appVersion: string;
  source: ReportSource;
  setup: ReportSetup;
  /** The indicators in the tables and charts, in the order asked for. */
  metrics: MetricName[];
  /** Solver label the +/−/= marks compare against. */
  baseline: string;
  significance: number;
  /** `compareExperiment` per metric, as `saikoro compare --json` prints it (infinite values null). */
  comparisons: Comparison[];
  tables: MetricTable[];
  /** Every run of the grid, stored or not. */
  runs: ReportRun[];
  /** The solutions of the done runs: SO the best, MO every front member (the best if the front is empty). */
  solutions: ReportSolution[];
  instances: InstanceReport[];
}

export interface ReportSource {
  /** The project file's name (no directory). */
  file: string;
  /** SHA-256 over the stored runs of the experiment (docs/report.md, "The runs hash"). */
  runsHash: string;
  /** How many stored runs went into the hash. */
  runsHashed: number;
}

export interface ReportSetup {
  instances: SetupInstance[];
  solvers: SetupSolver[];
  seeds: number[];
  budget: BudgetSpec;
  runs: { total: number; done: number; failed: number; missing: number };
  /** Saikoro versions that made the stored runs. */
  runVersions: string[];
}

export interface SetupInstance {
  name: string;
  /** The spec's track (its objective grouping and defaults). */
  track: TrackName;
  n: number;
  /** Feature groups (1-based) of the objectives. */
  objectives: number[][];
  /** The bands [alpha, beta] and weights gamma when any differs from the spec's defaults, else null (and null when hidden). */
  bands: { alpha: number[]; beta: number[]; gamma: number[] } | null;
  /** A competition's hidden instance before the reveal: no bands, weights or normalisation shown (docs/competition.md). */
  hidden?: true;
  /** Constrained block lengths with their lower and upper percent points. */
  constraints: { d: number; lower: number; upper: number }[];
  /** Whether the constraints are the spec's default (d = 1..12 at 0.1 and 0.9). */
  defaultConstraints: boolean;
  /** The stored HV / IGD+ normalisation (MO instances), else null. */
  normalisation: { ideal: number[]; nadir: number[]; method: string | null } | null;
}

export interface SetupSolver {
  label: string;
  /** Registry name. */
  name: string;
  /** Resolved parameters (defaults filled in); one value, or one per instance when they differ. */
  params: SetupParam[];
  /** A solver program (docs/external-solvers.md): its command and the sha256 of its files; absent for built-in solvers. */
  program?: { command: string[]; cwd: string | null; blind: boolean; hashes: Record<string, string> | null };
}

export interface SetupParam {
  name: string;
  /** The value on every instance, or null when it differs (see byInstance). */
  value: ParamValue | null;
  byInstance: { instance: string; value: ParamValue }[] | null;
}

export type { BaselineMark };

export interface MetricTable {
  metric: MetricName;
  higherIsBetter: boolean;
  /** The statistic that ranks the solvers: the median, or the mean for feasibility. */
  aggregate: 'median' | 'mean';
  rows: TableRow[];
  /** Why the marks of some instances are "=" whatever the runs found (too few runs for the test to reach the significance level), or null. */
  fewRuns: string | null;
  /** Instances the metric does not apply to, with the reason. */
  skipped: { instance: string; reason: string }[];
  friedman: FriedmanRow | null;
  friedmanNote: string | null;
}

export interface TableRow {
  instance: string;
  cells: TableCell[];
}

export interface TableCell {
  solver: string;
  /** Runs with a value. */
  n: number;
  /** Done runs without a value, and grid runs not done. */
  withoutValue: number;
  missing: number;
  median: number | null;
  q1: number | null;
  q3: number | null;
  iqr: number | null;
  mean: number | null;
  /** Best aggregate of the row (ties all marked). */
  best: boolean;
  /** Against the baseline: + better, - worse, = no significant difference; null for the baseline itself or without values. */
  vsBaseline: BaselineMark | null;
  /**
   * Mann-Whitney p against the baseline (compare's), and Holm-adjusted over the instance's
   * comparisons with the baseline (k − 1 of them: a comparison with a control).
   */
  p: number | null;
  pHolm: number | null;
  /** Vargha-Delaney A12: probability that a run of this solver is better than one of the baseline. */
  a12: number | null;
}

export interface FriedmanRow {
  instances: string[];
  ranks: { solver: string; averageRank: number }[];
  chiSquare: number;
  p: number;
  /** Iman-Davenport F; null when infinite (every instance ranks the solvers alike). */
  imanDavenport: number | null;
  imanDavenportP: number;
}

export interface ReportRun {
  id: string;
  instance: string;
  /** Solver label. */
  solver: string;
  /** Registry name. */
  solverName: string;
  seed: number;
  status: 'done' | 'failed' | 'missing';
  error: string | null;
  evaluations: number | null;
  /** Wall time of the run as stored (elapsed ms / 1000). */
  seconds: number | null;
  /** One entry per report metric; null = no value (or the metric does not apply). */
  indicators: Record<string, number | null>;
  appVersion: string | null;
  finishedAt: string | null;
}

export interface ReportSolution {
  run: string;
  instance: string;
  solver: string;
  seed: number;
  kind: 'best' | 'front';
  x: string;
  objectives: number[];
  /** g_d in the order of `constraintBlocks`. */
  constraints: number[];
  constraintBlocks: number[];
  feasible: boolean;
  violation: number;
}

export interface InstanceReport {
  instance: string;
  objectives: number;
  boxplots: BoxplotData[];
  convergence: ConvergenceData | null;
  /** MO: the front of the median run (by hypervolume) of each solver; SO: null. */
  fronts: FrontData | null;
  /** M = 2: the empirical attainment surfaces of each solver and the EAF differences; else null. */
  attainment: AttainmentData | null;
  best: BestSolution | null;
  /** The best solution of each solver on this instance (same rule as `best`). */
  bestBySolver: SolverBest[];
}

export interface BoxplotData {
  metric: MetricName;
  higherIsBetter: boolean;
  solvers: { solver: string; values: number[] }[];
}

export interface ConvergenceData {
  /** 'best': best feasible objective (SO); 'hv': normalised hypervolume of the feasible front (MO). */
  indicator: 'best' | 'hv';
  higherIsBetter: boolean;
  caption: string;
  /** Evaluation counts at which the quartiles are taken. */
  evaluations: number[];
  solvers: { solver: string; runs: number; q1: (number | null)[]; median: (number | null)[]; q3: (number | null)[] }[];
}

export interface FrontData {
  caption: string;
  /** Objective names, f1..fM. */
  axes: string[];
  solvers: { solver: string; run: string; seed: number; hv: number; points: number[][] }[];
}

/**
 * The empirical attainment function of an M = 2 instance (src-shared/metrics/attainment.ts), from
 * each done run's stored feasible front in raw objectives; a run with an empty front attains
 * nothing but counts.
 */
export interface AttainmentData {
  caption: string;
  /** Objective names, f1 and f2. */
  axes: string[];
  /** The plot range every attainment chart of the instance shares: padded around every point of every run. */
  extent: { x: [number, number]; y: [number, number] };
  /** Per solver with a done run, in the spec's order: `attainmentSummary` of its runs' fronts. */
  solvers: AttainmentSolver[];
  /** The baseline against each other solver with a done run (none without a done run of the baseline). */
  differences: EafDifferenceData[];
}

export interface AttainmentSolver {
  solver: string;
  /** n: its done runs (empty fronts included). */
  runs: number;
  best: AttainmentLevel;
  median: AttainmentLevel;
  worst: AttainmentLevel;
}

export interface AttainmentLevel {
  /** k: the surface bounds the region at least k of the n runs attain. */
  level: number;
  /** k / n. */
  fraction: number;
  /** The surface's minimal points [f1, f2], f1 ascending, f2 descending; empty when fewer than k runs have a point. */
  points: number[][];
}

/**
 * alpha_a − alpha_b (López-Ibáñez, Paquete and Stützle 2010): positive where a's runs attain a
 * point more often than b's. `eafDifference` gives it exactly as rectangles; the chart and this
 * object hold it coarsened to a grid over `extent`: each cell the mean of the difference over the
 * cell's area (exact up to rounding to 9 decimals).
 */
export interface EafDifferenceData {
  /** Solver labels: a is the baseline. */
  a: string;
  b: string;
  runsA: number;
  runsB: number;
  /** How many rectangles the exact difference has. */
  rectangles: number;
  /** The smallest and largest value of the exact difference (0 when it is zero everywhere). */
  min: number;
  max: number;
  /** Cell edges along f1 (columns + 1 of them) and f2 (rows + 1), ascending. */
  xEdges: number[];
  yEdges: number[];
  /** cells[row][column]: row 0 is the lowest f2. */
  cells: number[][];
}

export interface SolverBest {
  solver: string;
  run: string;
  seed: number;
  x: string;
  objectives: number[];
  feasible: boolean;
  violation: number;
}

export interface BestSolution extends SolverBest {
  /** How it was chosen. */
  rule: string;
  features: number[];
  /** Per-feature errors and the bands; null for a hidden instance before the reveal (they would give its bands and weights away). */
  errors: number[] | null;
  alpha: number[] | null;
  beta: number[] | null;
  hidden?: true;
  /** Per constrained d: chi_d, [q(p_d), q(P_d)] (null = infinite), g_d. */
  constraints: { d: number; chi: number; lower: number | null; upper: number | null; g: number }[];
}
