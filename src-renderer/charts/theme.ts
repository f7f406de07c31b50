/**
 * The app's ECharts theme, built from a chart palette (src-shared/charts/palette.ts): fonts,
 * series colours, axes, grid, legend, tooltip and per-series defaults. Everything a chart
 * option would otherwise repeat lives here, so option builders carry only data and what is
 * particular to their chart. Pure data: registered once in charts/echarts.ts.
 */
import { CHART_FONT, type ChartPalette, type ColorScheme } from '../../src-shared/charts/palette.ts';

/** The name a scheme's theme is registered under. */
export const themeName = (scheme: ColorScheme): string => `saikoro-${scheme}`;

/**
 * Default room around the plot for a legend (top) and axis labels and names: the grid shrinks
 * until labels and names fit inside this box (ECharts 6 outer bounds), so no chart needs
 * pixel margins tuned to its labels, and a legend never lands on an axis name.
 */
export const GRID = { left: 8, right: 12, top: 34, bottom: 6 } as const;
/** The grid's top when a chart has no legend. */
export const GRID_TOP_NO_LEGEND = 12;

/** The font size of axis labels and names. */
const AXIS_FONT = 11;
/**
 * The height ECharts gives an axis label or name when it keeps names clear of labels
 * (nameMoveOverlap). Left to itself it takes about the font size, while a browser lays a line
 * of text out by the font's ascent and descent (13 px at 11 px in DejaVu Sans), so an axis name
 * put just clear of the labels by ECharts' measure touched them on screen ("f1" over "100").
 * Half the font size more than the font size holds the line box of any usual font.
 */
export const AXIS_TEXT_LINE_HEIGHT = Math.ceil(AXIS_FONT * 1.5);

export function chartTheme(p: ChartPalette): Record<string, unknown> {
  const axisName = { color: p.muted, fontSize: AXIS_FONT, lineHeight: AXIS_TEXT_LINE_HEIGHT };
  const valueAxis = {
    axisLine: { lineStyle: { color: p.axis } },
    axisTick: { lineStyle: { color: p.axis } },
    axisLabel: { color: p.muted, fontSize: AXIS_FONT, lineHeight: AXIS_TEXT_LINE_HEIGHT },
    splitLine: { lineStyle: { color: p.grid } },
    nameTextStyle: axisName,
    // Names beside the axis, turned along it, pushed clear of the labels.
    nameLocation: 'middle',
    nameGap: 8,
    nameMoveOverlap: true,
  };
  return {
    // Charts follow live data; animating every update would only lag behind it.
    animation: false,
    color: [...p.series],
    backgroundColor: 'transparent',
    textStyle: { fontFamily: CHART_FONT, color: p.text },
    title: { textStyle: { fontSize: 12, fontWeight: 600, color: p.text }, subtextStyle: { color: p.muted } },
    grid: { ...GRID, outerBoundsMode: 'same', outerBoundsContain: 'all' },
    legend: { top: 4, itemWidth: 14, itemHeight: 10, itemGap: 14, textStyle: { color: p.text, fontSize: 12 }, inactiveColor: p.axis },
    tooltip: {
      backgroundColor: p.surface,
      borderColor: p.grid,
      borderWidth: 1,
      textStyle: { color: p.text, fontFamily: CHART_FONT, fontSize: 12 },
      extraCssText: `box-shadow: 0 4px 16px rgba(15, 23, 42, ${p.name === 'light' ? 0.12 : 0.5}); border-radius: 8px;`,
    },
    categoryAxis: {
      axisLine: { lineStyle: { color: p.axis } },
      axisTick: { show: false },
      axisLabel: { color: p.text, fontSize: AXIS_FONT, lineHeight: AXIS_TEXT_LINE_HEIGHT },
      splitLine: { show: false },
      nameTextStyle: axisName,
      nameLocation: 'middle',
      nameGap: 8,
      nameMoveOverlap: true,
    },
    valueAxis,
    logAxis: valueAxis,
    timeAxis: valueAxis,
    // Filled points: ECharts fills hollow ones with white, whatever the theme.
    line: { symbol: 'circle', symbolSize: 5, lineStyle: { width: 2 }, itemStyle: { borderColor: p.surface, borderWidth: 1 } },
    bar: { itemStyle: { borderRadius: [3, 3, 0, 0] } },
    // A ring in the surface colour keeps overlapping markers apart.
    scatter: { itemStyle: { borderColor: p.surface, borderWidth: 1 } },
    // Marker labels sit on the plot: no halo (ECharts draws a light one, wrong on a dark surface).
    markLine: { label: { color: p.muted, fontSize: 11, textBorderWidth: 0 } },
  };
}
