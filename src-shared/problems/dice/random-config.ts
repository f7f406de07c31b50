/**
 * Seeded random configs "around the defaults": what a researcher who changes the bands, the
 * weights, the constrained block lengths and the percent points might try. The benchmark
 * (`bench:solvers`, cases random-*) runs the solvers on them, so that no solver is only good on
 * the one config it was tuned on. The same seed gives the same config on every platform
 * (src-shared/random.ts); every config passes validateConfig.
 *
 * The ranges (RANDOM_CONFIG_RANGES, checked by tests/shared/problems/dice/random-config.test.ts):
 * - bands: each end of feature i moves by an independent offset from -s_i to s_i, then alpha is
 *   clamped to >= 0 and beta to >= alpha. F1..F5 (chi-square values): s = 1 in steps of 0.5.
 *   F6..F15 (counts): s_i = max(1, round(beta_i / 5)) in whole steps (F6: 6, F7: 2, the rest 1).
 * - weights: gamma_i times 2^u, u uniform in [-1, 1], rounded to 2 decimals (so within half and
 *   twice the default, up to the rounding).
 * - constraints: each d = 1..12 kept with probability 0.75 (at least one), in increasing order.
 * - percent points: p_d = 0 with probability 0.15, else uniform in [0.01, 0.2] to 2 decimals;
 *   P_d = 1 with probability 0.15, else uniform in [0.8, 0.99] to 2 decimals.
 * - objectives: the track's feature groups, unchanged; N as given.
 */
import { Random } from '../../random.ts';
import {
  DEFAULT_ALPHA,
  DEFAULT_BETA,
  DEFAULT_GAMMA,
  FEATURE_COUNT,
  MAX_BLOCK_LENGTH,
  TRACK_OBJECTIVES,
  validateConfig,
  type DiceConfig,
  type TrackName,
} from './config.ts';

export const RANDOM_CONFIG_RANGES = {
  /** Largest move of a band end, per feature (0-based), and its step. */
  bandShift: DEFAULT_BETA.map((b, i) => (i < 5 ? 1 : Math.max(1, Math.round(b / 5)))),
  bandStep: DEFAULT_BETA.map((_, i) => (i < 5 ? 0.5 : 1)),
  /** gamma_i within [gamma_i / 2, 2 gamma_i] before rounding to 2 decimals. */
  weightFactor: [0.5, 2] as const,
  keepConstraint: 0.75,
  lowerZero: 0.15,
  lower: [0.01, 0.2] as const,
  upperOne: 0.15,
  upper: [0.8, 0.99] as const,
};

const round2 = (v: number) => Math.round(v * 100) / 100;

/** A random config for a track at length n, from a seed (any safe integer). */
export function randomDiceConfig(seed: number, track: TrackName, n: number): DiceConfig {
  const random = Random.fromSeed(seed);
  const R = RANDOM_CONFIG_RANGES;
  const alpha: number[] = [];
  const beta: number[] = [];
  for (let i = 0; i < FEATURE_COUNT; i++) {
    const shift = () => random.int(-R.bandShift[i] / R.bandStep[i], R.bandShift[i] / R.bandStep[i]) * R.bandStep[i];
    const a = Math.max(0, DEFAULT_ALPHA[i] + shift());
    const b = Math.max(a, DEFAULT_BETA[i] + shift());
    alpha.push(a);
    beta.push(b);
  }
  const gamma = DEFAULT_GAMMA.map((g) => Math.max(0.01, round2(g * 2 ** (2 * random.float() - 1))));
  const constraints: number[] = [];
  for (let d = 1; d <= MAX_BLOCK_LENGTH; d++) if (random.chance(R.keepConstraint)) constraints.push(d);
  if (constraints.length === 0) constraints.push(random.int(1, MAX_BLOCK_LENGTH));
  const uniform = ([lo, hi]: readonly [number, number]) => round2(lo + (hi - lo) * random.float());
  const lowerBounds = constraints.map(() => (random.chance(R.lowerZero) ? 0 : uniform(R.lower)));
  const upperBounds = constraints.map(() => (random.chance(R.upperOne) ? 1 : uniform(R.upper)));
  return validateConfig({
    n,
    alpha,
    beta,
    gamma,
    objectives: TRACK_OBJECTIVES[track].map((g) => [...g]),
    constraints,
    lowerBounds,
    upperBounds,
  });
}
