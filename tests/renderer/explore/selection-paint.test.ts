// The selection's pixels: every selected point a square of the given side at its rounded corner,
// cut at the image's edges, checked pixel by pixel against squares painted one at a time, for
// few points (stamped) and for many (through the mask), every side from 1 to 6, maps that put
// points beyond every edge, and every k-th point when a limit is given.
import { describe, expect, it } from 'vitest';
import { Random } from '../../../src-shared/random.ts';
import { objectivesOf } from '../../../src-renderer/logic/explore/front-data.ts';
import { LIGHT_PALETTE } from '../../../src-shared/charts/palette.ts';
import { groupingColours, rasterizeSelection, selectionPainter, selectionStyle } from '../../../src-renderer/views/explore/selection-paint.ts';
import { allPoints, groupPoints } from '../../../src-renderer/logic/explore/groups.ts';
import { groupColour } from '../../../src-renderer/views/explore/charts/point-series.ts';
import { packPixel } from '../../../src-renderer/views/explore/point-layer.ts';
import { hexRgb } from '../../../src-renderer/views/explore/eaf-raster.ts';
import type { GridTransform } from '../../../src-renderer/views/explore/useChartLayer.ts';
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

  it('with a colour per point, paints the same squares, each pixel in the colour of a square over it, stamped or through the mask', () => {
    // Three colours by point (every third point alike), so neighbouring squares differ.
    const table = Uint32Array.of(0xff0000ff, 0xff00ff00, 0xffff0000);
    const entryOf = Uint8Array.from({ length: data.count }, (_, i) => i % 3);
    const colours = { table, css: ['#ff0000', '#00ff00', '#0000ff'], entryOf };
    for (const size of [30, 600, 20_000]) {
      const indices = pick(size);
      const map = overhangingMap(data, 2, 1);
      for (const side of [1, 3, 6]) {
        const buf = new Uint32Array(W * H);
        rasterizeSelection(buf, W, H, map, data, indices, 2, 1, side, colours);
        // Which colours' squares cover each pixel (the oracle, square by square).
        const over = Array.from({ length: W * H }, () => new Set<number>());
        for (const i of indices) {
          const f = objectivesOf(data, i);
          const x0 = Math.round(map.ax * f[2] + map.bx);
          const y0 = Math.round(map.ay * f[1] + map.by);
          for (let y = y0; y < y0 + side; y++)
            for (let x = x0; x < x0 + side; x++) if (x >= 0 && x < W && y >= 0 && y < H) over[y * W + x].add(table[entryOf[i]]);
        }
        const wrong = over.findIndex((c, k) => (c.size ? !c.has(buf[k]) : buf[k] !== 0));
        expect(wrong, `${size} points, side ${side}: pixel (${wrong % W}, ${Math.floor(wrong / W)}) is ${buf[wrong]?.toString(16)}`).toBe(-1);
        // Not one colour for all: each of the three shows where only its squares lie.
        for (const c of table) expect(buf.includes(c), `${size} points, side ${side}: colour ${c.toString(16)}`).toBe(true);
      }
    }
  });

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

/** The little of a canvas context the painter uses: images are plain objects, each put recorded. */
function fakeContext() {
  const puts: { image: ImageData; x: number; y: number }[] = [];
  let created = 0;
  const ctx = {
    getTransform: () => ({ a: 1 }),
    createImageData: (width: number, height: number) => {
      created++;
      return { width, height, data: new Uint8ClampedArray(width * height * 4) };
    },
    putImageData: (image: ImageData, x: number, y: number) => puts.push({ image, x, y }),
  };
  return { ctx: ctx as unknown as CanvasRenderingContext2D, puts, created: () => created };
}

describe('selectionPainter', () => {
  const data = smallFront(20_000, 3, 17);
  const random = Random.fromSeed(8);
  const indices = Int32Array.from(Array.from({ length: data.count }, (_, i) => i).filter(() => random.below(4) === 0));
  const map = overhangingMap(data, 0, 1);
  // The grid's corner at (10, 20) on the canvas.
  const grid: GridTransform = { x: 10, y: 20, width: W, height: H, ax: map.ax, bx: map.bx + 10, ay: map.ay, by: map.by + 20 };
  const style = selectionStyle(LIGHT_PALETTE, data.count);
  const rgba = (hex: string, alpha: number) => packPixel(...hexRgb(hex), Math.round(alpha * 255));

  it('puts the veil and a square per selected point at the grid corner', () => {
    expect(style.size).toBe(4);
    const { ctx, puts } = fakeContext();
    expect(selectionPainter()(ctx, grid, data, indices, 0, 1, style)).toBe(indices.length);
    expect(puts.map((p) => [p.x, p.y, p.image.width, p.image.height])).toEqual([[10, 20, W, H]]);
    const got = new Uint32Array(puts[0].image.data.buffer);
    // The squares' top-left corners: half a side up and left of the point.
    const squares = reference({ ax: map.ax, bx: map.bx - 2, ay: map.ay, by: map.by - 2 }, data, Array.from(indices), 0, 1, 4);
    const veil = rgba(LIGHT_PALETTE.surface, 0.62);
    const accent = rgba(LIGHT_PALETTE.accent, 1);
    let selected = 0;
    for (let k = 0; k < got.length; k++) {
      const want = squares[k] ? accent : veil;
      if (got[k] !== want) expect.unreachable(`pixel (${k % W}, ${Math.floor(k / W)})`);
      if (squares[k]) selected++;
    }
    expect(selected).toBeGreaterThan(0);
    expect(selected).toBeLessThan(W * H);
  });

  it("paints each selected point in its own series' colour, not one colour for all (selected points of the second solver looked like the first's)", () => {
    // The synthetic front's runs by solver: several series, and the infeasible one.
    const grouping = groupPoints(data, allPoints(data), 'solver');
    expect(grouping.groups.length).toBeGreaterThanOrEqual(3);
    const colours = groupingColours(LIGHT_PALETTE, grouping);
    expect(colours.colours).toEqual(grouping.groups.map((g) => groupColour(LIGHT_PALETTE, g)));
    for (const [large, count] of [
      [true, data.count],
      [false, 0],
    ] as const) {
      const styled = selectionStyle(LIGHT_PALETTE, count, undefined, colours);
      // Few points (a group apart), so each square is whole and alone: one point of each series.
      const few = Int32Array.from(grouping.groups.map((g) => g.indices[Math.floor(g.indices.length / 2)]));
      const { ctx, puts } = fakeContext();
      const round: string[] = [];
      const context = Object.assign(ctx, {
        save() {},
        restore() {},
        beginPath() {},
        rect() {},
        clip() {},
        moveTo() {},
        arc() {},
        fill() {
          round.push(this.fillStyle as string);
        },
        fillStyle: '',
      });
      selectionPainter()(context, grid, data, large ? indices : few, 0, 1, styled);
      if (large) {
        // Squares: the pixel at each selected point's square is its series' colour, for every series.
        const got = new Uint32Array(puts[0].image.data.buffer);
        const seen = new Set<number>();
        for (const i of indices.slice(0, 2000)) {
          const f = objectivesOf(data, i);
          const x = Math.round(map.ax * f[0] + map.bx - 2) + 1;
          const y = Math.round(map.ay * f[1] + map.by - 2) + 1;
          if (x < 0 || x >= W || y < 0 || y >= H) continue;
          const colour = got[y * W + x];
          const own = rgba(colours.colours[grouping.groupOf[i]], 1);
          // A later point's square may cover it; it is then a selected colour, never the accent.
          expect(colour).not.toBe(rgba(LIGHT_PALETTE.accent, 1));
          expect(colours.colours.map((c) => rgba(c, 1))).toContain(colour);
          if (colour === own) seen.add(grouping.groupOf[i]);
        }
        expect(seen.size).toBe(grouping.groups.length);
        // A few points as squares (stamped one by one, not through the mask): each in its own colour.
        const stamped = fakeContext();
        selectionPainter()(stamped.ctx, grid, data, few, 0, 1, styled);
        const pixels = new Uint32Array(stamped.puts[0].image.data.buffer);
        for (const i of few) {
          const f = objectivesOf(data, i);
          const x = Math.round(map.ax * f[0] + map.bx - 2) + 1;
          const y = Math.round(map.ay * f[1] + map.by - 2) + 1;
          if (x >= 0 && x < W && y >= 0 && y < H) expect(pixels[y * W + x]).toBe(rgba(colours.colours[grouping.groupOf[i]], 1));
        }
      } else {
        // Round markers: the rings (the text colour) first, then a disc per series in its colour.
        expect(round.filter((c) => c === LIGHT_PALETTE.text).length).toBe(grouping.groups.length);
        expect(round.filter((c) => c !== LIGHT_PALETTE.text)).toEqual(colours.colours);
      }
    }
  });

  it('puts its last image back for the same selection, grid and style, and paints anew when one of them changes', () => {
    const { ctx, puts, created } = fakeContext();
    const paint = selectionPainter();
    paint(ctx, grid, data, indices, 0, 1, style);
    paint(ctx, { ...grid }, data, indices, 0, 1, { ...style });
    expect(created()).toBe(1);
    expect(puts[1]).toEqual(puts[0]);
    expect(puts[1].image).toBe(puts[0].image);
    const pixels = (n: number) => Array.from(new Uint32Array(puts[n].image.data.buffer));
    const fewer = indices.slice(0, 100);
    const changes: [string, () => void][] = [
      ['another selection', () => paint(ctx, grid, data, fewer, 0, 1, style)],
      ['other axes', () => paint(ctx, grid, data, fewer, 0, 2, style)],
      ['a zoom', () => paint(ctx, { ...grid, ax: grid.ax * 1.5 }, data, fewer, 0, 2, style)],
      ['another colour', () => paint(ctx, { ...grid, ax: grid.ax * 1.5 }, data, fewer, 0, 2, { ...style, fallback: '#000000' })],
    ];
    for (const [what, change] of changes) {
      const before = puts.length;
      change();
      expect(puts.length, what).toBe(before + 1);
      expect(puts.at(-1)!.image, what).not.toBe(puts[before - 1].image);
      expect(pixels(puts.length - 1), what).not.toEqual(pixels(before - 1));
    }
    expect(created()).toBe(1 + changes.length);
  });
});
