/**
 * The 2-D scatter's option: two objectives, a series per group, the reference markers, zoom and
 * pan; axes fitted to the points shown or widened to the reference points.
 */
import type { EChartsCoreOption } from 'echarts/core';
import { LIGHT_PALETTE, type ChartPalette } from '../../../../src-shared/charts/palette.ts';
import { paddedBounds, type AxisBounds } from '../../../../src-shared/charts/axes.ts';
import { formatNumber } from '../../../logic/dice/labels.ts';
import type { ExplorerData, ReferencePoints } from '../../../logic/explore/front-data.ts';
import { projectPairs, type SeriesGroup } from '../../../logic/explore/groups.ts';
import { drawsOnPointLayer, pointSeries, pointTooltipOption, shownRange, type PointLookup } from './point-series.ts';

export interface ScatterInput {
  data: ExplorerData;
  groups: readonly SeriesGroup[];
  hidden: ReadonlySet<string>;
  xi: number;
  yi: number;
  references: ReferencePoints | null;
  /** Dragging pans (true) or is left to the view's rectangle brush (false). */
  pan?: boolean;
  palette?: ChartPalette;
  /** What the axes span (default 'box'). */
  extent?: ScatterExtent;
  /** The zoom to start from (kept across new options on the same axes), percent of each axis. */
  zoom?: ZoomWindow | null;
  /** The part of an axis the chart shows now (zoomed or panned), read when labels are drawn. */
  shownExtent?: (axis: 'x' | 'y') => [number, number] | null;
}

/** The part of each axis a zoom shows, in percent of the axis: [start, end]. */
export interface ZoomWindow {
  x: [number, number];
  y: [number, number];
}

export const REFERENCE_SERIES = 'reference points';

/** The reference markers' zlevel when the points are on the view's layers (useChartLayer: 8000 and 9000): above both. */
export const MARKER_ZLEVEL = 9500;

/**
 * What the scatter's axes span: the points shown ('front'; the markers of ideal, nadir and HV
 * reference point that fall outside are left out), or the points and those markers ('box').
 * The nadir of a stored instance is the median of random sequences, far beyond any solver's
 * front, so 'box' squeezes a front into a corner; the view starts on 'front'.
 */
export type ScatterExtent = 'front' | 'box';

/**
 * The 2-D scatter of objectives xi and yi: a series per group (legend toggles), the reference
 * markers, zoom on both axes (the wheel, the sliders below and right) and, when `pan`, dragging
 * pans (otherwise the view's rectangle brush has the drag).
 */
export function scatterOption({
  data,
  groups,
  hidden,
  xi,
  yi,
  references,
  pan = false,
  palette = LIGHT_PALETTE,
  extent = 'box',
  zoom = null,
  shownExtent,
}: ScatterInput): { option: EChartsCoreOption; lookup: PointLookup; layer: boolean } {
  const total = groups.reduce((s, g) => s + g.indices.length, 0);
  const layer = drawsOnPointLayer(total);
  const empty = new Float32Array(0);
  const series: Record<string, unknown>[] = groups.map((g) =>
    pointSeries(data, g, g.indices, palette, layer ? empty : projectPairs(data, g.indices, xi, yi), total),
  );
  const seriesPoints: (Int32Array | null)[] = groups.map((g) => (layer ? null : g.indices));
  // The axes' ends: fitted to the points shown ('front'), or to them and the reference markers
  // ('box'), always given when the points are on the layer (ECharts does not see them).
  let xRange = shownRange(groups, hidden, xi);
  let yRange = shownRange(groups, hidden, yi);
  if (extent === 'box' && references && xRange && yRange) {
    const widen = (r: [number, number], k: number): [number, number] => [
      Math.min(r[0], references.ideal[k], references.nadir[k], references.reference[k]),
      Math.max(r[1], references.ideal[k], references.nadir[k], references.reference[k]),
    ];
    xRange = widen(xRange, xi);
    yRange = widen(yRange, yi);
  }
  const fitted = extent === 'front' || layer;
  const xBounds = fitted && xRange && yRange ? paddedBounds(xRange[0], xRange[1]) : null;
  const yBounds = fitted && xRange && yRange ? paddedBounds(yRange[0], yRange[1]) : null;
  const inside = (p: number[]) => !xBounds || !yBounds || (p[xi] >= xBounds.min && p[xi] <= xBounds.max && p[yi] >= yBounds.min && p[yi] <= yBounds.max);
  if (references) {
    // Labels towards the inside: the ideal sits at the lower left, nadir and reference at the upper right.
    const marker = (name: string, p: number[], symbol: string, position: string) => ({
      name,
      value: [p[xi], p[yi]],
      symbol,
      label: { show: true, formatter: name, position, color: palette.text, fontSize: 11, backgroundColor: palette.surface, padding: [1, 4], borderRadius: 3 },
    });
    series.push({
      id: 'references',
      name: REFERENCE_SERIES,
      type: 'scatter',
      symbolSize: 11,
      // Hollow, and under ECharts' points: a point on the ideal (every objective at 0, the best a
      // solver can do) shows in the marker instead of vanishing under it.
      itemStyle: { color: 'transparent', borderColor: palette.text, borderWidth: 1.5 },
      data: (
        [
          ['ideal', references.ideal, 'diamond', 'right'],
          ['nadir', references.nadir, 'rect', 'left'],
          ['HV reference', references.reference, 'circle', 'left'],
        ] as const
      )
        .filter(([, p]) => inside(p))
        .map(([name, p, symbol, position]) => marker(name, p, symbol, position)),
      tooltip: { formatter: (p: { name: string; value: number[] }) => `${p.name}: (${formatNumber(p.value[0])}, ${formatNumber(p.value[1])})` },
      z: 1,
      // Over the view's layers (the points', the selection's), where its hollow shows what lies under it.
      ...(layer ? { zlevel: MARKER_ZLEVEL } : {}),
    });
    seriesPoints.push(null);
  }
  const legendSelected = Object.fromEntries(groups.map((g) => [g.name, !hidden.has(g.name)]));
  const lookup: PointLookup = { seriesPoints };
  const [xs, xe] = zoom?.x ?? [0, 100];
  const [ys, ye] = zoom?.y ?? [0, 100];
  return {
    lookup,
    layer,
    option: {
      // The reference markers stay out of the legend (the view explains them): it fits one line.
      legend: { data: groups.map((g) => g.name), selected: legendSelected, type: 'scroll', left: 8, right: 36 },
      grid: { right: 44, bottom: 40 },
      // On the layer, the view finds the point under the mouse and shows the tooltip itself.
      tooltip: { ...pointTooltipOption(data, lookup), ...(layer ? { triggerOn: 'none' } : {}) },
      // Ends only: a fixed interval would stay as it is when the view zooms in.
      xAxis: {
        type: 'value',
        name: data.objectiveNames[xi],
        scale: true,
        axisLabel: fittedLabels(xBounds, () => shownExtent?.('x') ?? null),
        ...(xBounds ? { min: xBounds.min, max: xBounds.max } : {}),
      },
      yAxis: {
        type: 'value',
        name: data.objectiveNames[yi],
        scale: true,
        axisLabel: fittedLabels(yBounds, () => shownExtent?.('y') ?? null),
        ...(yBounds ? { min: yBounds.min, max: yBounds.max } : {}),
      },
      dataZoom: [
        { type: 'inside', xAxisIndex: 0, filterMode: 'none', moveOnMouseMove: pan, start: xs, end: xe },
        { type: 'inside', yAxisIndex: 0, filterMode: 'none', moveOnMouseMove: pan, start: ys, end: ye },
        {
          type: 'slider',
          xAxisIndex: 0,
          filterMode: 'none',
          height: 16,
          bottom: 6,
          showDataShadow: false,
          labelFormatter: (v: number) => formatNumber(v),
          start: xs,
          end: xe,
        },
        {
          type: 'slider',
          yAxisIndex: 0,
          filterMode: 'none',
          width: 16,
          right: 8,
          showDataShadow: false,
          labelFormatter: (v: number) => formatNumber(v),
          start: ys,
          end: ye,
        },
      ],
      series,
    },
  };
}

/**
 * Whether an axis label at `v` is an end of the part of the axis shown (`shown`) that is not an
 * end of the whole axis (`full`): an odd value ECharts labels when the view is zoomed or panned,
 * beside the round ticks ("186" under "200").
 */
export function isZoomedEnd(v: number, full: AxisBounds, shown: [number, number] | null): boolean {
  if (!shown) return false;
  const eps = 1e-9 * (full.max - full.min || 1);
  const near = (a: number, b: number) => Math.abs(a - b) <= eps;
  return (near(v, shown[0]) || near(v, shown[1])) && !near(v, full.min) && !near(v, full.max);
}

/**
 * Labels of an axis that fits its data (`bounds`, or ECharts' own ends when null): round ticks
 * only (a zoomed axis's odd ends are not labelled; the sliders show them), and none that would
 * overlap another.
 */
function fittedLabels(bounds: AxisBounds | null, shown: () => [number, number] | null) {
  return { hideOverlap: true, formatter: (v: number) => (bounds && isZoomedEnd(v, bounds, shown()) ? '' : formatNumber(v)) };
}

/**
 * How many of the points shown lie exactly on the ideal point in the plane of xi and yi (a front
 * that reached 0 in both objectives sits all on that one spot): the view says so under the
 * chart, since many points there look like one. Only the series not hidden whose ranges reach
 * the ideal are looked at (none, for a front that does not reach it), in one pass over their
 * indices.
 */
export function pointsOnIdeal(
  data: ExplorerData,
  groups: readonly SeriesGroup[],
  hidden: ReadonlySet<string>,
  xi: number,
  yi: number,
  references: ReferencePoints | null,
): number {
  if (!references) return 0;
  const m = data.objectiveCount;
  const f = data.objectives;
  const px = references.ideal[xi];
  const py = references.ideal[yi];
  let count = 0;
  for (const g of groups) {
    if (hidden.has(g.name) || !(g.min[xi] <= px && px <= g.max[xi] && g.min[yi] <= py && py <= g.max[yi])) continue;
    const idx = g.indices;
    for (let j = 0; j < idx.length; j++) {
      const base = idx[j] * m;
      if (f[base + xi] === px && f[base + yi] === py) count++;
    }
  }
  return count;
}
