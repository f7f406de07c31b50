/**
 * Which points the explorer shows and how they are grouped into series: runs chosen by solver
 * and seed, one series per solver (or per run), and one series of every infeasible point
 * (marked apart), each a list of point indices. Legend toggles hide whole series. Pure: typed
 * arrays in, typed arrays out.
 */
import type { ExplorerData } from './front-data.ts';
import { runLabel } from './front-data.ts';

export type ColourBy = 'solver' | 'run';

/** The series that holds every infeasible point shown. */
export const INFEASIBLE_SERIES = 'infeasible';

export interface PointFilter {
  /** Solver labels whose runs are shown. */
  solvers: ReadonlySet<string>;
  /** Seeds whose runs are shown. */
  seeds: ReadonlySet<number>;
  /** Series names hidden by the legend. */
  hidden: ReadonlySet<string>;
}

export interface SeriesGroup {
  /** Legend name: the solver label, the run label, or INFEASIBLE_SERIES. */
  name: string;
  /** Index into the palette's series colours; -1 for the infeasible series (the palette's `bad`). */
  colour: number;
  feasible: boolean;
  /** Point indices, ascending. */
  indices: Int32Array;
  /** Per objective, the smallest and largest value of its points (found while grouping, so axes fit without another pass). */
  min: Float64Array;
  max: Float64Array;
}

export interface Grouping {
  /** Every series with at least one point of a chosen run, hidden ones included (the legend lists them). */
  groups: SeriesGroup[];
  /** 1 where the point is in a chosen run and its series is not hidden. */
  visible: Uint8Array;
  visibleCount: number;
  /** The series index (into `groups`) of every point, -1 where its run is not chosen. */
  groupOf: Int32Array;
}

/** Every solver and seed of the data: nothing filtered out. */
export function allPoints(data: ExplorerData): PointFilter {
  return { solvers: new Set(data.solvers), seeds: new Set(data.seeds), hidden: new Set() };
}

export function groupPoints(data: ExplorerData, filter: PointFilter, colourBy: ColourBy): Grouping {
  const runChosen = data.runs.map((r) => filter.solvers.has(r.solver) && filter.seeds.has(r.seed));
  // Series keys in a stable order: solvers as the data lists them, runs in their order.
  const keyOfRun = data.runs.map((r, i) => (colourBy === 'solver' ? data.solvers.indexOf(r.solver) : i));
  const keyCount = colourBy === 'solver' ? data.solvers.length : data.runs.length;
  const nameOfKey = (key: number) => (colourBy === 'solver' ? data.solvers[key] : runLabel(data.runs[key]));
  const sizes = new Int32Array(keyCount + 1); // the last slot: infeasible
  for (let i = 0; i < data.count; i++) {
    const r = data.run[i];
    if (!runChosen[r]) continue;
    sizes[data.feasible[i] ? keyOfRun[r] : keyCount]++;
  }
  const m = data.objectiveCount;
  const slotToGroup = new Int32Array(keyCount + 1).fill(-1);
  const groups: SeriesGroup[] = [];
  for (let key = 0; key <= keyCount; key++) {
    if (!sizes[key]) continue;
    slotToGroup[key] = groups.length;
    const infeasible = key === keyCount;
    groups.push({
      name: infeasible ? INFEASIBLE_SERIES : nameOfKey(key),
      colour: infeasible ? -1 : key,
      feasible: !infeasible,
      indices: new Int32Array(sizes[key]),
      min: new Float64Array(m).fill(Infinity),
      max: new Float64Array(m).fill(-Infinity),
    });
  }
  const fill = new Int32Array(groups.length);
  const f = data.objectives;
  const groupOf = new Int32Array(data.count).fill(-1);
  const visible = new Uint8Array(data.count);
  const hiddenGroup = groups.map((g) => filter.hidden.has(g.name));
  let visibleCount = 0;
  for (let i = 0; i < data.count; i++) {
    const r = data.run[i];
    if (!runChosen[r]) continue;
    const g = slotToGroup[data.feasible[i] ? keyOfRun[r] : keyCount];
    const group = groups[g];
    group.indices[fill[g]++] = i;
    for (let k = 0, base = i * m; k < m; k++) {
      const v = f[base + k];
      if (v < group.min[k]) group.min[k] = v;
      if (v > group.max[k]) group.max[k] = v;
    }
    groupOf[i] = g;
    if (!hiddenGroup[g]) {
      visible[i] = 1;
      visibleCount++;
    }
  }
  return { groups, visible, visibleCount, groupOf };
}

/**
 * A deterministic sample of at most `limit` of `indices` (every k-th, from the first), for
 * views that cannot draw every point at once; the indices themselves when they fit.
 */
export function strideSample(indices: Int32Array, limit: number): Int32Array {
  if (indices.length <= limit) return indices;
  const step = indices.length / limit;
  const out = new Int32Array(limit);
  for (let j = 0; j < limit; j++) out[j] = indices[Math.floor(j * step)];
  return out;
}

/** The points of `indices` projected on objectives xi and yi, as ECharts' flat [x0, y0, x1, y1, ...]. */
export function projectPairs(data: ExplorerData, indices: Int32Array, xi: number, yi: number): Float32Array {
  const m = data.objectiveCount;
  const out = new Float32Array(indices.length * 2);
  for (let j = 0; j < indices.length; j++) {
    const base = indices[j] * m;
    out[2 * j] = data.objectives[base + xi];
    out[2 * j + 1] = data.objectives[base + yi];
  }
  return out;
}
