import { describe, expect, it } from 'vitest';
import { DEFAULT_ALPHA, DEFAULT_BETA, DEFAULT_GAMMA, TRACK_OBJECTIVES, validateConfig } from '../../../../src-shared/problems/dice/config.ts';
import { RANDOM_CONFIG_RANGES, randomDiceConfig } from '../../../../src-shared/problems/dice/random-config.ts';

const SEEDS = Array.from({ length: 400 }, (_, i) => i + 1);

describe('random configs around the defaults', () => {
  it('are seeded: the same seed gives the same config, other seeds other configs', () => {
    expect(randomDiceConfig(7, 'so', 840)).toEqual(randomDiceConfig(7, 'so', 840));
    const keys = new Set(SEEDS.map((s) => JSON.stringify(randomDiceConfig(s, 'so', 840))));
    expect(keys.size).toBe(SEEDS.length);
    // Pinned, so a change of the generator (which would change every benchmark case) is seen.
    expect(randomDiceConfig(1, 'so', 840)).toEqual({
      n: 840,
      alpha: [1.5, 1.5, 1, 2, 2.5, 25, 5, 0, 0, 2, 0, 0, 1, 0, 1],
      beta: [5.5, 5, 6, 5.5, 5.5, 27, 8, 0, 0, 3, 0, 1, 2, 0, 1],
      gamma: [3.95, 3.6, 1.76, 2.73, 1.84, 0.84, 0.62, 3.44, 14.53, 3.1, 3.4, 2.3, 4.16, 3.16, 6.1],
      objectives: TRACK_OBJECTIVES.so,
      constraints: [2, 3, 4, 5, 6, 8, 9, 10, 11, 12],
      lowerBounds: [0.04, 0.13, 0.03, 0.13, 0.13, 0.19, 0.04, 0.17, 0.17, 0.16],
      upperBounds: [0.87, 0.87, 0.82, 0.97, 0.89, 0.91, 0.83, 1, 0.84, 0.84],
    });
  });

  it('are valid configs with the track groups and N asked for', () => {
    for (const track of ['so', 'mo2', 'mo3', 'mo5', 'mo7'] as const) {
      for (const seed of SEEDS.slice(0, 50)) {
        const c = randomDiceConfig(seed, track, 123);
        expect(() => validateConfig(c)).not.toThrow();
        expect(c.n).toBe(123);
        expect(c.objectives).toEqual(TRACK_OBJECTIVES[track]);
      }
    }
  });

  it('stay within the stated ranges, and use all of them', () => {
    const R = RANDOM_CONFIG_RANGES;
    const seen = {
      lowerZero: 0,
      upperOne: 0,
      dropped: new Set<number>(),
      alphaMoved: new Set<number>(),
      betaMoved: new Set<number>(),
      maxShift: new Array<number>(15).fill(0),
    };
    for (const seed of SEEDS) {
      const c = randomDiceConfig(seed, 'so', 840);
      for (let i = 0; i < 15; i++) {
        const step = R.bandStep[i];
        const s = R.bandShift[i];
        expect(c.alpha[i]).toBeGreaterThanOrEqual(Math.max(0, DEFAULT_ALPHA[i] - s));
        expect(c.alpha[i]).toBeLessThanOrEqual(DEFAULT_ALPHA[i] + s);
        expect(c.beta[i]).toBeGreaterThanOrEqual(c.alpha[i]);
        expect(c.beta[i]).toBeLessThanOrEqual(Math.max(c.alpha[i], DEFAULT_BETA[i] + s));
        expect(Number.isInteger(c.alpha[i] / step) && Number.isInteger(c.beta[i] / step)).toBe(true);
        expect(c.gamma[i]).toBeGreaterThanOrEqual(Math.round(DEFAULT_GAMMA[i] * R.weightFactor[0] * 100) / 100);
        expect(c.gamma[i]).toBeLessThanOrEqual(Math.round(DEFAULT_GAMMA[i] * R.weightFactor[1] * 100) / 100);
        expect(Math.round(c.gamma[i] * 100)).toBeCloseTo(c.gamma[i] * 100, 9);
        if (c.alpha[i] !== DEFAULT_ALPHA[i]) seen.alphaMoved.add(i);
        if (c.beta[i] !== DEFAULT_BETA[i]) seen.betaMoved.add(i);
        seen.maxShift[i] = Math.max(seen.maxShift[i], Math.abs(c.beta[i] - DEFAULT_BETA[i]));
      }
      expect(c.constraints.length).toBeGreaterThan(0);
      expect([...c.constraints].sort((a, b) => a - b)).toEqual(c.constraints);
      for (let d = 1; d <= 12; d++) if (!c.constraints.includes(d)) seen.dropped.add(d);
      c.lowerBounds.forEach((p, l) => {
        if (p === 0) seen.lowerZero++;
        else expect(p >= R.lower[0] && p <= R.lower[1]).toBe(true);
        const P = c.upperBounds[l];
        if (P === 1) seen.upperOne++;
        else expect(P >= R.upper[0] && P <= R.upper[1]).toBe(true);
        expect(Math.round(p * 100)).toBeCloseTo(p * 100, 9);
      });
    }
    // Every feature's band moves, every d is dropped sometimes, both end points occur.
    expect(seen.alphaMoved.size).toBe(15);
    expect(seen.betaMoved.size).toBe(15);
    expect(seen.maxShift).toEqual(R.bandShift);
    expect(seen.dropped.size).toBe(12);
    expect(seen.lowerZero).toBeGreaterThan(0);
    expect(seen.upperOne).toBeGreaterThan(0);
  });
});
