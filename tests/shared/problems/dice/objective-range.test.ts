// The objective ceiling the store checks stored values against must hold for every sequence:
// the extremes (one face throughout, which maximises every chi-square feature, and runs of two
// faces) and random sequences, on every track and on random configs.
import { describe, expect, it } from 'vitest';
import { TRACK_NAMES, trackConfig, type DiceConfig } from '../../../../src-shared/problems/dice/config.ts';
import { evaluateDice } from '../../../../src-shared/problems/dice/evaluate.ts';
import { objectiveCeiling } from '../../../../src-shared/problems/dice/objective-range.ts';
import { Random } from '../../../../src-shared/random.ts';

function sequences(n: number, random: Random): string[] {
  const out = ['1', '6'].map((f) => f.repeat(n));
  out.push(Array.from({ length: n }, (_, i) => (i % 2 ? '1' : '2')).join(''));
  out.push(Array.from({ length: n }, (_, i) => (i % 14 < 7 ? '3' : '5')).join(''));
  for (let k = 0; k < 20; k++) out.push(Array.from({ length: n }, () => String(random.int(1, 6))).join(''));
  return out;
}

function check(config: DiceConfig, random: Random): number {
  let closest = 0;
  for (const x of sequences(config.n, random)) {
    const { objectives } = evaluateDice(x, config);
    objectives.forEach((f, m) => {
      const ceiling = objectiveCeiling(config, m);
      expect(Number.isFinite(ceiling)).toBe(true);
      expect(f).toBeGreaterThanOrEqual(0);
      expect(f, `${x} objective ${m}`).toBeLessThanOrEqual(ceiling);
      closest = Math.max(closest, f / ceiling);
    });
  }
  return closest;
}

describe('objectiveCeiling', () => {
  it.each(TRACK_NAMES.flatMap((track) => [1, 7, 50, 333].map((n) => [track, n] as const)))('bounds every objective of %s at N = %i', (track, n) => {
    const closest = check(trackConfig(track, n), Random.fromSeed(n));
    // Not so loose as to be no check: one face throughout comes within a small factor.
    expect(closest).toBeGreaterThan(0.05);
  });

  it('bounds configs with wide and negative bands', () => {
    const random = Random.fromSeed(7);
    for (let k = 0; k < 20; k++) {
      const alpha = Array.from({ length: 15 }, () => random.int(-50, 50));
      const beta = alpha.map((a) => a + random.int(0, 30));
      const gamma = Array.from({ length: 15 }, () => random.int(1, 9));
      const config = { ...trackConfig('mo3', random.int(1, 120)), alpha, beta, gamma };
      check(config, random);
    }
  });
});
