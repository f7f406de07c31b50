/** The EAF difference's option (M = 2): where one solver attains more often than the other, two panels. */
import type { EChartsCoreOption } from 'echarts/core';
import { LIGHT_PALETTE, seriesColor, type ChartPalette } from '../../../../src-shared/charts/palette.ts';
import type { Point2 } from '../../../../src-shared/metrics/attainment.ts';
import { boundedLabels, surfaceLine, type Bounds2 } from './surfaces.ts';

export interface EafDifferenceInput {
  nameA: string;
  nameB: string;
  colourA: number;
  colourB: number;
  /** The two rasters as image URLs (PNG data URLs), covering `bounds`, row 0 at the top. */
  imageA: string;
  imageB: string;
  bounds: Bounds2;
  /** The best and worst attainment surfaces of all runs of both solvers together, drawn on both panels. */
  best: readonly Point2[];
  worst: readonly Point2[];
  names: readonly string[];
  palette?: ChartPalette;
}

/**
 * The difference of two solvers' EAFs (López-Ibáñez, Paquete and Stützle 2010), as two panels:
 * left, where A attains more often than B (alpha_A - alpha_B > 0), right, where B does; the
 * darker, the larger the difference. Each is one image over the plot, so hundreds of thousands
 * of rectangles cost what one picture does. Both show the grand best and worst surfaces.
 */
export function eafDifferenceOption({
  nameA,
  nameB,
  colourA,
  colourB,
  imageA,
  imageB,
  bounds,
  best,
  worst,
  names,
  palette = LIGHT_PALETTE,
}: EafDifferenceInput): EChartsCoreOption {
  const image = (url: string, gridIndex: number) => ({
    type: 'custom',
    name: gridIndex === 0 ? `${nameA} attains more often` : `${nameB} attains more often`,
    xAxisIndex: gridIndex,
    yAxisIndex: gridIndex,
    data: [[bounds.x0, bounds.y1]],
    clip: true,
    silent: true,
    itemStyle: { color: seriesColor(palette, gridIndex === 0 ? colourA : colourB) },
    renderItem: (_: unknown, api: { coord(p: number[]): number[] }) => {
      const [x0, y0] = api.coord([bounds.x0, bounds.y1]);
      const [x1, y1] = api.coord([bounds.x1, bounds.y0]);
      return { type: 'image', style: { image: url, x: x0, y: y0, width: x1 - x0, height: y1 - y0 } };
    },
    z: 1,
  });
  const lines = (gridIndex: number) => [
    {
      name: 'best of all runs',
      type: 'line',
      step: 'end',
      showSymbol: false,
      xAxisIndex: gridIndex,
      yAxisIndex: gridIndex,
      data: surfaceLine(best, bounds),
      lineStyle: { color: palette.text, width: 1.2 },
      itemStyle: { color: palette.text },
      z: 3,
      silent: true,
    },
    {
      name: 'worst of all runs',
      type: 'line',
      step: 'end',
      showSymbol: false,
      xAxisIndex: gridIndex,
      yAxisIndex: gridIndex,
      data: surfaceLine(worst, bounds),
      lineStyle: { color: palette.text, width: 1.2, type: 'dashed' },
      itemStyle: { color: palette.text },
      z: 3,
      silent: true,
    },
  ];
  const axes = (gridIndex: number) => ({
    x: { type: 'value', gridIndex, name: names[0], min: bounds.x0, max: bounds.x1, axisLabel: { ...boundedLabels, hideOverlap: true } },
    y: { type: 'value', gridIndex, name: names[1], min: bounds.y0, max: bounds.y1, axisLabel: boundedLabels },
  });
  return {
    legend: { data: ['best of all runs', 'worst of all runs'] },
    title: [
      { text: `${nameA} attains more often`, left: '25%', top: 26, textAlign: 'center', textStyle: { fontSize: 12 } },
      { text: `${nameB} attains more often`, left: '75%', top: 26, textAlign: 'center', textStyle: { fontSize: 12 } },
    ],
    grid: [
      { left: 8, right: '52%', top: 50, bottom: 6 },
      { left: '52%', right: 12, top: 50, bottom: 6 },
    ],
    xAxis: [axes(0).x, axes(1).x],
    yAxis: [axes(0).y, axes(1).y],
    series: [image(imageA, 0), image(imageB, 1), ...lines(0), ...lines(1)],
  };
}
