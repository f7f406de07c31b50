/**
 * The explorer's own point layer: the scatter's and the matrix's points when there are more than
 * LARGE_THRESHOLD of them, written straight from the typed arrays as pixels into an ImageData
 * (one pass, no object per point) on a canvas layer of the chart's (useChartLayer). ECharts
 * keeps the axes, grid, legend, tooltip and zoom, with series that carry no data; a zoom or a
 * change of axis only maps the objectives to pixels again. Hover and click find the point under
 * the cursor here too (nearestPoint), since ECharts has no element for it.
 *
 * Pure functions over Uint32Arrays (one pixel per element, little-endian RGBA), so tests run
 * them without a canvas.
 */
import type { ChartPalette } from '../../../src-shared/charts/palette.ts';
import { groupColour } from './charts/point-series.ts';
import type { ExplorerData } from '../../logic/explore/front-data.ts';
import type { SeriesGroup } from '../../logic/explore/groups.ts';
import { hexRgb } from './eaf-raster.ts';

/** How a group's points are drawn: opaque colour (the series colour at 0.75 over the surface), shape and size in CSS pixels. */
export interface LayerGroup {
  indices: Int32Array;
  colour: number;
  shape: 'square' | 'triangle';
  size: number;
}

/** A linear map from objective values to pixels: px = ax * value + bx, py = ay * value + by. */
export interface PixelMap {
  ax: number;
  bx: number;
  ay: number;
  by: number;
}

/** RGBA bytes as one little-endian Uint32 pixel. */
export function packPixel(r: number, g: number, b: number, a = 255): number {
  return ((a << 24) | (b << 16) | (g << 8) | r) >>> 0;
}

/** The series colour `hex` at `opacity` over the surface colour, opaque (points that overlap do not darken). */
export function blendedPixel(hex: string, surface: string, opacity: number): number {
  const c = hexRgb(hex);
  const s = hexRgb(surface);
  const mix = (k: number) => Math.round(c[k] * opacity + s[k] * (1 - opacity));
  return packPixel(mix(0), mix(1), mix(2));
}

/**
 * The groups the layer draws, in drawing order: the feasible series (in the legend's order),
 * then the infeasible one on top, as triangles and bigger, as ECharts drew them; hidden
 * series are left out. `sizes` are the sides in CSS pixels.
 */
export function layerGroups(
  groups: readonly SeriesGroup[],
  hidden: ReadonlySet<string>,
  palette: ChartPalette,
  sizes: { feasible: number; infeasible: number } = { feasible: 3, infeasible: 5 },
): LayerGroup[] {
  const shown = groups.filter((g) => !hidden.has(g.name));
  return [...shown.filter((g) => g.feasible), ...shown.filter((g) => !g.feasible)].map((g) => ({
    indices: g.indices,
    colour: blendedPixel(groupColour(palette, g), palette.surface, 0.75),
    shape: g.feasible ? 'square' : 'triangle',
    size: g.feasible ? sizes.feasible : sizes.infeasible,
  }));
}

/** A marker as rows of pixels relative to its centre pixel: [dy, dx0, dx1) for each row. */
function stamp(shape: LayerGroup['shape'], side: number): Int32Array {
  const rows: number[] = [];
  const half = Math.floor(side / 2);
  for (let r = 0; r < side; r++) {
    // A triangle pointing up: one pixel wide at the top row, the full side at the bottom.
    const w = shape === 'square' ? side : Math.min(side, (r + 1) | 1);
    const left = -Math.floor(w / 2);
    rows.push(r - half, left, left + w);
  }
  return Int32Array.from(rows);
}

/**
 * Writes the points of `groups` (objectives xi against yi) into `buf`, a `width` x `height`
 * image, through `map` (to pixels of that image; `scale` device pixels per CSS pixel for the
 * marker sizes). Points whose centre falls outside the image are skipped, markers are cut at its
 * edges. Returns how many points were drawn.
 */
export function rasterizePoints(
  buf: Uint32Array,
  width: number,
  height: number,
  map: PixelMap,
  data: ExplorerData,
  xi: number,
  yi: number,
  groups: readonly LayerGroup[],
  scale = 1,
): number {
  const m = data.objectiveCount;
  const f = data.objectives;
  const { ax, bx, ay, by } = map;
  let drawn = 0;
  for (const g of groups) {
    const rows = stamp(g.shape, Math.max(1, Math.round(g.size * scale)));
    const colour = g.colour;
    const indices = g.indices;
    const n = indices.length;
    const nRows = rows.length;
    for (let j = 0; j < n; j++) {
      const base = indices[j] * m;
      const cx = Math.floor(ax * f[base + xi] + bx);
      const cy = Math.floor(ay * f[base + yi] + by);
      if (cx < 0 || cy < 0 || cx >= width || cy >= height) continue;
      drawn++;
      for (let r = 0; r < nRows; r += 3) {
        const y = cy + rows[r];
        if (y < 0 || y >= height) continue;
        const x0 = Math.max(0, cx + rows[r + 1]);
        const x1 = Math.min(width, cx + rows[r + 2]);
        const row = y * width;
        for (let x = x0; x < x1; x++) buf[row + x] = colour;
      }
    }
  }
  return drawn;
}

/**
 * The point of `groups` nearest to (x, y) (pixels through `map`) within `radius` pixels, the one
 * drawn last on a tie (it is on top), or null. One pass over the points: about a millisecond for
 * 100,000 of them.
 */
export function nearestPoint(
  data: ExplorerData,
  xi: number,
  yi: number,
  groups: readonly LayerGroup[],
  map: PixelMap,
  x: number,
  y: number,
  radius: number,
): number | null {
  const m = data.objectiveCount;
  const f = data.objectives;
  const { ax, bx, ay, by } = map;
  let best: number | null = null;
  let bestD = radius * radius;
  for (const g of groups) {
    const indices = g.indices;
    for (let j = 0; j < indices.length; j++) {
      const base = indices[j] * m;
      const dx = ax * f[base + xi] + bx - x;
      if (dx > radius || dx < -radius) continue;
      const dy = ay * f[base + yi] + by - y;
      const d = dx * dx + dy * dy;
      if (d <= bestD) {
        bestD = d;
        best = indices[j];
      }
    }
  }
  return best;
}
