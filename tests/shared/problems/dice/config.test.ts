import { describe, expect, it } from 'vitest';
import { ConfigError, configFromPartial, MAX_N, trackConfig, validateConfig } from '../../../../src-shared/problems/dice/config.ts';

describe('the bound on N', () => {
  it('is 10^7, the same as saikoro solve --n', () => {
    expect(MAX_N).toBe(10_000_000);
  });

  // Every entry point builds its config through validateConfig: config files and specs
  // (trackConfig / validateConfig), the API's startRun and evaluateDice and saikoro eval
  // (configFromPartial). {"n": 1000000000} grew a worker to 16 GB before.
  it.each([
    ['validateConfig', () => validateConfig({ ...trackConfig('so', 50), n: 1_000_000_000 })],
    ['configFromPartial', () => configFromPartial({ n: 1_000_000_000 })],
    ['trackConfig', () => trackConfig('mo3', 10_000_001)],
    ['a huge double', () => configFromPartial({ n: 1e300 })],
  ])('%s refuses N above it with a ConfigError naming n', (_, make) => {
    expect(make).toThrow(ConfigError);
    expect(make).toThrow(/^n: must be at most 10000000 \(10\^7\), got /);
  });

  it('accepts N = 10^7', () => {
    expect(validateConfig({ ...trackConfig('so', 50), n: MAX_N }).n).toBe(MAX_N);
  });
});
