/**
 * The sweep: N x parameter settings x seeds, run in a Web Worker (sweep.worker.ts), summarised as
 * success rate and steps-to-solution median and IQR per N (quantileOfSorted). No DOM and no
 * ECharts here, so the worker can import it.
 */
import { validateNeuralParams, type NeuralParams } from '../../../src-shared/problems/nqueens/neural.ts';
import { frameworkParams } from '../../../src-shared/problems/nqueens/request.ts';
import { executeRunSync } from '../../../src-shared/runtime/kinds/index.ts';
import { quantileOfSorted } from '../../../src-shared/stats/summary.ts';
import { PRESETS, type PresetName } from './lab.ts';

export interface SweepSetting {
  label: string;
  preset: PresetName;
  /** Overrides applied on top of the preset for each N (e.g. {A: 0.6, B: 0.6}). */
  overrides: Partial<Omit<NeuralParams, 'n'>>;
}

export interface SweepJob {
  index: number;
  setting: number;
  n: number;
  seed: number;
  params: NeuralParams;
}

export interface SweepOutcome {
  index: number;
  setting: number;
  n: number;
  seed: number;
  solved: boolean;
  steps: number;
  failure?: string;
  seconds: number;
}

/** Every (setting, N, seed) combination, seeds 1..seeds, in the order they will run. */
export function planSweep(ns: readonly number[], settings: readonly SweepSetting[], seeds: number): SweepJob[] {
  const jobs: SweepJob[] = [];
  for (const n of ns) {
    for (let s = 0; s < settings.length; s++) {
      const { preset, overrides } = settings[s];
      const base = PRESETS[preset].make(n);
      const params: NeuralParams = { ...base, ...overrides, n, kick: { ...base.kick, ...(overrides.kick ?? {}) } };
      validateNeuralParams(params);
      for (let seed = 1; seed <= seeds; seed++) jobs.push({ index: jobs.length, setting: s, n, seed, params });
    }
  }
  return jobs;
}

/**
 * Runs one job (in the worker, or inline in tests) as every N-Queens run runs: an nqueens
 * request through the one driver (executeRunSync), not a loop of its own.
 */
export function runSweepJob(job: SweepJob, now: () => number = () => performance.now()): SweepOutcome {
  const start = now();
  const r = executeRunSync({ kind: 'nqueens', method: 'neural', n: job.n, params: frameworkParams('neural', job.params), seed: job.seed });
  const out: SweepOutcome = { index: job.index, setting: job.setting, n: job.n, seed: job.seed, solved: r.solved, steps: r.steps, seconds: (now() - start) / 1000 };
  if (r.failure) out.failure = r.failure;
  return out;
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
          const steps = list.filter((o) => o.solved).map((o) => o.steps).sort((a, b) => a - b);
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
