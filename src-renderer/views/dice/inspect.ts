/**
 * Pure helpers of the solution inspector (the Dice evaluator view): the transition counts of a
 * sequence, each error's share of its objective, where chi_d sits relative to its band, and the
 * difference of two sequences and of their evaluations. No Vue, no ECharts: tests import them.
 */
import type { DiceConfig } from '../../../src-shared/problems/dice/config.ts';
import type { DiceEvaluation } from '../../../src-shared/api.ts';

/** Faces 1..6 of a digit string that has been checked (no validation here). */
export function facesOf(x: string): Uint8Array {
  const out = new Uint8Array(x.length);
  for (let i = 0; i < x.length; i++) out[i] = x.charCodeAt(i) - 48;
  return out;
}

/** counts[a - 1][b - 1]: how often face a is followed by face b (N - 1 pairs of neighbours). */
export function transitionCounts(faces: ArrayLike<number>): number[][] {
  const counts = Array.from({ length: 6 }, () => [0, 0, 0, 0, 0, 0]);
  for (let i = 0; i + 1 < faces.length; i++) counts[faces[i] - 1][faces[i + 1] - 1]++;
  return counts;
}

/** How many rolls show each face 1..6. */
export function faceTotals(faces: ArrayLike<number>): number[] {
  const counts = [0, 0, 0, 0, 0, 0];
  for (let i = 0; i < faces.length; i++) counts[faces[i] - 1]++;
  return counts;
}

export interface SharePart {
  /** 1-based feature number. */
  feature: number;
  error: number;
  /** error / objective, 0 when the objective is 0. */
  share: number;
}

export interface ObjectiveShare {
  /** 0-based objective index. */
  objective: number;
  value: number;
  /** The group's features in the config's order, every one of them (zero errors included). */
  parts: SharePart[];
}

/** Each objective f_m = Σ E_i over its group, with each E_i's share of it. */
export function objectiveShares(evaluation: Pick<DiceEvaluation, 'errors' | 'objectives'>, config: Pick<DiceConfig, 'objectives'>): ObjectiveShare[] {
  return config.objectives.map((group, m) => {
    const value = evaluation.objectives[m];
    return {
      objective: m,
      value,
      parts: group.map((f) => {
        const error = evaluation.errors[f - 1];
        return { feature: f, error, share: value > 0 ? error / value : 0 };
      }),
    };
  });
}

/**
 * Where chi_d sits relative to its band, on a scale every d shares although chi_d runs from 10^0
 * to 10^9: 0 at q(p_d) and 1 at q(P_d), linear inside the band; outside it, the distance from
 * the nearer bound in band widths w, compressed by log10: 1 + log10(1 + distance / w) above,
 * -log10(1 + distance / w) below. So one band width outside is 0.3 from the edge, ten are 1.04,
 * and 10^4 are 4. A band without a width (P_d = 1, or q(p_d) = q(P_d)) measures the distance in
 * units of its finite bound (at least 1); inside such a band the value is 0.5.
 */
export function bandScale(row: { chi: number; lower: number; upper: number | null }): number {
  const { chi, lower, upper } = row;
  const finiteUpper = upper !== null && Number.isFinite(upper);
  const width = finiteUpper && upper > lower ? upper - lower : Math.max(finiteUpper ? upper : lower, 1);
  if (chi < lower) return -Math.log10(1 + (lower - chi) / width);
  if (finiteUpper && chi > upper) return 1 + Math.log10(1 + (chi - upper) / width);
  return finiteUpper && upper > lower ? (chi - lower) / width : 0.5;
}

/** The position 0..1 inside [lo, hi], or beyond; the inverse of bandScale's outside compression, for labels. */
export function bandWidthsAt(scale: number): number {
  return scale >= 1 ? 10 ** (scale - 1) - 1 : scale < 0 ? 10 ** -scale - 1 : 0;
}

export interface SequenceDiff {
  /** Positions (0-based, ascending) where both have a roll and the faces differ. */
  changed: number[];
  /** Rolls compared position by position: the shorter length. */
  common: number;
  /** Rolls only the longer sequence has (positions common .. longer - 1). */
  extra: number;
  /** Which sequence the extra rolls belong to. */
  longer: 'a' | 'b' | null;
}

/** The two sequences aligned roll by roll: which positions differ. */
export function sequenceDiff(a: string, b: string): SequenceDiff {
  const common = Math.min(a.length, b.length);
  const changed: number[] = [];
  for (let i = 0; i < common; i++) if (a.charCodeAt(i) !== b.charCodeAt(i)) changed.push(i);
  const extra = Math.abs(a.length - b.length);
  return { changed, common, extra, longer: a.length > b.length ? 'a' : b.length > a.length ? 'b' : null };
}

export interface DeltaRow {
  label: string;
  a: number;
  b: number;
  /** b - a. */
  delta: number;
  /** Whether a and b differ by more than rounding (1e-9 relative). */
  changed: boolean;
  /** Within the band / satisfied, for a and b (null where a row has no band). */
  okA: boolean | null;
  okB: boolean | null;
}

export interface EvaluationDiff {
  objectives: DeltaRow[];
  features: DeltaRow[];
  /** chi_d per constrained d, with satisfied or not; b's d's matched to a's by d. */
  constraints: (DeltaRow & { d: number })[];
  /** Feasibility of a and b. */
  feasible: [boolean, boolean];
}

const differs = (a: number, b: number) => Math.abs(a - b) > 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

function row(label: string, a: number, b: number, okA: boolean | null = null, okB: boolean | null = null): DeltaRow {
  return { label, a, b, delta: b - a, changed: differs(a, b) || okA !== okB, okA, okB };
}

/**
 * Objectives, features and constraints of two evaluations side by side, each with its change.
 * Both are evaluated under configs that differ at most in N (a comparison keeps the bands,
 * groups and percent points of the sequence being inspected).
 */
export function evaluationDiff(a: DiceEvaluation, configA: DiceConfig, b: DiceEvaluation, configB: DiceConfig): EvaluationDiff {
  const inBand = (config: DiceConfig, v: number, i: number) => v >= config.alpha[i] && v <= config.beta[i];
  return {
    objectives: a.objectives.map((v, m) => row(a.objectives.length > 1 ? `f${m + 1}` : 'f', v, b.objectives[m] ?? NaN)),
    features: a.features.map((v, i) => row(`F${i + 1}`, v, b.features[i], inBand(configA, v, i), inBand(configB, b.features[i], i))),
    constraints: configA.constraints.map((d, l) => {
      const k = configB.constraints.indexOf(d);
      const chiB = k >= 0 ? b.chi[k] : NaN;
      return { d, ...row(`d = ${d}`, a.chi[l], chiB, a.constraints[l] <= 0, k >= 0 ? b.constraints[k] <= 0 : null) };
    }),
    feasible: [a.feasible, b.feasible],
  };
}
