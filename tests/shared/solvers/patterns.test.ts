import { describe, expect, it } from 'vitest';
import { trackConfig } from '../../../src-shared/problems/dice/config.ts';
import { evaluateDice } from '../../../src-shared/problems/dice/evaluate.ts';
import { Random } from '../../../src-shared/random.ts';
import { aboveBandMask, inCostlyWindow, matchesPattern } from '../../../src-shared/solvers/so/patterns.ts';

const LENGTH = [2, 2, 3, 4, 4, 5, 4, 5, 6, 7];

describe('ILS pattern windows', () => {
  it("count exactly the evaluator's F6..F15 on random and run-heavy sequences", () => {
    const random = Random.fromSeed(9);
    for (let t = 0; t < 40; t++) {
      const n = 20 + random.below(60);
      const faces = random.int(2, 6); // few faces: many runs, pairs and full houses
      const x = Uint8Array.from({ length: n }, () => random.int(1, faces));
      const features = evaluateDice(x, trackConfig('so', n)).features;
      for (let k = 0; k < 10; k++) {
        let count = 0;
        for (let i = 0; i + LENGTH[k] <= n; i++) if (matchesPattern(k, x, i)) count++;
        expect(count, `F${6 + k} of ${x.join('')}`).toBe(features[5 + k]);
      }
    }
  });

  it('finds the positions inside a costly window, and only for the flagged features', () => {
    const x = Uint8Array.from('1352224', (c) => Number(c));
    const f7 = 1 << 1; // two in a row
    expect([0, 1, 2, 3, 4, 5, 6].filter((p) => inCostlyWindow(x, p, f7))).toEqual([3, 4, 5]);
    const f8 = 1 << 2; // three in a row
    expect([0, 1, 2, 3, 4, 5, 6].filter((p) => inCostlyWindow(x, p, f8))).toEqual([3, 4, 5]);
    const f6 = 1 << 0; // odd/even neighbours: only 5|2
    expect([0, 1, 2, 3, 4, 5, 6].filter((p) => inCostlyWindow(x, p, f6))).toEqual([2, 3]);
    expect(inCostlyWindow(x, 4, 0)).toBe(false);
  });

  it('flags the features above beta', () => {
    const features = [0, 0, 0, 0, 0, 31, 8, 2, 0, 3, 0, 1, 2, 0, 1];
    const beta = [5, 5, 5, 5, 5, 30, 8, 1, 0, 3, 0, 1, 2, 0, 0];
    expect(aboveBandMask(features, beta)).toBe((1 << 0) | (1 << 2) | (1 << 9));
  });
});
