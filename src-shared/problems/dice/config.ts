/**
 * The dice problem's configuration: sequence length, feature bands and weights, the feature
 * groups that form the objectives, and the chi-square constraints. Field names follow the
 * golden file (`alpha, beta, gamma, objectives, constraints, lowerBounds, upperBounds`).
 */
import { describeValue } from '../../json.ts';
import { FieldError } from '../../base/field-error.ts';

export const FEATURE_COUNT = 15;
export const MAX_BLOCK_LENGTH = 12;

export interface DiceConfig {
  /** Sequence length N (>= 1). */
  n: number;
  /** Lower ends of the tolerated bands, one per feature. */
  alpha: number[];
  /** Upper ends of the tolerated bands, one per feature. */
  beta: number[];
  /** Weights (> 0), one per feature. */
  gamma: number[];
  /** Feature groups (1-based feature indices); objective m is the sum of the errors of group m. */
  objectives: number[][];
  /** Constrained block lengths d (1..12), in the order the constraint values are reported. */
  constraints: number[];
  /** Lower percent points p_d, one per constrained d. */
  lowerBounds: number[];
  /** Upper percent points P_d, one per constrained d. */
  upperBounds: number[];
}

export type TrackName = 'so' | 'mo2' | 'mo3' | 'mo5' | 'mo7';

export const DEFAULT_ALPHA = [2, 2, 2, 2, 2, 27, 5, 0, 0, 1, 0, 0, 1, 0, 0];
export const DEFAULT_BETA = [5, 5, 5, 5, 5, 30, 8, 1, 0, 3, 0, 1, 2, 0, 0];
export const DEFAULT_GAMMA = [3, 3, 3, 3, 3, 1, 1, 3, 10, 4, 4, 4, 4, 4, 4];
export const DEFAULT_N = 50;
/**
 * The longest sequence any entry point accepts (CLI options, config files, specs, the API):
 * 10^7 rolls. The evaluator's memory grows with N, so a config asking for 10^9 is refused here
 * with a ConfigError naming n instead of growing a worker until the machine gives out.
 */
export const MAX_N = 10_000_000;
export const DEFAULT_LOWER = 0.1;
export const DEFAULT_UPPER = 0.9;

const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => a + i);

export const TRACK_OBJECTIVES: Record<TrackName, number[][]> = {
  so: [range(1, 15)],
  mo2: [range(1, 7), range(8, 15)],
  mo3: [range(1, 5), range(6, 10), range(11, 15)],
  mo5: [
    [1, 2, 3],
    [4, 5, 6],
    [7, 8, 9],
    [10, 11, 12],
    [13, 14, 15],
  ],
  mo7: [
    [1, 2],
    [3, 4],
    [5, 6],
    [7, 8],
    [9, 10],
    [11, 12],
    [13, 14, 15],
  ],
};
export const TRACK_NAMES = Object.keys(TRACK_OBJECTIVES) as TrackName[];

/** The spec's defaults for a track (M objectives) at length n. */
export function trackConfig(track: TrackName, n: number = DEFAULT_N): DiceConfig {
  return diceConfig({ track, n });
}

/**
 * The one builder of a dice config, for every entry point (CLI options and files, API
 * requests, experiment instances, the app's forms): the track's defaults at length n (track
 * "so" by default), then any fields given. Constrained block lengths given without percent
 * points get the defaults (p 0.1, P 0.9) for each. Validated: a ConfigError names the field.
 */
export function diceConfig(fields: Partial<DiceConfig> & { track?: TrackName; n: number }): DiceConfig {
  const { track = 'so', ...given } = fields;
  const constraints = given.constraints ?? range(1, MAX_BLOCK_LENGTH);
  const each = (p: number) => (Array.isArray(constraints) ? constraints.map(() => p) : undefined);
  return validateConfig({
    n: given.n,
    alpha: given.alpha ?? [...DEFAULT_ALPHA],
    beta: given.beta ?? [...DEFAULT_BETA],
    gamma: given.gamma ?? [...DEFAULT_GAMMA],
    objectives: given.objectives ?? (TRACK_OBJECTIVES[track] ?? []).map((g) => [...g]),
    constraints,
    lowerBounds: given.lowerBounds ?? each(DEFAULT_LOWER),
    upperBounds: given.upperBounds ?? each(DEFAULT_UPPER),
  });
}

/** The track whose feature groups equal these, if any. */
export function trackOf(objectives: number[][]): TrackName | undefined {
  const key = JSON.stringify(objectives);
  return TRACK_NAMES.find((t) => JSON.stringify(TRACK_OBJECTIVES[t]) === key);
}

/** An invalid config; the message names the field and the rule it breaks. */
export class ConfigError extends FieldError {
  override readonly name = 'ConfigError';
}

function finiteList(field: string, v: unknown, length?: number): number[] {
  if (!Array.isArray(v)) throw new ConfigError(field, 'must be a list of numbers');
  if (length !== undefined && v.length !== length) throw new ConfigError(field, `must have ${length} entries, got ${v.length}`);
  v.forEach((x, i) => {
    if (typeof x !== 'number' || !Number.isFinite(x)) throw new ConfigError(`${field}[${i}]`, `must be a finite number, got ${describeValue(x)}`);
  });
  return v as number[];
}

/**
 * Checks every field and returns the config unchanged (or throws a ConfigError).
 * Accepts `unknown` so it can guard configs read from JSON, YAML or a project file.
 */
export function validateConfig(input: unknown): DiceConfig {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw new ConfigError('config', 'must be an object');
  const c = input as Record<string, unknown>;
  if (typeof c.n !== 'number' || !Number.isInteger(c.n)) throw new ConfigError('n', `must be an integer, got ${describeValue(c.n)}`);
  if (c.n < 1) throw new ConfigError('n', `must be at least 1, got ${c.n}`);
  if (c.n > MAX_N) throw new ConfigError('n', `must be at most ${MAX_N} (10^7), got ${c.n}`);
  const alpha = finiteList('alpha', c.alpha, FEATURE_COUNT);
  const beta = finiteList('beta', c.beta, FEATURE_COUNT);
  const gamma = finiteList('gamma', c.gamma, FEATURE_COUNT);
  alpha.forEach((a, i) => {
    if (a > beta[i]) throw new ConfigError(`alpha[${i}]`, `must not exceed beta[${i}] (feature F${i + 1}: ${a} > ${beta[i]})`);
  });
  gamma.forEach((g, i) => {
    if (!(g > 0)) throw new ConfigError(`gamma[${i}]`, `must be positive, got ${g}`);
  });
  // An empty list is allowed (a constraint-only problem), as the reference evaluator allows it.
  if (!Array.isArray(c.objectives)) throw new ConfigError('objectives', 'must be a list of feature groups');
  c.objectives.forEach((group: unknown, m: number) => {
    if (!Array.isArray(group) || group.length === 0) throw new ConfigError(`objectives[${m}]`, 'must be a non-empty list of feature indices');
    group.forEach((f: unknown, j: number) => {
      if (typeof f !== 'number' || !Number.isInteger(f) || f < 1 || f > FEATURE_COUNT)
        throw new ConfigError(`objectives[${m}][${j}]`, `must be a feature index from 1 to ${FEATURE_COUNT}, got ${describeValue(f)}`);
    });
  });
  const constraints = finiteList('constraints', c.constraints);
  const seen = new Set<number>();
  constraints.forEach((d, i) => {
    if (!Number.isInteger(d) || d < 1 || d > MAX_BLOCK_LENGTH)
      throw new ConfigError(`constraints[${i}]`, `must be a block length from 1 to ${MAX_BLOCK_LENGTH}, got ${d}`);
    if (seen.has(d)) throw new ConfigError(`constraints[${i}]`, `block length ${d} is listed twice`);
    seen.add(d);
  });
  const lower = finiteList('lowerBounds', c.lowerBounds, constraints.length);
  const upper = finiteList('upperBounds', c.upperBounds, constraints.length);
  lower.forEach((p, i) => {
    if (p < 0 || p > 1) throw new ConfigError(`lowerBounds[${i}]`, `must be a percent point in [0, 1], got ${p}`);
  });
  upper.forEach((p, i) => {
    if (p < 0 || p > 1) throw new ConfigError(`upperBounds[${i}]`, `must be a percent point in [0, 1], got ${p}`);
    if (lower[i] > p) throw new ConfigError(`lowerBounds[${i}]`, `must not exceed upperBounds[${i}] (d = ${constraints[i]}: ${lower[i]} > ${p})`);
  });
  return c as unknown as DiceConfig;
}

/** A config from any of its fields (n required), the rest the spec's defaults (track "so"). */
export function configFromPartial(partial: Partial<DiceConfig> & { n: number }): DiceConfig {
  return diceConfig(partial);
}
