/**
 * The range every dice objective lies in, for checking stored values (a project file may be
 * damaged or forged): 0 <= f_m <= objectiveCeiling(config, m).
 *
 * Each feature lies in [0, 5N]: F1..F5 are chi-square values of the face counts of a window of
 * L <= N rolls, at most 5L (every roll the same face: (L - L/6)^2 / (L/6) + 5 (L/6) = 5L);
 * F6..F15 count start positions, at most N. A feature's error gamma * max(alpha - F, F - beta, 0)
 * is then at most gamma * (|alpha| + |beta| + 5N), and an objective sums the errors of its group.
 * The ceiling is loose (a real value is far below it) but certain, and it keeps every
 * normalised indicator finite.
 */
import type { DiceConfig } from './config.ts';

/** The largest value objective m of `config` can take (see the module comment). */
export function objectiveCeiling(config: DiceConfig, m: number): number {
  let ceiling = 0;
  // +1: the chi-square is computed in floating point and may overshoot 5L by a rounding.
  for (const f of config.objectives[m]) ceiling += config.gamma[f - 1] * (Math.abs(config.alpha[f - 1]) + Math.abs(config.beta[f - 1]) + 5 * config.n + 1);
  return ceiling;
}
