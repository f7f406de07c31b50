/**
 * Drawing the selection over a scatter panel (useChartLayer's canvas): the rest of the plot
 * dimmed by a veil in the surface colour, every selected point a square in the accent colour.
 */
import type { ChartPalette } from '../../../src-shared/charts/palette.ts';
import { LARGE_THRESHOLD } from './charts/point-series.ts';
import type { ExplorerData } from './front-data.ts';
import { gridImage, type GridTransform } from './useChartLayer.ts';
import { hexRgb } from './eaf-raster.ts';

export interface SelectionStyle {
  /** The chart's surface colour (the veil). */
  surface: string;
  /** The selected points' colour. */
  colour: string;
  /** Side of a selected point's square, in CSS pixels. */
  size: number;
}

/**
 * The selection's style on `palette`: the accent colour over a veil in the surface colour, in
 * squares of side `sizes.large` when more than LARGE_THRESHOLD points are drawn, else `sizes.small`.
 */
export function selectionStyle(palette: ChartPalette, drawn: number, sizes: { large: number; small: number } = { large: 4, small: 7 }): SelectionStyle {
  return { surface: palette.surface, colour: palette.accent, size: drawn > LARGE_THRESHOLD ? sizes.large : sizes.small };
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
export function paintSelection(ctx: CanvasRenderingContext2D, t: GridTransform, data: ExplorerData, indices: Int32Array, xi: number, yi: number, style: SelectionStyle, limit = Infinity): number {
  const { image, pixels: buf, x: gx, y: gy, width: gw, height: gh, scale } = gridImage(ctx, t);
  buf.fill(pixel(style.surface, 0.62));
  const colour = pixel(style.colour, 1);
  const side = Math.max(1, Math.round(style.size * scale));
  const half = side / 2;
  const m = data.objectiveCount;
  const f = data.objectives;
  const count = Math.min(indices.length, limit);
  const step = indices.length / count;
  // Few points get round markers (drawn after the veil); many, squares of pixels.
  const round = count <= ROUND_LIMIT && style.size >= 5;
  // Device pixels relative to the grid's corner.
  const ax = t.ax * scale;
  const bx = t.bx * scale - gx - half;
  const ay = t.ay * scale;
  const by = t.by * scale - gy - half;
  for (let k = 0; k < (round ? 0 : count); k++) {
    const base = indices[count === indices.length ? k : Math.floor(k * step)] * m;
    const x0 = Math.round(ax * f[base + xi] + bx);
    const y0 = Math.round(ay * f[base + yi] + by);
    const xa = Math.max(0, x0);
    const xb = Math.min(gw, x0 + side);
    if (xa >= xb) continue;
    for (let y = Math.max(0, y0), yb = Math.min(gh, y0 + side); y < yb; y++) buf.fill(colour, y * gw + xa, y * gw + xb);
  }
  ctx.putImageData(image, gx, gy);
  if (round) paintRound(ctx, t, data, indices, xi, yi, style, count);
  return count;
}

/** Up to this many selected points are drawn as round markers (arcs); beyond, as squares of pixels (arcs would take too long). */
const ROUND_LIMIT = 5000;

/**
 * Round markers with a ring in the surface colour, like the chart's own: every ring first, then
 * every disc, so in a cluster the rings of some do not cut into the discs of others.
 */
function paintRound(ctx: CanvasRenderingContext2D, t: GridTransform, data: ExplorerData, indices: Int32Array, xi: number, yi: number, style: SelectionStyle, count: number): void {
  const m = data.objectiveCount;
  const f = data.objectives;
  ctx.save();
  ctx.beginPath();
  ctx.rect(t.x, t.y, t.width, t.height);
  ctx.clip();
  for (const [r, colour] of [
    [style.size / 2 + 1, style.surface],
    [style.size / 2, style.colour],
  ] as const) {
    ctx.beginPath();
    for (let k = 0; k < count; k++) {
      const base = indices[k] * m;
      const x = t.ax * f[base + xi] + t.bx;
      const y = t.ay * f[base + yi] + t.by;
      ctx.moveTo(x + r, y);
      ctx.arc(x, y, r, 0, 2 * Math.PI);
    }
    ctx.fillStyle = colour;
    ctx.fill();
  }
  ctx.restore();
}
