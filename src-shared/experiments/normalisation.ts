/**
 * Every multi-objective instance carries its HV / IGD+ normalisation, so every figure in a
 * comparison uses the same box and the box is shown with it. Instances without one get the
 * metrics module's dice default (ideal 0, nadir = median objective of random sequences), which
 * the caller computes (`normalise`): the main side does it in a worker at large N
 * (src-main/app/dice.ts, boundedHvNormaliser), since it costs 1000 evaluations at the instance's N.
 *
 * The spec field is `normalisation`. Specs stored before it was spelt so hold the key
 * `normalization`; validateSpec accepts either on input, and upgradeSpec turns a stored spec
 * into the current spelling before anything reads it.
 */
import type { HvNormalisation } from '../problems/dice/hv-reference.ts';
import type { DiceConfig } from '../problems/dice/config.ts';
import { canonicalJson } from './canonical-json.ts';
import { instanceConfig, type ExperimentSpec, type InstanceSpec } from './spec.ts';

/** The configs of the multi-objective instances that have no normalisation yet, in order. */
export function configsWithoutNormalisation(spec: ExperimentSpec): DiceConfig[] {
  return spec.instances
    .filter((i) => !i.normalisation)
    .map(instanceConfig)
    .filter((c) => c.objectives.length >= 2);
}

/** The spec with every multi-objective instance's missing normalisation filled in by `normalise` (the dice default's numbers). */
export function withNormalisations(spec: ExperimentSpec, normalise: (config: DiceConfig) => HvNormalisation): ExperimentSpec {
  return { ...spec, instances: spec.instances.map((instance) => withNormalisation(instance, normalise)) };
}

function withNormalisation(instance: InstanceSpec, normalise: (config: DiceConfig) => HvNormalisation): InstanceSpec {
  const config = instanceConfig(instance);
  if (instance.normalisation || config.objectives.length < 2) return instance;
  const { ideal, nadir, method } = normalise(config);
  return { ...instance, normalisation: { ideal, nadir, method } };
}

/** The older spelling of InstanceSpec.normalisation, as stored in projects written before. */
export const OLD_NORMALISATION_KEY = 'normalization';

/**
 * A spec as any version stored it, in the current spelling: an instance's `normalization`
 * becomes `normalisation`, with the same value. A spec already in the current spelling comes
 * back as it is (the same object).
 */
export function upgradeSpec(spec: ExperimentSpec): ExperimentSpec {
  if (!spec.instances.some((i) => OLD_NORMALISATION_KEY in i)) return spec;
  return {
    ...spec,
    instances: spec.instances.map((instance) => {
      if (!(OLD_NORMALISATION_KEY in instance)) return instance;
      const { [OLD_NORMALISATION_KEY]: old, ...rest } = instance as InstanceSpec & { [OLD_NORMALISATION_KEY]?: InstanceSpec['normalisation'] };
      return old === undefined ? rest : { ...rest, normalisation: old };
    }),
  };
}

/** Whether two specs (either spelling) describe the same experiment: equal once upgraded. */
export function sameSpec(a: ExperimentSpec, b: ExperimentSpec): boolean {
  return canonicalJson(upgradeSpec(a)) === canonicalJson(upgradeSpec(b));
}
