/**
 * Every solver, one line each, and the default solver per track. To add a solver: export a
 * SolverInfo from its module and add one line to `solvers` (and change a DEFAULT_SOLVERS line
 * if it becomes the strongest for a track).
 */
import type { TrackName } from '../problems/dice/config.ts';
import { describeParam } from '../core/params.ts';
import type { Solver, SolverInfo } from './types.ts';
import type { ParamDescriptor, ParamValues } from '../core/params.ts';
import type { Problem } from '../core/problem.ts';
import { hasCapability } from '../core/problem.ts';
import { handlesObjectives } from './objective-support.ts';
import { randomSearch } from './so/random-search.ts';
import { nsga2 } from './mo/nsga2.ts';
import { nsga3 } from './mo/nsga3.ts';
import { moeadLs } from './mo/moead-ls.ts';
import { barrierMo } from './mo/barrier-mo.ts';
import { geneticAlgorithm } from './so/ga.ts';
import { firstImprovement, steepest } from './so/hill-climbing.ts';
import { annealing } from './so/annealing.ts';
import { tabu } from './so/tabu.ts';
import { iteratedLocalSearch } from './so/ils.ts';
import { barrierLocalSearch } from './so/barrier-ls.ts';

export const solvers: readonly SolverInfo[] = [
  randomSearch,
  nsga2,
  nsga3,
  moeadLs,
  barrierMo,
  geneticAlgorithm,
  firstImprovement,
  steepest,
  annealing,
  tabu,
  iteratedLocalSearch,
  barrierLocalSearch,
];

/** The strongest solver per track (what `saikoro solve` runs without --solver). */
export const DEFAULT_SOLVERS: Readonly<Record<TrackName, string>> = {
  so: 'barrier-ls',
  mo2: 'barrier-mo',
  mo3: 'barrier-mo',
  mo5: 'barrier-mo',
  mo7: 'barrier-mo',
};

export class SolverError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SolverError';
  }
}

/**
 * Whether a solver handles this problem: its objective count (single, several or any) and the
 * capabilities it requires. The one place that decides it; throws a SolverError that says why.
 */
export function checkSolverFits(info: SolverInfo, problem: Pick<Problem, 'objectiveCount' | 'name'> & Partial<Problem>): void {
  const m = problem.objectiveCount;
  if (m < 1) throw new SolverError('the problem has no objectives; solvers need at least one');
  if (!handlesObjectives(info.objectives, m))
    throw new SolverError(
      info.objectives === 'single'
        ? `solver ${info.name} is single-objective; this problem has ${m} objectives`
        : `solver ${info.name} is multi-objective; this problem has one objective`,
    );
  for (const capability of info.requires ?? []) {
    if (!hasCapability(problem as Problem, capability))
      throw new SolverError(`solver ${info.name} needs ${capability} evaluation, which problem ${problem.name} does not offer`);
  }
}

/** Solvers that handle a problem with M objectives (any capabilities assumed). */
export function solversFor(objectiveCount: number): SolverInfo[] {
  return solvers.filter((s) => handlesObjectives(s.objectives, objectiveCount));
}

/**
 * Runs the solver's setup once on a throwaway instance, so that limits only the problem can
 * decide (NSGA-III's reference directions at this M, a population below the minimum) are
 * reported before any run starts rather than by every run. Throws the setup's ParamError;
 * returns the set-up solver (its effectiveParams show derived sizes).
 */
export function checkSolverSetup(info: SolverInfo, problem: Problem, params: ParamValues): Solver {
  const solver = info.create();
  solver.setup(problem, params, 0);
  return solver;
}

export function solverNames(): string[] {
  return solvers.map((s) => s.name);
}

/** The solver called `name`; the error lists the known names. */
export function findSolver(name: string): SolverInfo {
  const info = solvers.find((s) => s.name === name);
  if (!info) throw new SolverError(`unknown solver ${JSON.stringify(name)} (known: ${solverNames().join(', ')})`);
  return info;
}

/** The default solver for a track, or for M objectives when the grouping is custom. */
export function defaultSolverFor(track: TrackName | null, objectiveCount = 1): SolverInfo {
  if (track) return findSolver(DEFAULT_SOLVERS[track]);
  const nearest: TrackName = objectiveCount <= 1 ? 'so' : objectiveCount === 2 ? 'mo2' : objectiveCount <= 3 ? 'mo3' : objectiveCount <= 5 ? 'mo5' : 'mo7';
  return findSolver(DEFAULT_SOLVERS[nearest]);
}

/** Serializable solver list (for `saikoro solvers`, IPC and the UI). */
export interface SolverDescriptor {
  name: string;
  title: string;
  summary: string;
  objectives: SolverInfo['objectives'];
  baseline: boolean;
  params: ParamDescriptor[];
}

export function describeSolvers(): SolverDescriptor[] {
  return solvers.map((s) => ({
    name: s.name,
    title: s.title,
    summary: s.summary,
    objectives: s.objectives,
    baseline: s.baseline,
    params: s.params.map(describeParam),
  }));
}
