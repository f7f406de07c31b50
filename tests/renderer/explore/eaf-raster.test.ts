// The EAF difference as pictures: every cell of the raster holds alpha_A - alpha_B at the cell's
// centre, checked against eafAt (the attainment function counted directly) on seeded random
// fronts; the pixels of each sign carry the solver's colour with opacity growing with the difference.
import { describe, expect, it } from 'vitest';
import { Random } from '../../../src-shared/random.ts';
import { eafAt, eafDifference } from '../../../src-shared/metrics/attainment.ts';
import { boundsOf } from '../../../src-renderer/views/explore/charts/surfaces.ts';
import { hexRgb, rasterizeDifference, signPixels } from '../../../src-renderer/views/explore/eaf-raster.ts';

function randomFronts(random: Random, runs: number, shift: number): number[][][] {
  return Array.from({ length: runs }, () =>
    Array.from({ length: 1 + random.below(6) }, () => {
      const t = random.float();
      return [shift + 10 * t + random.float(), shift + 10 * (1 - t) + random.float()];
    }),
  );
}

describe('rasterizeDifference', () => {
  it('each cell holds the difference of the EAFs at its centre', () => {
    const random = Random.fromSeed(21);
    for (let trial = 0; trial < 6; trial++) {
      const a = randomFronts(random, 3 + random.below(4), 0);
      const b = randomFronts(random, 2 + random.below(5), 0.7);
      const bounds = boundsOf([...a.flat(), ...b.flat()])!;
      const width = 37;
      const height = 23;
      const raster = rasterizeDifference(eafDifference(a, b), bounds, width, height);
      let nonZero = 0;
      for (let row = 0; row < height; row++)
        for (let c = 0; c < width; c++) {
          const z = [bounds.x0 + ((c + 0.5) * (bounds.x1 - bounds.x0)) / width, bounds.y1 - ((row + 0.5) * (bounds.y1 - bounds.y0)) / height];
          const expected = eafAt(a, z) - eafAt(b, z);
          expect(raster.values[row * width + c]).toBeCloseTo(expected, 6);
          if (expected !== 0) nonZero++;
        }
      expect(nonZero).toBeGreaterThan(0);
    }
  });
});

describe('signPixels', () => {
  it('colours one sign, opacity from 0.12 at the smallest difference to 1 at a difference of 1', () => {
    const raster = { width: 4, height: 1, values: Float32Array.from([1, -0.5, 0, 0.25]) };
    const a = signPixels(raster, 1, '#0072b2');
    expect(Array.from(a.slice(0, 4))).toEqual([...hexRgb('#0072b2'), 255]);
    expect(a[7]).toBe(0);
    expect(a[11]).toBe(0);
    expect(a[15]).toBe(Math.round(255 * (0.12 + 0.88 * 0.25)));
    const b = signPixels(raster, -1, '#d55e00');
    expect(Array.from(b.slice(4, 8))).toEqual([213, 94, 0, Math.round(255 * (0.12 + 0.88 * 0.5))]);
    expect(b[3]).toBe(0);
  });
});
