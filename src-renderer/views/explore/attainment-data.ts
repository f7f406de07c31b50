/**
 * The runs of one solver as the attainment functions take them (M = 2): each chosen run's
 * feasible points (a run without one still counts, as a run that attains nothing).
 */
import type { ExplorerData } from '../../logic/explore/front-data.ts';

export interface SolverFronts {
  solver: string;
  /** One front per run of the solver whose seed is chosen: [[f1, f2], ...]. */
  fronts: number[][][];
  /** Every point of those fronts. */
  points: number[][];
}

export function solverFronts(data: ExplorerData, solver: string, seeds: ReadonlySet<number>): SolverFronts {
  const runIndex = new Map<number, number>();
  const fronts: number[][][] = [];
  data.runs.forEach((r, i) => {
    if (r.solver !== solver || !seeds.has(r.seed)) return;
    runIndex.set(i, fronts.length);
    fronts.push([]);
  });
  const points: number[][] = [];
  const m = data.objectiveCount;
  for (let i = 0; i < data.count; i++) {
    const slot = runIndex.get(data.run[i]);
    if (slot === undefined || !data.feasible[i]) continue;
    const p = [data.objectives[i * m], data.objectives[i * m + 1]];
    fronts[slot].push(p);
    points.push(p);
  }
  return { solver, fronts, points };
}

/**
 * The points of `selection` that the attainment chart of `solver` draws: feasible points of its
 * runs whose seed is chosen (ascending, as the selection lists them).
 */
export function selectedOfSolver(data: ExplorerData, selection: Int32Array, solver: string, seeds: ReadonlySet<number>): Int32Array {
  const runs = data.runs.map((r) => r.solver === solver && seeds.has(r.seed));
  return selection.filter((i) => runs[data.run[i]] && data.feasible[i] === 1);
}
