/**
 * The report's empirical attainment data for an M = 2 instance: each solver's best, median and
 * worst attainment surfaces over its runs, and the EAF difference of the baseline against each
 * other solver, coarsened to a grid that a chart can draw in a few hundred rectangles however
 * many the exact difference has.
 */
import { attainmentSummary, eafDifference, type EafRectangle, type RunFronts } from '../../src-shared/metrics/attainment.ts';
import { paddedBoundsOf } from '../../src-shared/charts/axes.ts';
import type { AttainmentData, AttainmentLevel, AttainmentSolver, EafDifferenceData } from './types.ts';

/** The grid the EAF differences are drawn on (columns along f1, rows along f2). */
export const EAF_GRID = { columns: 96, rows: 64 } as const;

/** Grid values are rounded to this many decimals: the float noise of summing areas goes, nothing else. */
const DECIMALS = 9;

/** A uniform grid: `count` cells of `step` from `start`. */
export interface UniformAxis {
  start: number;
  step: number;
  count: number;
}

export const axisEdges = (a: UniformAxis): number[] =>
  Array.from({ length: a.count + 1 }, (_, i) => (i === a.count ? a.start + a.step * a.count : a.start + a.step * i));

/** Cells [first, end) of an axis that an interval covers, each by `length`: at most three runs (partial, whole cells, partial). */
function pieces(lo: number, hi: number, axis: UniformAxis): { first: number; end: number; length: number }[] {
  const top = axis.start + axis.step * axis.count;
  const a = Math.max(lo, axis.start);
  const b = Math.min(hi, top);
  if (!(b > a)) return [];
  const cell = (v: number) => Math.min(axis.count - 1, Math.max(0, Math.floor((v - axis.start) / axis.step)));
  const i = cell(a);
  const j = cell(b);
  const edge = (k: number) => axis.start + axis.step * k;
  if (i === j) return [{ first: i, end: i + 1, length: b - a }];
  const out = [{ first: i, end: i + 1, length: edge(i + 1) - a }];
  if (j > i + 1) out.push({ first: i + 1, end: j, length: axis.step });
  const last = b - edge(j);
  if (last > 0) out.push({ first: j, end: j + 1, length: last });
  return out;
}

/**
 * The mean of a function that is `value` on each rectangle and 0 elsewhere, over each cell of a
 * uniform grid: cells[row][column]. A rectangle's overlap with a cell is its x overlap times its
 * y overlap, and along each axis it covers at most a partial cell, whole cells and a partial
 * cell; so it adds a constant to at most 3 x 3 blocks of cells, each added in O(1) to a 2-D
 * difference array. O(rectangles + cells).
 */
export function coarsenRectangles(rectangles: readonly EafRectangle[], x: UniformAxis, y: UniformAxis): number[][] {
  const width = x.count + 1;
  const diff = new Float64Array((y.count + 1) * width);
  for (const r of rectangles) {
    const px = pieces(r.x0, r.x1, x);
    if (!px.length) continue;
    for (const py of pieces(r.y0, r.y1, y))
      for (const p of px) {
        const add = r.value * p.length * py.length;
        diff[py.first * width + p.first] += add;
        diff[py.first * width + p.end] -= add;
        diff[py.end * width + p.first] -= add;
        diff[py.end * width + p.end] += add;
      }
  }
  // Prefix sums along rows, then columns, give each cell's integral.
  for (let row = 0; row < y.count; row++) for (let col = 1; col < x.count; col++) diff[row * width + col] += diff[row * width + col - 1];
  for (let row = 1; row < y.count; row++) for (let col = 0; col < x.count; col++) diff[row * width + col] += diff[(row - 1) * width + col];
  const area = x.step * y.step;
  const scale = 10 ** DECIMALS;
  return Array.from({ length: y.count }, (_, row) =>
    Array.from({ length: x.count }, (_, col) => {
      const mean = Math.round((diff[row * width + col] / area) * scale) / scale;
      return mean === 0 ? 0 : mean; // no -0
    }),
  );
}

const level = (s: { level: number; fraction: number; points: number[][] }): AttainmentLevel => ({
  level: s.level,
  fraction: s.fraction,
  points: s.points.map((p) => [p[0], p[1]]),
});

/**
 * The attainment data of one M = 2 instance from each solver's runs' fronts (solvers without a
 * done run left out); the differences are the baseline's against each other solver.
 */
export function attainmentData(
  solvers: readonly { solver: string; fronts: RunFronts }[],
  baseline: string,
  grid: { columns: number; rows: number } = EAF_GRID,
): AttainmentData | null {
  const withRuns = solvers.filter((s) => s.fronts.length > 0);
  if (!withRuns.length) return null;
  const objective = function* (d: 0 | 1) {
    for (const s of withRuns) for (const front of s.fronts) for (const p of front) yield p[d];
  };
  const ex = paddedBoundsOf(objective(0));
  const ey = paddedBoundsOf(objective(1));
  const xAxis: UniformAxis = { start: ex.min, step: (ex.max - ex.min) / grid.columns, count: grid.columns };
  const yAxis: UniformAxis = { start: ey.min, step: (ey.max - ey.min) / grid.rows, count: grid.rows };

  const surfaces: AttainmentSolver[] = withRuns.map((s) => {
    const summary = attainmentSummary(s.fronts);
    return { solver: s.solver, runs: summary.runs, best: level(summary.best), median: level(summary.median), worst: level(summary.worst) };
  });
  const base = withRuns.find((s) => s.solver === baseline);
  const differences: EafDifferenceData[] = base
    ? withRuns
        .filter((s) => s !== base)
        .map((other) => {
          const rectangles = eafDifference(base.fronts, other.fronts);
          let min = 0;
          let max = 0;
          for (const r of rectangles) {
            min = Math.min(min, r.value);
            max = Math.max(max, r.value);
          }
          return {
            a: base.solver,
            b: other.solver,
            runsA: base.fronts.length,
            runsB: other.fronts.length,
            rectangles: rectangles.length,
            min,
            max,
            xEdges: axisEdges(xAxis),
            yEdges: axisEdges(yAxis),
            cells: coarsenRectangles(rectangles, xAxis, yAxis),
          };
        })
    : [];
  return {
    caption: `From each done run's feasible front, in raw objectives (both minimised); a run with an empty front attains nothing but counts. The k-th attainment surface bounds the points at least k of a solver's n runs attain (weakly dominate): best k = 1, median k = ceil(n/2), worst k = n.`,
    axes: ['f1', 'f2'],
    extent: { x: [ex.min, ex.max], y: [ey.min, ey.max] },
    solvers: surfaces,
    differences,
  };
}
