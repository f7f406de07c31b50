/**
 * Layers a view paints over a chart by itself (useChartLayer: the explorer's selection, the
 * 3-D projection), which the chart's option does not hold. The PNG export has them already (it
 * is the canvas); the SVG export, drawn again from the option, asks for them here and puts each
 * in as an image over the whole chart.
 */
import type { ECharts } from '../charts/echarts.ts';

/** The layer as a PNG data URL of the chart's size, or null when there is nothing to show. */
export type OverlaySource = () => string | null;

const sources = new WeakMap<ECharts, Set<OverlaySource>>();

/** Registers a layer of `chart`; the function returned removes it. */
export function addChartOverlay(chart: ECharts, source: OverlaySource): () => void {
  let set = sources.get(chart);
  if (!set) sources.set(chart, (set = new Set()));
  set.add(source);
  return () => {
    set.delete(source);
  };
}

/** The data URLs of `chart`'s layers, in the order they were added. */
export function chartOverlays(chart: ECharts): string[] {
  const out: string[] = [];
  for (const source of sources.get(chart) ?? []) {
    const href = source();
    if (href) out.push(href);
  }
  return out;
}
