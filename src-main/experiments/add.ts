/**
 * Storing an experiment's spec, for `experiment add`, shard results files and `merge`.
 * Projects written before the spec field was spelt `normalisation` hold `normalization`: a
 * stored spec that differs from the new one only in that spelling is the same experiment, so
 * adding it again is a no-op (the stored spec stays as it is) instead of a refusal. What is
 * written is always in the current spelling.
 */
import { sameSpec, upgradeSpec } from '../../src-shared/experiments/normalisation.ts';
import type { ExperimentSpec } from '../../src-shared/experiments/spec.ts';
import type { Project } from '../project/store.ts';

/** Project.addExperiment, with a stored spec in the older spelling counting as the same. */
export function addExperiment(project: Project, spec: ExperimentSpec): 'added' | 'unchanged' {
  const existing = project.experiment(spec.name);
  if (existing && sameSpec(existing.spec, spec)) return 'unchanged';
  return project.addExperiment(upgradeSpec(spec));
}
