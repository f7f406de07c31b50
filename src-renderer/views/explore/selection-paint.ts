/**
 * Drawing the selection over a scatter panel (useChartLayer's canvas): the rest of the plot
 * dimmed by a veil in the surface colour, every selected point in its own series' colour (a
 * solver's, or the infeasible red), so a selection across solvers still says whose each point
 * is; few points as round markers ringed in the text colour, many as squares.
 */
import type { ChartPalette } from '../../../src-shared/charts/palette.ts';
import { groupColour, LARGE_THRESHOLD } from './charts/point-series.ts';
import type { ExplorerData } from '../../logic/explore/front-data.ts';
import type { Grouping } from '../../logic/explore/groups.ts';
import { gridImage, transformKey, type GridTransform } from './useChartLayer.ts';
import { hexRgb } from './eaf-raster.ts';
import type { PixelMap } from './point-layer.ts';

/** Whose colour each selected point takes: colours[colourOf[i]] for point i (of the data painted). */
export interface SelectionColours {
  colours: readonly string[];
  /** Per point of the data painted, an index into `colours` (-1: the style's `fallback`); null: every point takes colours[0]. */
  colourOf: Int32Array | null;
}

export interface SelectionStyle extends SelectionColours {
  /** The chart's surface colour (the veil). */
  surface: string;
  /** The ring around a selected round marker (the text colour): it marks the point selected, whatever its colour. */
  ring: string;
  /** The colour of a point with none of its own (the accent). */
  fallback: string;
  /** Side of a selected point's square, in CSS pixels. */
  size: number;
}

/** Each point in its series' colour, as the grouping colours the charts (groupColour). */
export function groupingColours(palette: ChartPalette, grouping: Pick<Grouping, 'groups' | 'groupOf'>): SelectionColours {
  return { colours: grouping.groups.map((g) => groupColour(palette, g)), colourOf: grouping.groupOf };
}

/**
 * The selection's style on `palette`: each point in its colour from `colours` (the accent
 * without), over a veil in the surface colour, in squares of side `sizes.large` when more than
 * LARGE_THRESHOLD points are drawn, else `sizes.small`.
 */
export function selectionStyle(
  palette: ChartPalette,
  drawn: number,
  sizes: { large: number; small: number } = { large: 4, small: 7 },
  colours: SelectionColours = { colours: [], colourOf: null },
): SelectionStyle {
  return { surface: palette.surface, ring: palette.text, fallback: palette.accent, ...colours, size: drawn > LARGE_THRESHOLD ? sizes.large : sizes.small };
}

/** Each point's colour as a pixel: a table of the colours and, per point of the data, its entry in it. */
export interface PointColours {
  table: Uint32Array;
  /** The same colours as CSS (for the round markers). */
  css: readonly string[];
  /** Per point of the data painted, its colour's entry in `table`. */
  entryOf: Uint8Array;
}

/** The style's colours per point of `data`: the colours' distinct pixels, and each point's. */
function pointColours(style: SelectionStyle, count: number): PointColours {
  const entries = new Map<string, number>();
  const entry = (css: string) => entries.get(css) ?? (entries.set(css, entries.size), entries.size - 1);
  const fallback = entry(style.fallback);
  const ofGroup = Uint8Array.from(style.colours, (c) => entry(c));
  const entryOf = new Uint8Array(count);
  const colourOf = style.colourOf;
  for (let i = 0; i < count; i++) {
    const g = colourOf ? colourOf[i] : 0;
    entryOf[i] = g >= 0 && g < ofGroup.length ? ofGroup[g] : fallback;
  }
  return { table: Uint32Array.from(entries.keys(), (c) => pixel(c, 1)), css: [...entries.keys()], entryOf };
}

/** The points of `indices` to paint (all, or every k-th when `count` is fewer), split by their colour's entry. */
function byEntry(indices: Int32Array, count: number, colours: PointColours): Int32Array[] {
  const all = count === indices.length;
  const step = indices.length / count;
  const sizes = new Int32Array(colours.table.length);
  for (let k = 0; k < count; k++) sizes[colours.entryOf[indices[all ? k : Math.floor(k * step)]]]++;
  const out = Array.from(sizes, (n) => new Int32Array(n));
  const fill = new Int32Array(colours.table.length);
  for (let k = 0; k < count; k++) {
    const i = indices[all ? k : Math.floor(k * step)];
    const e = colours.entryOf[i];
    out[e][fill[e]++] = i;
  }
  return out;
}

/** A CSS colour "#rrggbb" and an opacity as one pixel of a little-endian Uint32 view of RGBA bytes. */
function pixel(hex: string, alpha: number): number {
  const [r, g, b] = hexRgb(hex);
  return ((Math.round(alpha * 255) << 24) | (b << 16) | (g << 8) | r) >>> 0;
}

/**
 * Paints `indices` (objectives xi against yi) inside the grid of `t`, at most `limit` of them
 * (every k-th beyond); returns how many. The pixels are written into an ImageData and put on
 * the canvas at once: a fillRect per point costs about a microsecond in a software-rendered
 * canvas, a square of pixels a few nanoseconds.
 */
export function paintSelection(
  ctx: CanvasRenderingContext2D,
  t: GridTransform,
  data: ExplorerData,
  indices: Int32Array,
  xi: number,
  yi: number,
  style: SelectionStyle,
  limit = Infinity,
): number {
  return selectionPainter()(ctx, t, data, indices, xi, yi, style, limit);
}

/** paintSelection, remembering what it painted last. */
export type SelectionPainter = typeof paintSelection;

/**
 * A paintSelection for one grid that keeps the image it painted last: asked again for the same
 * selection on the same grid, axes and style (the layer is redrawn because the brush's rectangle
 * moved, say, while a selection is shown), it puts that image back instead of painting every
 * selected point again.
 */
export function selectionPainter(): SelectionPainter {
  let last: { key: unknown[]; image: ImageData; x: number; y: number } | null = null;
  let colours: { key: unknown[]; value: PointColours } | null = null;
  return (ctx, t, data, indices, xi, yi, style, limit = Infinity) => {
    const count = Math.min(indices.length, limit);
    // Few points get round markers (drawn after the veil); many, squares of pixels.
    const round = count <= ROUND_LIMIT && style.size >= 5;
    const key = [
      data,
      indices,
      xi,
      yi,
      style.surface,
      style.ring,
      style.fallback,
      style.colourOf,
      style.colours.join(),
      style.size,
      count,
      ctx.getTransform().a,
      transformKey(t),
    ];
    const colourKey = [data, style.fallback, style.colourOf, style.colours.join()];
    const pointColoursNow = () =>
      (colours && colours.key.every((v, k) => v === colourKey[k]) ? colours : (colours = { key: colourKey, value: pointColours(style, data.count) })).value;
    if (last && last.key.every((v, k) => v === key[k])) ctx.putImageData(last.image, last.x, last.y);
    else {
      const { image, pixels, x: gx, y: gy, width, height, scale } = gridImage(ctx, t);
      pixels.fill(pixel(style.surface, 0.62));
      if (!round) {
        const side = Math.max(1, Math.round(style.size * scale));
        // Device pixels relative to the grid's corner, to a square's top-left pixel.
        const map = { ax: t.ax * scale, bx: t.bx * scale - gx - side / 2, ay: t.ay * scale, by: t.by * scale - gy - side / 2 };
        rasterizeSelection(pixels, width, height, map, data, indices, xi, yi, side, pointColoursNow(), count);
      }
      ctx.putImageData(image, gx, gy);
      last = { key, image, x: gx, y: gy };
    }
    if (round) {
      const c = pointColoursNow();
      paintRound(ctx, t, data, byEntry(indices, count, c), c.css, xi, yi, style);
    }
    return count;
  };
}

/**
 * Writes `count` of `indices` (all of them, or every k-th when fewer) into `buf`, a `width` x
 * `height` image, as squares of `side` pixels in `colour` (one pixel for all, or each point's
 * from a table) whose top-left pixel is where `map` puts the point (rounded), cut at the image's
 * edges. Few points are stamped one by one (a loop over a square's pixels: a fill() call per row
 * cost twice as much); many, in two passes whose cost is the image's size, not the points'
 * (below), whatever the number of colours. Where squares of two colours overlap, either shows.
 */
export function rasterizeSelection(
  buf: Uint32Array,
  width: number,
  height: number,
  map: PixelMap,
  data: ExplorerData,
  indices: Int32Array,
  xi: number,
  yi: number,
  side: number,
  colour: number | PointColours,
  count = indices.length,
): void {
  const n = Math.min(count, indices.length);
  if (n * side * side > STAMP_PER_PIXEL * (width + side) * (height + side)) rasterizeByMask(buf, width, height, map, data, indices, xi, yi, side, colour, n);
  else rasterizeByStamp(buf, width, height, map, data, indices, xi, yi, side, colour, n);
}

/** Above this many pixel writes per pixel of the image, squares are painted through a mask. */
const STAMP_PER_PIXEL = 1;

function rasterizeByStamp(
  buf: Uint32Array,
  width: number,
  height: number,
  map: PixelMap,
  data: ExplorerData,
  indices: Int32Array,
  xi: number,
  yi: number,
  side: number,
  colour: number | PointColours,
  n: number,
): void {
  const m = data.objectiveCount;
  const f = data.objectives;
  const { ax, bx, ay, by } = map;
  const all = n === indices.length;
  const step = indices.length / n;
  const single = typeof colour === 'number' ? colour : 0;
  const table = typeof colour === 'number' ? null : colour.table;
  const entryOf = typeof colour === 'number' ? null : colour.entryOf;
  for (let k = 0; k < n; k++) {
    const i = indices[all ? k : Math.floor(k * step)];
    const base = i * m;
    const c = table ? table[entryOf![i]] : single;
    const x0 = Math.round(ax * f[base + xi] + bx);
    const y0 = Math.round(ay * f[base + yi] + by);
    const xa = x0 < 0 ? 0 : x0;
    const xb = x0 + side > width ? width : x0 + side;
    if (xa >= xb) continue;
    const yb = y0 + side > height ? height : y0 + side;
    for (let y = y0 < 0 ? 0 : y0; y < yb; y++) {
      const row = y * width;
      for (let x = xa; x < xb; x++) buf[row + x] = c;
    }
  }
}

/**
 * The same squares, for many points: each point marks one byte of a mask (its colour's entry + 1,
 * at its top-left pixel, on a mask `side - 1` pixels wider and taller, so that squares cut at the
 * left and top edges are kept); then a pixel is painted when a mark lies within `side - 1` pixels
 * to its right and below, found row by row from the bottom with the nearest mark to the right in
 * the row and the nearest such row below in each column, in that mark's colour.
 */
function rasterizeByMask(
  buf: Uint32Array,
  width: number,
  height: number,
  map: PixelMap,
  data: ExplorerData,
  indices: Int32Array,
  xi: number,
  yi: number,
  side: number,
  colour: number | PointColours,
  n: number,
): void {
  const m = data.objectiveCount;
  const f = data.objectives;
  const e = side - 1;
  const mw = width + e;
  const mh = height + e;
  const mask = new Uint8Array(mw * mh);
  const { ax, bx, ay, by } = map;
  const all = n === indices.length;
  const step = indices.length / n;
  const table = typeof colour === 'number' ? Uint32Array.of(colour) : colour.table;
  const entryOf = typeof colour === 'number' ? null : colour.entryOf;
  for (let k = 0; k < n; k++) {
    const i = indices[all ? k : Math.floor(k * step)];
    const base = i * m;
    // The same rounding as a stamp's corner, then shifted onto the mask.
    const x = Math.round(ax * f[base + xi] + bx) + e;
    const y = Math.round(ay * f[base + yi] + by) + e;
    if (x >= 0 && x < mw && y >= 0 && y < mh) mask[y * mw + x] = entryOf ? entryOf[i] + 1 : 1;
  }
  // The nearest mask row at or below the current one with a mark within e to the right of column x, and that mark's entry.
  const below = new Int32Array(width).fill(mh + side);
  const belowEntry = new Uint8Array(width);
  for (let y = mh - 1; y >= 0; y--) {
    const row = y * mw;
    let next = mw + side;
    let nextEntry = 0;
    for (let x = mw - 1; x >= 0; x--) {
      const mark = mask[row + x];
      if (mark) {
        next = x;
        nextEntry = mark - 1;
      }
      if (x < width && next - x <= e) {
        below[x] = y;
        belowEntry[x] = nextEntry;
      }
    }
    if (y >= height) continue;
    const out = y * width;
    for (let x = 0; x < width; x++) if (below[x] - y <= e) buf[out + x] = table[belowEntry[x]];
  }
}

/** Up to this many selected points are drawn as round markers (arcs); beyond, as squares of pixels (arcs would take too long). */
const ROUND_LIMIT = 5000;

/**
 * Round markers, each in its colour with a ring in the text colour (so it reads as selected
 * whatever its colour): every ring first, then the discs colour by colour, so in a cluster the
 * rings of some do not cut into the discs of others.
 */
function paintRound(
  ctx: CanvasRenderingContext2D,
  t: GridTransform,
  data: ExplorerData,
  parts: readonly Int32Array[],
  css: readonly string[],
  xi: number,
  yi: number,
  style: SelectionStyle,
): void {
  const m = data.objectiveCount;
  const f = data.objectives;
  ctx.save();
  ctx.beginPath();
  ctx.rect(t.x, t.y, t.width, t.height);
  ctx.clip();
  const discs = (points: Int32Array, r: number, colour: string) => {
    ctx.beginPath();
    for (let k = 0; k < points.length; k++) {
      const base = points[k] * m;
      const x = t.ax * f[base + xi] + t.bx;
      const y = t.ay * f[base + yi] + t.by;
      ctx.moveTo(x + r, y);
      ctx.arc(x, y, r, 0, 2 * Math.PI);
    }
    ctx.fillStyle = colour;
    ctx.fill();
  };
  for (const part of parts) if (part.length) discs(part, style.size / 2 + 1.5, style.ring);
  parts.forEach((part, entry) => part.length && discs(part, style.size / 2, css[entry]));
  ctx.restore();
}
