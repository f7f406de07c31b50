/**
 * The difference of two EAFs drawn as pictures: eafDifference gives disjoint rectangles (often
 * hundreds of thousands of them), which are sampled on a grid of cells (the value at each cell's
 * centre), then coloured into two RGBA images, one for each sign. Pure: the view turns the
 * pixels into an image URL.
 */
import type { EafRectangle } from '../../../src-shared/metrics/attainment.ts';
import type { Bounds2 } from './charts/surfaces.ts';

export interface Raster {
  width: number;
  height: number;
  /** alpha_A - alpha_B at each cell's centre, row-major, row 0 at the top (largest f2). */
  values: Float32Array;
}

/**
 * Samples the rectangles at the centres of a width × height grid over the bounds. The
 * rectangles are disjoint, so every cell is written at most once: O(rectangles + cells).
 */
export function rasterizeDifference(rectangles: readonly EafRectangle[], bounds: Bounds2, width: number, height: number): Raster {
  const values = new Float32Array(width * height);
  const dx = (bounds.x1 - bounds.x0) / width;
  const dy = (bounds.y1 - bounds.y0) / height;
  // The first cell whose centre is at or past v: centre_c = x0 + (c + 0.5) dx >= v.
  const firstX = (v: number) => Math.max(0, Math.min(width, Math.ceil((v - bounds.x0) / dx - 0.5)));
  const firstY = (v: number) => Math.max(0, Math.min(height, Math.ceil((v - bounds.y0) / dy - 0.5)));
  for (const r of rectangles) {
    const c0 = firstX(r.x0);
    const c1 = r.x1 === Infinity ? width : firstX(r.x1);
    const j0 = firstY(r.y0);
    const j1 = r.y1 === Infinity ? height : firstY(r.y1);
    for (let j = j0; j < j1; j++) {
      const row = (height - 1 - j) * width;
      for (let c = c0; c < c1; c++) values[row + c] = r.value;
    }
  }
  return { width, height, values };
}

/** A palette colour "#rrggbb" (or "#rgb") as [r, g, b]. */
export function hexRgb(hex: string): [number, number, number] {
  const h = hex.replace('#', '');
  const full = h.length === 3 ? [...h].map((c) => c + c).join('') : h;
  return [parseInt(full.slice(0, 2), 16), parseInt(full.slice(2, 4), 16), parseInt(full.slice(4, 6), 16)];
}

/**
 * RGBA pixels of one sign of the raster (sign +1: where A attains more often; -1: where B does),
 * in the colour given, with opacity proportional to the size of the difference (a difference
 * of 1, every run of one and none of the other, is opaque).
 */
export function signPixels(raster: Raster, sign: 1 | -1, colour: string): Uint8ClampedArray<ArrayBuffer> {
  const [r, g, b] = hexRgb(colour);
  const out = new Uint8ClampedArray(raster.width * raster.height * 4);
  for (let i = 0; i < raster.values.length; i++) {
    const v = raster.values[i] * sign;
    if (v <= 0) continue;
    out[4 * i] = r;
    out[4 * i + 1] = g;
    out[4 * i + 2] = b;
    out[4 * i + 3] = Math.round(255 * Math.min(1, 0.12 + 0.88 * v));
  }
  return out;
}
