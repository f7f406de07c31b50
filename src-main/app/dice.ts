/**
 * Dice runs, decided once for every entry point (`saikoro solve`, the app's startRun and
 * experiment sessions, `experiment run`, the solver benchmark; all launched by launcher.ts):
 * which solver (the strongest for the track unless one is named, and whether it
 * handles the problem), its parameters (defaults filled in, checked by a throwaway setup), the
 * stopping policy (src-shared/solvers/stopping.ts), and the hypervolume normalisation of
 * multi-objective runs, computed once per instance in a worker process (hvNormalisationFor)
 * and sent to the run's worker.
 */
import { canonicalJson } from '../../src-shared/experiments/canonical-json.ts';
import { diceHvNormalisation, HV_NORMALISATION_IN_PROCESS_MAX_N, type HvNormalisation } from '../../src-shared/problems/dice/hv-reference.ts';
import type { Launcher } from './launcher.ts';
import type { DiceConfig } from '../../src-shared/problems/dice/config.ts';
import type { DiceRunRequest } from '../../src-shared/runtime/kinds/index.ts';
import { resolveParams } from '../../src-shared/core/params.ts';
import { createDiceProblem, type DiceProblem } from '../../src-shared/problems/dice/problem.ts';
import { checkSolverFits, checkSolverSetup, defaultSolverFor, findSolver } from '../../src-shared/solvers/registry.ts';
import { effectiveBudget, stoppingPolicy } from '../../src-shared/solvers/stopping.ts';
import { MemoryLimitError, memoryRefusal } from '../../src-shared/solvers/memory.ts';
import type { SolverInfo } from '../../src-shared/solvers/types.ts';
import type { ParamValue } from '../../src-shared/core/params.ts';
import { formatCommand, type ProgramSpec } from '../../src-shared/solvers/program/protocol.ts';
import { programSolverInfo } from '../../src-shared/solvers/program/solver.ts';
import type { AnyRunPlan, RunPlan } from './launcher.ts';
import { carryAdmission } from './program-gate.ts';

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
export function solverParams(
  info: SolverInfo,
  problem: DiceProblem,
  given: Readonly<Record<string, unknown>>,
): { params: Record<string, ParamValue>; shown: Record<string, ParamValue> } {
  const params = resolveParams(info.name, info.params, given, problem);
  const solver = checkSolverSetup(info, problem, params);
  return { params, shown: { ...params, ...(solver.effectiveParams?.() ?? {}) } };
}

const HV_CACHE_SIZE = 16;

interface HvEntry {
  value: HvNormalisation | null;
  computing: Promise<HvNormalisation> | null;
  /** Aborts the computation (kills its worker) once no caller waits for it any more. */
  controller: AbortController;
  waiters: number;
}
const hvCache = new Map<string, HvEntry>();

function remember(key: string, entry: HvEntry): void {
  hvCache.delete(key);
  hvCache.set(key, entry);
  if (hvCache.size > HV_CACHE_SIZE) {
    const [oldKey, old] = hvCache.entries().next().value as [string, HvEntry];
    hvCache.delete(oldKey);
    if (old.computing) old.controller.abort(new Error('dropped from the cache'));
  }
}

/**
 * The hypervolume normalisation of an instance (median objectives of 1000 random sequences:
 * about 0.2 s at N = 840, 2.6 s at N = 27720, minutes at 10^7), computed in a worker process
 * of the launcher (never in this one, so a server goes on answering and the CLI process stays
 * small) and remembered for the last few configs, so repeated runs of one instance pay it
 * once; concurrent calls for one config share one computation. A caller's abort stops its
 * wait, and the computation too (its worker is killed) once nobody waits for it.
 */
export async function hvNormalisationFor(
  launcher: Pick<Launcher, 'computeHvNormalisation'>,
  config: DiceConfig,
  signal?: AbortSignal,
): Promise<HvNormalisation> {
  signal?.throwIfAborted();
  const key = canonicalJson(config);
  let entry = hvCache.get(key);
  if (entry?.value) {
    remember(key, entry);
    return entry.value;
  }
  if (!entry) {
    const controller = new AbortController();
    const created: HvEntry = { value: null, computing: null, controller, waiters: 0 };
    created.computing = launcher.computeHvNormalisation(config, controller.signal).then(
      (norm) => {
        created.value = norm;
        created.computing = null;
        return norm;
      },
      (e: unknown) => {
        if (hvCache.get(key) === created) hvCache.delete(key);
        throw e;
      },
    );
    // Nobody may be waiting when it fails (every caller aborted): that is not an unhandled rejection.
    created.computing.catch(() => {});
    entry = created;
  }
  remember(key, entry);
  const waited = entry;
  waited.waiters++;
  try {
    if (!signal) return await waited.computing!;
    return await new Promise<HvNormalisation>((resolve, reject) => {
      const onAbort = () => reject(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      waited.computing!.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
  } finally {
    waited.waiters--;
    if (waited.waiters === 0 && waited.computing) {
      waited.controller.abort(new Error('nobody waits for it any more'));
      if (hvCache.get(key) === waited) hvCache.delete(key);
    }
  }
}

/** The normalisation of a config if hvNormalisationFor has it already (nothing is computed), else null. */
export function knownHvNormalisation(config: DiceConfig): HvNormalisation | null {
  return hvCache.get(canonicalJson(config))?.value ?? null;
}

/** Computes a dice config's default normalisation (experiment add, addExperiment). */
export type HvNormaliser = (config: DiceConfig) => Promise<HvNormalisation>;

/**
 * The normaliser of a process that must stay free: small configs (N <= 2,520) here, larger ones
 * in a worker of the launcher `launcher()` gives (created only when one is needed, so that a
 * small spec starts no process), remembered as hvNormalisationFor remembers them.
 */
export function boundedHvNormaliser(launcher: () => Pick<Launcher, 'computeHvNormalisation'>, signal?: AbortSignal): HvNormaliser {
  return async (config) => {
    signal?.throwIfAborted();
    if (config.n <= HV_NORMALISATION_IN_PROCESS_MAX_N) return diceHvNormalisation(config);
    return hvNormalisationFor(launcher(), config, signal);
  };
}

/**
 * The preparation of a multi-objective run that has no normalisation yet
 * (HostStartOptions.prepare): its config's normalisation from hvNormalisationFor (a worker of
 * `launcher`, remembered), then the request with it. The run waits in the host's queue meanwhile.
 */
export function hvPreparation(launcher: Pick<Launcher, 'computeHvNormalisation'>): (request: DiceRunRequest, signal: AbortSignal) => Promise<DiceRunRequest> {
  return async (request, signal) => ({ ...request, hvNormalisation: await hvNormalisationFor(launcher, request.config, signal) });
}

/** Whether a planned run still needs its normalisation (M >= 2, traced, none given) before it is launched. */
export function needsHvNormalisation(plan: AnyRunPlan): plan is RunPlan<'dice'> {
  return plan.kind === 'dice' && plan.started.objectiveCount >= 2 && plan.request.traceHypervolume !== false && !plan.request.hvNormalisation;
}

/** A planned dice run with its normalisation (what its trace's hypervolume and the app show). */
export function withHvNormalisation<P extends RunPlan<'dice'>>(plan: P, hvNormalisation: HvNormalisation): P {
  // The same program, admitted as it was: a known normalisation must not turn a program's run away at the launcher.
  return { ...plan, request: carryAdmission(plan.request, { ...plan.request, hvNormalisation }), started: { ...plan.started, hvNormalisation } };
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
  /** The solver runs blind (DiceRunRequest.blind): only N, M, L, the budget, the seed and the answers. */
  blind?: boolean;
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
 * API report. `hvNormalisation` (M >= 2; from hvNormalisationFor, computed in a worker) goes
 * into the request and what the run reports; without it the run's worker computes the same
 * normalisation for its trace, and the plan reports none (this process never computes it).
 */
export function planDiceRun(input: DiceRunInput, given: { hvNormalisation?: HvNormalisation | null } = {}): DiceRunPlan {
  if (!Number.isSafeInteger(input.seed)) throw new RangeError(`seed must be an integer, got ${JSON.stringify(input.seed)}`);
  const problem = createDiceProblem(input.config);
  const program = input.program;
  if (program && Object.keys(input.params ?? {}).length) throw new RangeError('a program solver takes no parameters: give its options in its command');
  const info = program
    ? programSolverInfo(input.solver ?? 'program', () => {
        throw new Error('a program solver is started by its run');
      })
    : chooseSolver(problem, input.solver);
  const { params, shown } = program ? { params: {}, shown: {} } : solverParams(info, problem, input.params ?? {});
  const m = problem.objectiveCount;
  const tooBig = program
    ? null
    : memoryRefusal({ solver: info.name, params, n: input.config.n, objectiveCount: m }, input.memoryLimitMb ?? input.workerMemoryLimitMb ?? null);
  if (tooBig) throw new MemoryLimitError(tooBig);
  const budget = { evaluations: input.evaluations, wholeBudget: input.wholeBudget, ...(input.seconds !== undefined ? { seconds: input.seconds } : {}) };
  const termination = stoppingPolicy(budget, m);
  const traced = input.traceHypervolume !== false;
  // Never computed here: without a given one the worker computes the same numbers itself.
  const hvNormalisation = m < 2 || !traced ? null : (given.hvNormalisation ?? null);
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
    ...(input.blind ? { blind: true } : {}),
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
