/**
 * ECharts options of the Pareto explorer, pure functions of the explorer's data (tests import
 * them). The look is the theme's (charts/theme.ts); colours that mean something (a solver's
 * series, infeasible points, the selection) come from the palette argument.
 *
 * At 100,000 points the scatter series run in ECharts' large mode (one path of 3-pixel
 * squares, drawn with fillRect), from Float32Array data, without progressive rendering (one
 * frame draws them all), and dataZoom leaves the data unfiltered (points outside are clipped),
 * so a redraw does no per-point work besides placing the points. In the scatter and the matrix
 * the selection is not a series: the view draws it on a layer of its own (useChartLayer), so a
 * new selection never redraws the 100,000 points. The parallel coordinates and the 3-D scatter,
 * which draw fewer or on the GPU, have a selection series that the view updates in place.
 */
import type { EChartsCoreOption } from 'echarts/core';
import { LIGHT_PALETTE, seriesColor, type ChartPalette } from '../../../src-shared/charts/palette.ts';
import type { AttainmentSurface, Point2 } from '../../../src-shared/metrics/attainment.ts';
import { formatNumber } from '../dice/labels.ts';
import type { ExplorerData, ReferencePoints } from './front-data.ts';
import { runLabel } from './front-data.ts';
import { projectPairs, strideSample, type SeriesGroup } from './groups.ts';

/** Above this many points a series is drawn in large mode (small squares, no outline). */
export const LARGE_THRESHOLD = 2000;
/** The matrix draws at most this many points in all its panels together; selections still count every point. */
export const MATRIX_POINT_BUDGET = 240_000;
/** Parallel coordinates draw at most this many lines; selections still count every point. */
export const PARALLEL_LINE_LIMIT = 4000;
/** The 3-D scatter draws at most this many points (WebGL, so many; a sample beyond). */
export const SCATTER3D_POINT_LIMIT = 100_000;

export function groupColour(palette: ChartPalette, group: Pick<SeriesGroup, 'colour'>): string {
  return group.colour < 0 ? palette.bad : seriesColor(palette, group.colour);
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A solution's values for a tooltip (HTML): run, objectives, feasibility, and what a click does. */
export function pointTooltip(data: ExplorerData, i: number): string {
  const m = data.objectiveCount;
  const lines = [`<b>${escapeHtml(runLabel(data.runs[data.run[i]]))}</b> <span style="opacity:.7">#${i + 1}</span>`];
  for (let k = 0; k < m; k++) lines.push(`${escapeHtml(data.objectiveNames[k])}: <b>${formatNumber(data.objectives[i * m + k])}</b>`);
  lines.push(data.feasible[i] ? 'feasible' : `infeasible, violation ${formatNumber(data.violation[i])}`);
  lines.push(`<span style="opacity:.7">${data.x[i] ? 'click: open in the evaluator' : 'no sequence to open'}</span>`);
  return lines.join('<br>');
}

/** What the tooltip formatter and click handlers need: the point index behind (series, data index). */
export interface PointLookup {
  /** Per series index of the option: the point indices it draws, or null (reference markers, lines). A view may fill in the selection's slot. */
  seriesPoints: (Int32Array | null)[];
}

export function pointAt(lookup: PointLookup, seriesIndex: number, dataIndex: number): number | null {
  const points = lookup.seriesPoints[seriesIndex];
  return points && dataIndex >= 0 && dataIndex < points.length ? points[dataIndex] : null;
}

function pointSeries(data: ExplorerData, group: SeriesGroup, indices: Int32Array, palette: ChartPalette, pairs: Float32Array, total: number): Record<string, unknown> {
  const large = total > LARGE_THRESHOLD;
  return {
    id: `points-${group.name}`,
    name: group.name,
    type: 'scatter',
    // Flat [x0, y0, x1, y1, ...]: ECharts reads typed arrays as rows of these dimensions.
    dimensions: ['x', 'y'],
    data: pairs,
    // Large mode draws 3-pixel squares with fillRect (ECharts' fast path); infeasible points
    // stay triangles, bigger, so they stand out whatever the size of the front.
    large,
    largeThreshold: LARGE_THRESHOLD,
    progressive: 0,
    symbol: group.feasible ? 'circle' : 'triangle',
    symbolSize: group.feasible ? (large ? 3 : 7) : large ? 5 : 9,
    itemStyle: { color: groupColour(palette, group), ...(large ? { borderWidth: 0, opacity: 0.75 } : {}) },
    // Hover must not restyle a series of 100,000 points (a redraw of all of them per move).
    emphasis: large ? { disabled: true } : { scale: 1.6 },
    clip: true,
    z: group.feasible ? 2 : 3,
  };
}

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
}

export const REFERENCE_SERIES = 'reference points';

/**
 * The 2-D scatter of objectives xi and yi: a series per group (legend toggles), the reference
 * markers, zoom on both axes (the wheel, the sliders below and right) and, when `pan`, dragging
 * pans (otherwise the view's rectangle brush has the drag).
 */
export function scatterOption({ data, groups, hidden, xi, yi, references, pan = false, palette = LIGHT_PALETTE }: ScatterInput): { option: EChartsCoreOption; lookup: PointLookup } {
  const total = groups.reduce((s, g) => s + g.indices.length, 0);
  const series: Record<string, unknown>[] = groups.map((g) => pointSeries(data, g, g.indices, palette, projectPairs(data, g.indices, xi, yi), total));
  const seriesPoints: (Int32Array | null)[] = groups.map((g) => g.indices);
  if (references) {
    // Labels towards the inside: the ideal sits at the lower left, nadir and reference at the upper right.
    const marker = (name: string, p: number[], symbol: string, position: string) => ({ name, value: [p[xi], p[yi]], symbol, label: { show: true, formatter: name, position, color: palette.text, fontSize: 11, backgroundColor: palette.surface, padding: [1, 4], borderRadius: 3 } });
    series.push({
      id: 'references',
      name: REFERENCE_SERIES,
      type: 'scatter',
      symbolSize: 11,
      itemStyle: { color: palette.surface, borderColor: palette.text, borderWidth: 1.5 },
      data: [marker('ideal', references.ideal, 'diamond', 'right'), marker('nadir', references.nadir, 'rect', 'left'), marker('HV reference', references.reference, 'circle', 'left')],
      tooltip: { formatter: (p: { name: string; value: number[] }) => `${p.name}: (${formatNumber(p.value[0])}, ${formatNumber(p.value[1])})` },
      z: 4,
    });
    seriesPoints.push(null);
  }
  const legendSelected = Object.fromEntries(groups.map((g) => [g.name, !hidden.has(g.name)]));
  const lookup: PointLookup = { seriesPoints };
  return {
    lookup,
    option: {
      // The reference markers stay out of the legend (the view explains them): it fits one line.
      legend: { data: groups.map((g) => g.name), selected: legendSelected, type: 'scroll', left: 8, right: 36 },
      grid: { right: 44, bottom: 40 },
      tooltip: {
        trigger: 'item',
        className: 'explore-tooltip',
        // Hover shows the point under the cursor at once; ECharts throttles the mouse for us.
        showDelay: 0,
        transitionDuration: 0,
        formatter: (p: { seriesIndex: number; dataIndex: number }) => {
          const i = pointAt(lookup, p.seriesIndex, p.dataIndex);
          return i === null ? '' : pointTooltip(data, i);
        },
      },
      xAxis: { type: 'value', name: data.objectiveNames[xi], scale: true },
      yAxis: { type: 'value', name: data.objectiveNames[yi], scale: true },
      dataZoom: [
        { type: 'inside', xAxisIndex: 0, filterMode: 'none', moveOnMouseMove: pan },
        { type: 'inside', yAxisIndex: 0, filterMode: 'none', moveOnMouseMove: pan },
        { type: 'slider', xAxisIndex: 0, filterMode: 'none', height: 16, bottom: 6, showDataShadow: false, labelFormatter: (v: number) => formatNumber(v) },
        { type: 'slider', yAxisIndex: 0, filterMode: 'none', width: 16, right: 8, showDataShadow: false, labelFormatter: (v: number) => formatNumber(v) },
      ],
      series,
    },
  };
}

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
  /** Points drawn per panel, and how many there are. */
  drawn: number;
  total: number;
}

/**
 * The scatter-plot matrix of M objectives: the lower triangle, f_j against f_i for i < j, with
 * the objectives named along the left column and the bottom row (the view's rectangle brush
 * works in any panel). Every panel draws the same points: all of them, or a stride sample when
 * M(M-1)/2 panels of them exceed the budget.
 */
export function matrixOption({ data, groups, hidden, palette = LIGHT_PALETTE }: MatrixInput): { option: EChartsCoreOption; lookup: PointLookup; layout: MatrixLayout } {
  const m = data.objectiveCount;
  const size = m - 1;
  const panels: { xi: number; yi: number }[] = [];
  for (let yi = 1; yi < m; yi++) for (let xi = 0; xi < yi; xi++) panels.push({ xi, yi });
  const total = groups.reduce((s, g) => s + g.indices.length, 0);
  const perPanel = Math.max(1, Math.floor(MATRIX_POINT_BUDGET / panels.length));
  const shown = groups.map((g) => strideSample(g.indices, Math.max(1, Math.round((perPanel * g.indices.length) / Math.max(1, total)))));
  const drawn = shown.reduce((s, g) => s + g.length, 0);
  // Percent boxes: room on the left and at the bottom for the outer axes' labels and names.
  const left = 11;
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
    grids.push({ id: matrixGridId(xi, yi), left: `${left + col * (w + gap)}%`, top: `${top + row * (h + gap)}%`, width: `${w}%`, height: `${h}%`, outerBoundsMode: 'none' });
    const outerX = row === size - 1;
    const outerY = col === 0;
    xAxes.push({ type: 'value', gridIndex: p, scale: true, name: outerX ? data.objectiveNames[xi] : '', nameGap: 22, axisLabel: { show: outerX, hideOverlap: true, fontSize: 10 }, splitNumber: 3 });
    yAxes.push({ type: 'value', gridIndex: p, scale: true, name: outerY ? data.objectiveNames[yi] : '', nameGap: 34, axisLabel: { show: outerY, hideOverlap: true, fontSize: 10 }, splitNumber: 3 });
    groups.forEach((g, gi) => {
      const s = pointSeries(data, g, shown[gi], palette, projectPairs(data, shown[gi], xi, yi), drawn * panels.length);
      series.push({ ...s, id: `points-${g.name}-${p}`, xAxisIndex: p, yAxisIndex: p, symbolSize: g.feasible ? (drawn > LARGE_THRESHOLD ? 2 : 5) : drawn > LARGE_THRESHOLD ? 5 : 7 });
      seriesPoints.push(shown[gi]);
    });
  });
  const lookup: PointLookup = { seriesPoints };
  return {
    lookup,
    layout: { panels, drawn, total },
    option: {
      legend: { selected: Object.fromEntries(groups.map((g) => [g.name, !hidden.has(g.name)])), type: 'scroll', left: 8, right: 40 },
      grid: grids,
      xAxis: xAxes,
      yAxis: yAxes,
      tooltip: {
        trigger: 'item',
        className: 'explore-tooltip',
        showDelay: 0,
        transitionDuration: 0,
        formatter: (q: { seriesIndex: number; dataIndex: number }) => {
          const i = pointAt(lookup, q.seriesIndex, q.dataIndex);
          return i === null ? '' : pointTooltip(data, i);
        },
      },
      series,
    },
  };
}

export interface ParallelInput {
  data: ExplorerData;
  groups: readonly SeriesGroup[];
  hidden: ReadonlySet<string>;
  palette?: ChartPalette;
}

function rows(data: ExplorerData, indices: Int32Array): number[][] {
  const m = data.objectiveCount;
  return Array.from(indices, (i) => Array.from(data.objectives.subarray(i * m, i * m + m)));
}

/** The id of the selection's series in the parallel coordinates and the 3-D scatter, which views update in place. */
export const SELECTION_SERIES = 'selection';

/** The parallel axis id of objective k (axisAreaSelected events name it). */
export const parallelAxisId = (k: number) => `objective-${k}`;

/**
 * Parallel coordinates: an axis per objective (drag along an axis to select an interval; several
 * axes combine), a line per solution, and an empty selection series that
 * parallelSelectionSeries fills. At most PARALLEL_LINE_LIMIT lines, a stride sample beyond.
 */
export function parallelOption({ data, groups, hidden, palette = LIGHT_PALETTE }: ParallelInput): { option: EChartsCoreOption; drawn: number; total: number } {
  const total = groups.reduce((s, g) => s + g.indices.length, 0);
  const shown = groups.map((g) => strideSample(g.indices, Math.max(1, Math.round((PARALLEL_LINE_LIMIT * g.indices.length) / Math.max(1, total)))));
  const drawn = shown.reduce((s, g) => s + g.length, 0);
  const opacity = drawn > 1000 ? 0.18 : drawn > 200 ? 0.35 : 0.6;
  const series: Record<string, unknown>[] = groups.map((g, gi) => ({
    id: `lines-${g.name}`,
    name: g.name,
    type: 'parallel',
    data: rows(data, shown[gi]),
    lineStyle: { color: groupColour(palette, g), width: 1, opacity },
    inactiveOpacity: 0.03,
    activeOpacity: Math.min(1, opacity * 2),
    progressive: 0,
    silent: true,
  }));
  series.push({ id: SELECTION_SERIES, name: SELECTION_SERIES, type: 'parallel', data: [], lineStyle: { color: palette.accent, width: 1.4, opacity: 0.9 }, inactiveOpacity: 0.9, activeOpacity: 0.9, progressive: 0, silent: true, z: 5 });
  return {
    drawn,
    total,
    option: {
      legend: { data: groups.map((g) => g.name), selected: Object.fromEntries(groups.map((g) => [g.name, !hidden.has(g.name)])), type: 'scroll', left: 8, right: 40 },
      parallel: { left: 56, right: 84, top: 64, bottom: 28, parallelAxisDefault: { realtime: false } },
      parallelAxis: data.objectiveNames.map((name, k) => ({
        id: parallelAxisId(k),
        dim: k,
        name,
        scale: true,
        nameLocation: 'end',
        nameGap: 14,
        nameTextStyle: { color: palette.muted, fontSize: 11 },
        axisLine: { lineStyle: { color: palette.axis } },
        axisTick: { lineStyle: { color: palette.axis } },
        axisLabel: { color: palette.muted, fontSize: 10, formatter: (v: number) => formatNumber(v) },
        areaSelectStyle: { width: 18, borderWidth: 1, color: palette.accent, borderColor: palette.accent, opacity: 0.25 },
      })),
      series,
    },
  };
}

/** The selection's lines (at most PARALLEL_LINE_LIMIT, a stride sample beyond), to merge into the parallel option by id. */
export function parallelSelectionSeries(data: ExplorerData, selection: Int32Array | null): Record<string, unknown> {
  return { id: SELECTION_SERIES, data: selection && selection.length ? rows(data, strideSample(selection, PARALLEL_LINE_LIMIT)) : [] };
}

/** An axis of the 3-D scatter in the palette's colours (echarts-gl has no theme entries). */
function axis3D(name: string, palette: ChartPalette): Record<string, unknown> {
  return {
    type: 'value',
    name,
    scale: true,
    nameTextStyle: { color: palette.muted, fontSize: 12 },
    axisLine: { lineStyle: { color: palette.axis } },
    axisLabel: { textStyle: { color: palette.muted, fontSize: 10 }, formatter: (v: number) => formatNumber(v) },
    splitLine: { lineStyle: { color: palette.grid } },
    axisPointer: { show: false },
  };
}

export interface Scatter3DInput {
  data: ExplorerData;
  groups: readonly SeriesGroup[];
  hidden: ReadonlySet<string>;
  palette?: ChartPalette;
}

function triples(data: ExplorerData, indices: Int32Array): Float32Array {
  const out = new Float32Array(indices.length * 3);
  for (let j = 0; j < indices.length; j++) {
    const b = indices[j] * 3;
    out[3 * j] = data.objectives[b];
    out[3 * j + 1] = data.objectives[b + 1];
    out[3 * j + 2] = data.objectives[b + 2];
  }
  return out;
}

const symbolSize3D = (total: number) => (total > LARGE_THRESHOLD ? 2.5 : 6);

/**
 * M = 3: a rotatable 3-D scatter (echarts-gl, WebGL): drag to rotate, wheel to zoom; an empty
 * selection series that scatter3DSelectionSeries fills.
 */
export function scatter3DOption({ data, groups, hidden, palette = LIGHT_PALETTE }: Scatter3DInput): { option: EChartsCoreOption; lookup: PointLookup } {
  const total = groups.reduce((s, g) => s + g.indices.length, 0);
  const shown = groups.map((g) => strideSample(g.indices, Math.max(1, Math.round((SCATTER3D_POINT_LIMIT * g.indices.length) / Math.max(1, total)))));
  const size = symbolSize3D(total);
  const series: Record<string, unknown>[] = groups.map((g, gi) => ({
    id: `points-${g.name}`,
    name: g.name,
    type: 'scatter3D',
    dimensions: ['x', 'y', 'z'],
    data: triples(data, shown[gi]),
    symbol: g.feasible ? 'circle' : 'triangle',
    symbolSize: g.feasible ? size : size * 2,
    itemStyle: { color: groupColour(palette, g), opacity: 0.8 },
    emphasis: { itemStyle: { color: palette.accent } },
  }));
  series.push({ id: SELECTION_SERIES, name: SELECTION_SERIES, type: 'scatter3D', dimensions: ['x', 'y', 'z'], data: [], symbolSize: size * 1.8, itemStyle: { color: palette.accent, opacity: 1 } });
  const seriesPoints: (Int32Array | null)[] = [...shown, null];
  const lookup: PointLookup = { seriesPoints };
  return {
    lookup,
    option: {
      legend: { data: groups.map((g) => g.name), selected: Object.fromEntries(groups.map((g) => [g.name, !hidden.has(g.name)])), type: 'scroll', left: 8, right: 40 },
      tooltip: {
        trigger: 'item',
        className: 'explore-tooltip',
        formatter: (p: { seriesIndex: number; dataIndex: number }) => {
          const i = pointAt(lookup, p.seriesIndex, p.dataIndex);
          return i === null ? '' : pointTooltip(data, i);
        },
      },
      grid3D: {
        top: 24,
        boxWidth: 100,
        boxHeight: 100,
        boxDepth: 100,
        viewControl: { projection: 'perspective', distance: 230, alpha: 22, beta: 38 },
        axisPointer: { show: false },
      },
      xAxis3D: axis3D(data.objectiveNames[0], palette),
      yAxis3D: axis3D(data.objectiveNames[1], palette),
      zAxis3D: axis3D(data.objectiveNames[2], palette),
      series,
    },
  };
}

/** The selected points, to merge into the 3-D option by id (the view puts `selection` in the lookup's last slot). */
export function scatter3DSelectionSeries(data: ExplorerData, selection: Int32Array | null): Record<string, unknown> {
  return { id: SELECTION_SERIES, data: selection && selection.length ? triples(data, selection) : [] };
}

/** Data bounds of point sets, padded by a fraction of their range on each side. */
export interface Bounds2 {
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

export function boundsOf(points: Iterable<readonly number[]>, pad = 0.05): Bounds2 | null {
  let x0 = Infinity;
  let x1 = -Infinity;
  let y0 = Infinity;
  let y1 = -Infinity;
  for (const p of points) {
    x0 = Math.min(x0, p[0]);
    x1 = Math.max(x1, p[0]);
    y0 = Math.min(y0, p[1]);
    y1 = Math.max(y1, p[1]);
  }
  if (!Number.isFinite(x0)) return null;
  const dx = (x1 - x0 || Math.abs(x0) || 1) * pad;
  const dy = (y1 - y0 || Math.abs(y0) || 1) * pad;
  return { x0: x0 - dx, x1: x1 + dx, y0: y0 - dy, y1: y1 + dy };
}

/**
 * An attainment surface as a step line inside the bounds: down from the top edge to the first
 * point, then right and down from point to point (ECharts' step 'end'), then right to the edge.
 */
export function surfaceLine(points: readonly Point2[], bounds: Bounds2): [number, number][] {
  if (!points.length) return [];
  return [[points[0][0], bounds.y1], ...points.map((p): [number, number] => [p[0], p[1]]), [bounds.x1, points[points.length - 1][1]]];
}

/** Axis labels of an axis whose ends are padded data bounds: the ends' odd values are not labelled. */
const boundedLabels = { formatter: (v: number) => formatNumber(v), showMinLabel: false, showMaxLabel: false };

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
    tooltip: { trigger: 'item', formatter: (p: { seriesName: string; value: number[] }) => `${escapeHtml(p.seriesName)}<br>(${formatNumber(p.value[0])}, ${formatNumber(p.value[1])})` },
    xAxis: { type: 'value', name: names[0], min: bounds.x0, max: bounds.x1, axisLabel: boundedLabels },
    yAxis: { type: 'value', name: names[1], min: bounds.y0, max: bounds.y1, axisLabel: boundedLabels },
    series: [
      { name: 'points', type: 'scatter', data: points.map((p) => [p[0], p[1]]), symbolSize: points.length > LARGE_THRESHOLD ? 3 : 5, large: points.length > LARGE_THRESHOLD, itemStyle: { color: c, opacity: 0.3, borderWidth: 0 }, z: 1 },
      line('best', surfaces.best, { width: 1.5 }),
      line('median', surfaces.median, { width: 2.5 }),
      line('worst', surfaces.worst, { width: 1.5, type: 'dashed' }),
    ],
  };
}

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
export function eafDifferenceOption({ nameA, nameB, colourA, colourB, imageA, imageB, bounds, best, worst, names, palette = LIGHT_PALETTE }: EafDifferenceInput): EChartsCoreOption {
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
    { name: 'best of all runs', type: 'line', step: 'end', showSymbol: false, xAxisIndex: gridIndex, yAxisIndex: gridIndex, data: surfaceLine(best, bounds), lineStyle: { color: palette.text, width: 1.2 }, itemStyle: { color: palette.text }, z: 3, silent: true },
    { name: 'worst of all runs', type: 'line', step: 'end', showSymbol: false, xAxisIndex: gridIndex, yAxisIndex: gridIndex, data: surfaceLine(worst, bounds), lineStyle: { color: palette.text, width: 1.2, type: 'dashed' }, itemStyle: { color: palette.text }, z: 3, silent: true },
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
