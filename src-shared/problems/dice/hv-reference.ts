// The hypervolume reference point and normalisation proposed for the dice tracks.
//
// Raw dice objectives have very different scales (and grow with N), so HV is always computed
// on normalised objectives:  f'_m = (f_m − ideal_m) / (nadir_m − ideal_m),  against the
// reference point (1.1, ..., 1.1).
//   - ideal_m = 0: every objective is a sum of non-negative errors, so 0 is the true lower bound.
//   - nadir_m = the median of objective m over `samples` uniformly random sequences drawn from
//     Random.fromSeed(seed) (defaults 1000 and 2020). "As good as a random sequence" maps to 1,
//     so HV rewards exactly what a solver adds beyond random rolls. If that median is 0 the
//     mean is used, and if that is 0 too, 1.
// The values depend only on the config (N, bands, weights, groups), are computed once per
// instance and must be stored with it, so every HV in a table uses the same box.

import type { DiceConfig } from './config.ts';
import { DiceEvaluator, createValues } from './evaluate.ts';
import { Random } from '../../random.ts';
import { quantileOfSorted } from '../../stats/summary.ts';
import { HV_REFERENCE_COORDINATE, hypervolume, normalise, normalisedReferencePoint } from '../../metrics/hypervolume.ts';
import type { Objectives } from '../../metrics/dominance.ts';

export interface HvNormalisation {
  /** Objective values mapped to 0. */
  ideal: number[];
  /** Objective values mapped to 1. */
  nadir: number[];
  /** The reference point in normalised space: HV_REFERENCE_COORDINATE in every objective. */
  reference: number[];
  /** How ideal and nadir were obtained, shown next to every HV figure. */
  method: string;
}

export const DEFAULT_NADIR_SAMPLES = 1000;
export const DEFAULT_NADIR_SEED = 2020;

/**
 * Up to this N the default normalisation may be computed in the process that asks for it
 * (about 0.3 s at N = 2,520 on a loaded 2-core EPYC; docs/limits.md); above it, only in a
 * worker (src-main/app/dice.ts, hvNormalisationFor). The main side's application layer and its
 * reports both keep to it, so it lives beside the computation it bounds.
 */
export const HV_NORMALISATION_IN_PROCESS_MAX_N = 2520;

/** The proposed normalisation of a dice instance (see the file header). */
export function diceHvNormalisation(config: DiceConfig, options: { samples?: number; seed?: number } = {}): HvNormalisation {
  const steps = diceHvNormalisationSteps(config, options);
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/** The `method` of diceHvNormalisation's normalisation (by which a stored one is known as the default). */
export function defaultNormalisationMethod(samples = DEFAULT_NADIR_SAMPLES, seed = DEFAULT_NADIR_SEED): string {
  return `ideal 0; nadir = median objective of ${samples} uniformly random sequences (seed ${seed}); reference ${HV_REFERENCE_COORDINATE} in normalised objectives`;
}

/**
 * diceHvNormalisation in slices: yields after every `slice` sampled sequences (the count so
 * far), so that a host can compute it without blocking its event loop (about 2.6 s at
 * N = 27720); returns the same normalisation.
 */
export function* diceHvNormalisationSteps(
  config: DiceConfig,
  options: { samples?: number; seed?: number; slice?: number } = {},
): Generator<number, HvNormalisation, void> {
  const samples = options.samples ?? DEFAULT_NADIR_SAMPLES;
  const seed = options.seed ?? DEFAULT_NADIR_SEED;
  const slice = Math.max(1, options.slice ?? samples);
  if (!Number.isInteger(samples) || samples < 1) throw new Error(`samples must be a positive integer, got ${samples}`);
  const m = config.objectives.length;
  if (m < 1) throw new Error('the config has no objectives');
  const evaluator = new DiceEvaluator(config);
  const values = createValues(config);
  const random = Random.fromSeed(seed);
  const x = new Uint8Array(config.n);
  const columns = Array.from({ length: m }, () => new Float64Array(samples));
  for (let s = 0; s < samples; s++) {
    for (let i = 0; i < x.length; i++) x[i] = random.int(1, 6);
    evaluator.evaluateInto(x, values);
    for (let k = 0; k < m; k++) columns[k][s] = values.objectives[k];
    if ((s + 1) % slice === 0 && s + 1 < samples) yield s + 1;
  }
  const nadir = columns.map((col) => {
    // The mean of the two middle values ('midpoint'), as every stored nadir was computed.
    const median = quantileOfSorted(col.slice().sort(), 0.5, 'midpoint');
    if (median > 0) return median;
    const mean = col.reduce((a, b) => a + b, 0) / samples;
    return mean > 0 ? mean : 1;
  });
  return {
    ideal: new Array<number>(m).fill(0),
    nadir,
    reference: normalisedReferencePoint(m),
    method: defaultNormalisationMethod(samples, seed),
  };
}

/** HV of a front (raw objectives) under a stored normalisation. */
export function normalisedHypervolume(front: readonly Objectives[], norm: HvNormalisation): number {
  if (front.length === 0) return 0;
  return hypervolume(normalise(front, norm.ideal, norm.nadir), norm.reference);
}

/** A normalisation value for display: 4 significant digits, whole numbers from 1000 up. */
function formatNormValue(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  return Math.abs(v) >= 1000 ? String(Math.round(v)) : String(Number(v.toPrecision(4)));
}

/**
 * The normalisation in one line, shown next to every HV figure:
 * "ideal (0, 0), nadir (539.3, 940.5), reference (1.1, 1.1)". Without a reference point the
 * standard one (HV_REFERENCE_COORDINATE per objective) is shown. The method is not included.
 */
export function formatHvNormalisation(norm: { ideal: readonly number[]; nadir: readonly number[]; reference?: readonly number[] }): string {
  const list = (values: readonly number[]) => `(${values.map(formatNormValue).join(', ')})`;
  return `ideal ${list(norm.ideal)}, nadir ${list(norm.nadir)}, reference ${list(norm.reference ?? normalisedReferencePoint(norm.ideal.length))}`;
}
