/**
 * The fixed normalisation and reference point of a competition's scores, per track and N
 * (docs/competition.md, "Scores"). It must not depend on the secret instances (every entrant is
 * scored against the same box whatever the organiser drew) yet fit every instance the generator
 * can draw: secret weights go up to 10 where the public ones are 1 to 4, so the public
 * instance's own normalisation (problems/dice/hv-reference.ts) would leave the fronts of many
 * secret instances outside its box. So:
 *
 *   ideal_m = 0                      (every objective is a sum of non-negative errors)
 *   nadir_m = the largest, over the public instance and REFERENCE_DRAWS instances drawn by
 *             the suite's generator under the public secret REFERENCE_SECRET, of the median
 *             of objective m over the 1000 uniformly random sequences of
 *             Random.fromSeed(2020) (the same sequences as the default normalisation;
 *             the mean of the two middle values; 1 if that is 0)
 *   reference = HV_REFERENCE_COORDINATE (1.1) in every objective of (f - ideal) / (nadir - ideal)
 *
 * The features of a sequence do not depend on the bands, so the 1000 sequences are evaluated
 * once and each drawn instance only re-weighs their features. Depends on (track, N) alone; the
 * result is kept per (track, N) for the process's life.
 */
import { diceConfig, FEATURE_COUNT, TRACK_OBJECTIVES, type TrackName } from '../problems/dice/config.ts';
import { DiceEvaluator, createValues } from '../problems/dice/evaluate.ts';
import { featureError } from '../problems/dice/features.ts';
import { DEFAULT_NADIR_SAMPLES, DEFAULT_NADIR_SEED, normalisedHypervolume, type HvNormalisation } from '../problems/dice/hv-reference.ts';
import { normalisedReferencePoint } from '../metrics/hypervolume.ts';
import { quantileOfSorted } from '../stats/summary.ts';
import { Random } from '../random.ts';
import { drawInstance, publicBands, type InstanceBands } from './suite.ts';
import type { Objectives } from '../metrics/dominance.ts';

/** The public secret of the reference draws (not a competition's secret: anyone can draw them). */
export const REFERENCE_SECRET = 'saikoro-score-reference';

/** How many instances of the generator the reference covers (besides the public one). */
export const REFERENCE_DRAWS = 100;

/** The method text of the score normalisation, shown next to every competition HV. */
export function scoreReferenceMethod(): string {
  return `ideal 0; nadir = the largest median objective of ${DEFAULT_NADIR_SAMPLES} uniformly random sequences (seed ${DEFAULT_NADIR_SEED}) over the public instance and ${REFERENCE_DRAWS} instances drawn with the public secret "${REFERENCE_SECRET}"; reference 1.1 in normalised objectives`;
}

const cache = new Map<string, HvNormalisation>();
const featureCache = new Map<number, Float64Array[]>();

/** The features of the reference's random sequences at length n (one Float64Array of 15 per sequence). */
function randomFeatures(n: number): Float64Array[] {
  const cached = featureCache.get(n);
  if (cached) return cached;
  const config = diceConfig({ n, constraints: [] });
  const evaluator = new DiceEvaluator(config);
  const values = createValues(config);
  const random = Random.fromSeed(DEFAULT_NADIR_SEED);
  const x = new Uint8Array(n);
  const out: Float64Array[] = [];
  for (let s = 0; s < DEFAULT_NADIR_SAMPLES; s++) {
    for (let i = 0; i < n; i++) x[i] = random.int(1, 6);
    evaluator.evaluateInto(x, values);
    out.push(values.features.slice());
  }
  featureCache.set(n, out);
  return out;
}

/** The median of each objective of `track` over the random sequences, under one instance's bands. */
function randomMedians(features: readonly Float64Array[], track: TrackName, bands: InstanceBands): number[] {
  const groups = TRACK_OBJECTIVES[track];
  const columns = groups.map(() => new Float64Array(features.length));
  const errors = new Float64Array(FEATURE_COUNT);
  features.forEach((f, s) => {
    for (let i = 0; i < FEATURE_COUNT; i++) errors[i] = featureError(f[i], bands.alpha[i], bands.beta[i], bands.gamma[i]);
    groups.forEach((group, m) => {
      let sum = 0;
      for (const feature of group) sum += errors[feature - 1];
      columns[m][s] = sum;
    });
  });
  return columns.map((column) => quantileOfSorted(column.sort(), 0.5, 'midpoint'));
}

/** The score normalisation of a track at length n (see the file header). */
export function scoreReference(track: TrackName, n: number): HvNormalisation {
  const key = `${track}|${n}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const features = randomFeatures(n);
  const m = TRACK_OBJECTIVES[track].length;
  const nadir = randomMedians(features, track, publicBands());
  for (let k = 1; k <= REFERENCE_DRAWS; k++)
    randomMedians(features, track, drawInstance(REFERENCE_SECRET, n, k)).forEach((v, i) => (nadir[i] = Math.max(nadir[i], v)));
  const norm: HvNormalisation = {
    ideal: new Array<number>(m).fill(0),
    nadir: nadir.map((v) => (v > 0 ? v : 1)),
    reference: normalisedReferencePoint(m),
    method: scoreReferenceMethod(),
  };
  cache.set(key, norm);
  return norm;
}

/** The competition's hypervolume of a front (raw objectives) on a track at length n. */
export function scoreHypervolume(front: readonly Objectives[], track: TrackName, n: number): number {
  return normalisedHypervolume(front, scoreReference(track, n));
}
