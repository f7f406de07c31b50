/** The attainment chart's option (M = 2): one solver's best, median and worst attainment surfaces over its points. */
import type { EChartsCoreOption } from 'echarts/core';
import { LIGHT_PALETTE, seriesColor, type ChartPalette } from '../../../../src-shared/charts/palette.ts';
import type { AttainmentSurface } from '../../../../src-shared/metrics/attainment.ts';
import { formatNumber } from '../../../logic/dice/labels.ts';
import { escapeHtml, LARGE_THRESHOLD } from './point-series.ts';
import { boundedLabels, boundsOf, surfaceLine } from './surfaces.ts';

export interface AttainmentInput {
  /** The solver's label, its runs' points (faint), and its best, median and worst surfaces. */
  solver: string;
  colour: number;
  points: readonly (readonly number[])[];
  surfaces: { best: AttainmentSurface; median: AttainmentSurface; worst: AttainmentSurface };
  runs: number;
  names: readonly string[];
  palette?: ChartPalette;
}

/** M = 2: the best, median and worst attainment surfaces of one solver over its runs, as step lines over its points. */
export function attainmentOption({ solver, colour, points, surfaces, runs, names, palette = LIGHT_PALETTE }: AttainmentInput): EChartsCoreOption | null {
  const bounds = boundsOf(points);
  if (!bounds) return null;
  const c = seriesColor(palette, colour);
  const line = (name: string, s: AttainmentSurface, style: Record<string, unknown>) => ({
    name: `${name} (${s.level}/${runs})`,
    type: 'line',
    step: 'end',
    showSymbol: false,
    data: surfaceLine(s.points, bounds),
    lineStyle: { color: c, ...style },
    itemStyle: { color: c },
    z: 3,
  });
  return {
    legend: { type: 'scroll', left: 8, right: 36 },
    tooltip: {
      trigger: 'item',
      formatter: (p: { seriesName: string; value: number[] }) => `${escapeHtml(p.seriesName)}<br>(${formatNumber(p.value[0])}, ${formatNumber(p.value[1])})`,
    },
    xAxis: { type: 'value', name: names[0], min: bounds.x0, max: bounds.x1, axisLabel: boundedLabels },
    yAxis: { type: 'value', name: names[1], min: bounds.y0, max: bounds.y1, axisLabel: boundedLabels },
    series: [
      {
        name: 'points',
        type: 'scatter',
        data: points.map((p) => [p[0], p[1]]),
        symbolSize: points.length > LARGE_THRESHOLD ? 3 : 5,
        large: points.length > LARGE_THRESHOLD,
        itemStyle: { color: c, opacity: 0.5, borderWidth: 0 },
        z: 1,
      },
      line('best', surfaces.best, { width: 1.5 }),
      line('median', surfaces.median, { width: 2.5 }),
      line('worst', surfaces.worst, { width: 1.5, type: 'dashed' }),
    ],
  };
}
