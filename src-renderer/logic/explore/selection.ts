/**
 * The explorer's selection: the points inside a brushed region, computed on the typed arrays
 * (one pass, no worker: 100,000 points take about a millisecond), and what the selection list
 * and its exports show. A region is a box: for some objectives, one or more closed intervals
 * (ends included, as ECharts' own brush tests them); a point is inside when each of those
 * objectives lies in one of its intervals.
 */
import type { ExplorerData } from './front-data.ts';
import { csvField } from '../../../src-shared/base/csv.ts';
import { objectivesOf, runLabel } from './front-data.ts';

/** Closed intervals [lo, hi] of one objective (0-based index). */
export interface ObjectiveRange {
  objective: number;
  intervals: readonly (readonly [number, number])[];
}

/** Where a selection was made. */
export type SelectionSource = 'scatter' | 'matrix' | 'parallel';

export interface Selection {
  /** Point indices, ascending. */
  indices: Int32Array;
  source: SelectionSource;
  /** The brushed region, in raw objective units. */
  ranges: readonly ObjectiveRange[];
}

/** The visible points inside every range (ranges on different objectives: all must hold). */
export function selectInRanges(data: ExplorerData, visible: Uint8Array, ranges: readonly ObjectiveRange[]): Int32Array {
  const m = data.objectiveCount;
  const f = data.objectives;
  // The ranges flattened into typed arrays: range a tests objective[a] against the intervals
  // first[a] .. first[a + 1] - 1 of lo and hi (no iterator or destructuring per point).
  const active = ranges.filter((r) => r.intervals.length > 0);
  const objective = Int32Array.from(active, (r) => r.objective);
  const first = new Int32Array(active.length + 1);
  active.forEach((r, a) => (first[a + 1] = first[a] + r.intervals.length));
  const lo = Float64Array.from(active.flatMap((r) => r.intervals.map((iv) => iv[0])));
  const hi = Float64Array.from(active.flatMap((r) => r.intervals.map((iv) => iv[1])));
  const nActive = active.length;
  const found = new Int32Array(data.count);
  let n = 0;
  for (let i = 0; i < data.count; i++) {
    if (!visible[i]) continue;
    const base = i * m;
    let a = 0;
    for (; a < nActive; a++) {
      const v = f[base + objective[a]];
      let q = first[a];
      const qEnd = first[a + 1];
      while (q < qEnd && !(v >= lo[q] && v <= hi[q])) q++;
      if (q === qEnd) break;
    }
    if (a === nActive) found[n++] = i;
  }
  return found.slice(0, n);
}

/** A rectangle brushed on objectives xi (horizontal) and yi (vertical), ends in any order. */
export function rectRanges(xi: number, yi: number, xRange: readonly [number, number], yRange: readonly [number, number]): ObjectiveRange[] {
  const sorted = (r: readonly [number, number]): [number, number] => (r[0] <= r[1] ? [r[0], r[1]] : [r[1], r[0]]);
  return [
    { objective: xi, intervals: [sorted(xRange)] },
    { objective: yi, intervals: [sorted(yRange)] },
  ];
}

/** The selection without the points that are no longer visible (a run or series hidden since). */
export function keepVisible(selection: Selection, visible: Uint8Array): Selection {
  let n = 0;
  for (const i of selection.indices) if (visible[i]) n++;
  if (n === selection.indices.length) return selection;
  const indices = new Int32Array(n);
  n = 0;
  for (const i of selection.indices) if (visible[i]) indices[n++] = i;
  return { ...selection, indices };
}

/** "f1 (F1–F5) in [12.5, 40]; f2 (F6–F10) in [3, 9.25]". */
export function describeRanges(data: ExplorerData, ranges: readonly ObjectiveRange[], format: (v: number) => string): string {
  return ranges
    .filter((r) => r.intervals.length)
    .map((r) => `${data.objectiveNames[r.objective]} in ${r.intervals.map(([lo, hi]) => `[${format(lo)}, ${format(hi)}]`).join(' or ')}`)
    .join('; ');
}

/** One row of the selection list and of its exports. */
export interface SelectedSolution {
  /** The point's index in the explorer's data. */
  point: number;
  run: string;
  solver: string;
  seed: number;
  objectives: number[];
  feasible: boolean;
  violation: number;
  x: string | null;
}

export function selectedSolution(data: ExplorerData, i: number): SelectedSolution {
  const run = data.runs[data.run[i]];
  return {
    point: i,
    run: run.id,
    solver: run.solver,
    seed: run.seed,
    objectives: objectivesOf(data, i),
    feasible: data.feasible[i] === 1,
    violation: data.violation[i],
    x: data.x[i],
  };
}

/**
 * The selection as CSV: a header, then one row per solution with its run id, solver, seed,
 * f1..fM (full precision: JavaScript's shortest round-trip form), feasible, violation and x.
 */
export function selectionCsv(data: ExplorerData, indices: Int32Array): string {
  const header = ['run', 'solver', 'seed', ...data.objectiveNames.map((_, k) => `f${k + 1}`), 'feasible', 'violation', 'x'];
  const lines = [header.join(',')];
  for (const i of indices) {
    const s = selectedSolution(data, i);
    lines.push([s.run, s.solver, s.seed, ...s.objectives, s.feasible, s.violation, s.x].map(csvField).join(','));
  }
  return lines.join('\r\n') + '\r\n';
}

/** The selection as JSON: where it comes from, the region, and every solution with its values. */
export function selectionJson(data: ExplorerData, selection: Selection): string {
  return JSON.stringify(
    {
      source: data.title,
      objectives: data.objectiveNames,
      region: selection.ranges.map((r) => ({ objective: `f${r.objective + 1}`, intervals: r.intervals })),
      count: selection.indices.length,
      solutions: Array.from(selection.indices, (i) => {
        const s = selectedSolution(data, i);
        return {
          run: s.run,
          label: runLabel(data.runs[data.run[i]]),
          solver: s.solver,
          seed: s.seed,
          objectives: s.objectives,
          feasible: s.feasible,
          violation: s.violation,
          x: s.x,
        };
      }),
    },
    null,
    2,
  );
}
