// The lower bound of docs/solvers.md, ingredient by ingredient: the block-value classes counted
// by enumeration, the least sums of squares against brute force, the quantiles against scipy's,
// the thresholds at N = 840 and 2520, and the bound against sequences the solvers found.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { blockQuantile } from '../../../../src-shared/problems/dice/chi2.ts';
import { diceConfig, trackConfig } from '../../../../src-shared/problems/dice/config.ts';
import { evaluateDice } from '../../../../src-shared/problems/dice/evaluate.ts';
import { hvUpperBound, largestSumOfSquares, leastS2, leastSquares, lowerBound } from '../../../../src-shared/problems/dice/lower-bound.ts';
import { diceHvNormalisation } from '../../../../src-shared/problems/dice/hv-reference.ts';
import { createDiceProblem } from '../../../../src-shared/problems/dice/problem.ts';
import { solveSync } from '../../../helpers/solve.ts';

const costly = (u: number, v: number) => (u + v) % 2 === 1 || u === v;
const faces = [1, 2, 3, 4, 5, 6];

/** Every way to write t as k whole numbers (order matters), least sum of squares. */
function bruteLeastSquares(t: number, k: number): number {
  if (k === 0) return t === 0 ? 0 : Infinity;
  let best = Infinity;
  for (let first = 0; first <= t; first++) best = Math.min(best, first * first + bruteLeastSquares(t - first, k - 1));
  return best;
}

/** The structure of a sequence the proof counts: costly pairs at even positions, doubly costly d = 3 blocks. */
function counts(x: string) {
  const f = [...x].map(Number);
  let even = 0;
  let pairs = 0;
  for (let i = 0; i + 1 < f.length; i++) {
    if (!costly(f[i], f[i + 1])) continue;
    pairs++;
    if (i % 2 === 0) even++;
  }
  let both = 0;
  for (let k = 0; 3 * k + 2 < f.length; k++) if (costly(f[3 * k], f[3 * k + 1]) && costly(f[3 * k + 1], f[3 * k + 2])) both++;
  return { even, pairs, both };
}

describe('the lower bound from the d = 2 and d = 3 constraints', () => {
  it('counts the block values: 18 mixed, 6 equal, 12 cheap pairs; 24, 96 and 96 triples with no, one and two costly pairs', () => {
    const pairs = faces.flatMap((u) => faces.map((v) => [u, v]));
    expect(pairs.filter(([u, v]) => (u + v) % 2 === 1)).toHaveLength(18);
    expect(pairs.filter(([u, v]) => u === v)).toHaveLength(6);
    expect(pairs.filter(([u, v]) => !costly(u, v))).toHaveLength(12);
    const triples = pairs.flatMap(([u, v]) => faces.map((w) => Number(costly(u, v)) + Number(costly(v, w))));
    expect([0, 1, 2].map((c) => triples.filter((t) => t === c).length)).toEqual([24, 96, 96]);
  });

  it('spreads counts evenly for the least sum of squares, as brute force finds', () => {
    for (let k = 1; k <= 5; k++) for (let t = 0; t <= 12; t++) expect(leastSquares(t, k)).toBe(bruteLeastSquares(t, k));
    expect(leastSquares(280, 120)).toBe(680); // 40 values 3 times, 80 twice: 40 x 9 + 80 x 4
    expect(leastSquares(205, 12)).toBe(3503);
    expect(leastSquares(0, 0)).toBe(0);
    expect(leastSquares(1, 0)).toBe(Infinity);
  });

  it('takes its quantiles from chi2.ts, equal to scipy chi2.ppf to 1e-12', () => {
    const rows = readFileSync(new URL('../../../fixtures/chi2-quantiles.jsonl', import.meta.url), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { d: number; p: number; q: number });
    for (const d of [2, 3]) {
      const row = rows.find((r) => r.d === d && r.p === 0.9)!;
      expect(Math.abs(blockQuantile(d, 0.9) - row.q)).toBeLessThan(1e-12 * row.q);
    }
    expect(blockQuantile(2, 0.9)).toBeCloseTo(46.0588, 4);
    expect(blockQuantile(3, 0.9)).toBeCloseTo(241.9662, 4);
  });

  it('at N = 840: S2 <= 5436 needs 215 costly blocks (214 give 5448), S3 <= 676 needs one doubly costly triple; f >= 178', () => {
    const q2 = blockQuantile(2, 0.9);
    expect((420 * (420 + q2)) / 36).toBeCloseTo(5437.35, 2);
    expect(largestSumOfSquares(420, 36, q2)).toBe(5436);
    expect(leastS2(214, 420)).toBe(5448);
    expect(leastS2(215, 420)).toBe(5430);
    // a = 161 mixed and e = 54 equal blocks, the rest evenly over the 12 cheap values (the numbers)
    expect(leastSquares(161, 18) + leastSquares(54, 6) + leastSquares(205, 12)).toBe(5430);
    expect(largestSumOfSquares(280, 216, blockQuantile(3, 0.9))).toBe(676);
    expect(leastSquares(279, 120) + leastSquares(1, 96)).toBe(676);
    const b = lowerBound(trackConfig('so', 840));
    expect(b.d2).toMatchObject({ blocks: 420, largestS2: 5436, aMin: 215, leastS2AtAMin: 5430, leastS2Below: 5448 });
    expect(b.d3).toMatchObject({ blocks: 280, largestS3: 676, bMin: 1, leastS3Below: 680 });
    expect(b.costlyPairs).toBe(216);
    expect(b.f).toBe(178);
  });

  it('at N = 2520 and 50', () => {
    expect(lowerBound(trackConfig('so', 2520))).toMatchObject({ d2: { aMin: 727 }, d3: { bMin: 156 }, costlyPairs: 883, f: 845 });
    expect(lowerBound(trackConfig('so', 50)).f).toBe(0);
  });

  it('follows the config: no bound without an upper quantile, weights scale it, MO objectives holding F6 and F7 bound the HV', () => {
    expect(lowerBound(diceConfig({ n: 840, constraints: [1, 2, 3], lowerBounds: [0.1, 0.1, 0.1], upperBounds: [0.9, 1, 1] }))).toMatchObject({
      d2: null,
      d3: null,
      costlyPairs: 0,
      f: 0,
    });
    expect(lowerBound(diceConfig({ n: 840, constraints: [2], lowerBounds: [0.1], upperBounds: [0.9] }))).toMatchObject({ d3: null, costlyPairs: 215, f: 177 });
    const gamma = [3, 3, 3, 3, 3, 2, 5, 3, 10, 4, 4, 4, 4, 4, 4];
    expect(lowerBound(diceConfig({ n: 840, gamma })).f).toBe(2 * 178);
    const mo2 = trackConfig('mo2', 840);
    const norm = diceHvNormalisation(mo2, { samples: 50 });
    expect(hvUpperBound(mo2, norm)).toBeCloseTo((1.1 - 178 / norm.nadir[0]) * 1.1, 12);
    const mo3 = trackConfig('mo3', 840);
    const norm3 = diceHvNormalisation(mo3, { samples: 50 });
    expect(hvUpperBound(mo3, norm3)).toBeCloseTo(1.1 * (1.1 - 178 / norm3.nadir[1]) * 1.1, 12);
  });

  it('holds for feasible sequences the solvers find, piece by piece', () => {
    const config = trackConfig('so', 840);
    const b = lowerBound(config);
    const problem = createDiceProblem(config);
    for (const seed of [1, 2]) {
      const r = solveSync(problem, 'barrier-ls', {}, seed, { maxEvaluations: 30000 });
      expect(r.success).toBe(true);
      const c = counts(r.best!.x);
      const full = evaluateDice(r.best!.x, config);
      expect(full.features[5] + full.features[6]).toBe(c.pairs);
      expect(c.even).toBeGreaterThanOrEqual(b.d2!.aMin);
      expect(c.both).toBeGreaterThanOrEqual(b.d3!.bMin);
      expect(c.pairs).toBeGreaterThanOrEqual(c.even + c.both);
      expect(full.objectives[0]).toBeGreaterThanOrEqual(b.f);
    }
  });
});
