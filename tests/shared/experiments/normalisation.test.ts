import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../src-shared/experiments/canonical-json.ts';
import { expandGrid } from '../../../src-shared/experiments/grid.ts';
import { sameSpec, upgradeSpec, withNormalisations } from '../../../src-shared/experiments/normalisation.ts';
import { SpecError, validateSpec, type ExperimentSpec } from '../../../src-shared/experiments/spec.ts';
import { diceHvNormalisation } from '../../../src-shared/problems/dice/hv-reference.ts';
import { trackConfig } from '../../../src-shared/problems/dice/config.ts';

const box = { ideal: [0, 0], nadir: [3, 4] };
const input = (key: string) => ({
  name: 'ids',
  instances: [
    { name: 'a', track: 'mo2', n: 12, [key]: box },
    { name: 'b', track: 'mo2', n: 12 },
    { name: 'c', track: 'so', n: 10 },
  ],
  solvers: [{ name: 'random' }],
  seeds: [1, 2],
  // Instance c has one objective: these ids were recorded when every run used its whole budget.
  budget: { evaluations: 100, wholeBudget: true },
});

describe('the spec field normalisation (older spelling normalization)', () => {
  it('reads either spelling and keeps normalisation', () => {
    for (const key of ['normalisation', 'normalization']) {
      const spec = validateSpec(input(key));
      expect(spec.instances[0]).toEqual({ name: 'a', track: 'mo2', n: 12, normalisation: box });
      expect(canonicalJson(spec)).not.toContain('normalization');
    }
    expect(validateSpec(input('normalization'))).toEqual(validateSpec(input('normalisation')));
  });

  it('refuses both spellings in one instance, naming the field; errors name the spelling used', () => {
    const both = { ...input('normalisation'), instances: [{ name: 'a', track: 'mo2', normalisation: box, normalization: box }] };
    expect(() => validateSpec(both)).toThrow(SpecError);
    expect(() => validateSpec(both)).toThrow('instances[0].normalization: is the older spelling of normalisation: give only one of the two');
    const bad = (key: string) => ({ ...input(key), instances: [{ name: 'a', track: 'mo2', [key]: { ideal: [0, 0], nadir: [1, 0] } }] });
    expect(() => validateSpec(bad('normalisation'))).toThrow('instances[0].normalisation.nadir[1]: must exceed ideal[1] (0 <= 0)');
    expect(() => validateSpec(bad('normalization'))).toThrow('instances[0].normalization.nadir[1]: must exceed ideal[1] (0 <= 0)');
    expect(() => validateSpec({ ...input('normalisation'), instances: [{ name: 'a', normalisation: { ideal: [0] } }] })).toThrow(
      'instances[0].normalisation.nadir: must be a list of 1 numbers',
    );
    expect(() => validateSpec({ ...input('normalisation'), instances: [{ name: 'a', track: 'mo2', normalisation: box, normalisations: box }] })).toThrow(
      'instances[0].normalisations: is not a known field (known: name, track, n, config, normalisation, normalization, hidden)',
    );
  });

  it('stores the default under normalisation at add', () => {
    const spec = withNormalisations(validateSpec(input('normalisation')), diceHvNormalisation);
    const { ideal, nadir, method } = diceHvNormalisation(trackConfig('mo2', 12));
    expect(spec.instances.map((i) => i.normalisation)).toEqual([box, { ideal, nadir, method }, undefined]);
  });

  it('upgrades a spec stored before (older key) to the current spelling; sameSpec sees through the spelling', () => {
    const current = withNormalisations(validateSpec(input('normalisation')), diceHvNormalisation);
    const stored = JSON.parse(JSON.stringify(current).replaceAll('"normalisation"', '"normalization"')) as ExperimentSpec;
    expect(canonicalJson(upgradeSpec(stored))).toBe(canonicalJson(current));
    expect(upgradeSpec(current)).toBe(current);
    expect(sameSpec(stored, current)).toBe(true);
    expect(sameSpec(stored, { ...current, seeds: [1, 2, 3] })).toBe(false);
    const otherBox = { ...current, instances: [{ ...current.instances[0], normalisation: { ideal: [0, 0], nadir: [3, 5] } }, ...current.instances.slice(1)] };
    expect(sameSpec(stored, otherBox)).toBe(false);
  });

  it('run ids do not hash the normalisation: the same ids as before the rename, whatever the spelling or box', () => {
    // Recorded on commit 0458dab, before the rename, from the spec with the key "normalization".
    const before = [
      ['a', 1, 'f593b88fbf7df94d178f305e358324c7'],
      ['a', 2, '039e7af5d7d2c52526ce04059e5391ab'],
      ['b', 1, 'f593b88fbf7df94d178f305e358324c7'],
      ['b', 2, '039e7af5d7d2c52526ce04059e5391ab'],
      ['c', 1, '20fde54e2b60af451e6cc12d98078b54'],
      ['c', 2, '001f76f3081bd4d9352542a59f132a41'],
    ];
    for (const key of ['normalisation', 'normalization']) {
      const spec = withNormalisations(validateSpec(input(key)), diceHvNormalisation);
      expect(expandGrid(spec).map((r) => [r.instance, r.seed, r.id])).toEqual(before);
      const stored = JSON.parse(JSON.stringify(spec).replaceAll('"normalisation"', `"${key}"`)) as ExperimentSpec;
      expect(expandGrid(stored).map((r) => r.id)).toEqual(before.map((r) => r[2]));
    }
  });
});
