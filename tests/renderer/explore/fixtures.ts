// Explorer data for the tests: a small synthetic front as ExplorerData, and stored-looking
// experiment results built from plain records.
import type { ExperimentRunResult, ExperimentSpec } from '../../../src-shared/projects/project-api.ts';
import type { SolutionRecord, SolverResult } from '../../../src-shared/solvers/types.ts';
import { syntheticFront } from '../../../src-shared/charts/synthetic-front.ts';
import { fromSynthetic, type ExplorerData } from '../../../src-renderer/logic/explore/front-data.ts';

export function smallFront(points = 400, objectives = 3, seed = 5): ExplorerData {
  return fromSynthetic(syntheticFront({ points, objectives, seed, infeasibleFraction: 0.1 }), 'test front');
}

export function solution(x: string, objectives: number[], feasible = true, violation = 0): SolutionRecord {
  return { x, objectives, constraints: [], feasible, violation };
}

export function result(front: SolutionRecord[], best: SolutionRecord | null = null): SolverResult {
  return {
    solver: 'nsga2',
    params: {},
    seed: 1,
    track: 'mo2',
    n: 8,
    objectiveCount: front[0]?.objectives.length ?? best?.objectives.length ?? 2,
    termination: { maxEvaluations: 100 },
    evaluations: 100,
    seconds: 0.1,
    success: front.length > 0,
    message: '',
    stopReason: 'evaluations',
    best,
    bestFoundAt: null,
    firstFeasibleAt: null,
    front,
    trace: [],
  };
}

export function runResult(id: string, label: string, seed: number, r: SolverResult | null, instance = 'mo2-n8'): ExperimentRunResult {
  return { id, instance, label, solver: label, seed, status: r ? 'done' : 'failed', error: r ? null : 'boom', result: r };
}

export const SPEC: ExperimentSpec = {
  name: 'study',
  instances: [
    { name: 'so-n8', track: 'so', n: 8 },
    { name: 'mo2-n8', track: 'mo2', n: 8, normalisation: { ideal: [0, 0], nadir: [10, 20] } },
  ],
  solvers: [{ name: 'nsga2' }, { name: 'moead-ls' }],
  seeds: [1, 2],
  budget: { evaluations: 100 },
};
