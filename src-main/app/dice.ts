/**
 * Dice runs, decided once for every entry point (`saikoro solve`, the app's startRun,
 * benchmarks): which solver (the strongest for the track unless one is named, and whether it
 * handles the problem), its parameters (defaults filled in, checked by a throwaway setup), the
 * stopping policy (src-shared/solvers/stopping.ts), and the hypervolume normalisation of
 * multi-objective runs, computed here once and sent to the worker.
 */
import { canonicalJson } from '../../src-shared/experiments/canonical-json.ts';
import { diceHvNormalisationSteps, type HvNormalisation } from '../../src-shared/metrics/hv-reference.ts';
import type { DiceConfig } from '../../src-shared/problems/dice/config.ts';
import type { DiceRunRequest } from '../../src-shared/runtime/kinds/index.ts';
import { resolveParams } from '../../src-shared/solvers/params.ts';
import { createDiceProblem, type DiceProblem } from '../../src-shared/solvers/problem.ts';
import { checkSolverFits, checkSolverSetup, defaultSolverFor, findSolver } from '../../src-shared/solvers/registry.ts';
import { effectiveBudget, stoppingPolicy } from '../../src-shared/solvers/stopping.ts';
import { MemoryLimitError, memoryRefusal } from '../../src-shared/solvers/memory.ts';
import type { ParamValue, SolverInfo } from '../../src-shared/solvers/types.ts';
import { formatCommand, type ProgramSpec } from '../../src-shared/solvers/program/protocol.ts';
import { programSolverInfo } from '../../src-shared/solvers/program/solver.ts';
import type { RunPlan } from './launcher.ts';

/** The named solver, or the strongest for the problem's track; throws SolverError when it does not fit. */
export function chooseSolver(problem: DiceProblem, name?: string): SolverInfo {
  const info = name === undefined ? defaultSolverFor(problem.track, problem.objectiveCount) : findSolver(name);
  checkSolverFits(info, problem);
  return info;
}

/**
 * Every parameter with its default filled in, checked against the specs and by one throwaway
 * setup (limits only the problem can decide); throws ParamError naming the parameter.
 * `shown` adds the values the setup derives (NSGA-III's population size when given as 0).
 */
export function solverParams(info: SolverInfo, problem: DiceProblem, given: Readonly<Record<string, unknown>>): { params: Record<string, ParamValue>; shown: Record<string, ParamValue> } {
  const params = resolveParams(info.name, info.params, given, problem);
  const solver = checkSolverSetup(info, problem, params);
  return { params, shown: { ...params, ...(solver.effectiveParams?.() ?? {}) } };
}

const HV_CACHE_SIZE = 16;
const hvCache = new Map<string, Promise<HvNormalisation> | HvNormalisation>();

function remember(key: string, value: Promise<HvNormalisation> | HvNormalisation): void {
  hvCache.delete(key);
  hvCache.set(key, value);
  if (hvCache.size > HV_CACHE_SIZE) hvCache.delete(hvCache.keys().next().value as string);
}

/**
 * The hypervolume normalisation of an instance (median objectives of 1000 random sequences:
 * about 0.2 s at N = 840, 2.6 s at N = 27720), remembered for the last few configs so that
 * repeated runs of one instance pay it once. For the CLI, which has nothing else to do.
 */
export function hvNormalisationFor(config: DiceConfig): HvNormalisation {
  const key = canonicalJson(config);
  const cached = hvCache.get(key);
  if (cached && !(cached instanceof Promise)) {
    remember(key, cached);
    return cached;
  }
  const steps = diceHvNormalisationSteps(config);
  let next = steps.next();
  while (!next.done) next = steps.next();
  remember(key, next.value);
  return next.value;
}

/**
 * The same, for a server (the API): computed in slices of 25 sequences with the event loop
 * free between them, so other requests and events go on; concurrent calls for one config share
 * one computation.
 */
export function hvNormalisationForAsync(config: DiceConfig): Promise<HvNormalisation> {
  const key = canonicalJson(config);
  const cached = hvCache.get(key);
  if (cached) {
    remember(key, cached);
    return Promise.resolve(cached);
  }
  const computing = (async () => {
    const steps = diceHvNormalisationSteps(config, { slice: 25 });
    let next = steps.next();
    while (!next.done) {
      await new Promise((resolve) => setImmediate(resolve));
      next = steps.next();
    }
    return next.value;
  })();
  remember(key, computing);
  computing.then(
    (norm) => hvCache.get(key) === computing && hvCache.set(key, norm),
    () => hvCache.get(key) === computing && hvCache.delete(key),
  );
  return computing;
}

export interface DiceRunInput {
  config: DiceConfig;
  /** A solver name; the strongest for the track when left out. With `program`: the program's name. */
  solver?: string;
  /** The solver is this program (its cwd absolute); `solver` names it and `params` must be empty. */
  program?: ProgramSpec;
  params?: Readonly<Record<string, unknown>>;
  seed: number;
  evaluations: number;
  /** Run the whole budget instead of stopping a single-objective run at f = 0. */
  wholeBudget?: boolean;
  /** A wall-time budget in seconds besides the evaluations (0 evaluations: the time alone). */
  seconds?: number;
  /** Resident-memory limit of the worker, MB. */
  memoryLimitMb?: number;
  /** Minimum milliseconds between snapshots (the worker's default when left out). */
  snapshotIntervalMs?: number;
  /** false: no hypervolume in the trace (benchmarks time the solver alone), and no normalisation computed. */
  traceHypervolume?: boolean;
  /**
   * The memory limit the worker will have when the run has none of its own (MB; null: none;
   * the launcher's, Launcher.memoryLimitMb): settings whose estimated memory exceeds the limit
   * in force are refused (MemoryLimitError, src-shared/solvers/memory.ts).
   */
  workerMemoryLimitMb?: number | null;
}

/** A planned dice run (request: what the worker runs; started: what the run is), with its solver and problem. */
export interface DiceRunPlan extends RunPlan<'dice'> {
  info: SolverInfo;
  problem: DiceProblem;
}

export function describeDiceRun(info: SolverInfo, config: DiceConfig, track: string | null, seed: number, program?: ProgramSpec): string {
  return `${info.name}${program ? ` (program: ${formatCommand(program.command)})` : ''} on ${track ? track.toUpperCase().replace(/^MO(\d)$/, 'M = $1') : `${config.objectives.length} custom objectives`}, N = ${config.n.toLocaleString('en-US')}, seed ${seed}`;
}

/**
 * Plans a dice run: solver, parameters, stopping policy, normalisation. Throws what the CLI and
 * API report. `hvNormalisation`, when given (a server computes it without blocking, see
 * hvNormalisationForAsync), is used instead of computing it here.
 */
export function planDiceRun(input: DiceRunInput, given: { hvNormalisation?: HvNormalisation | null } = {}): DiceRunPlan {
  if (!Number.isSafeInteger(input.seed)) throw new RangeError(`seed must be an integer, got ${JSON.stringify(input.seed)}`);
  const problem = createDiceProblem(input.config);
  const program = input.program;
  if (program && Object.keys(input.params ?? {}).length) throw new RangeError('a program solver takes no parameters: give its options in its command');
  const info = program ? programSolverInfo(input.solver ?? 'program', () => { throw new Error('a program solver is started by its run'); }) : chooseSolver(problem, input.solver);
  const { params, shown } = program ? { params: {}, shown: {} } : solverParams(info, problem, input.params ?? {});
  const m = problem.objectiveCount;
  const tooBig = program ? null : memoryRefusal({ solver: info.name, params, n: input.config.n, objectiveCount: m }, input.memoryLimitMb ?? input.workerMemoryLimitMb ?? null);
  if (tooBig) throw new MemoryLimitError(tooBig);
  const budget = { evaluations: input.evaluations, wholeBudget: input.wholeBudget, ...(input.seconds !== undefined ? { seconds: input.seconds } : {}) };
  const termination = stoppingPolicy(budget, m);
  const traced = input.traceHypervolume !== false;
  const hvNormalisation = m < 2 || !traced ? null : given.hvNormalisation !== undefined && given.hvNormalisation !== null ? given.hvNormalisation : hvNormalisationFor(input.config);
  const request: DiceRunRequest = {
    kind: 'dice',
    solver: info.name,
    params,
    seed: input.seed,
    config: input.config,
    termination,
    ...(program ? { program } : {}),
    ...(hvNormalisation ? { hvNormalisation } : {}),
    ...(input.memoryLimitMb !== undefined ? { memoryLimitMb: input.memoryLimitMb } : {}),
    ...(input.snapshotIntervalMs !== undefined ? { snapshotIntervalMs: input.snapshotIntervalMs } : {}),
    ...(traced ? {} : { traceHypervolume: false }),
  };
  const started: DiceRunPlan['started'] = {
    kind: 'dice',
    title: describeDiceRun(info, input.config, problem.track, input.seed, program),
    solver: info.name,
    ...(program ? { program } : {}),
    params: shown,
    seed: input.seed,
    n: input.config.n,
    track: problem.track,
    objectiveCount: m,
    config: input.config,
    evaluations: input.evaluations,
    target: effectiveBudget(budget, m).target ?? null,
    hvNormalisation,
    experiment: null,
  };
  return { kind: 'dice', request, started, report: (result) => result, info, problem };
}
