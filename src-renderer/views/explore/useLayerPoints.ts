/**
 * A chart's points drawn on the explorer's point layer (point-layer.ts) instead of by ECharts,
 * in one or more of its grids, with what ECharts did for them: the tooltip of the point under
 * the mouse (its option has `triggerOn: 'none'`; the view shows it, and the reference markers'
 * own tooltips), and a click on a point. Off (nothing drawn, ECharts' own tooltip) while
 * `groups` is null.
 */
import { onScopeDispose, watch, type Ref } from 'vue';
import type { ECharts } from '../../charts/echarts.ts';
import { pointTooltip } from './charts/point-series.ts';
import type { ExplorerData } from '../../logic/explore/front-data.ts';
import { nearestPoint, rasterizePoints, type LayerGroup } from './point-layer.ts';
import { gridImage, gridTransform, POINT_LAYER_ZLEVEL, useChartLayer, type GridTransform } from './useChartLayer.ts';

/** A grid of the chart and the objectives on its axes. */
export interface LayerPanel {
  xi: number;
  yi: number;
}

export interface LayerPointsOptions {
  data: Readonly<Ref<ExplorerData | null>>;
  /** What to draw, or null when ECharts draws the points. */
  groups: Readonly<Ref<readonly LayerGroup[] | null>>;
  /** Grid k of the chart shows panels[k]. */
  panels: Readonly<Ref<readonly LayerPanel[]>>;
  /** A click on point i. */
  onOpen(i: number): void;
  /** While true (a brush being dragged), hover shows nothing. */
  busy?: () => boolean;
}

/** How far from a point's centre the mouse still finds it, CSS pixels. */
const HIT_RADIUS = 5;

interface ZrEvent {
  offsetX: number;
  offsetY: number;
  target?: unknown;
}

/** Paints the groups' points of every panel on the canvas (in CSS pixels, scaled by its transform). */
export function paintPoints(ctx: CanvasRenderingContext2D, t: GridTransform, data: ExplorerData, panel: LayerPanel, groups: readonly LayerGroup[]): void {
  const g = gridImage(ctx, t);
  rasterizePoints(
    g.pixels,
    g.width,
    g.height,
    { ax: t.ax * g.scale, bx: t.bx * g.scale - g.x, ay: t.ay * g.scale, by: t.by * g.scale - g.y },
    data,
    panel.xi,
    panel.yi,
    groups,
    g.scale,
  );
  ctx.putImageData(g.image, g.x, g.y);
}

export function useLayerPoints(chart: Readonly<Ref<ECharts | null>>, options: LayerPointsOptions): { pointAt(x: number, y: number): number | null } {
  const { data, groups, panels } = options;
  useChartLayer(
    chart,
    (ctx, c) => {
      const d = data.value;
      const g = groups.value;
      if (!d || !g) return;
      panels.value.forEach((panel, k) => {
        const t = gridTransform(c, k);
        if (t) paintPoints(ctx, t, d, panel, g);
      });
    },
    [data, groups, panels],
    { zlevel: POINT_LAYER_ZLEVEL },
  );

  /** The point under (x, y) in CSS pixels of the chart, or null. */
  function pointAt(x: number, y: number): number | null {
    const c = chart.value;
    const d = data.value;
    const g = groups.value;
    if (!c || c.isDisposed() || !d || !g) return null;
    for (let k = 0; k < panels.value.length; k++) {
      const t = gridTransform(c, k);
      if (!t || x < t.x - HIT_RADIUS || x > t.x + t.width + HIT_RADIUS || y < t.y - HIT_RADIUS || y > t.y + t.height + HIT_RADIUS) continue;
      return nearestPoint(d, panels.value[k].xi, panels.value[k].yi, g, t, x, y, HIT_RADIUS);
    }
    return null;
  }

  let tipShown = false;
  const handlers = {
    mousemove: (e: ZrEvent) => {
      const c = chart.value;
      const d = data.value;
      // Over an element of ECharts' (a reference marker, the legend): its own 'mouseover' below.
      if (!c || !d || !groups.value || e.target) return;
      const i = options.busy?.() ? null : pointAt(e.offsetX, e.offsetY);
      if (i !== null) {
        const html = pointTooltip(d, i);
        c.dispatchAction({ type: 'showTip', x: e.offsetX, y: e.offsetY, tooltip: { content: html, formatter: html, encodeHTMLContent: false } });
        tipShown = true;
      } else if (tipShown) {
        c.dispatchAction({ type: 'hideTip' });
        tipShown = false;
      }
    },
    globalout: () => {
      if (tipShown) chart.value?.dispatchAction({ type: 'hideTip' });
      tipShown = false;
    },
    click: (e: ZrEvent) => {
      if (!groups.value || e.target) return;
      const i = pointAt(e.offsetX, e.offsetY);
      if (i !== null) options.onOpen(i);
    },
  };
  // The series' own elements (the reference markers) keep their tooltips.
  const onSeriesOver = (params: unknown) => {
    const p = params as { componentType?: string; seriesIndex?: number; dataIndex?: number };
    if (!groups.value || p.componentType !== 'series') return;
    chart.value?.dispatchAction({ type: 'showTip', seriesIndex: p.seriesIndex, dataIndex: p.dataIndex });
    tipShown = true;
  };
  watch(
    chart,
    (c, old) => {
      if (old && !old.isDisposed()) {
        for (const [name, h] of Object.entries(handlers)) old.getZr().off(name, h as never);
        old.off('mouseover', onSeriesOver);
      }
      if (c) {
        for (const [name, h] of Object.entries(handlers)) c.getZr().on(name, h as never);
        c.on('mouseover', onSeriesOver);
      }
    },
    { immediate: true, flush: 'sync' },
  );
  onScopeDispose(() => {
    const c = chart.value;
    if (!c || c.isDisposed()) return;
    for (const [name, h] of Object.entries(handlers)) c.getZr().off(name, h as never);
    c.off('mouseover', onSeriesOver);
  });
  return { pointAt };
}
