// What a block-length constraint means at a given N (block-reading.ts), held against the
// evaluator itself: chi_d of sequences built with a known number of equal blocks, and whether the
// evaluator calls the constraint satisfied, for every d at N = 120 and N = 50.
import { describe, expect, it } from 'vitest';
import { blockReading } from '../../../../src-shared/problems/dice/block-reading.ts';
import { evaluateDice } from '../../../../src-shared/problems/dice/evaluate.ts';
import { trackConfig } from '../../../../src-shared/problems/dice/config.ts';
import { Random } from '../../../../src-shared/random.ts';

/** n rolls whose first floor(n/d) d-blocks are pairwise different (drawn, redrawn on a repeat), then `repeats` of them copied over the following ones. */
function withRepeats(n: number, d: number, repeats: number, seed: number): string {
  const rng = Random.fromSeed(seed);
  const blocks: string[] = [];
  const seen = new Set<string>();
  const count = Math.floor(n / d);
  while (blocks.length < count) {
    const b = Array.from({ length: d }, () => String(rng.int(1, 6))).join('');
    if (!seen.has(b)) (seen.add(b), blocks.push(b));
  }
  // Block k + 1 becomes a copy of block 0 for k < repeats: C(repeats + 1, 2) pairs of equal blocks.
  for (let k = 1; k <= repeats; k++) blocks[k] = blocks[0];
  const tail = Array.from({ length: n - count * d }, () => String(rng.int(1, 6))).join('');
  return blocks.join('') + tail;
}

describe('blockReading', () => {
  const N = 120;
  const config = trackConfig('so', N);
  const bounds = evaluateDice('1'.repeat(N), config).bounds;

  it('chi_d takes the values K - B + (2K/B) P exactly, P the pairs of equal blocks (the evaluator agrees for d = 3..12 at N = 120)', () => {
    for (let d = 3; d <= 12; d++) {
      const reading = blockReading(N, d, bounds[d - 1][0] ?? 0, bounds[d - 1][1]);
      expect(reading.blocks).toBe(Math.floor(N / d));
      expect(reading.kinds).toBe(6 ** d);
      for (const repeats of [0, 1, 2]) {
        const x = withRepeats(N, d, repeats, 100 * d + repeats);
        const chi = evaluateDice(x, config).chi[d - 1];
        const pairs = ((repeats + 1) * repeats) / 2;
        expect(chi, `d = ${d}, ${pairs} pairs`).toBeCloseTo(reading.smallest + reading.step * pairs, 6 - Math.round(Math.log10(reading.kinds)));
      }
    }
  });

  it('at N = 120, d = 7..12 mean only "no block repeats": all blocks different satisfies them, one repeated block does not', () => {
    for (let d = 7; d <= 12; d++) {
      const reading = blockReading(N, d, bounds[d - 1][0] ?? 0, bounds[d - 1][1]);
      expect(reading.meaning, `d = ${d}`).toBe(`no ${d}-block repeats`);
      expect(reading.valuesInBand).toBe(1);
      const distinct = evaluateDice(withRepeats(N, d, 0, d), config);
      const repeated = evaluateDice(withRepeats(N, d, 1, d), config);
      expect(distinct.constraints[d - 1], `d = ${d} distinct`).toBe(0);
      expect(repeated.constraints[d - 1], `d = ${d} one repeat`).toBeGreaterThan(0);
      // chi_d at its smallest sits near the middle of its band: "about 50 %" says nothing more.
      const [lo, hi] = bounds[d - 1] as [number, number];
      const place = (distinct.chi[d - 1] - lo) / (hi - lo);
      expect(place, `d = ${d}`).toBeGreaterThan(0.45);
      expect(place, `d = ${d}`).toBeLessThan(0.55);
    }
  });

  it('small d stay fine-grained (no reading in words); a band holding a few values reads as a count of equal pairs', () => {
    for (const d of [1, 2]) expect(blockReading(N, d, bounds[d - 1][0] ?? 0, bounds[d - 1][1]).meaning, `d = ${d}`).toBeNull();
    // N = 50, d = 3: 16 blocks of 216 kinds, values 27 apart; the evaluator decides each count.
    const c50 = trackConfig('so', 50);
    const b50 = evaluateDice('1'.repeat(50), c50).bounds[2] as [number, number];
    const reading = blockReading(50, 3, b50[0], b50[1]);
    expect(reading.pairs).not.toBeNull();
    for (const repeats of [0, 1, 2, 3]) {
      const pairs = ((repeats + 1) * repeats) / 2;
      const g = evaluateDice(withRepeats(50, 3, repeats, 7 + repeats), c50).constraints[2];
      const inside = pairs >= reading.pairs!.from && (reading.pairs!.to === null || pairs <= reading.pairs!.to);
      expect(g === 0, `${pairs} pairs`).toBe(inside);
    }
    expect(reading.meaning).toMatch(/pairs? of equal 3-blocks|no 3-block repeats/);
  });

  it('a band no value of chi_d reaches is named as such', () => {
    // d = 9 at N = 120 with P_d = 0.01: q(0.01) is below K - B, the smallest chi_d.
    const reading = blockReading(N, 9, 0, (bounds[8][0] ?? 0) - 1);
    expect(reading.pairs).toBeNull();
    expect(reading.meaning).toBe('no sequence can satisfy it: chi_d never falls in the band');
  });
});
