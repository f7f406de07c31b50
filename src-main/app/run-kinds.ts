/**
 * The app side of every kind of run, one descriptor per kind in a type mapped over the kind
 * names, so that the compiler asks for each piece when a kind is added: how a start request is
 * checked and planned (what the worker runs, what the run is, how its result is reported),
 * which worker results are kept for saveRun, and how a finished run is stored in a project.
 * The shared side of a kind (building the run, its progress points) is its RunKind in
 * src-shared/runtime/kinds/. The RunService and the ProjectService are generic over both.
 */
import type { RunApiTypes, SavedRun, StartDiceRun } from '../../src-shared/api.ts';
import { FieldError } from '../../src-shared/base/field-error.ts';
import { isName, NAME_RULE } from '../../src-shared/base/names.ts';
import { DEFAULT_N, diceConfig, type DiceConfig } from '../../src-shared/problems/dice/config.ts';
import { expandGrid, runId } from '../../src-shared/experiments/grid.ts';
import type { RunInfoOf } from '../../src-shared/runtime/run-api.ts';
import type { RunKindName, RunKindTypes } from '../../src-shared/runtime/kinds/index.ts';
import { createDiceProblem } from '../../src-shared/problems/dice/problem.ts';
import { memoryRefusal } from '../../src-shared/solvers/memory.ts';
import { checkProgramSpec, ProgramSpecError, type ProgramSpec } from '../../src-shared/solvers/program/protocol.ts';
import { defaultProgramName } from '../../src-shared/solvers/program/command-line.ts';
import { addExperiment } from '../experiments/add.ts';
import { recordOf } from '../experiments/runner.ts';
import type { Project } from '../project/store.ts';
import { chooseSolver, planDiceRun, solverParams } from './dice.ts';
import { checkExperimentName, checkSpec, ProjectRequestError } from './experiments.ts';
import type { RunPlan } from './launcher.ts';
import { nqueensLabRun, planNqueensRun } from './nqueens.ts';
import { planNqueensSweep } from './nqueens-sweep.ts';

/** The largest budget one app run may ask for. */
export const MAX_RUN_EVALUATIONS = 1e9;

/** A bad field of a start request, named as the API takes it. */
export class RunRequestError extends FieldError {
  override readonly name = 'RunRequestError';
}

/**
 * What the planners need to know of where the run will go. Planning does no heavy work: a
 * multi-objective run's normalisation is left out of its plan (needsHvNormalisation), and the
 * RunService has it computed in a worker after startRun has answered.
 */
export interface PlanContext {
  /** The memory limit of the host's workers (MB; null: none): settings that cannot fit are refused. */
  memoryLimitMb?: number | null;
}

/** A finished run of this app, as saveRun stores it. */
export interface FinishedRun<K extends RunKindName> {
  plan: RunPlan<K>;
  info: RunInfoOf<K>;
  /** The worker's own result (before the API's report). */
  result: RunKindTypes[K]['result'];
}

export interface RunKindDescriptor<K extends RunKindName> {
  /** Checks a start request of this kind as the CLI checks its options (errors name the field) and plans it. */
  plan(start: RunApiTypes[K]['start'], context: PlanContext): RunPlan<K> | Promise<RunPlan<K>>;
  /** Whether a finished run's worker result is kept for saveRun (not a board of a million queens). */
  keepResult(result: RunKindTypes[K]['result']): boolean;
  /**
   * Stores a finished run in the open project (its folder: where solver programs' paths
   * start), as the CLI would store it (same content-hash id); `name` as saveRun got it. A kind
   * whose runs are never stored says why instead (`notStored`, following "run <id> "): saveRun
   * answers that whatever the run's status, before asking for a result it does not keep.
   */
  save: ((target: { project: Project; folder: string }, run: FinishedRun<K>, name: unknown) => SavedRun) | { notStored: string };
}

/** N-Queens results above this N are not kept for saveRun (their queen list alone is 8 bytes per row). */
export const KEEP_QUEENS_UP_TO = 1_000_000;

export const RUN_KIND_DESCRIPTORS: { [K in RunKindName]: RunKindDescriptor<K> } = {
  dice: {
    plan: planDice,
    keepResult: () => true,
    save({ project, folder }, { plan, info, result }, name) {
      const { request } = plan;
      const started = info.started;
      const experimentName =
        name === undefined || name === null
          ? `${request.solver}-${started.track ?? 'custom'}-n${request.config.n}-seed${request.seed}`
          : checkExperimentName(name);
      const { config } = request;
      // The run's own normalisation (computed in a worker before it ran) is the instance's: nothing is computed here.
      const norm = request.hvNormalisation;
      if (config.objectives.length >= 2 && !norm)
        throw new ProjectRequestError('runId', `run ${info.runId} has no hypervolume normalisation to store with its instance`);
      const spec = checkSpec(
        {
          name: experimentName,
          description: `Saved from the app: ${started.title}`,
          instances: [
            {
              name: `${started.track ?? 'custom'}-n${config.n}`,
              track: started.track ?? 'so',
              n: config.n,
              config: {
                alpha: config.alpha,
                beta: config.beta,
                gamma: config.gamma,
                objectives: config.objectives,
                constraints: config.constraints,
                lowerBounds: config.lowerBounds,
                upperBounds: config.upperBounds,
              },
              ...(norm ? { normalisation: { ideal: norm.ideal, nadir: norm.nadir, method: norm.method } } : {}),
            },
          ],
          solvers: [request.program ? { name: request.solver, ...withoutHashes(request.program) } : { name: request.solver, params: request.params }],
          seeds: [request.seed],
          budget: { evaluations: started.evaluations, ...(started.objectiveCount === 1 && started.target === null ? { wholeBudget: true } : {}) },
        },
        folder,
      );
      const [gridRun] = expandGrid(spec);
      // The run the app made is exactly this grid run: its inputs hash to the grid run's id.
      const key = {
        problem: 'dice' as const,
        config,
        solver: request.solver,
        params: request.params,
        seed: request.seed,
        budget: gridRun.budget,
        ...(gridRun.program ? { program: gridRun.program } : {}),
      };
      if (runId(key) !== gridRun.id)
        throw new ProjectRequestError('runId', `run ${info.runId} cannot be stored as an experiment run (its inputs do not match a grid run)`);
      addExperiment(project, spec);
      const finishedAt = new Date();
      const added = project.putRun(
        recordOf(gridRun, { status: 'done', result, error: null, startedAt: new Date(finishedAt.getTime() - result.seconds * 1000), finishedAt }),
      );
      return { as: 'experiment', name: spec.name, id: gridRun.id, added };
    },
  },
  nqueens: {
    plan: (start) => planNqueensRun(start),
    keepResult: (result) => result.n <= KEEP_QUEENS_UP_TO,
    save({ project }, { plan, info, result }) {
      const record = nqueensLabRun(plan.request, { status: 'done', result, reason: null }, info.started.createdAt, result.seconds * 1000);
      const added = project.putLabRun(record);
      return { as: 'lab', name: record.id, id: record.id, added };
    },
  },
  'nqueens-sweep': {
    plan: (start) => planNqueensSweep(start),
    // A sweep is the lab's figures of the moment: its report carries every cell, and it is not stored.
    keepResult: () => false,
    save: {
      notStored:
        "is an N-Queens sweep, which is not stored in a project: a sweep is the lab's figures of the moment (its report, shown in the lab, carries every cell), not one run with a result; save a single run of the lab instead",
    },
  },
};

/** A program entry without stored hashes: they are taken again from the files when it is stored. */
function withoutHashes(program: ProgramSpec): ProgramSpec {
  const { hashes, ...rest } = program;
  void hashes;
  return rest;
}

/** A dice run whose solver is a program (StartDiceRun.program; its cwd already absolute). */
function planProgramRun(start: StartDiceRun, config: DiceConfig): RunPlan<'dice'> {
  if (typeof start.program !== 'object' || start.program === null || Array.isArray(start.program))
    throw new RunRequestError('program', 'must be an object like {"command": ["python3", "my_ga.py"]}');
  let program: ProgramSpec;
  try {
    program = checkProgramSpec(start.program as unknown as Record<string, unknown>, 'program');
  } catch (e) {
    if (e instanceof ProgramSpecError) throw new RunRequestError(e.field, e.rule);
    throw e;
  }
  if (start.params !== undefined && Object.keys(start.params).length)
    throw new RunRequestError('params', 'a solver program takes no params: give its options as arguments in program.command');
  const name = start.solver ?? defaultProgramName(program.command);
  if (!isName(name)) throw new RunRequestError('solver', `a program's name ${NAME_RULE}, got ${JSON.stringify(name)}`);
  return planDiceRun({ config, solver: name, program, params: {}, seed: start.seed, evaluations: start.evaluations, wholeBudget: start.wholeBudget });
}

function planDice(start: StartDiceRun, context: PlanContext): RunPlan<'dice'> {
  const { seed, evaluations } = start;
  if (!Number.isSafeInteger(seed) || seed < 0) throw new RunRequestError('seed', `must be an integer from 0 to 2^53 - 1, got ${JSON.stringify(seed)}`);
  if (!Number.isSafeInteger(evaluations) || evaluations < 1 || evaluations > MAX_RUN_EVALUATIONS)
    throw new RunRequestError('evaluations', `must be an integer from 1 to ${MAX_RUN_EVALUATIONS}, got ${JSON.stringify(evaluations)}`);
  if (start.wholeBudget !== undefined && typeof start.wholeBudget !== 'boolean')
    throw new RunRequestError('wholeBudget', `must be true or false, got ${JSON.stringify(start.wholeBudget)}`);
  if (start.config !== undefined && (typeof start.config !== 'object' || start.config === null || Array.isArray(start.config)))
    throw new RunRequestError('config', 'must be an object of config fields');
  const config = diceConfig({ ...start.config, n: start.config?.n ?? DEFAULT_N });
  if (start.program !== undefined) return planProgramRun(start, config);
  const input = {
    config,
    solver: start.solver,
    params: start.params ?? {},
    seed,
    evaluations,
    wholeBudget: start.wholeBudget,
    workerMemoryLimitMb: context.memoryLimitMb ?? null,
  };
  const problem = createDiceProblem(config);
  const info = chooseSolver(problem, start.solver);
  const { params } = solverParams(info, problem, input.params);
  const tooBig = memoryRefusal({ solver: info.name, params, n: config.n, objectiveCount: problem.objectiveCount }, input.workerMemoryLimitMb);
  if (tooBig) throw new RunRequestError('params', tooBig);
  return planDiceRun(input);
}
