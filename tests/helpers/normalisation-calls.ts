// The HV normalisation module with every call of its two entry points counted, for tests that
// check which process computes it: `vi.mock(<hv-reference.ts>, async (original) =>
// (await import('<this file>')).countingHvReference(await original(), calls))`. Workers are other
// processes, so only this process's calls are counted.
import type * as HvReference from '../../src-shared/problems/dice/hv-reference.ts';

export function countingHvReference(real: typeof HvReference, calls: { count: number }): typeof HvReference {
  return {
    ...real,
    diceHvNormalisation: (...args: Parameters<typeof real.diceHvNormalisation>) => {
      calls.count++;
      return real.diceHvNormalisation(...args);
    },
    diceHvNormalisationSteps: (...args: Parameters<typeof real.diceHvNormalisationSteps>) => {
      calls.count++;
      return real.diceHvNormalisationSteps(...args);
    },
  };
}
