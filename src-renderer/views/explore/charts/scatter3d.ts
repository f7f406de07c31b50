/**
 * The 3-D view's option (M = 3): a rotatable orthographic projection drawn as a 2-D scatter: each
 * objective is scaled to [-1, 1] over its range (a cube), turned by `yaw` about the vertical
 * axis (f3) and tilted by `pitch` towards the viewer. (echarts-gl would draw it with WebGL, but
 * its post-processing compiles expressions with `new Function`, which the app's Content Security
 * Policy, script-src 'self', forbids.)
 */
import type { EChartsCoreOption } from 'echarts/core';
import { LIGHT_PALETTE, type ChartPalette } from '../../../../src-shared/charts/palette.ts';
import { formatNumber } from '../../../logic/dice/labels.ts';
import type { ExplorerData } from '../../../logic/explore/front-data.ts';
import { strideSample, type SeriesGroup } from '../../../logic/explore/groups.ts';
import { pointSeries, pointTooltipOption, type PointLookup } from './point-series.ts';

/** How the cube is turned. */
export interface View3D {
  /** Radians about the vertical axis. */
  yaw: number;
  /** Radians of elevation: 0 looks level, pi/2 straight down. */
  pitch: number;
}

/** While the 3-D view turns it draws at most this many points (all of them once it stops). */
export const TURNING_POINT_LIMIT = 15_000;

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
  const nearest = (candidates: [number, number, number][][], by: (e: [number, number, number][]) => number) =>
    candidates.reduce((best, e) => (by(e) < by(best) ? e : best));
  const depth = (e: [number, number, number][]) => e[0][2] + e[1][2];
  const axisEdges = [
    nearest(
      [
        [corner(-1, -1, -1), corner(1, -1, -1)],
        [corner(-1, 1, -1), corner(1, 1, -1)],
      ],
      depth,
    ),
    nearest(
      [
        [corner(-1, -1, -1), corner(-1, 1, -1)],
        [corner(1, -1, -1), corner(1, 1, -1)],
      ],
      depth,
    ),
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
export function scatter3DOption({ data, groups, hidden, cube, view, limit = Infinity, side = 380, palette = LIGHT_PALETTE }: Scatter3DInput): {
  option: EChartsCoreOption;
  lookup: PointLookup;
} {
  const total = groups.reduce((s, g) => s + g.indices.length, 0);
  const shown = groups.map((g) => (limit < total ? strideSample(g.indices, Math.max(1, Math.round((limit * g.indices.length) / total))) : g.indices));
  // Painter's order: the series whose points lie farther away on average are drawn first.
  const depthOf = (indices: Int32Array) => {
    const mean = [0, 0, 0];
    for (const i of indices) for (let k = 0; k < 3; k++) mean[k] += toUnit(data.objectives[i * 3 + k], cube.lo[k], cube.hi[k]) / indices.length;
    return projectUnit(mean[0], mean[1], mean[2], view)[2];
  };
  const order = groups.map((_, gi) => gi).sort((a, b) => depthOf(shown[b]) - depthOf(shown[a]));
  const series: Record<string, unknown>[] = order.map((gi) => ({
    ...pointSeries(data, groups[gi], shown[gi], palette, projectPoints(data, shown[gi], cube, view), total),
    id: `points-${groups[gi].name}`,
  }));
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
    data: frame.labels.map((l) => ({
      value: l.value,
      label: { formatter: l.text, fontWeight: l.bold ? 600 : 400, color: l.bold ? palette.text : palette.muted },
    })),
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
      legend: {
        data: groups.map((g) => g.name),
        selected: Object.fromEntries(groups.map((g) => [g.name, !hidden.has(g.name)])),
        type: 'scroll',
        left: 8,
        right: 36,
      },
      // A square plot in the middle: the projection keeps its proportions.
      grid: { left: 'center', top: 36, width: side, height: side, outerBoundsMode: 'none' },
      xAxis: { type: 'value', ...extent },
      yAxis: { type: 'value', ...extent },
      tooltip: pointTooltipOption(data, lookup),
      series,
    },
  };
}
