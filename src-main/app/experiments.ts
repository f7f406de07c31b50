/**
 * Experiments, decided once for the CLI (`experiment add`, `compare`, `experiment status`) and
 * the app's API (addExperiment, compareExperiment, listExperimentRuns): a spec checked as
 * `experiment add` checks it, a comparison with the numbers of `saikoro compare --json`, and an
 * experiment's runs with their status and final indicators.
 */
import { FieldError } from '../../src-shared/base/field-error.ts';
import { CompareError, compareExperiment, METRICS, type Comparison, type MetricName } from '../../src-shared/experiments/compare.ts';
import { expandGrid, expandGridWithSetups, type RunSpec } from '../../src-shared/experiments/grid.ts';
import { configsWithoutNormalisation, withNormalisations } from '../../src-shared/experiments/normalisation.ts';
import { canonicalJson } from '../../src-shared/experiments/canonical-json.ts';
import { SpecError, validateSpec, type ExperimentSpec } from '../../src-shared/experiments/spec.ts';
import { normalisedHypervolume, type HvNormalisation } from '../../src-shared/problems/dice/hv-reference.ts';
import type { HvNormaliser } from './dice.ts';
import { normalisedReferencePoint } from '../../src-shared/metrics/hypervolume.ts';
import type { ExperimentRunRow } from '../../src-shared/projects/project-api.ts';
import type { RunRecord } from '../project/project-records.ts';
import type { Project } from '../project/store.ts';
import { withProgramHashes } from '../experiments/programs.ts';
import { redactComparison } from '../../src-shared/competition/hidden.ts';

/** A request about the open project that cannot be served; `field` names what is wrong. */
export class ProjectRequestError extends FieldError {
  override readonly name = 'ProjectRequestError';
}

/**
 * A spec as `experiment add` takes it, but for the normalisations: validated (SpecError names
 * the field), the sha256 of every solver program's files in the project's folder `projectDir`
 * stored with it (src-main/experiments/programs.ts), every solver's setup run once per instance
 * (limits only the problem knows). Nothing heavy: see prepareSpec.
 */
export function checkSpec(input: unknown, projectDir: string): ExperimentSpec {
  const spec = withProgramHashes(validateSpec(input), projectDir);
  expandGridWithSetups(spec);
  return spec;
}

/**
 * A spec as `experiment add` takes it: checkSpec, and the default HV normalisation stored with
 * each multi-objective instance that has none, computed by `normalise` (boundedHvNormaliser:
 * in a worker at large N, never in a process that must stay free), one config at a time.
 */
export async function prepareSpec(input: unknown, projectDir: string, normalise: HvNormaliser): Promise<ExperimentSpec> {
  const spec = checkSpec(input, projectDir);
  const computed = new Map<string, HvNormalisation>();
  for (const config of configsWithoutNormalisation(spec)) {
    const key = canonicalJson(config);
    if (!computed.has(key)) computed.set(key, await normalise(config));
  }
  return withNormalisations(spec, (config) => computed.get(canonicalJson(config))!);
}

/** An experiment name as a call gives it; ProjectRequestError otherwise. */
export function checkExperimentName(name: unknown): string {
  if (typeof name !== 'string' || name === '') throw new ProjectRequestError('name', `must be an experiment name, got ${JSON.stringify(name)}`);
  return name;
}

/** The stored experiment called `name`; ProjectRequestError lists the names there are. */
export function experimentNamed(project: Project, name: string): ExperimentSpec {
  const experiment = project.experiment(name);
  if (!experiment)
    throw new ProjectRequestError(
      'experiment',
      `no experiment named ${JSON.stringify(name)} (has: ${
        project
          .experiments()
          .map((e) => e.name)
          .join(', ') || 'none'
      })`,
    );
  return experiment.spec;
}

/** The metric names compare takes; ProjectRequestError otherwise. */
export function checkMetric(metric: unknown): MetricName {
  if (typeof metric !== 'string' || !(METRICS as readonly string[]).includes(metric))
    throw new ProjectRequestError('metric', `must be one of ${METRICS.join(', ')}, got ${JSON.stringify(metric)}`);
  return metric as MetricName;
}

/**
 * An experiment's comparison on one metric from its stored done runs: the numbers `saikoro
 * compare FILE NAME --metric M --json` prints. A stored run whose config is not its
 * instance's (a damaged file) is refused rather than compared. Throws CompareError /
 * SpecError for what cannot be compared, ProjectRequestError for an unknown name or metric.
 */
export function compareStored(project: Project, name: string, metric: MetricName): Comparison {
  const spec = experimentNamed(project, name);
  const grid = new Map(expandGrid(spec).map((r) => [r.id, r]));
  const stored = project.runs([...grid.keys()]).filter((r) => r.status === 'done');
  for (const r of stored) {
    const cell = grid.get(r.id)!;
    if (r.config.n !== cell.config.n || r.config.objectives.length !== cell.config.objectives.length)
      throw new CompareError(
        `corrupt Saikoro project (run ${r.id}: its config (N = ${r.config.n}, ${r.config.objectives.length} objectives) is not its instance ${cell.instance}'s (N = ${cell.config.n}, ${cell.config.objectives.length}))`,
      );
  }
  // A hidden instance's normalisation is derived from its bands: not shown before the reveal.
  return redactComparison(compareExperiment(spec, new Map(stored.map((r) => [r.id, { id: r.id, result: r.result }])), metric), project.hiddenInstances());
}

/** The final indicators of a stored run: best feasible f, or front size and normalised HV. */
function indicatorsOf(record: RunRecord | undefined, spec: ExperimentSpec, run: RunSpec): Pick<ExperimentRunRow, 'best' | 'feasible' | 'frontSize' | 'hv'> {
  const none = { best: null, feasible: null, frontSize: null, hv: null };
  const r = record?.result;
  if (!r) return none;
  if (run.config.objectives.length === 1)
    return { ...none, best: r.best && r.best.feasible ? r.best.objectives[0] : null, feasible: r.best?.feasible ?? false };
  const norm = spec.instances.find((i) => i.name === run.instance)?.normalisation;
  const front = r.front.map((s) => s.objectives);
  const hv = norm
    ? normalisedHypervolume(front, { ideal: norm.ideal, nadir: norm.nadir, reference: normalisedReferencePoint(norm.ideal.length), method: norm.method ?? '' })
    : null;
  return { ...none, feasible: front.length > 0, frontSize: front.length, hv };
}

/**
 * Every run of an experiment's grid with what the file says of it, and `running` (content id
 * -> API run id) for the ones this app runs now.
 */
export function experimentRunRows(project: Project, spec: ExperimentSpec, running: ReadonlyMap<string, string> = new Map()): ExperimentRunRow[] {
  const grid = expandGrid(spec);
  const records = new Map(project.runs(grid.map((r) => r.id)).map((r) => [r.id, r]));
  return grid.map((run) => {
    const record = records.get(run.id);
    const runId = running.get(run.id) ?? null;
    const status = record?.status === 'done' ? 'done' : runId ? 'running' : record ? 'failed' : 'missing';
    return {
      id: run.id,
      instance: run.instance,
      label: run.label,
      solver: run.solver,
      seed: run.seed,
      status,
      runId,
      startedAt: record?.startedAt ?? null,
      finishedAt: record?.finishedAt ?? null,
      elapsedMs: record?.elapsedMs ?? null,
      evaluations: record?.evaluations ?? null,
      error: record?.error ?? null,
      ...indicatorsOf(record, spec, run),
    };
  });
}

export { CompareError, SpecError };
