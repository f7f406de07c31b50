/**
 * A competition's suite: problems (track, N) x instances. Instance 0 is the public
 * configuration (the reference's config.yml: the default bands and weights); instances 1..K
 * are secret draws from the generator below, seeded by a hash of the organiser's secret, so
 * anyone who learns the secret (after the reveal) draws exactly the same instances.
 *
 * The distribution (docs/competition.md, "The generator"), for feature i = 1..15 with public
 * band [a_i, b_i] (width w_i = b_i - a_i) and weight g_i:
 *
 *   s_i      = max(1, w_i)                                   how far a band may move
 *   alpha'_i = uniform integer in [max(0, a_i - s_i), a_i + s_i]
 *   width'_i = uniform integer in [max(0, w_i - 1), w_i + 1]
 *   beta'_i  = alpha'_i + width'_i
 *   gamma'_i = uniform integer in [1, 10]
 *
 * drawn in that order (alpha'_1, width'_1, alpha'_2, width'_2, ..., then gamma'_1..15) from
 * Random.fromSeed(instanceSeed(secret, N, k)) (src-shared/random.ts: pure-rand's
 * xoroshiro128+ and its uniformInt). Every draw is valid: alpha' >= 0 (no feature is
 * negative), alpha' <= beta', gamma' > 0. The draw depends on the secret, N and the instance
 * number, not on the track: instance k at N has the same bands and weights on every track,
 * which only groups the same fifteen errors into M objectives. The objectives' groupings, the
 * constraints and their percent points are the public ones (the competition published them).
 */
import {
  diceConfig,
  DEFAULT_ALPHA,
  DEFAULT_BETA,
  DEFAULT_GAMMA,
  FEATURE_COUNT,
  MAX_N,
  TRACK_NAMES,
  type DiceConfig,
  type TrackName,
} from '../problems/dice/config.ts';
import { Random } from '../random.ts';
import { sha256Hex } from '../experiments/sha256.ts';

/** Bumped only if the generator's distribution or seeding changes; part of every instance seed. */
export const GENERATOR_VERSION = 1;

/** The fewest characters a secret may have (docs: use 32 random hex digits, `openssl rand -hex 16`). */
export const MIN_SECRET_LENGTH = 8;

/** The most secret instances per problem a suite may have. */
export const MAX_INSTANCES = 100;

/** The largest weight a secret draw gives (weights are integers 1..MAX_WEIGHT). */
export const MAX_WEIGHT = 10;

export interface SuiteDefinition {
  /** Tracks, in the order given (no repeats). */
  tracks: TrackName[];
  /** Sequence lengths, in the order given (no repeats). */
  ns: number[];
  /** K: the secret instances 1..K of every problem. */
  instances: number;
  /** Whether instance 0 (the public configuration) is in the suite too. */
  withPublic: boolean;
}

/** One problem of a suite: a track at an N, one instance. */
export interface SuiteProblem {
  /** `<track>-n<N>-i<instance>`, e.g. `so-n840-i3`. */
  id: string;
  track: TrackName;
  n: number;
  instance: number;
  /** Secret until the organiser reveals it (every instance but 0). */
  hidden: boolean;
  config: DiceConfig;
}

/** The bands and weights of one instance. */
export interface InstanceBands {
  alpha: number[];
  beta: number[];
  gamma: number[];
}

export class SuiteError extends Error {
  override name = 'SuiteError';
  constructor(
    readonly field: string,
    readonly rule: string,
  ) {
    super(`${field}: ${rule}`);
  }
}

export function problemId(track: TrackName, n: number, instance: number): string {
  return `${track}-n${n}-i${instance}`;
}

const ID_PATTERN = /^(so|mo2|mo3|mo5|mo7)-n([1-9][0-9]*)-i(0|[1-9][0-9]*)$/;

/** The parts of a problem id, or null when the text is not one. */
export function parseProblemId(id: string): { track: TrackName; n: number; instance: number } | null {
  const match = ID_PATTERN.exec(id);
  if (!match) return null;
  return { track: match[1] as TrackName, n: Number(match[2]), instance: Number(match[3]) };
}

/** Checks a secret; throws SuiteError('secret', ...) when it is too short. */
export function checkSecret(secret: string): string {
  if (typeof secret !== 'string' || [...secret].length < MIN_SECRET_LENGTH)
    throw new SuiteError(
      'secret',
      `must have at least ${MIN_SECRET_LENGTH} characters (use a long random one, e.g. openssl rand -hex 16), got ${typeof secret === 'string' ? [...secret].length : 'none'}`,
    );
  return secret;
}

/**
 * The seed of instance k at length n: the first 13 hex digits (52 bits) of
 * sha256("saikoro-competition-1|" + secret + "|n" + n + "|i" + k), as an integer.
 */
export function instanceSeed(secret: string, n: number, instance: number): number {
  return Number.parseInt(sha256Hex(`saikoro-competition-${GENERATOR_VERSION}|${secret}|n${n}|i${instance}`).slice(0, 13), 16);
}

/** The public bands and weights (instance 0): the reference's config.yml. */
export function publicBands(): InstanceBands {
  return { alpha: [...DEFAULT_ALPHA], beta: [...DEFAULT_BETA], gamma: [...DEFAULT_GAMMA] };
}

/** The bands and weights of instance k (0: the public ones) at length n under this secret. */
export function drawInstance(secret: string, n: number, instance: number): InstanceBands {
  if (!Number.isSafeInteger(instance) || instance < 0) throw new SuiteError('instance', `must be a whole number from 0, got ${instance}`);
  if (instance === 0) return publicBands();
  const random = Random.fromSeed(instanceSeed(checkSecret(secret), n, instance));
  const alpha: number[] = [];
  const beta: number[] = [];
  for (let i = 0; i < FEATURE_COUNT; i++) {
    const a = DEFAULT_ALPHA[i];
    const w = DEFAULT_BETA[i] - a;
    const s = Math.max(1, w);
    const drawnAlpha = random.int(Math.max(0, a - s), a + s);
    const drawnWidth = random.int(Math.max(0, w - 1), w + 1);
    alpha.push(drawnAlpha);
    beta.push(drawnAlpha + drawnWidth);
  }
  const gamma = Array.from({ length: FEATURE_COUNT }, () => random.int(1, MAX_WEIGHT));
  return { alpha, beta, gamma };
}

/** The full config of a problem: the track's grouping, the public constraints, the instance's bands and weights. */
export function problemConfig(secret: string, track: TrackName, n: number, instance: number): DiceConfig {
  return diceConfig({ track, n, ...drawInstance(secret, n, instance) });
}

/** Checks a suite's definition; throws SuiteError naming the field. */
export function checkSuiteDefinition(definition: SuiteDefinition): SuiteDefinition {
  const { tracks, ns, instances, withPublic } = definition;
  if (!Array.isArray(tracks) || tracks.length === 0) throw new SuiteError('tracks', `must name at least one track (${TRACK_NAMES.join(', ')})`);
  tracks.forEach((t) => {
    if (!TRACK_NAMES.includes(t)) throw new SuiteError('tracks', `unknown track ${JSON.stringify(t)} (known: ${TRACK_NAMES.join(', ')})`);
  });
  if (new Set(tracks).size !== tracks.length) throw new SuiteError('tracks', `a track is named twice (${tracks.join(',')})`);
  if (!Array.isArray(ns) || ns.length === 0) throw new SuiteError('n', 'must give at least one sequence length N');
  ns.forEach((n) => {
    if (!Number.isSafeInteger(n) || n < 1 || n > MAX_N) throw new SuiteError('n', `each N must be a whole number from 1 to ${MAX_N}, got ${n}`);
  });
  if (new Set(ns).size !== ns.length) throw new SuiteError('n', `an N is given twice (${ns.join(',')})`);
  if (!Number.isSafeInteger(instances) || instances < 0 || instances > MAX_INSTANCES)
    throw new SuiteError('instances', `must be a whole number from 0 to ${MAX_INSTANCES}, got ${instances}`);
  if (instances === 0 && !withPublic) throw new SuiteError('instances', 'must be at least 1 (or give --with-public for the public instance alone)');
  return definition;
}

/**
 * Every problem of a suite, track-major, then N, then instance (0 first when the public
 * instance is in).
 */
export function buildSuite(definition: SuiteDefinition, secret: string): SuiteProblem[] {
  checkSuiteDefinition(definition);
  checkSecret(secret);
  const problems: SuiteProblem[] = [];
  for (const track of definition.tracks)
    for (const n of definition.ns)
      for (let k = definition.withPublic ? 0 : 1; k <= definition.instances; k++)
        problems.push({ id: problemId(track, n, k), track, n, instance: k, hidden: k !== 0, config: problemConfig(secret, track, n, k) });
  return problems;
}
