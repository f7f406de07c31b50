/**
 * A seeded synthetic Pareto front of any size, for the Pareto explorer's benchmark
 * (`saikoro bench pareto`), its scale tests and a demo: several solvers × seeds, each run a
 * cloud of points near a smooth trade-off surface, a few of them infeasible. Not a dice
 * result: the points carry no sequences. Plain data (typed arrays), the same on every platform.
 */
import { Random } from '../random.ts';

export interface SyntheticFrontOptions {
  /** Points in all (default 100,000). */
  points?: number;
  /** Objectives M (default 3). */
  objectives?: number;
  seed?: number;
  /** Solver names (default four). */
  solvers?: readonly string[];
  /** Seeds per solver (default 5). */
  seedsPerSolver?: number;
  /** Fraction of infeasible points (default 0.002). */
  infeasibleFraction?: number;
}

export interface SyntheticFront {
  objectiveCount: number;
  count: number;
  /** count × M, row-major. */
  objectives: Float64Array;
  /** The run of each point: an index into `runs`. */
  run: Int32Array;
  /** 1 feasible, 0 infeasible. */
  feasible: Uint8Array;
  runs: { solver: string; seed: number }[];
  /** Objective values mapped to 0 and 1 by a normalisation (as an instance's HV normalisation). */
  ideal: number[];
  nadir: number[];
}

export const SYNTHETIC_SOLVERS = ['nsga2', 'nsga3', 'moead-ls', 'random'] as const;
/** Per-objective scales, about those of the dice objectives at N = 50. */
const SCALES = [100, 80, 120, 90, 110, 70, 130];

export function syntheticFront(options: SyntheticFrontOptions = {}): SyntheticFront {
  const count = options.points ?? 100_000;
  const m = options.objectives ?? 3;
  const solvers = options.solvers ?? SYNTHETIC_SOLVERS;
  const seedsPerSolver = options.seedsPerSolver ?? 5;
  const infeasible = options.infeasibleFraction ?? 0.002;
  if (!Number.isInteger(count) || count < 0) throw new RangeError(`points must be a non-negative integer, got ${count}`);
  if (!Number.isInteger(m) || m < 2 || m > SCALES.length) throw new RangeError(`objectives must be an integer from 2 to ${SCALES.length}, got ${m}`);
  const random = Random.fromSeed(options.seed ?? 1);
  const runs = solvers.flatMap((solver) => Array.from({ length: seedsPerSolver }, (_, s) => ({ solver, seed: s + 1 })));
  // Each solver sits at its own distance from the ideal surface; each seed a little off that.
  const offsets = runs.map((r) => 0.08 + 0.12 * solvers.indexOf(r.solver) + 0.04 * random.float());
  const objectives = new Float64Array(count * m);
  const run = new Int32Array(count);
  const feasible = new Uint8Array(count);
  const u = new Float64Array(m);
  for (let i = 0; i < count; i++) {
    const r = i % runs.length;
    run[i] = r;
    // A direction u on the positive unit sphere; f = 1 - u bulges towards the origin.
    let norm = 0;
    for (let k = 0; k < m; k++) {
      u[k] = Math.abs(random.normal()) + 1e-9;
      norm += u[k] * u[k];
    }
    norm = Math.sqrt(norm);
    const spread = offsets[r] * (1 + 0.5 * random.float());
    for (let k = 0; k < m; k++) {
      objectives[i * m + k] = SCALES[k] * (1 - u[k] / norm + spread);
    }
    feasible[i] = random.chance(infeasible) ? 0 : 1;
  }
  return {
    objectiveCount: m,
    count,
    objectives,
    run,
    feasible,
    runs,
    ideal: new Array<number>(m).fill(0),
    nadir: SCALES.slice(0, m).map((s) => s * 1.2),
  };
}
