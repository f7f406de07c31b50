import { toValue, type MaybeRefOrGetter, type Ref } from 'vue';
import { graphic } from 'echarts/core';
import { init, themeName, type ECharts, type EChartsCoreOption } from '../charts/echarts.ts';
import { chartPalette, type ColorScheme } from '../../src-shared/charts/palette.ts';
import { quoteSvgFonts } from '../../src-shared/charts/svg.ts';
import { useColorScheme } from './useColorScheme.ts';
import { chartOverlays } from './chartOverlays.ts';
import { dataUrlBlob, downloadBlob } from './download.ts';

export type ChartImageFormat = 'png' | 'svg';

/** PNGs are drawn at twice the chart's CSS size, so they stay sharp on a page or a slide. */
export const PNG_PIXEL_RATIO = 2;

const MAX_NAME_LENGTH = 80;

/** A file name from a chart's label: "Success rate against N" -> "success-rate-against-n.png". */
export function chartFileName(label: string, format: ChartImageFormat): string {
  const slug = label
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, MAX_NAME_LENGTH)
    .replace(/^-+|-+$/g, '');
  return `${slug || 'chart'}.${format}`;
}

/** Whether the chart draws on a canvas (the only renderer that can give a PNG). */
export function drawsOnCanvas(chart: ECharts): boolean {
  return chart.getZr().painter.getType() === 'canvas';
}

/** The chart as shown, as a `data:image/png` URL on the theme's surface, at PNG_PIXEL_RATIO. */
export function chartPng(chart: ECharts, scheme: ColorScheme): string {
  if (!drawsOnCanvas(chart)) throw new Error('this chart is drawn as SVG, without a canvas: export it as SVG');
  return chart.getDataURL({ type: 'png', pixelRatio: PNG_PIXEL_RATIO, backgroundColor: chartPalette(scheme).surface });
}

/**
 * The chart as shown (its current option: legend choices and zoom included), drawn again by
 * ECharts' SVG renderer in a temporary off-screen instance of the same size and theme, on the
 * theme's surface: a standalone SVG document. Layers a view paints over the chart itself (the
 * explorer's selection: chartOverlays) go on top as images, so the SVG shows what the chart
 * shows; the chart below them stays vector.
 */
export function chartSvg(chart: ECharts, scheme: ColorScheme): string {
  return optionSvg(chart.getOption(), { width: chart.getWidth(), height: chart.getHeight(), scheme, overlays: chartOverlays(chart) });
}

/** Above everything the option draws (the explorer's own layer sits at 9000 too). */
const OVERLAY_ZLEVEL = 9000;

/**
 * An option drawn by the SVG renderer off-screen (server-side mode: no element, no layout),
 * with `overlays` (image URLs) over the whole of it.
 */
export function optionSvg(
  option: EChartsCoreOption,
  { width, height, scheme, overlays = [] }: { width: number; height: number; scheme: ColorScheme; overlays?: readonly string[] },
): string {
  const w = Math.max(1, width);
  const h = Math.max(1, height);
  const instance = init(null, themeName(scheme), { renderer: 'svg', ssr: true, width: w, height: h });
  try {
    instance.setOption({ ...option, backgroundColor: chartPalette(scheme).surface, animation: false }, { notMerge: true });
    for (const href of overlays)
      instance.getZr().add(new graphic.Image({ style: { image: href, x: 0, y: 0, width: w, height: h }, silent: true, zlevel: OVERLAY_ZLEVEL }));
    return quoteSvgFonts(instance.renderToSVGString());
  } finally {
    instance.dispose();
  }
}

export interface ChartExport {
  /** Whether a PNG can be made now (a chart on a canvas). */
  canPng(): boolean;
  /** The PNG as a data URL, or null without a chart. */
  png(): string | null;
  /** The SVG document, or null without a chart. */
  svg(): string | null;
  /** Downloads the chart in a format, named from its label; false without a chart. */
  save(format: ChartImageFormat): boolean;
}

/**
 * Export of one chart (the instance `useEChart` owns) as PNG and SVG, downloaded under a name
 * made from its label. `theme` is the scheme the chart is drawn in (default: the page's).
 */
export function useChartExport(
  chart: Readonly<Ref<ECharts | null>>,
  label: MaybeRefOrGetter<string>,
  { theme = useColorScheme() }: { theme?: Readonly<Ref<ColorScheme>> } = {},
): ChartExport {
  const live = () => (chart.value && !chart.value.isDisposed() ? chart.value : null);
  const png = () => {
    const c = live();
    return c ? chartPng(c, theme.value) : null;
  };
  const svg = () => {
    const c = live();
    return c ? chartSvg(c, theme.value) : null;
  };
  return {
    canPng: () => {
      const c = live();
      return c !== null && drawsOnCanvas(c);
    },
    png,
    svg,
    save(format) {
      const name = chartFileName(toValue(label), format);
      if (format === 'png') {
        const url = png();
        if (url === null) return false;
        downloadBlob(dataUrlBlob(url), name);
      } else {
        const text = svg();
        if (text === null) return false;
        downloadBlob(new Blob([text], { type: 'image/svg+xml' }), name);
      }
      return true;
    },
  };
}
