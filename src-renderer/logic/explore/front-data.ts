/**
 * What the Pareto explorer draws: the points of one or more runs' fronts on one instance, in
 * typed arrays (100,000 points stay cheap to keep, filter and re-project), with the run each
 * point came from, its feasibility and its sequence. Built from a stored experiment's results,
 * from an app run, or from a synthetic front. Plain data: never made reactive (markRaw it).
 */
import type { ExperimentRunResult, ExperimentSpec } from '../../../src-shared/projects/project-api.ts';
import type { SolutionRecord, SolverResult } from '../../../src-shared/solvers/types.ts';
import type { DiceRunStarted } from '../../../src-shared/runtime/run-api.ts';
import { instanceConfig } from '../../../src-shared/experiments/spec.ts';
import { trackOf, type DiceConfig, type TrackName } from '../../../src-shared/problems/dice/config.ts';
import { HV_REFERENCE_COORDINATE } from '../../../src-shared/metrics/hypervolume.ts';
import type { SyntheticFront } from '../../../src-shared/charts/synthetic-front.ts';
import { groupLabel } from '../dice/labels.ts';

export interface ExplorerRun {
  /** The stored run's content-hash id, the app run's id, or a synthetic name. */
  id: string;
  /** The solver's label in its experiment (its name unless the spec gave a label). */
  solver: string;
  seed: number;
}

export interface ExplorerData {
  /** What is shown, e.g. "mo3 · instance mo3-n50". */
  title: string;
  objectiveCount: number;
  count: number;
  /** count × M, row-major: point i's objective k is objectives[i * M + k]. */
  objectives: Float64Array;
  /** The run of each point (an index into `runs`). */
  run: Int32Array;
  /** 1 feasible, 0 not. */
  feasible: Uint8Array;
  /** Total normalised violation (0 when feasible). */
  violation: Float64Array;
  /** Each point's sequence, or null where it is not known (a live snapshot, a synthetic front). */
  x: readonly (string | null)[];
  runs: readonly ExplorerRun[];
  /** Distinct solver labels, in the order they first appear. */
  solvers: readonly string[];
  /** Distinct seeds, ascending. */
  seeds: readonly number[];
  /** The instance's problem, to open a solution in the evaluator; null for a synthetic front. */
  config: DiceConfig | null;
  /** The track whose objective grouping the config uses, or null (custom, or none). */
  track: TrackName | null;
  /** The instance's HV normalisation in raw objective units (ideal -> 0, nadir -> 1). */
  normalisation: { ideal: readonly number[]; nadir: readonly number[] } | null;
  /** Objective names for axes and tables: "f1 (F1–F5)". */
  objectiveNames: readonly string[];
}

/** A point as the explorer collects it before packing. */
interface Collected {
  run: number;
  objectives: readonly number[];
  feasible: boolean;
  violation: number;
  x: string | null;
}

function objectiveNames(m: number, config: DiceConfig | null): string[] {
  return Array.from({ length: m }, (_, k) => {
    const group = config?.objectives[k];
    return group ? `f${k + 1} (${groupLabel(group)})` : `f${k + 1}`;
  });
}

function pack(
  title: string,
  m: number,
  points: readonly Collected[],
  runs: ExplorerRun[],
  config: DiceConfig | null,
  normalisation: ExplorerData['normalisation'],
): ExplorerData {
  const count = points.length;
  const objectives = new Float64Array(count * m);
  const run = new Int32Array(count);
  const feasible = new Uint8Array(count);
  const violation = new Float64Array(count);
  const x: (string | null)[] = new Array(count);
  points.forEach((p, i) => {
    for (let k = 0; k < m; k++) objectives[i * m + k] = p.objectives[k];
    run[i] = p.run;
    feasible[i] = p.feasible ? 1 : 0;
    violation[i] = p.violation;
    x[i] = p.x;
  });
  return {
    title,
    objectiveCount: m,
    count,
    objectives,
    run,
    feasible,
    violation,
    x,
    runs,
    solvers: [...new Set(runs.map((r) => r.solver))],
    seeds: [...new Set(runs.map((r) => r.seed))].sort((a, b) => a - b),
    config,
    track: config ? (trackOf(config.objectives) ?? null) : null,
    normalisation,
    objectiveNames: objectiveNames(m, config),
  };
}

/** The points a finished run contributes: its front, or its best when the front is empty (possibly infeasible). */
function resultPoints(result: SolverResult, run: number): Collected[] {
  const members: SolutionRecord[] = result.front.length ? result.front : result.best ? [result.best] : [];
  return members.map((s) => ({ run, objectives: s.objectives, feasible: s.feasible, violation: s.violation, x: s.x }));
}

/** The instances of an experiment the explorer can show: those with two or more objectives. */
export function explorableInstances(spec: ExperimentSpec): string[] {
  return spec.instances.filter((i) => instanceConfig(i).objectives.length >= 2).map((i) => i.name);
}

/**
 * One instance of a stored experiment: every done run's final front (or its best solution when
 * the front is empty), labelled by solver and seed.
 */
export function fromExperiment(spec: ExperimentSpec, instanceName: string, results: readonly ExperimentRunResult[]): ExplorerData {
  const instance = spec.instances.find((i) => i.name === instanceName);
  if (!instance) throw new Error(`experiment ${spec.name} has no instance ${instanceName}`);
  const config = instanceConfig(instance);
  const m = config.objectives.length;
  const runs: ExplorerRun[] = [];
  const points: Collected[] = [];
  // Solvers in the spec's order, then seeds ascending: legends and colours stay put.
  const order = new Map(spec.solvers.map((s, i) => [s.label ?? s.name, i]));
  const done = results
    .filter((r) => r.instance === instanceName && r.status === 'done' && r.result)
    .sort((a, b) => (order.get(a.label) ?? 0) - (order.get(b.label) ?? 0) || a.seed - b.seed);
  for (const r of done) {
    points.push(...resultPoints(r.result!, runs.length));
    runs.push({ id: r.id, solver: r.label, seed: r.seed });
  }
  const normalisation = instance.normalisation ? { ideal: instance.normalisation.ideal, nadir: instance.normalisation.nadir } : null;
  return pack(`${spec.name} · ${instanceName}`, m, points, runs, config, normalisation);
}

/**
 * An app run: its final front once finished (with sequences), otherwise the objective vectors
 * of its latest snapshot (no sequences yet).
 */
export function fromAppRun(
  runId: string,
  started: DiceRunStarted,
  result: SolverResult | null,
  snapshotFront: readonly (readonly number[])[] | null,
): ExplorerData {
  const runs: ExplorerRun[] = [{ id: runId, solver: started.solver, seed: started.seed }];
  const points: Collected[] = result
    ? resultPoints(result, 0)
    : (snapshotFront ?? []).map((objectives) => ({ run: 0, objectives, feasible: true, violation: 0, x: null }));
  const normalisation = started.hvNormalisation ? { ideal: started.hvNormalisation.ideal, nadir: started.hvNormalisation.nadir } : null;
  return pack(started.title, started.objectiveCount, points, runs, started.config, normalisation);
}

/** A synthetic front (benchmarks, scale tests, a demo): no sequences, no config. */
export function fromSynthetic(front: SyntheticFront, title: string): ExplorerData {
  const m = front.objectiveCount;
  const runs: ExplorerRun[] = front.runs.map((r, i) => ({ id: `synthetic-${i}`, solver: r.solver, seed: r.seed }));
  const violation = new Float64Array(front.count);
  for (let i = 0; i < front.count; i++) violation[i] = front.feasible[i] ? 0 : 1;
  return {
    title,
    objectiveCount: m,
    count: front.count,
    objectives: front.objectives,
    run: front.run,
    feasible: front.feasible,
    violation,
    x: new Array<string | null>(front.count).fill(null),
    runs,
    solvers: [...new Set(runs.map((r) => r.solver))],
    seeds: [...new Set(runs.map((r) => r.seed))].sort((a, b) => a - b),
    config: null,
    track: null,
    normalisation: { ideal: front.ideal, nadir: front.nadir },
    objectiveNames: objectiveNames(m, null),
  };
}

/** Point i's objective vector. */
export function objectivesOf(data: ExplorerData, i: number): number[] {
  const m = data.objectiveCount;
  return Array.from(data.objectives.subarray(i * m, i * m + m));
}

/** "moead-ls · seed 3". */
export function runLabel(run: ExplorerRun): string {
  return `${run.solver} · seed ${run.seed}`;
}

export interface ReferencePoints {
  ideal: number[];
  nadir: number[];
  /** The HV reference point in raw units: ideal + 1.1 (nadir − ideal). */
  reference: number[];
}

/** Ideal, nadir and the HV reference point in raw objective units, from the normalisation. */
export function referencePoints(normalisation: ExplorerData['normalisation']): ReferencePoints | null {
  if (!normalisation) return null;
  const { ideal, nadir } = normalisation;
  return {
    ideal: [...ideal],
    nadir: [...nadir],
    reference: ideal.map((v, k) => v + HV_REFERENCE_COORDINATE * (nadir[k] - v)),
  };
}
