/**
 * Every multi-objective instance carries its HV / IGD+ normalisation, so every figure in a
 * comparison uses the same box and the box is shown with it. Instances without one get the
 * metrics module's dice default (ideal 0, nadir = median objective of random sequences).
 */
import { diceHvNormalisation } from '../metrics/hv-reference.ts';
import { instanceConfig, type ExperimentSpec, type InstanceSpec } from './spec.ts';

export function withNormalizations(spec: ExperimentSpec): ExperimentSpec {
  return { ...spec, instances: spec.instances.map(withNormalization) };
}

function withNormalization(instance: InstanceSpec): InstanceSpec {
  const config = instanceConfig(instance);
  if (instance.normalization || config.objectives.length < 2) return instance;
  const { ideal, nadir, method } = diceHvNormalisation(config);
  return { ...instance, normalization: { ideal, nadir, method } };
}
