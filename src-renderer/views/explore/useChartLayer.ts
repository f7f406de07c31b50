/**
 * What the explorer's charts need of their ECharts instance beyond an option: events that
 * EChart.vue does not forward (finished, brush, brushEnd, axisareaselected), bound to every
 * instance it creates (a theme switch makes a new one), and a layer drawn by the view itself.
 *
 * The layer is one canvas, put into the chart's own zrender scene as an image on a layer of its
 * own: redrawing it repaints that layer only, never the 100,000 points below, and the chart's
 * PNG export (getDataURL) includes it; the SVG export, drawn again from the option, gets it as
 * an image (composables/chartOverlays.ts). ECharts 6 gives each large series a zlevel of its
 * own (1, 2, ...) and the components the next one, so the layers take zlevels far above
 * those (the points' layer below the selection's). A layer is redrawn when its inputs change,
 * and when the chart's layout moved (zoom, pan, new axes, resize): from ECharts' 'afterupdate'
 * step, after the axes are laid out and before the frame is painted, so the layer moves in the
 * same frame as the axes.
 */
import type { PlotProbe } from '../../../src-shared/charts/plot-probe.ts';
import { computed, onScopeDispose, useTemplateRef, watch, type ComputedRef, type Ref, type WatchSource } from 'vue';
import { graphic, registerUpdateLifecycle } from 'echarts/core';
import type { ECharts } from '../../charts/echarts.ts';
import type EChart from '../../components/EChart.vue';
import { addChartOverlay } from '../../composables/chartOverlays.ts';

export type ChartHandlers = Readonly<Record<string, (params: unknown) => void>>;

/** Binds `handlers` to the chart now and to every instance that replaces it. */
export function useChartEvents(chart: Readonly<Ref<ECharts | null>>, handlers: ChartHandlers): void {
  watch(
    chart,
    (c) => {
      if (!c) return;
      for (const [event, handler] of Object.entries(handlers)) c.on(event, handler);
    },
    { immediate: true, flush: 'sync' },
  );
}

/** A grid's plot rectangle in CSS pixels and the linear map from data to pixels on it. */
export interface GridTransform {
  x: number;
  y: number;
  width: number;
  height: number;
  /** px = ax * value + bx; py = ay * value + by. */
  ax: number;
  bx: number;
  ay: number;
  by: number;
}

/** An ImageData over grid `t` in device pixels, for a canvas whose transform scales CSS pixels. */
export interface GridImage {
  image: ImageData;
  /** The image's pixels, one 32-bit RGBA word each, row by row. */
  pixels: Uint32Array;
  /** The grid's corner and size in device pixels, and device pixels per CSS pixel. */
  x: number;
  y: number;
  width: number;
  height: number;
  scale: number;
}

/** A blank image of grid `t` on `ctx`, to fill and put back at (x, y). */
export function gridImage(ctx: CanvasRenderingContext2D, t: GridTransform): GridImage {
  const scale = ctx.getTransform().a || 1;
  const width = Math.max(1, Math.round(t.width * scale));
  const height = Math.max(1, Math.round(t.height * scale));
  const image = ctx.createImageData(width, height);
  return { image, pixels: new Uint32Array(image.data.buffer), x: Math.round(t.x * scale), y: Math.round(t.y * scale), width, height, scale };
}

interface GridModelLike {
  coordinateSystem?: { getRect(): { x: number; y: number; width: number; height: number } };
}
interface ModelLike {
  getComponent(type: string, index: number): GridModelLike | undefined;
}

/** The transform of grid `index` (its x and y axes share the index), or null before layout. */
export function gridTransform(chart: ECharts, index: number): GridTransform | null {
  if (chart.isDisposed()) return null;
  const model = (chart as unknown as { getModel(): ModelLike | undefined }).getModel();
  const rect = model?.getComponent('grid', index)?.coordinateSystem?.getRect();
  if (!rect) return null;
  const finder = { xAxisIndex: index, yAxisIndex: index };
  const p0 = chart.convertToPixel(finder, [0, 0]) as number[] | undefined;
  const p1 = chart.convertToPixel(finder, [1, 1]) as number[] | undefined;
  if (!p0 || !p1 || !p0.every(Number.isFinite) || !p1.every(Number.isFinite)) return null;
  return { x: rect.x, y: rect.y, width: rect.width, height: rect.height, ax: p1[0] - p0[0], bx: p0[0], ay: p1[1] - p0[1], by: p0[1] };
}

interface AxisModelLike {
  axis?: { scale?: { getExtent(): [number, number] } };
}

/** The part of axis `axis` of grid `index` the chart shows now (after zoom and pan), or null before layout. */
export function shownExtent(chart: ECharts | null, axis: 'x' | 'y', index = 0): [number, number] | null {
  if (!chart || chart.isDisposed()) return null;
  const model = (chart as unknown as { getModel(): { getComponent(type: string, index: number): AxisModelLike | undefined } | undefined }).getModel();
  return model?.getComponent(`${axis}Axis`, index)?.axis?.scale?.getExtent() ?? null;
}

/** A key that changes when a transform does. */
export const transformKey = (t: GridTransform | null) => (t ? [t.x, t.y, t.width, t.height, t.ax, t.bx, t.ay, t.by].map((v) => v.toFixed(4)).join(',') : '');

export interface ChartLayer {
  /** Draws the layer again now. */
  redraw(): void;
}

/** Above every zlevel ECharts allocates (one per large series and one for the components), below zrender's hover layer (100000). */
export const LAYER_ZLEVEL = 9000;
/** The explorer's point layer: under the selection's layer (LAYER_ZLEVEL), over ECharts' own. */
export const POINT_LAYER_ZLEVEL = 8000;

/** Hooks run after each update of a chart (keyed by its zrender instance), before it is painted. */
const updateHooks = new WeakMap<object, Set<() => void>>();
let lifecycleRegistered = false;

/** Runs `hook` after every update of `chart` (its layout is then current), before the frame is painted; returns the function that stops it. */
function onChartUpdate(chart: ECharts, hook: () => void): () => void {
  if (!lifecycleRegistered) {
    registerUpdateLifecycle('afterupdate', (_model: unknown, api: { getZr(): object }) => {
      for (const h of updateHooks.get(api.getZr()) ?? []) h();
    });
    lifecycleRegistered = true;
  }
  const zr = chart.getZr();
  let hooks = updateHooks.get(zr);
  if (!hooks) updateHooks.set(zr, (hooks = new Set()));
  hooks.add(hook);
  return () => hooks.delete(hook);
}

/** A key that changes when the chart's size or any grid's layout does. */
function layoutKey(c: ECharts): string {
  const parts: string[] = [String(c.getWidth()), String(c.getHeight())];
  for (let i = 0; ; i++) {
    const t = gridTransform(c, i);
    if (!t) break;
    parts.push(transformKey(t));
  }
  return parts.join('|');
}

/** A layer over the chart at `zlevel`, painted by `paint` in CSS-pixel coordinates, redrawn when `inputs` change. */
export function useChartLayer(
  chart: Readonly<Ref<ECharts | null>>,
  paint: (ctx: CanvasRenderingContext2D, chart: ECharts) => void,
  inputs: WatchSource[],
  { zlevel = LAYER_ZLEVEL }: { zlevel?: number } = {},
): ChartLayer {
  const canvas = document.createElement('canvas');
  let image: InstanceType<typeof graphic.Image> | null = null;
  let owner: ECharts | null = null;
  let drawnLayout = '';
  let removeOverlay: (() => void) | null = null;
  let removeHook: (() => void) | null = null;

  /** The layer for the chart's SVG export: a PNG, or null while nothing is drawn on it. */
  function overlay(): string | null {
    const ctx = canvas.getContext('2d');
    if (!ctx || canvas.width === 0 || canvas.height === 0) return null;
    const px = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
    for (let i = 3; i < px.length; i += 4) if (px[i] !== 0) return canvas.toDataURL('image/png');
    return null;
  }

  function redraw(): void {
    const c = chart.value;
    if (!c || c.isDisposed()) return;
    if (owner !== c || !image) {
      image = new graphic.Image({ style: { image: canvas, x: 0, y: 0, width: 1, height: 1 }, silent: true, zlevel });
      c.getZr().add(image);
      removeOverlay?.();
      removeOverlay = addChartOverlay(c, overlay);
      removeHook?.();
      removeHook = onChartUpdate(c, () => {
        if (owner === c && !c.isDisposed() && layoutKey(c) !== drawnLayout) redraw();
      });
      owner = c;
    }
    drawnLayout = layoutKey(c);
    paintedInputs = read();
    const width = c.getWidth();
    const height = c.getHeight();
    const dpr = window.devicePixelRatio || 1;
    const w = Math.max(1, Math.round(width * dpr));
    const h = Math.max(1, Math.round(height * dpr));
    if (canvas.width !== w || canvas.height !== h) {
      canvas.width = w;
      canvas.height = h;
    }
    const ctx = canvas.getContext('2d');
    if (!ctx) return;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, w, h);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    paint(ctx, c);
    image.setStyle({ image: canvas, x: 0, y: 0, width, height });
    image.markRedraw();
  }

  // A new chart gets the layer (and the hook) at once, so its first setOption paints it too.
  watch(
    chart,
    (c) => {
      if (c && !c.isDisposed() && owner !== c) redraw();
    },
    { flush: 'sync' },
  );
  // Once per change of the inputs: a change the chart's own update already painted (a new option
  // with new axes is laid out, and so drawn, before this runs) is not painted again.
  const read = () => inputs.map((src) => (typeof src === 'function' ? src() : src.value));
  let paintedInputs: unknown[] = [];
  watch(
    [chart, ...inputs],
    () => {
      const c = chart.value;
      if (c && owner === c && layoutKey(c) === drawnLayout && read().every((v, k) => v === paintedInputs[k])) return;
      redraw();
    },
    { flush: 'post' },
  );
  onScopeDispose(() => {
    if (image && owner && !owner.isDisposed()) owner.getZr().remove(image);
    removeOverlay?.();
    removeHook?.();
  });
  return { redraw };
}

/**
 * Marks on `el` what the chart has drawn, for tests and the benchmark: `data-option` counts the
 * options given, `data-rendered` the option the chart last finished drawing, and `data-plot` the
 * first grid's rectangle and axis ranges (JSON: x, y, width, height, x0, x1, y0, y1).
 */
export function useRenderProbe(chart: Readonly<Ref<ECharts | null>>, option: Readonly<Ref<unknown>>, el: Readonly<Ref<HTMLElement | null>>): void {
  let given = 0;
  watch(
    option,
    (o) => {
      if (o) given++;
    },
    { immediate: true, flush: 'sync' },
  );
  watch([el, option], () => el.value?.setAttribute('data-option', String(given)), { immediate: true, flush: 'post' });
  useChartEvents(chart, {
    finished: () => {
      const c = chart.value;
      const target = el.value;
      if (!c || !target) return;
      target.dataset.rendered = String(given);
      const t = gridTransform(c, 0);
      if (t) {
        const x0 = (t.x - t.bx) / t.ax;
        const x1 = (t.x + t.width - t.bx) / t.ax;
        const y0 = (t.y + t.height - t.by) / t.ay;
        const y1 = (t.y - t.by) / t.ay;
        const plot: PlotProbe = { x: t.x, y: t.y, width: t.width, height: t.height, x0, x1, y0, y1 };
        target.dataset.plot = JSON.stringify(plot);
      }
    },
  });
}

interface LargePathLike {
  symbolProxy?: unknown;
  dirtyShape(): void;
}
interface PainterLike {
  getRenderedCanvas?(opts?: unknown): unknown;
}

/**
 * Keeps ECharts' large scatter series in the chart's PNG export. Below 4 pixels a large series
 * draws its points with fillRect on the canvas it last built its path for; an image at another
 * pixel ratio (getDataURL, as the export asks for twice the size) does not build the path again,
 * so the points went to the live canvas instead and the PNG showed none. Marking those paths'
 * shapes dirty around the export makes them draw into the image, then again into the chart.
 */
export function useLargeExport(chart: Readonly<Ref<ECharts | null>>): void {
  watch(
    chart,
    (c) => {
      if (!c) return;
      const zr = c.getZr() as unknown as { storage: { getDisplayList(update: boolean): LargePathLike[] }; painter: PainterLike };
      const painter = zr.painter;
      const original = painter.getRenderedCanvas?.bind(painter);
      if (!original) return;
      const dirtyLargePaths = () => {
        for (const el of zr.storage.getDisplayList(true)) if (el.symbolProxy) el.dirtyShape();
      };
      painter.getRenderedCanvas = (opts?: unknown) => {
        dirtyLargePaths();
        try {
          return original(opts);
        } finally {
          dirtyLargePaths();
          c.getZr().refresh();
        }
      };
    },
    { immediate: true, flush: 'sync' },
  );
}

/**
 * A panel's chart, from its template's `ref="chart"` (an EChart) and `ref="probe"` (the element
 * useRenderProbe marks): the instance, with the render probe bound to it and `option`, and with
 * useLargeExport if `largeExport`. Call it from a component's setup.
 */
export function usePanelChart(option: Readonly<Ref<unknown>>, { largeExport = false }: { largeExport?: boolean } = {}): { chart: ComputedRef<ECharts | null> } {
  const chartComponent = useTemplateRef<InstanceType<typeof EChart>>('chart');
  const chart = computed(() => (chartComponent.value?.chart ?? null) as ECharts | null);
  const probe = useTemplateRef<HTMLElement>('probe');
  useRenderProbe(chart, option, probe);
  if (largeExport) useLargeExport(chart);
  return { chart };
}
