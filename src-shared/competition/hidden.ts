/**
 * Hidden instances (docs/competition.md, "Hidden until revealed"): an experiment's instance
 * marked `"hidden": true` is a competition's secret draw. Until the competition is revealed,
 * nothing Saikoro shows or sends carries its bands, its weights or its normalisation (derived
 * from them): it is named by its id. Every place that shows an instance's config goes through
 * these functions with the set of names still hidden (src-main/app/competition-visibility.ts
 * decides the set for a project).
 */
import type { ExperimentSpec, InstanceSpec } from '../experiments/spec.ts';

/** What is shown instead of a hidden instance's bands, weights and normalisation. */
export const HIDDEN_TEXT = 'hidden until the competition is revealed';

/** The names of the instances an experiment marks hidden. */
export function hiddenInstanceNames(specs: readonly ExperimentSpec[]): Set<string> {
  const names = new Set<string>();
  for (const spec of specs) for (const instance of spec.instances) if (instance.hidden) names.add(instance.name);
  return names;
}

/** A hidden instance as it may be shown: its name, track and N, marked hidden; no config, no normalisation. */
export function redactInstance(instance: InstanceSpec): InstanceSpec {
  return {
    name: instance.name,
    ...(instance.track !== undefined ? { track: instance.track } : {}),
    ...(instance.n !== undefined ? { n: instance.n } : {}),
    hidden: true,
  };
}

/** The spec with every instance in `hidden` redacted (the same object when none is). */
export function redactSpec(spec: ExperimentSpec, hidden: ReadonlySet<string>): ExperimentSpec {
  if (!spec.instances.some((i) => hidden.has(i.name))) return spec;
  return { ...spec, instances: spec.instances.map((i) => (hidden.has(i.name) ? redactInstance(i) : i)) };
}

/** A config with its bands and weights left out (what a hidden run's config may show: N, groupings, constraints). */
export function redactBands<C extends { alpha: number[]; beta: number[]; gamma: number[] }>(config: C): Omit<C, 'alpha' | 'beta' | 'gamma'> & { hidden: true } {
  const { alpha, beta, gamma, ...rest } = config;
  void alpha;
  void beta;
  void gamma;
  return { ...rest, hidden: true };
}

/** A comparison with the normalisation of every hidden instance left out (and the instance marked hidden). */
export function redactComparison<C extends { instances: { instance: string; normalisation: unknown; hidden?: true }[] }>(
  comparison: C,
  hidden: ReadonlySet<string>,
): C {
  if (!comparison.instances.some((i) => hidden.has(i.instance))) return comparison;
  return { ...comparison, instances: comparison.instances.map((i) => (hidden.has(i.instance) ? { ...i, normalisation: null, hidden: true as const } : i)) };
}
