// The explorer's point layer: every shown point is written at its own pixel in its series'
// colour (checked point by point against the linear map, on a seeded front), hidden series
// and points outside the image are not, the infeasible series lies on top, and the point found
// under the mouse is the nearest one, as a brute-force search over every point finds it.
import { describe, expect, it } from 'vitest';
import { LIGHT_PALETTE, seriesColor } from '../../../src-shared/charts/palette.ts';
import { Random } from '../../../src-shared/random.ts';
import { allPoints, groupPoints, INFEASIBLE_SERIES } from '../../../src-renderer/logic/explore/groups.ts';
import { objectivesOf } from '../../../src-renderer/logic/explore/front-data.ts';
import { blendedPixel, layerGroups, nearestPoint, packPixel, rasterizePoints, type PixelMap } from '../../../src-renderer/views/explore/point-layer.ts';
import { smallFront } from './fixtures.ts';

const W = 300;
const H = 200;

/** The map that puts objectives xi, yi of the front's range onto a W x H image with a margin, y upwards. */
function fitMap(data: ReturnType<typeof smallFront>, xi: number, yi: number, margin = 10): PixelMap {
  let x0 = Infinity,
    x1 = -Infinity,
    y0 = Infinity,
    y1 = -Infinity;
  for (let i = 0; i < data.count; i++) {
    const f = objectivesOf(data, i);
    x0 = Math.min(x0, f[xi]);
    x1 = Math.max(x1, f[xi]);
    y0 = Math.min(y0, f[yi]);
    y1 = Math.max(y1, f[yi]);
  }
  const ax = (W - 2 * margin) / (x1 - x0);
  const ay = -(H - 2 * margin) / (y1 - y0);
  return { ax, bx: margin - ax * x0, ay, by: H - margin - ay * y0 };
}

describe('rasterizePoints', () => {
  const data = smallFront(5000, 3, 21);
  const { groups } = groupPoints(data, allPoints(data), 'solver');

  it('puts every point at its pixel in its series colour; the infeasible series is drawn last, on top', () => {
    const map = fitMap(data, 2, 0);
    const layer = layerGroups(groups, new Set(), LIGHT_PALETTE, { feasible: 1, infeasible: 1 });
    expect(layer.at(-1)!.shape).toBe('triangle');
    expect(layer.slice(0, -1).every((g) => g.shape === 'square')).toBe(true);
    const buf = new Uint32Array(W * H);
    expect(rasterizePoints(buf, W, H, map, data, 2, 0, layer)).toBe(data.count);
    // One pixel per point: the pixel of the last point drawn there holds its colour.
    const last = new Map<number, number>();
    for (const g of layer)
      for (const i of g.indices) {
        const f = objectivesOf(data, i);
        last.set(Math.floor(map.ay * f[0] + map.by) * W + Math.floor(map.ax * f[2] + map.bx), g.colour);
      }
    for (const [px, colour] of last) expect(buf[px]).toBe(colour);
    expect(buf.reduce((n, v) => n + (v !== 0 ? 1 : 0), 0)).toBe(last.size);
    // The colours: the palette's series colour (infeasible: its `bad`) at 0.75 over the surface.
    const infeasible = groups.find((g) => g.name === INFEASIBLE_SERIES)!;
    expect(infeasible.indices.length).toBeGreaterThan(0);
    expect(layer.at(-1)!.colour).toBe(blendedPixel(LIGHT_PALETTE.bad, LIGHT_PALETTE.surface, 0.75));
    expect(layer[0].colour).toBe(blendedPixel(seriesColor(LIGHT_PALETTE, groups[0].colour), LIGHT_PALETTE.surface, 0.75));
  });

  it('blends by hand: #0072b2 at 0.75 over white is (64, 149, 197)', () => {
    expect(blendedPixel('#0072b2', '#ffffff', 0.75)).toBe(packPixel(64, 149, 197));
  });

  it('draws squares of the given side around the point, cut at the edges; hidden series and points outside are left out', () => {
    const one = { ...data, objectives: Float64Array.from([0, 0, 0, 5, 5, 0, 299, 100, 0, 400, 50, 0]), count: 4 };
    const identity: PixelMap = { ax: 1, bx: 0, ay: 1, by: 0 };
    const square = [{ indices: Int32Array.from([0, 1, 2, 3]), colour: 7, shape: 'square' as const, size: 3 }];
    const buf = new Uint32Array(W * H);
    // The point at x = 400 lies outside the image.
    expect(rasterizePoints(buf, W, H, identity, one, 0, 1, square)).toBe(3);
    const set = (x: number, y: number) => buf[y * W + x] === 7;
    // (5, 5): the 3 x 3 square from (4, 4) to (6, 6).
    for (let y = 3; y <= 7; y++) for (let x = 3; x <= 7; x++) expect(set(x, y)).toBe(x >= 4 && x <= 6 && y >= 4 && y <= 6);
    // (0, 0) and (299, 100): cut at the image's edges.
    expect([set(0, 0), set(1, 1), set(0, 1), set(1, 0)]).toEqual([true, true, true, true]);
    expect([set(298, 100), set(299, 101), set(298, 99)]).toEqual([true, true, true]);
    expect(buf.reduce((n, v) => n + (v ? 1 : 0), 0)).toBe(9 + 4 + 6);
    // A hidden series is not drawn at all.
    expect(layerGroups(groups, new Set([groups[0].name]), LIGHT_PALETTE).some((g) => g.indices === groups[0].indices)).toBe(false);
  });

  it('scales the markers to device pixels: side 3 at scale 2 is 6 x 6 pixels', () => {
    const one = { ...data, objectives: Float64Array.from([50, 50, 0]), count: 1 };
    const buf = new Uint32Array(W * H);
    rasterizePoints(buf, W, H, { ax: 1, bx: 0, ay: 1, by: 0 }, one, 0, 1, [{ indices: Int32Array.from([0]), colour: 9, shape: 'square', size: 3 }], 2);
    expect(buf.reduce((n, v) => n + (v ? 1 : 0), 0)).toBe(36);
  });
});

describe('nearestPoint', () => {
  const data = smallFront(3000, 3, 4);
  const { groups } = groupPoints(data, allPoints(data), 'solver');
  const layer = layerGroups(groups, new Set([groups[1].name]), LIGHT_PALETTE);
  const map = fitMap(data, 0, 1);

  it('finds the nearest shown point within the radius, as a search over every point does', () => {
    const random = Random.fromSeed(9);
    let found = 0;
    for (let trial = 0; trial < 300; trial++) {
      // Half the time near a point (within 8 pixels of it), half anywhere.
      const near = objectivesOf(data, random.below(data.count));
      const x = trial % 2 ? random.below(W * 100) / 100 : map.ax * near[0] + map.bx + random.below(1600) / 100 - 8;
      const y = trial % 2 ? random.below(H * 100) / 100 : map.ay * near[1] + map.by + random.below(1600) / 100 - 8;
      let best = Infinity;
      for (const g of layer)
        for (const i of g.indices) {
          const f = objectivesOf(data, i);
          best = Math.min(best, Math.hypot(map.ax * f[0] + map.bx - x, map.ay * f[1] + map.by - y));
        }
      const i = nearestPoint(data, 0, 1, layer, map, x, y, 5);
      if (best > 5) expect(i).toBeNull();
      else {
        found++;
        const f = objectivesOf(data, i!);
        expect(Math.hypot(map.ax * f[0] + map.bx - x, map.ay * f[1] + map.by - y)).toBeCloseTo(best, 9);
        // Never a point of the hidden series.
        expect(groups[1].indices.includes(i!)).toBe(false);
      }
    }
    expect(found).toBeGreaterThan(60);
  });
});
