// The selection's pixels: every selected point a square of the given side at its rounded corner,
// cut at the image's edges, checked pixel by pixel against squares painted one at a time, for
// few points (stamped) and for many (through the mask), every side from 1 to 6, maps that put
// points beyond every edge, and every k-th point when a limit is given.
import { describe, expect, it } from 'vitest';
import { Random } from '../../../src-shared/random.ts';
import { objectivesOf } from '../../../src-renderer/views/explore/front-data.ts';
import { rasterizeSelection } from '../../../src-renderer/views/explore/selection-paint.ts';
import type { PixelMap } from '../../../src-renderer/views/explore/point-layer.ts';
import { smallFront } from './fixtures.ts';

const W = 120;
const H = 80;
const COLOUR = 0xff336699;

/** The oracle: each square painted pixel by pixel with bounds checks. */
function reference(map: PixelMap, data: ReturnType<typeof smallFront>, chosen: number[], xi: number, yi: number, side: number): Uint32Array {
  const buf = new Uint32Array(W * H);
  for (const i of chosen) {
    const f = objectivesOf(data, i);
    const x0 = Math.round(map.ax * f[xi] + map.bx);
    const y0 = Math.round(map.ay * f[yi] + map.by);
    for (let y = y0; y < y0 + side; y++) for (let x = x0; x < x0 + side; x++) if (x >= 0 && x < W && y >= 0 && y < H) buf[y * W + x] = COLOUR;
  }
  return buf;
}

/** A map that spreads the front's objectives xi, yi a little beyond the image on every side. */
function overhangingMap(data: ReturnType<typeof smallFront>, xi: number, yi: number): PixelMap {
  let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
  for (let i = 0; i < data.count; i++) {
    const f = objectivesOf(data, i);
    x0 = Math.min(x0, f[xi]); x1 = Math.max(x1, f[xi]);
    y0 = Math.min(y0, f[yi]); y1 = Math.max(y1, f[yi]);
  }
  const ax = (W + 16) / (x1 - x0);
  const ay = -(H + 16) / (y1 - y0);
  return { ax, bx: -8 - ax * x0, ay, by: H + 8 - ay * y0 };
}

describe('rasterizeSelection', () => {
  const data = smallFront(20_000, 3, 17);
  const random = Random.fromSeed(5);
  const pick = (n: number) => Int32Array.from(Array.from({ length: data.count }, (_, i) => i).filter(() => random.below(data.count) < n));

  for (const size of [30, 600, 20_000]) {
    it(`paints exactly the squares of ${size === 20_000 ? 'every point' : `about ${size} points`}, sides 1 to 6, cut at every edge`, () => {
      const indices = pick(size);
      const map = overhangingMap(data, 2, 1);
      for (let side = 1; side <= 6; side++) {
        const buf = new Uint32Array(W * H);
        rasterizeSelection(buf, W, H, map, data, indices, 2, 1, side, COLOUR);
        const want = reference(map, data, Array.from(indices), 2, 1, side);
        const wrong = want.findIndex((v, k) => buf[k] !== v);
        expect(wrong, `side ${side}: pixel (${wrong % W}, ${Math.floor(wrong / W)})`).toBe(-1);
        // Not vacuous: squares were painted, and pixels were left alone.
        const painted = want.reduce((n, v) => n + (v ? 1 : 0), 0);
        expect(painted).toBeGreaterThan(0);
        expect(painted).toBeLessThan(W * H);
      }
    });
  }

  it('leaves the pixels it does not paint as they were (the veil under the points)', () => {
    const indices = pick(20_000);
    const map = overhangingMap(data, 0, 1);
    const veil = 0x9effffff;
    const buf = new Uint32Array(W * H).fill(veil);
    rasterizeSelection(buf, W, H, map, data, indices, 0, 1, 3, COLOUR);
    const want = reference(map, data, Array.from(indices), 0, 1, 3);
    for (let k = 0; k < buf.length; k++) if (buf[k] !== (want[k] || veil)) expect.unreachable(`pixel ${k}`);
    expect(buf.includes(veil)).toBe(true);
  });

  it('with a limit, paints every k-th point: the points at floor(k * length / limit)', () => {
    const indices = pick(20_000);
    const map = overhangingMap(data, 1, 0);
    for (const limit of [7, 5000]) {
      const buf = new Uint32Array(W * H);
      rasterizeSelection(buf, W, H, map, data, indices, 1, 0, 2, COLOUR, limit);
      const chosen = Array.from({ length: limit }, (_, k) => indices[Math.floor((k * indices.length) / limit)]);
      expect(Array.from(buf)).toEqual(Array.from(reference(map, data, chosen, 1, 0, 2)));
    }
  });
});
