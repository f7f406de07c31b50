/**
 * Comparison of the solvers of an experiment on one metric: per instance, a summary per
 * solver and pairwise Mann-Whitney U tests (Holm-corrected within the instance) with the
 * Vargha-Delaney A12 effect size; across instances, a Friedman test on the per-instance
 * medians with Holm-corrected post-hoc comparisons (Demšar 2006).
 *
 * Metrics: `best` (SO instances; the best feasible objective value, lower is better; a run
 * without a feasible solution has no value), `hv` (MO; normalised hypervolume of the feasible
 * front, higher is better; an empty front has HV 0) and `igd+` (MO; IGD+ of the normalised
 * front against the non-dominated union of every front of that instance in the experiment,
 * lower is better; an empty front has no value).
 */
import { nonDominatedIndices } from '../metrics/dominance.ts';
import { normalize, normalizedReferencePoint } from '../metrics/hypervolume.ts';
import { normalisedHypervolume } from '../metrics/hv-reference.ts';
import { igdPlus } from '../metrics/indicators.ts';
import type { SolverResult } from '../solvers/types.ts';
import { a12, a12Magnitude, type EffectMagnitude } from '../stats/a12.ts';
import { friedman, type FriedmanResult } from '../stats/friedman.ts';
import { holmAdjust } from '../stats/holm.ts';
import { mannWhitney } from '../stats/mann-whitney.ts';
import { summarize, type Summary } from '../stats/summary.ts';
import { expandGrid } from './grid.ts';
import { instanceConfig, solverLabel, type ExperimentSpec, type InstanceSpec } from './spec.ts';

export const METRICS = ['hv', 'igd+', 'best'] as const;
export type MetricName = (typeof METRICS)[number];

export interface StoredRun {
  id: string;
  result: SolverResult | null;
}

export interface SolverColumn {
  label: string;
  /** Runs of this solver on the instance found done in the store. */
  runs: number;
  /** Of those, runs without a value (no feasible solution / empty front). */
  withoutValue: number;
  /** Grid runs not (yet) done. */
  missing: number;
  summary: Summary | null;
}

export interface PairTest {
  a: string;
  b: string;
  u: number;
  p: number;
  pHolm: number;
  method: 'exact' | 'normal';
  /** Probability that a run of `a` is better than one of `b` (ties ½). */
  a12: number;
  magnitude: EffectMagnitude;
}

export interface InstanceComparison {
  instance: string;
  objectives: number;
  normalization: InstanceSpec['normalization'] | null;
  solvers: SolverColumn[];
  pairs: PairTest[];
}

export interface Comparison {
  experiment: string;
  metric: MetricName;
  higherIsBetter: boolean;
  instances: InstanceComparison[];
  /** Instances left out because the metric does not apply to them. */
  skipped: { instance: string; reason: string }[];
  friedman: (FriedmanResult & { labels: string[]; instances: string[] }) | null;
  /** Why there is no Friedman test. */
  friedmanNote: string | null;
}

export class CompareError extends Error {}

function applies(metric: MetricName, objectives: number): string | null {
  if (metric === 'best' && objectives !== 1) return `has ${objectives} objectives; "best" is for single-objective instances (use hv or igd+)`;
  if (metric !== 'best' && objectives < 2) return `is single-objective; ${metric} is for multi-objective instances (use best)`;
  return null;
}

export function compareExperiment(spec: ExperimentSpec, stored: ReadonlyMap<string, StoredRun>, metric: MetricName): Comparison {
  const higherIsBetter = metric === 'hv';
  const grid = expandGrid(spec);
  const labels = spec.solvers.map(solverLabel);
  const comparison: Comparison = { experiment: spec.name, metric, higherIsBetter, instances: [], skipped: [], friedman: null, friedmanNote: null };
  for (const instance of spec.instances) {
    const config = instanceConfig(instance);
    const m = config.objectives.length;
    const reason = applies(metric, m);
    if (reason) {
      comparison.skipped.push({ instance: instance.name, reason: `${instance.name} ${reason}` });
      continue;
    }
    const norm = instance.normalization ?? null;
    if (metric !== 'best' && !norm) throw new CompareError(`instance ${instance.name} has no normalisation; add the experiment again to store one`);
    const runs = grid.filter((r) => r.instance === instance.name);
    const fronts = new Map<string, number[][]>();
    for (const run of runs) {
      const result = stored.get(run.id)?.result;
      if (result && metric !== 'best') fronts.set(run.id, normalize(result.front.map((s) => s.objectives), norm!.ideal, norm!.nadir));
    }
    let referenceSet: number[][] = [];
    if (metric === 'igd+') {
      const union = [...fronts.values()].flat();
      referenceSet = nonDominatedIndices(union).map((i) => union[i]);
    }
    const valueOf = (id: string, result: SolverResult): number | null => {
      if (metric === 'best') return result.best && result.best.feasible ? result.best.objectives[0] : null;
      const front = fronts.get(id)!;
      if (metric === 'hv') return normalisedHypervolume(result.front.map((s) => s.objectives), { ideal: norm!.ideal, nadir: norm!.nadir, reference: normalizedReferencePoint(m), method: '' });
      return front.length && referenceSet.length ? igdPlus(front, referenceSet) : null;
    };
    const values = new Map<string, number[]>();
    const solvers: SolverColumn[] = labels.map((label) => {
      const mine = runs.filter((r) => r.label === label);
      const column: SolverColumn = { label, runs: 0, withoutValue: 0, missing: 0, summary: null };
      const list: number[] = [];
      for (const run of mine) {
        const result = stored.get(run.id)?.result;
        if (!result) {
          column.missing++;
          continue;
        }
        column.runs++;
        const v = valueOf(run.id, result);
        if (v === null) column.withoutValue++;
        else list.push(v);
      }
      values.set(label, list);
      column.summary = list.length ? summarize(list) : null;
      return column;
    });
    const raw: Omit<PairTest, 'pHolm'>[] = [];
    for (let i = 0; i < labels.length; i++)
      for (let j = i + 1; j < labels.length; j++) {
        const x = values.get(labels[i])!;
        const y = values.get(labels[j])!;
        if (!x.length || !y.length) continue;
        const test = mannWhitney(x, y);
        const effect = higherIsBetter ? a12(x, y) : a12(y, x);
        raw.push({ a: labels[i], b: labels[j], u: test.u1, p: test.p, method: test.method, a12: effect, magnitude: a12Magnitude(effect) });
      }
    const adjusted = holmAdjust(raw.map((r) => r.p));
    comparison.instances.push({ instance: instance.name, objectives: m, normalization: norm, solvers, pairs: raw.map((r, k) => ({ ...r, pHolm: adjusted[k] })) });
  }
  if (comparison.instances.length === 0) throw new CompareError(`metric ${metric} applies to no instance of experiment ${spec.name}: ${comparison.skipped.map((s) => s.reason).join('; ')}`);
  const complete = comparison.instances.filter((c) => c.solvers.every((s) => s.summary));
  if (labels.length < 2) comparison.friedmanNote = 'one solver: nothing to rank';
  else if (complete.length < 2) comparison.friedmanNote = `needs at least 2 instances with values for every solver, has ${complete.length}`;
  else {
    const table = complete.map((c) => c.solvers.map((s) => s.summary!.median));
    comparison.friedman = { ...friedman(table, { higherIsBetter }), labels, instances: complete.map((c) => c.instance) };
  }
  return comparison;
}
