/** The scatter-plot matrix's option (M >= 3): a panel per pair of objectives. */
import type { EChartsCoreOption } from 'echarts/core';
import { LIGHT_PALETTE, type ChartPalette } from '../../../../src-shared/charts/palette.ts';
import { paddedBounds, type AxisBounds } from '../../../../src-shared/charts/axes.ts';
import { formatNumber } from '../../../logic/dice/labels.ts';
import type { ExplorerData } from '../../../logic/explore/front-data.ts';
import { projectPairs, type SeriesGroup } from '../../../logic/explore/groups.ts';
import { drawsOnPointLayer, pointSeries, pointTooltipOption, shownRange, type PointLookup } from './point-series.ts';

/** The grid id of the matrix panel of objectives xi (horizontal) and yi (vertical). */
export const matrixGridId = (xi: number, yi: number) => `m-${xi}-${yi}`;

export interface MatrixInput {
  data: ExplorerData;
  groups: readonly SeriesGroup[];
  hidden: ReadonlySet<string>;
  palette?: ChartPalette;
}

export interface MatrixLayout {
  /** Per panel, in the order of the option's grids. */
  panels: { xi: number; yi: number }[];
  /** Points shown (every panel draws all of them). */
  total: number;
}

/**
 * The scatter-plot matrix of M objectives: the lower triangle, f_j against f_i for i < j, with
 * the objectives named along the left column and the bottom row (the view's rectangle brush
 * works in any panel). Every panel draws every point shown: through ECharts, or on the view's
 * point layer above LARGE_THRESHOLD points (then the axes are fitted here, as in the scatter).
 */
export function matrixOption({ data, groups, hidden, palette = LIGHT_PALETTE }: MatrixInput): {
  option: EChartsCoreOption;
  lookup: PointLookup;
  layout: MatrixLayout;
  layer: boolean;
} {
  const m = data.objectiveCount;
  const size = m - 1;
  const panels: { xi: number; yi: number }[] = [];
  for (let yi = 1; yi < m; yi++) for (let xi = 0; xi < yi; xi++) panels.push({ xi, yi });
  const total = groups.reduce((s, g) => s + g.indices.length, 0);
  const layer = drawsOnPointLayer(total);
  // On the layer the axes are fitted here (ECharts sees no points); each objective's range once.
  const bounds = Array.from({ length: m }, (_, k) => {
    const r = layer ? shownRange(groups, hidden, k) : null;
    return r ? paddedBounds(r[0], r[1]) : null;
  });
  // Percent boxes: room on the left and at the bottom for the outer axes' labels and names.
  const left = 13;
  const bottom = 11;
  const top = 10;
  const right = 2;
  const gap = 4;
  const w = (100 - left - right - gap * (size - 1)) / size;
  const h = (100 - top - bottom - gap * (size - 1)) / size;
  const grids: Record<string, unknown>[] = [];
  const xAxes: Record<string, unknown>[] = [];
  const yAxes: Record<string, unknown>[] = [];
  const series: Record<string, unknown>[] = [];
  const seriesPoints: (Int32Array | null)[] = [];
  panels.forEach(({ xi, yi }, p) => {
    const row = yi - 1;
    const col = xi;
    grids.push({
      id: matrixGridId(xi, yi),
      left: `${left + col * (w + gap)}%`,
      top: `${top + row * (h + gap)}%`,
      width: `${w}%`,
      height: `${h}%`,
      outerBoundsMode: 'none',
    });
    const outerX = row === size - 1;
    const outerY = col === 0;
    // Short names (f1, f2, ...): the panels are small; the scatter's pickers give the groups.
    // No label at an x axis's right end, where it would run into the next panel's first.
    const ends = (b: AxisBounds | null) => (b ? { min: b.min, max: b.max } : {});
    xAxes.push({
      type: 'value',
      gridIndex: p,
      scale: true,
      name: outerX ? `f${xi + 1}` : '',
      nameGap: 22,
      axisLabel: { show: outerX, hideOverlap: true, showMaxLabel: false, fontSize: 10, formatter: (v: number) => formatNumber(v) },
      splitNumber: 3,
      ...ends(bounds[xi]),
    });
    yAxes.push({
      type: 'value',
      gridIndex: p,
      scale: true,
      name: outerY ? `f${yi + 1}` : '',
      nameGap: 26,
      axisLabel: { show: outerY, hideOverlap: true, fontSize: 10, formatter: (v: number) => formatNumber(v) },
      splitNumber: 3,
      ...ends(bounds[yi]),
    });
    // On the layer: one series per group, without data, in the first panel (the legend's).
    if (layer && p > 0) return;
    groups.forEach((g) => {
      const s = pointSeries(data, g, g.indices, palette, layer ? new Float32Array(0) : projectPairs(data, g.indices, xi, yi), total);
      series.push({ ...s, id: `points-${g.name}-${p}`, xAxisIndex: p, yAxisIndex: p, symbolSize: g.feasible ? 5 : 7 });
      seriesPoints.push(layer ? null : g.indices);
    });
  });
  const lookup: PointLookup = { seriesPoints };
  return {
    lookup,
    layer,
    layout: { panels, total },
    option: {
      legend: { selected: Object.fromEntries(groups.map((g) => [g.name, !hidden.has(g.name)])), type: 'scroll', left: 8, right: 40 },
      grid: grids,
      xAxis: xAxes,
      yAxis: yAxes,
      tooltip: { ...pointTooltipOption(data, lookup), ...(layer ? { triggerOn: 'none' } : {}) },
      series,
    },
  };
}
