/**
 * ECharts options of the Pareto explorer, pure functions of the explorer's data (tests import
 * them). The look is the theme's (charts/theme.ts); colours that mean something (a solver's
 * series, infeasible points, the selection) come from the palette argument.
 *
 * Above LARGE_THRESHOLD points the scatter and the matrix do not give ECharts their points: their
 * series carry no data (ECharts keeps the legend, axes, grid, tooltip and zoom) and the view
 * draws the points itself, as pixels on a layer of its own (point-layer.ts), so a change of axis,
 * a zoom or a pan only maps the typed arrays to pixels again. Below it, ECharts draws them, round
 * and outlined, as vectors in the SVG export too. In the scatter and the matrix the selection is
 * not a series either: the view draws it on another layer (useChartLayer), so a new selection
 * never redraws the points (the 3-D view too). The 3-D view runs ECharts' large mode (one path of
 * 3-pixel squares); the parallel coordinates, which draw fewer lines, have a selection series
 * that the view updates in place.
 */
import type { EChartsCoreOption } from 'echarts/core';
import { LIGHT_PALETTE, seriesColor, type ChartPalette } from '../../../src-shared/charts/palette.ts';
import type { AttainmentSurface, Point2 } from '../../../src-shared/metrics/attainment.ts';
import { paddedBounds, type AxisBounds } from '../../../src-shared/charts/axes.ts';
import { formatNumber } from '../dice/labels.ts';
import type { ExplorerData, ReferencePoints } from './front-data.ts';
import { runLabel } from './front-data.ts';
import { projectPairs, strideSample, type SeriesGroup } from './groups.ts';

/** Above this many points a series is drawn in large mode (small squares, no outline): by the view's point layer in the scatter and the matrix. */
export const LARGE_THRESHOLD = 2000;
/** Whether the scatter and the matrix draw `total` points on the view's point layer (point-layer.ts) rather than through ECharts. */
export const drawsOnPointLayer = (total: number) => total > LARGE_THRESHOLD;
/** Parallel coordinates draw at most this many lines; selections still count every point. */
export const PARALLEL_LINE_LIMIT = 4000;
/** While the 3-D view turns it draws at most this many points (all of them once it stops). */
export const TURNING_POINT_LIMIT = 15_000;

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

/** The tooltip of a chart of points: the solution under the cursor, at once (ECharts throttles the mouse for us). */
function pointTooltipOption(data: ExplorerData, lookup: PointLookup) {
  return {
    trigger: 'item',
    className: 'explore-tooltip',
    showDelay: 0,
    transitionDuration: 0,
    formatter: (p: { seriesIndex: number; dataIndex: number }) => {
      const i = pointAt(lookup, p.seriesIndex, p.dataIndex);
      return i === null ? '' : pointTooltip(data, i);
    },
  };
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
    // Large mode draws 3-pixel squares with fillRect (ECharts' fast path; useLargeExport keeps
    // them in PNG exports); infeasible points stay triangles, bigger, so they stand out whatever
    // the size of the front.
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

/** The range of objective k over the points of the groups not hidden, or null when none is shown (from the groups' own ranges: no pass over the points). */
function shownRange(groups: readonly SeriesGroup[], hidden: ReadonlySet<string>, k: number): [number, number] | null {
  let min = Infinity;
  let max = -Infinity;
  for (const g of groups) {
    if (hidden.has(g.name) || !g.indices.length) continue;
    min = Math.min(min, g.min[k]);
    max = Math.max(max, g.max[k]);
  }
  return min <= max ? [min, max] : null;
}

/**
 * The 2-D scatter of objectives xi and yi: a series per group (legend toggles), the reference
 * markers, zoom on both axes (the wheel, the sliders below and right) and, when `pan`, dragging
 * pans (otherwise the view's rectangle brush has the drag).
 */
export function scatterOption({ data, groups, hidden, xi, yi, references, pan = false, palette = LIGHT_PALETTE, extent = 'box', zoom = null, shownExtent }: ScatterInput): { option: EChartsCoreOption; lookup: PointLookup; layer: boolean } {
  const total = groups.reduce((s, g) => s + g.indices.length, 0);
  const layer = drawsOnPointLayer(total);
  const empty = new Float32Array(0);
  const series: Record<string, unknown>[] = groups.map((g) => pointSeries(data, g, g.indices, palette, layer ? empty : projectPairs(data, g.indices, xi, yi), total));
  const seriesPoints: (Int32Array | null)[] = groups.map((g) => (layer ? null : g.indices));
  // The axes' ends: fitted to the points shown ('front'), or to them and the reference markers
  // ('box'), always given when the points are on the layer (ECharts does not see them).
  let xRange = shownRange(groups, hidden, xi);
  let yRange = shownRange(groups, hidden, yi);
  if (extent === 'box' && references && xRange && yRange) {
    const widen = (r: [number, number], k: number): [number, number] => [Math.min(r[0], references.ideal[k], references.nadir[k], references.reference[k]), Math.max(r[1], references.ideal[k], references.nadir[k], references.reference[k])];
    xRange = widen(xRange, xi);
    yRange = widen(yRange, yi);
  }
  const fitted = extent === 'front' || layer;
  const xBounds = fitted && xRange && yRange ? paddedBounds(xRange[0], xRange[1]) : null;
  const yBounds = fitted && xRange && yRange ? paddedBounds(yRange[0], yRange[1]) : null;
  const inside = (p: number[]) => !xBounds || !yBounds || (p[xi] >= xBounds.min && p[xi] <= xBounds.max && p[yi] >= yBounds.min && p[yi] <= yBounds.max);
  if (references) {
    // Labels towards the inside: the ideal sits at the lower left, nadir and reference at the upper right.
    const marker = (name: string, p: number[], symbol: string, position: string) => ({ name, value: [p[xi], p[yi]], symbol, label: { show: true, formatter: name, position, color: palette.text, fontSize: 11, backgroundColor: palette.surface, padding: [1, 4], borderRadius: 3 } });
    series.push({
      id: 'references',
      name: REFERENCE_SERIES,
      type: 'scatter',
      symbolSize: 11,
      itemStyle: { color: palette.surface, borderColor: palette.text, borderWidth: 1.5 },
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
      z: 4,
      // Over the view's layers (the points', the selection's), as they were over ECharts' points.
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
      xAxis: { type: 'value', name: data.objectiveNames[xi], scale: true, axisLabel: fittedLabels(xBounds, () => shownExtent?.('x') ?? null), ...(xBounds ? { min: xBounds.min, max: xBounds.max } : {}) },
      yAxis: { type: 'value', name: data.objectiveNames[yi], scale: true, axisLabel: fittedLabels(yBounds, () => shownExtent?.('y') ?? null), ...(yBounds ? { min: yBounds.min, max: yBounds.max } : {}) },
      dataZoom: [
        { type: 'inside', xAxisIndex: 0, filterMode: 'none', moveOnMouseMove: pan, start: xs, end: xe },
        { type: 'inside', yAxisIndex: 0, filterMode: 'none', moveOnMouseMove: pan, start: ys, end: ye },
        { type: 'slider', xAxisIndex: 0, filterMode: 'none', height: 16, bottom: 6, showDataShadow: false, labelFormatter: (v: number) => formatNumber(v), start: xs, end: xe },
        { type: 'slider', yAxisIndex: 0, filterMode: 'none', width: 16, right: 8, showDataShadow: false, labelFormatter: (v: number) => formatNumber(v), start: ys, end: ye },
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
export function matrixOption({ data, groups, hidden, palette = LIGHT_PALETTE }: MatrixInput): { option: EChartsCoreOption; lookup: PointLookup; layout: MatrixLayout; layer: boolean } {
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
    grids.push({ id: matrixGridId(xi, yi), left: `${left + col * (w + gap)}%`, top: `${top + row * (h + gap)}%`, width: `${w}%`, height: `${h}%`, outerBoundsMode: 'none' });
    const outerX = row === size - 1;
    const outerY = col === 0;
    // Short names (f1, f2, ...): the panels are small; the scatter's pickers give the groups.
    // No label at an x axis's right end, where it would run into the next panel's first.
    const ends = (b: AxisBounds | null) => (b ? { min: b.min, max: b.max } : {});
    xAxes.push({ type: 'value', gridIndex: p, scale: true, name: outerX ? `f${xi + 1}` : '', nameGap: 22, axisLabel: { show: outerX, hideOverlap: true, showMaxLabel: false, fontSize: 10, formatter: (v: number) => formatNumber(v) }, splitNumber: 3, ...ends(bounds[xi]) });
    yAxes.push({ type: 'value', gridIndex: p, scale: true, name: outerY ? `f${yi + 1}` : '', nameGap: 26, axisLabel: { show: outerY, hideOverlap: true, fontSize: 10, formatter: (v: number) => formatNumber(v) }, splitNumber: 3, ...ends(bounds[yi]) });
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

/** The id of the selection's series in the parallel coordinates, which the view updates in place. */
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
        // Over the lines, on a box of the surface colour: 4,000 lines would hide them otherwise.
        axisLabel: { color: palette.muted, fontSize: 10, formatter: (v: number) => formatNumber(v), backgroundColor: palette.surface, padding: [1, 3], borderRadius: 2, hideOverlap: true },
        z: 10,
        areaSelectStyle: { width: 18, borderWidth: 1, color: palette.accent, borderColor: palette.accent, opacity: 0.25 },
      })),
      series,
    },
  };
}

/** The selection's lines (at most PARALLEL_LINE_LIMIT, a stride sample beyond), to merge into the parallel option by id. */
export function parallelSelectionSeries(data: ExplorerData, selection: Int32Array | null): Record<string, unknown> {
  const shown = selection && selection.length ? strideSample(selection, PARALLEL_LINE_LIMIT) : new Int32Array(0);
  // Many lines at once: fainter, so the bundle keeps its shape.
  const opacity = shown.length > 1000 ? 0.25 : shown.length > 100 ? 0.5 : 0.9;
  return { id: SELECTION_SERIES, data: rows(data, shown), lineStyle: { opacity }, inactiveOpacity: opacity, activeOpacity: opacity };
}

/**
 * The 3-D view (M = 3) is a rotatable orthographic projection drawn as a 2-D scatter: each
 * objective is scaled to [-1, 1] over its range (a cube), turned by `yaw` about the vertical
 * axis (f3) and tilted by `pitch` towards the viewer. (echarts-gl would draw it with WebGL, but
 * its post-processing compiles expressions with `new Function`, which the app's Content Security
 * Policy, script-src 'self', forbids.)
 */
export interface View3D {
  /** Radians about the vertical axis. */
  yaw: number;
  /** Radians of elevation: 0 looks level, pi/2 straight down. */
  pitch: number;
}

export const DEFAULT_VIEW3D: View3D = { yaw: -0.75, pitch: 0.45 };

/** The ranges of the three objectives the cube spans. */
export interface Cube {
  lo: [number, number, number];
  hi: [number, number, number];
}

/** The range of each objective over `indices` (a degenerate range gets a width). */
export function cubeOf(data: ExplorerData, indices: Iterable<number>): Cube {
  const lo: [number, number, number] = [Infinity, Infinity, Infinity];
  const hi: [number, number, number] = [-Infinity, -Infinity, -Infinity];
  for (const i of indices)
    for (let k = 0; k < 3; k++) {
      const v = data.objectives[i * 3 + k];
      if (v < lo[k]) lo[k] = v;
      if (v > hi[k]) hi[k] = v;
    }
  for (let k = 0; k < 3; k++) {
    if (!Number.isFinite(lo[k])) [lo[k], hi[k]] = [0, 1];
    else if (hi[k] === lo[k]) [lo[k], hi[k]] = [lo[k] - 0.5, hi[k] + 0.5];
  }
  return { lo, hi };
}

/** The projection of a point given in cube units ([-1, 1] each): [horizontal, vertical, depth (larger: farther)]. */
export function projectUnit(x: number, y: number, z: number, view: View3D): [number, number, number] {
  const cy = Math.cos(view.yaw);
  const sy = Math.sin(view.yaw);
  const cp = Math.cos(view.pitch);
  const sp = Math.sin(view.pitch);
  const u = x * cy - y * sy;
  const w = x * sy + y * cy;
  return [u, z * cp + w * sp, w * cp - z * sp];
}

/** Objective vector -> cube units. */
const toUnit = (v: number, lo: number, hi: number) => (2 * (v - lo)) / (hi - lo) - 1;

/** The projected [u0, v0, u1, v1, ...] of points `indices`. */
export function projectPoints(data: ExplorerData, indices: Int32Array, cube: Cube, view: View3D): Float32Array {
  const out = new Float32Array(indices.length * 2);
  const cy = Math.cos(view.yaw);
  const sy = Math.sin(view.yaw);
  const cp = Math.cos(view.pitch);
  const sp = Math.sin(view.pitch);
  const f = data.objectives;
  const [l0, l1, l2] = cube.lo;
  const [h0, h1, h2] = cube.hi;
  for (let j = 0; j < indices.length; j++) {
    const b = indices[j] * 3;
    const x = toUnit(f[b], l0, h0);
    const y = toUnit(f[b + 1], l1, h1);
    const z = toUnit(f[b + 2], l2, h2);
    out[2 * j] = x * cy - y * sy;
    out[2 * j + 1] = z * cp + (x * sy + y * cy) * sp;
  }
  return out;
}

/** Half the side of the square the projection is drawn in: the cube's diagonal fits whatever the angles. */
export const VIEW3D_EXTENT = 1.8;

/** How far along its edge (a fraction of it) an axis's end value is written in the 3-D view. */
const END_LABEL_INSET = 0.14;

/** The 12 edges of the cube and the axes' names and end values, as line segments and labels in projected units. */
function cubeFrame(names: readonly string[], cube: Cube, view: View3D) {
  const corner = (x: number, y: number, z: number) => projectUnit(x, y, z, view);
  const edges: [number, number, number][][] = [];
  for (const a of [-1, 1])
    for (const b of [-1, 1]) {
      edges.push([corner(-1, a, b), corner(1, a, b)]);
      edges.push([corner(a, -1, b), corner(a, 1, b)]);
      edges.push([corner(a, b, -1), corner(a, b, 1)]);
    }
  // Each axis is labelled on its nearest edge: f1 and f2 along the bottom, f3 on the leftmost upright.
  const nearest = (candidates: [number, number, number][][], by: (e: [number, number, number][]) => number) => candidates.reduce((best, e) => (by(e) < by(best) ? e : best));
  const depth = (e: [number, number, number][]) => e[0][2] + e[1][2];
  const axisEdges = [
    nearest([[corner(-1, -1, -1), corner(1, -1, -1)], [corner(-1, 1, -1), corner(1, 1, -1)]], depth),
    nearest([[corner(-1, -1, -1), corner(-1, 1, -1)], [corner(1, -1, -1), corner(1, 1, -1)]], depth),
    nearest(
      [-1, 1].flatMap((a) => [-1, 1].map((b) => [corner(a, b, -1), corner(a, b, 1)])),
      (e) => e[0][0] + 0.01 * depth(e),
    ),
  ];
  // An end's value sits a little inside its edge, not on the corner, which the edge shares with
  // another axis's (whose own end label would be drawn on the same spot).
  const along = (e: [number, number, number][], t: number) => [e[0][0] + t * (e[1][0] - e[0][0]), e[0][1] + t * (e[1][1] - e[0][1])];
  const labels = axisEdges.flatMap((e, k) => [
    { value: along(e, 0.5), text: names[k], bold: true },
    { value: along(e, END_LABEL_INSET), text: formatNumber(Number(cube.lo[k].toPrecision(3))), bold: false },
    { value: along(e, 1 - END_LABEL_INSET), text: formatNumber(Number(cube.hi[k].toPrecision(3))), bold: false },
  ]);
  return { edges, labels };
}

export interface Scatter3DInput {
  data: ExplorerData;
  groups: readonly SeriesGroup[];
  hidden: ReadonlySet<string>;
  cube: Cube;
  view: View3D;
  /** Draw at most this many points (a stride sample; while the view turns). */
  limit?: number;
  /** Side of the square plot, pixels. */
  side?: number;
  palette?: ChartPalette;
}

/**
 * M = 3: the projection of every shown point (or a sample of `limit` while the view turns) into a
 * square plot without axes, the cube's frame and the axes' names and ranges drawn over it.
 */
export function scatter3DOption({ data, groups, hidden, cube, view, limit = Infinity, side = 380, palette = LIGHT_PALETTE }: Scatter3DInput): { option: EChartsCoreOption; lookup: PointLookup } {
  const total = groups.reduce((s, g) => s + g.indices.length, 0);
  const shown = groups.map((g) => (limit < total ? strideSample(g.indices, Math.max(1, Math.round((limit * g.indices.length) / total))) : g.indices));
  // Painter's order: the series whose points lie farther away on average are drawn first.
  const depthOf = (indices: Int32Array) => {
    const mean = [0, 0, 0];
    for (const i of indices) for (let k = 0; k < 3; k++) mean[k] += toUnit(data.objectives[i * 3 + k], cube.lo[k], cube.hi[k]) / indices.length;
    return projectUnit(mean[0], mean[1], mean[2], view)[2];
  };
  const order = groups.map((_, gi) => gi).sort((a, b) => depthOf(shown[b]) - depthOf(shown[a]));
  const series: Record<string, unknown>[] = order.map((gi) => ({ ...pointSeries(data, groups[gi], shown[gi], palette, projectPoints(data, shown[gi], cube, view), total), id: `points-${groups[gi].name}` }));
  const seriesPoints: (Int32Array | null)[] = order.map((gi) => shown[gi]);
  const frame = cubeFrame(data.objectiveNames, cube, view);
  series.push({
    id: 'frame',
    name: 'frame',
    type: 'line',
    data: frame.edges.flatMap((e) => [[e[0][0], e[0][1]], [e[1][0], e[1][1]], '-']),
    connectNulls: false,
    showSymbol: false,
    silent: true,
    lineStyle: { color: palette.axis, width: 1 },
    z: 1,
  });
  series.push({
    id: 'axis-labels',
    name: 'axis labels',
    type: 'scatter',
    symbolSize: 0,
    silent: true,
    data: frame.labels.map((l) => ({ value: l.value, label: { formatter: l.text, fontWeight: l.bold ? 600 : 400, color: l.bold ? palette.text : palette.muted } })),
    label: { show: true, fontSize: 11, backgroundColor: palette.surface, padding: [1, 3], borderRadius: 3 },
    // Labels that would still overlap (a view turned edge-on) are left out rather than drawn over each other.
    labelLayout: { hideOverlap: true },
    tooltip: { show: false },
    z: 5,
  });
  seriesPoints.push(null, null);
  const lookup: PointLookup = { seriesPoints };
  const extent = { min: -VIEW3D_EXTENT, max: VIEW3D_EXTENT, show: false };
  return {
    lookup,
    option: {
      legend: { data: groups.map((g) => g.name), selected: Object.fromEntries(groups.map((g) => [g.name, !hidden.has(g.name)])), type: 'scroll', left: 8, right: 36 },
      // A square plot in the middle: the projection keeps its proportions.
      grid: { left: 'center', top: 36, width: side, height: side, outerBoundsMode: 'none' },
      xAxis: { type: 'value', ...extent },
      yAxis: { type: 'value', ...extent },
      tooltip: pointTooltipOption(data, lookup),
      series,
    },
  };
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
      { name: 'points', type: 'scatter', data: points.map((p) => [p[0], p[1]]), symbolSize: points.length > LARGE_THRESHOLD ? 3 : 5, large: points.length > LARGE_THRESHOLD, itemStyle: { color: c, opacity: 0.5, borderWidth: 0 }, z: 1 },
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
