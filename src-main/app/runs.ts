/**
 * The app's runs planned: a start request of any kind (the API's startRun) by its kind's
 * descriptor (run-kinds.ts: checked as the CLI checks its options, what the worker runs, what
 * the run is, how its result is reported), and a run of an experiment's grid. The API's
 * RunService (run-service.ts) is generic over the plans.
 */
import type { StartRunRequest } from '../../src-shared/api.ts';
import { trackOf } from '../../src-shared/problems/dice/config.ts';
import { requestOf, type RunSpec } from '../../src-shared/experiments/grid.ts';
import { isRunKindName, RUN_KIND_NAMES, type DiceRunRequest, type RunKindName } from '../../src-shared/runtime/kinds/index.ts';
import type { AnyRunPlan, RunPlan } from './launcher.ts';
import { RUN_KIND_DESCRIPTORS, RunRequestError, type PlanContext, type RunKindDescriptor } from './run-kinds.ts';

/**
 * A run of an experiment's grid, for the CLI's `experiment run` and the app's sessions alike
 * (src-main/app/experiment-executor.ts): its request (requestOf, the one a verification runs
 * inline too). A multi-objective run's default HV normalisation is not in it: whoever launches
 * it has it computed once per instance in a worker before the run starts (hvPreparation),
 * instead of in every run's worker. `experiment` names it in its title and tag (null:
 * untagged, as the CLI's).
 */
export function planGridRun(run: RunSpec, experiment: string | null, options: { snapshotIntervalMs?: number } = {}): RunPlan<'dice'> {
  const m = run.config.objectives.length;
  const request: DiceRunRequest = requestOf(run, options.snapshotIntervalMs);
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
      hvNormalisation: null,
      experiment: experiment === null ? null : { name: experiment, id: run.id, instance: run.instance, label: run.label },
    },
    report: (result) => result,
  };
}

/**
 * Checks and plans a start request of any kind (dice when `kind` is left out or null). The plan
 * is what will run; a program in it runs only after the program gate admits it (program-gate.ts:
 * RunService and the executors call gate.admit on the plan, not on this request).
 */
export async function planRun(start: StartRunRequest, context: PlanContext = {}): Promise<AnyRunPlan> {
  const quoted = RUN_KIND_NAMES.map((k) => `"${k}"`);
  const kinds = quoted.length > 1 ? `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}` : quoted.join('');
  if (typeof start !== 'object' || start === null || Array.isArray(start)) throw new RunRequestError('request', `must be an object with a kind (${kinds})`);
  const kind = start.kind ?? 'dice';
  if (!isRunKindName(kind)) throw new RunRequestError('kind', `must be ${kinds}, got ${JSON.stringify(kind)}`);
  return (await (RUN_KIND_DESCRIPTORS[kind] as RunKindDescriptor<RunKindName>).plan(start as never, context)) as AnyRunPlan;
}
