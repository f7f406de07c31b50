import { performance } from 'node:perf_hooks';
import { trackConfig } from '../../src-shared/problems/dice/config.ts';
import { createValues, DiceEvaluator } from '../../src-shared/problems/dice/evaluate.ts';
import { DiceState } from '../../src-shared/problems/dice/incremental.ts';
import { blockQuantile } from '../../src-shared/problems/dice/chi2.ts';
import { chi2Quantile } from '../../src-shared/math/chi2.ts';
import { Random } from '../../src-shared/random.ts';
import { measureRate, type BenchSuite } from './suite.ts';

const FULL_SIZES = [50, 840, 27720];
const INCREMENTAL_SIZES = [50, 840, 5040, 27720];
/** The reference evaluator (rngbias.py, in-process Python), as stated in the issue. */
const REFERENCE: Record<number, string> = { 50: '~700', 27720: '~12' };

function randomFaces(random: Random, n: number): Uint8Array {
  return Uint8Array.from({ length: n }, () => random.int(1, 6));
}

/** Full evaluations per second: a pool of random sequences evaluated in turn, default SO config. */
function fullRate(n: number, minMs: number): number {
  const random = Random.fromSeed(n);
  const config = trackConfig('so', n);
  const evaluator = new DiceEvaluator(config);
  const out = createValues(config);
  const pool = Array.from({ length: 16 }, () => randomFaces(random, n));
  const batch = Math.max(1, Math.round(200_000 / n));
  let k = 0;
  return measureRate(() => {
    for (let i = 0; i < batch; i++) evaluator.evaluateInto(pool[k++ & 15], out);
    return batch;
  }, minMs);
}

/** Committed single-position changes per second (random position, random different face). */
function incrementalRate(n: number, minMs: number): number {
  const random = Random.fromSeed(1000 + n);
  const state = new DiceState(trackConfig('so', n), randomFaces(random, n));
  // Pre-drawn changes, so the generator's cost is not measured.
  const positions = Int32Array.from({ length: 1 << 16 }, () => random.below(n));
  const shifts = Int32Array.from({ length: 1 << 16 }, () => random.int(1, 5));
  let k = 0;
  return measureRate(() => {
    for (let i = 0; i < 100_000; i++) {
      const j = k++ & 0xffff;
      const p = positions[j];
      state.set(p, ((state.face(p) - 1 + shifts[j]) % 6) + 1);
    }
    return 100_000;
  }, minMs);
}

/** Peeks (uncommitted "what would it be") per second. */
function peekRate(n: number, minMs: number): number {
  const random = Random.fromSeed(2000 + n);
  const state = new DiceState(trackConfig('so', n), randomFaces(random, n));
  const positions = Int32Array.from({ length: 1 << 16 }, () => random.below(n));
  const shifts = Int32Array.from({ length: 1 << 16 }, () => random.int(1, 5));
  let k = 0;
  let sink = 0;
  const rate = measureRate(() => {
    for (let i = 0; i < 100_000; i++) {
      const j = k++ & 0xffff;
      const p = positions[j];
      sink += state.peekSet(p, ((state.face(p) - 1 + shifts[j]) % 6) + 1).objectives[0];
    }
    return 100_000;
  }, minMs);
  if (Number.isNaN(sink)) throw new Error('unreachable: keeps the peeks from being optimised away');
  return rate;
}

/** Time to compute every quantile a default config needs (24 of them), uncached. */
function quantileMillis(): number {
  const start = performance.now();
  for (let d = 1; d <= 12; d++) {
    chi2Quantile(6 ** d - 1, 0.1);
    chi2Quantile(6 ** d - 1, 0.9);
  }
  return performance.now() - start;
}

export const evalBench: BenchSuite = {
  async run({ progress, quick }) {
    const minMs = quick ? 100 : 2000;
    // Warm-up, so the first size measured is not charged for compilation.
    fullRate(840, quick ? 20 : 500);
    incrementalRate(840, quick ? 20 : 500);
    const full: Record<string, number> = {};
    for (const n of FULL_SIZES) {
      progress(`  full evaluation, N = ${n}`);
      full[n] = fullRate(n, minMs);
    }
    const incremental: Record<string, number> = {};
    const peek: Record<string, number> = {};
    for (const n of INCREMENTAL_SIZES) {
      progress(`  incremental changes, N = ${n}`);
      incremental[n] = incrementalRate(n, minMs);
      peek[n] = peekRate(n, minMs);
    }
    const firstQuantiles = quantileMillis();
    blockQuantile(12, 0.9);
    return {
      json: { full, incremental, peek, quantilesMs: firstQuantiles },
      tables: [
        {
          title: 'Dice evaluation (one process, one core; default SO config, all 12 constraints)',
          columns: ['Case', 'N', 'Saikoro (evaluations/s)', 'Reference rngbias.py (evaluations/s)'],
          rows: [
            ...FULL_SIZES.map((n) => ['full evaluation', n, full[n], REFERENCE[n] ?? '']),
            ...INCREMENTAL_SIZES.map((n) => ['incremental change (set)', n, incremental[n], '']),
            ...INCREMENTAL_SIZES.map((n) => ['incremental peek (not committed)', n, peek[n], '']),
          ],
          notes: [`All 24 chi-square quantiles of the default config (d = 1..12, p = 0.1 and 0.9), uncached: ${firstQuantiles.toFixed(1)} ms.`],
        },
      ],
    };
  },
};
