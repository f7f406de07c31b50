/**
 * The app's runs of every kind, planned from the API's StartRunRequest: one planner per kind,
 * each answering what the worker runs, what the run is (RunStarted, without id and time) and
 * how its result is reported. The API's RunService (src-main/api/runs.ts) is generic over it.
 * To add a kind here: one entry in PLANNERS.
 */
import type { RunStarted, StartDiceRun, StartNqueensRun, StartRunRequest } from '../../src-shared/api.ts';
import { DEFAULT_N, diceConfig, trackOf } from '../../src-shared/problems/dice/config.ts';
import type { RunSpec } from '../../src-shared/experiments/grid.ts';
import { gridRequest } from '../experiments/programs.ts';
import type { DiceRunRequest } from '../../src-shared/runtime/kinds/index.ts';
import { createDiceProblem } from '../../src-shared/solvers/problem.ts';
import { memoryRefusal } from '../../src-shared/solvers/memory.ts';
import { chooseSolver, hvNormalisationForAsync, planDiceRun, solverParams } from './dice.ts';
import { planNqueensRun } from './nqueens.ts';
import type { AnyRunPlan, RunPlan } from './launcher.ts';
import { FieldError } from '../../src-shared/base/field-error.ts';

/** The largest budget one app run may ask for. */
export const MAX_RUN_EVALUATIONS = 1e9;

/** A bad field of a start request, named as the API takes it. */
export class RunRequestError extends FieldError {
  override readonly name = 'RunRequestError';
}

/** What the planners need to know of where the run will go. */
export interface PlanContext {
  /** The memory limit of the host's workers (MB; null: none): settings that cannot fit are refused. */
  memoryLimitMb?: number | null;
}

async function planDice(start: StartDiceRun, context: PlanContext): Promise<RunPlan<'dice'>> {
  const { seed, evaluations } = start;
  if (!Number.isSafeInteger(seed) || seed < 0) throw new RunRequestError('seed', `must be an integer from 0 to 2^53 - 1, got ${JSON.stringify(seed)}`);
  if (!Number.isSafeInteger(evaluations) || evaluations < 1 || evaluations > MAX_RUN_EVALUATIONS)
    throw new RunRequestError('evaluations', `must be an integer from 1 to ${MAX_RUN_EVALUATIONS}, got ${JSON.stringify(evaluations)}`);
  if (start.wholeBudget !== undefined && typeof start.wholeBudget !== 'boolean') throw new RunRequestError('wholeBudget', `must be true or false, got ${JSON.stringify(start.wholeBudget)}`);
  if (start.config !== undefined && (typeof start.config !== 'object' || start.config === null || Array.isArray(start.config))) throw new RunRequestError('config', 'must be an object of config fields');
  const config = diceConfig({ ...start.config, n: start.config?.n ?? DEFAULT_N });
  const input = { config, solver: start.solver, params: start.params ?? {}, seed, evaluations, wholeBudget: start.wholeBudget, workerMemoryLimitMb: context.memoryLimitMb ?? null };
  // A bad solver or parameter is refused before the (slow, at large N) normalisation is computed.
  const problem = createDiceProblem(config);
  const info = chooseSolver(problem, start.solver);
  const { params } = solverParams(info, problem, input.params);
  const tooBig = memoryRefusal({ solver: info.name, params, n: config.n, objectiveCount: problem.objectiveCount }, input.workerMemoryLimitMb);
  if (tooBig) throw new RunRequestError('params', tooBig);
  const hvNormalisation = problem.objectiveCount >= 2 ? await hvNormalisationForAsync(config) : null;
  return planDiceRun(input, { hvNormalisation });
}

/**
 * A run of an experiment's grid, for the CLI's `experiment run` and the app's sessions alike
 * (src-main/experiments/executor.ts): its request (requestOf, the one a verification runs
 * inline too) plus the instance's default HV normalisation, computed once here instead of in
 * every worker. `experiment` names it in its title and tag (null: untagged, as the CLI's).
 */
export async function planGridRun(run: RunSpec, experiment: string | null, options: { snapshotIntervalMs?: number; projectDir?: string | null } = {}): Promise<RunPlan<'dice'>> {
  const m = run.config.objectives.length;
  const hvNormalisation = m >= 2 ? await hvNormalisationForAsync(run.config) : null;
  const request: DiceRunRequest = { ...gridRequest(run, options.projectDir ?? null, options.snapshotIntervalMs), ...(hvNormalisation ? { hvNormalisation } : {}) };
  const track = trackOf(run.config.objectives) ?? null;
  return {
    kind: 'dice',
    request,
    started: {
      kind: 'dice',
      title: `${run.label} on ${run.instance}, seed ${run.seed}${experiment === null ? '' : ` (${experiment})`}`,
      solver: run.solver,
      ...(request.program ? { program: request.program } : {}),
      params: run.params,
      seed: run.seed,
      n: run.config.n,
      track,
      objectiveCount: m,
      config: run.config,
      evaluations: run.budget.evaluations,
      target: run.budget.target ?? null,
      hvNormalisation,
      experiment: experiment === null ? null : { name: experiment, id: run.id, instance: run.instance, label: run.label },
    },
    report: (result) => result,
  };
}

/** Checks and plans a start request of any kind (dice when `kind` is left out). */
export async function planRun(start: StartRunRequest, context: PlanContext = {}): Promise<AnyRunPlan> {
  if (typeof start !== 'object' || start === null || Array.isArray(start)) throw new RunRequestError('request', 'must be an object with a kind ("dice" or "nqueens")');
  const kind = start.kind ?? 'dice';
  if (kind === 'dice') return planDice(start as StartDiceRun, context);
  if (kind === 'nqueens') return planNqueensRun(start as StartNqueensRun);
  throw new RunRequestError('kind', `must be "dice" or "nqueens", got ${JSON.stringify(kind)}`);
}

export type { RunStarted };
