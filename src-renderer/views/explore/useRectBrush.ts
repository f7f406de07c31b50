/**
 * A rectangle brush on a chart's grids, drawn by the view (useChartLayer) rather than by
 * ECharts' brush component: ECharts' brush redraws every series at each move of the mouse (with
 * 100,000 points, a frame each time), this one only the view's own layer. Drag inside a grid to
 * draw a rectangle; on release its region (in data units) is reported. A click that does not
 * hit a point clears it. The rectangle is kept in data units, so zooming keeps it in place.
 */
import { onScopeDispose, shallowRef, watch, type Ref } from 'vue';
import type { ECharts } from '../../charts/echarts.ts';
import { useWindowEvent } from '../../composables/useWindowEvent.ts';
import { gridTransform, type GridTransform } from './useChartLayer.ts';

/** A brushed rectangle: the grid it was drawn in and its corners in data units. */
export interface BrushRect {
  grid: number;
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

/** Drags shorter than this (pixels, either way) are clicks. */
const CLICK_SLOP = 3;

export interface RectBrushOptions {
  /** Whether dragging draws a rectangle now (off while the chart pans). */
  enabled: Readonly<Ref<boolean>>;
  /** How many grids the chart has (each one can be brushed). */
  grids: () => number;
  /** A rectangle was released (data units, ends in any order). */
  onBrush(rect: BrushRect): void;
  /** A click on nothing: clear. */
  onClear(): void;
  /** Whether a point the view draws itself (the point layer, not an element of ECharts') is at (x, y): a click there is no click on nothing. */
  hitsPoint?: (x: number, y: number) => boolean;
}

function gridAt(c: ECharts, count: number, x: number, y: number): { index: number; t: GridTransform } | null {
  for (let index = 0; index < count; index++) {
    const t = gridTransform(c, index);
    if (t && x >= t.x && x <= t.x + t.width && y >= t.y && y <= t.y + t.height) return { index, t };
  }
  return null;
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

interface ZrEvent {
  offsetX: number;
  offsetY: number;
  target?: unknown;
}

export function useRectBrush(
  chart: Readonly<Ref<ECharts | null>>,
  options: RectBrushOptions,
): { rect: Readonly<Ref<BrushRect | null>>; clear(): void; dragging(): boolean } {
  /** The rectangle shown: while dragging and after, until cleared. */
  const rect = shallowRef<BrushRect | null>(null);
  let drag: { index: number; t: GridTransform; x: number; y: number; moved: boolean } | null = null;

  function toData(t: GridTransform, x0: number, y0: number, x1: number, y1: number): Omit<BrushRect, 'grid'> {
    return { x0: (x0 - t.bx) / t.ax, x1: (x1 - t.bx) / t.ax, y0: (y0 - t.by) / t.ay, y1: (y1 - t.by) / t.ay };
  }
  function update(e: ZrEvent): void {
    if (!drag) return;
    const { t } = drag;
    const x = clamp(e.offsetX, t.x, t.x + t.width);
    const y = clamp(e.offsetY, t.y, t.y + t.height);
    if (!drag.moved && Math.abs(x - drag.x) < CLICK_SLOP && Math.abs(y - drag.y) < CLICK_SLOP) return;
    if (!drag.moved) chart.value?.dispatchAction({ type: 'hideTip' });
    drag.moved = true;
    rect.value = { grid: drag.index, ...toData(t, drag.x, drag.y, x, y) };
  }
  function finish(e: ZrEvent | null): void {
    if (!drag) return;
    const ended = drag;
    if (e) update(e);
    drag = null;
    if (ended.moved && rect.value) options.onBrush(rect.value);
    else if (e && !e.target && !options.hitsPoint?.(e.offsetX, e.offsetY)) {
      rect.value = null;
      options.onClear();
    }
  }
  const handlers = {
    mousedown: (e: ZrEvent) => {
      const c = chart.value;
      if (!c || !options.enabled.value) return;
      const hit = gridAt(c, options.grids(), e.offsetX, e.offsetY);
      drag = hit ? { index: hit.index, t: hit.t, x: e.offsetX, y: e.offsetY, moved: false } : null;
    },
    mousemove: (e: ZrEvent) => update(e),
    mouseup: (e: ZrEvent) => finish(e),
  };
  // A release outside the chart ends the drag where the mouse left it.
  useWindowEvent('mouseup', () => finish(null));

  watch(
    chart,
    (c, old) => {
      if (old && !old.isDisposed()) for (const [name, h] of Object.entries(handlers)) old.getZr().off(name, h as never);
      if (c) for (const [name, h] of Object.entries(handlers)) c.getZr().on(name, h as never);
    },
    { immediate: true, flush: 'sync' },
  );
  onScopeDispose(() => {
    const c = chart.value;
    if (c && !c.isDisposed()) for (const [name, h] of Object.entries(handlers)) c.getZr().off(name, h as never);
  });
  return {
    rect,
    dragging: () => drag?.moved === true,
    clear() {
      drag = null;
      rect.value = null;
    },
  };
}

/** Draws a brushed rectangle (data units) on the grid of `t`. */
export function paintBrushRect(ctx: CanvasRenderingContext2D, t: GridTransform, r: BrushRect, colour: string): void {
  const x0 = t.ax * r.x0 + t.bx;
  const x1 = t.ax * r.x1 + t.bx;
  const y0 = t.ay * r.y0 + t.by;
  const y1 = t.ay * r.y1 + t.by;
  ctx.save();
  ctx.beginPath();
  ctx.rect(t.x, t.y, t.width, t.height);
  ctx.clip();
  ctx.globalAlpha = 0.1;
  ctx.fillStyle = colour;
  // Under what the layer holds already: the selected points keep their own colours inside the rectangle.
  ctx.globalCompositeOperation = 'destination-over';
  ctx.fillRect(Math.min(x0, x1), Math.min(y0, y1), Math.abs(x1 - x0), Math.abs(y1 - y0));
  ctx.globalCompositeOperation = 'source-over';
  ctx.globalAlpha = 1;
  ctx.strokeStyle = colour;
  ctx.lineWidth = 1;
  ctx.setLineDash([4, 3]);
  ctx.strokeRect(Math.round(Math.min(x0, x1)) + 0.5, Math.round(Math.min(y0, y1)) + 0.5, Math.round(Math.abs(x1 - x0)), Math.round(Math.abs(y1 - y0)));
  ctx.restore();
}
