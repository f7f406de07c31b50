/**
 * The sweep: N x parameter settings x seeds, a run of the app (kind 'nqueens-sweep': the
 * request carries the grid, a worker process runs each cell as the nqueens run of its N,
 * parameters and seed), summarised here as success rate and steps-to-solution median and IQR
 * per N (quantileOfSorted). No DOM and no ECharts here.
 */
import { validateNeuralParams, type NeuralParams } from '../../../src-shared/problems/nqueens/neural.ts';
import { frameworkParams } from '../../../src-shared/problems/nqueens/request.ts';
import type { NqueensSweepOutcome, StartNqueensSweep } from '../../../src-shared/api.ts';
import { quantileOfSorted } from '../../../src-shared/stats/summary.ts';
import { PRESETS, type PresetName } from './lab.ts';

export interface SweepSetting {
  label: string;
  preset: PresetName;
  /** Overrides applied on top of the preset for each N (e.g. {A: 0.6, B: 0.6}). */
  overrides: Partial<Omit<NeuralParams, 'n'>>;
}

/** How one (setting, N, seed) run ended, as the sweep's result reports it. */
export type SweepOutcome = NqueensSweepOutcome;

/** Each setting's network parameters for N (the preset's for N, then the overrides); throws naming a bad one. */
export function settingParams(setting: SweepSetting, n: number): NeuralParams {
  const { preset, overrides } = setting;
  const base = PRESETS[preset].make(n);
  const params: NeuralParams = { ...base, ...overrides, n, kick: { ...base.kick, ...(overrides.kick ?? {}) } };
  validateNeuralParams(params);
  return params;
}

/**
 * The sweep's start request: every (N, setting) point, N first, each with seeds 1..seeds (so
 * the cells run N by N, setting by setting, seed by seed).
 */
export function planSweep(ns: readonly number[], settings: readonly SweepSetting[], seeds: number): StartNqueensSweep {
  const points = ns.flatMap((n) => settings.map((setting, s) => ({ setting: s, n, params: frameworkParams('neural', settingParams(setting, n)) })));
  return { kind: 'nqueens-sweep', points, seeds };
}

export interface SweepCell {
  setting: number;
  n: number;
  runs: number;
  solved: number;
  successRate: number;
  /** Steps to solution over the solved runs (null when none solved). */
  median: number | null;
  q1: number | null;
  q3: number | null;
  failures: Record<string, number>;
}

/** Success rate and steps-to-solution median and IQR per (setting, N), in N order. */
export function summarizeSweep(outcomes: readonly SweepOutcome[], settingCount: number): SweepCell[][] {
  const bySetting: SweepCell[][] = [];
  for (let s = 0; s < settingCount; s++) {
    const byN = new Map<number, SweepOutcome[]>();
    for (const o of outcomes) if (o.setting === s) (byN.get(o.n) ?? byN.set(o.n, []).get(o.n)!).push(o);
    bySetting.push(
      [...byN.entries()]
        .sort((a, b) => a[0] - b[0])
        .map(([n, list]) => {
          const steps = list
            .filter((o) => o.solved)
            .map((o) => o.steps)
            .sort((a, b) => a - b);
          const failures: Record<string, number> = {};
          for (const o of list) if (!o.solved) failures[o.failure ?? 'unknown'] = (failures[o.failure ?? 'unknown'] ?? 0) + 1;
          return {
            setting: s,
            n,
            runs: list.length,
            solved: steps.length,
            successRate: steps.length / list.length,
            median: steps.length ? quantileOfSorted(steps, 0.5) : null,
            q1: steps.length ? quantileOfSorted(steps, 0.25) : null,
            q3: steps.length ? quantileOfSorted(steps, 0.75) : null,
            failures,
          };
        }),
    );
  }
  return bySetting;
}

/** "8, 16, 32" or "8-64" (doubling) -> sorted unique Ns; throws naming the bad item. */
export function parseNList(text: string, max: number): number[] {
  const out = new Set<number>();
  for (const raw of text.split(/[,\s]+/).filter(Boolean)) {
    const range = /^(\d+)-(\d+)$/.exec(raw);
    if (range) {
      let a = Number(range[1]);
      const b = Number(range[2]);
      if (a < 4 || b > max || a > b) throw new Error(`"${raw}": a range must go up, within 4..${max}`);
      for (; a <= b; a *= 2) out.add(a);
      out.add(b);
      continue;
    }
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 4 || n > max) throw new Error(`"${raw}": each N must be an integer from 4 to ${max}`);
    out.add(n);
  }
  if (!out.size) throw new Error('give at least one N');
  return [...out].sort((a, b) => a - b);
}
