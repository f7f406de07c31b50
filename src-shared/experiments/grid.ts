/**
 * Grid expansion: every (instance, solver, seed) of a spec becomes one RunSpec whose id is a
 * content hash of exactly what determines its result, so the same run in two experiments or
 * two shards has the same id, and a changed parameter gives a new one.
 */
import type { DiceConfig } from '../problems/dice/config.ts';
import { createDiceProblem } from '../problems/dice/problem.ts';
import { ParamError, resolveParams } from '../core/params.ts';
import { checkSolverFits, checkSolverSetup, findSolver, SolverError, solvers } from '../solvers/registry.ts';
import { effectiveBudget, terminationOfBudget } from '../solvers/stopping.ts';
import type { ParamValue } from '../core/params.ts';
import type { DiceRunRequest } from '../runtime/kinds/dice.ts';
import { canonicalJson } from './canonical-json.ts';
import { sha256Hex } from './sha256.ts';
import { instanceConfig, programOf, seedList, solverLabel, SpecError, type BudgetSpec, type ExperimentSpec } from './spec.ts';
import type { ProgramSpec } from '../solvers/program/protocol.ts';

/** Bumped only if the meaning of a hashed field changes; part of every run id. */
export const RUN_ID_VERSION = 1;

/**
 * A run's budget as it applies to its instance (src-shared/solvers/stopping.ts): the target of a
 * single-objective run filled in (0 unless the spec gives one, none with wholeBudget), no target
 * for several objectives. Runs of an experiment written before the stopping policy ran their
 * whole budget; their specs say so (wholeBudget), so their budgets, and ids, are unchanged.
 */
export type RunBudget = Pick<BudgetSpec, 'evaluations' | 'target' | 'stallEvaluations'>;

/** The part of a run that determines its result; hashed into the run id. */
export interface RunKey {
  problem: 'dice';
  config: DiceConfig;
  solver: string;
  /** Resolved: every parameter, defaults filled in. */
  params: Record<string, ParamValue>;
  seed: number;
  budget: RunBudget;
  /**
   * A solver program's run: the program as the spec stores it (command, cwd relative to the
   * project's folder, env, blind, the hashes of its files); `solver` is then its name and
   * `params` {}. Absent for registered solvers, so their run ids are what they were.
   */
  program?: RunProgram;
  /**
   * A built-in solver's run in a blind experiment (ExperimentSpec.blind): it sees only N, M, L,
   * the budget, the seed and the answers. Absent otherwise, so sighted run ids are what they
   * were. A program's run is blind through its program's own `blind` (set for every program
   * of a blind experiment), so a program entry marked blind in a sighted spec and the same
   * program in a blind spec are the same runs.
   */
  blind?: true;
  /**
   * A remote entrant's run (SolverSpec.remote): played over the network against `saikoro serve
   * --competition`, never run by Saikoro; `solver` is the entrant's name and `params` {}. Always
   * blind. Absent otherwise, so no other run id moves.
   */
  remote?: true;
}

/** What of a program determines its runs: everything but the delivery options (grace, timeout). */
export type RunProgram = Omit<ProgramSpec, 'grace' | 'timeout'>;

/** The part of a program entry that goes into its runs' ids. */
export function runProgramOf(program: ProgramSpec): RunProgram {
  const { grace, timeout, ...identity } = program;
  void grace;
  void timeout;
  return identity;
}

export interface RunSpec extends RunKey {
  id: string;
  /** A solver program's run: the program as its entry gives it (with grace and timeout; cwd relative). */
  launch?: ProgramSpec;
  /** Position in the grid (instance-major, then solver, then seed); used for sharding. */
  index: number;
  instance: string;
  label: string;
}

export function runId(key: RunKey): string {
  const { problem, config, solver, params, seed, budget, program, blind, remote } = key;
  return sha256Hex(
    canonicalJson({
      v: RUN_ID_VERSION,
      problem,
      config,
      solver,
      params,
      seed,
      budget,
      ...(program ? { program } : {}),
      ...(blind ? { blind: true } : {}),
      ...(remote ? { remote: true } : {}),
    }),
  ).slice(0, 32);
}

/** Whether a run is blind: a built-in solver's run of a blind experiment, a blind program's, or a remote entrant's. */
export function isBlindRun(run: Pick<RunKey, 'blind' | 'program' | 'remote'>): boolean {
  return run.blind === true || run.program?.blind === true || run.remote === true;
}

/** A remote entrant's run has no request: nothing of Saikoro's runs it (the server plays it). */
export class RemoteRunError extends Error {
  override name = 'RemoteRunError';
}

/**
 * The host request of a grid run: the same for a worker and an inline run, for the CLI and the
 * app. A program's run carries its entry as the spec gives it (`launch`: cwd relative to the
 * project's folder); the program gate (src-main/app/program-gate.ts) resolves where it starts.
 */
export function requestOf(run: RunSpec, snapshotIntervalMs?: number): DiceRunRequest {
  if (run.remote)
    throw new RemoteRunError(
      `run ${run.id} is remote entrant ${run.solver}'s: it is played over the network against saikoro serve --competition, never run here`,
    );
  const program = run.launch;
  if (run.program && !program) throw new Error(`run ${run.id} is a solver program's (${run.solver}): its grid run has no launch entry`);
  return {
    kind: 'dice',
    solver: run.solver,
    params: run.params,
    seed: run.seed,
    config: run.config,
    termination: terminationOfBudget(run.budget),
    ...(run.program ? { program } : {}),
    ...(isBlindRun(run) ? { blind: true } : {}),
    ...(snapshotIntervalMs !== undefined ? { snapshotIntervalMs } : {}),
  };
}

/**
 * Expands a validated spec. Solver names, objective support and parameters are checked here
 * against the registry; errors name the field (solvers[i].params.x).
 */
export function expandGrid(spec: ExperimentSpec): RunSpec[] {
  return expandGridChecked(spec, false);
}

/**
 * expandGrid, plus each solver's setup run once per instance (checkSolverSetup): what
 * `experiment add` does, so that a spec every run of which would fail is refused up front.
 */
export function expandGridWithSetups(spec: ExperimentSpec): RunSpec[] {
  return expandGridChecked(spec, true);
}

function expandGridChecked(spec: ExperimentSpec, setups: boolean): RunSpec[] {
  const seeds = seedList(spec.seeds);
  const blind = spec.blind === true;
  const runs: RunSpec[] = [];
  spec.instances.forEach((instance) => {
    const config = instanceConfig(instance);
    const problem = createDiceProblem(config);
    spec.solvers.forEach((solverSpec, s) => {
      if (solverSpec.remote) {
        if (solvers.some((info) => info.name === solverSpec.name))
          throw new SpecError(`solvers[${s}].name`, `${JSON.stringify(solverSpec.name)} is a built-in solver's name; give the remote entrant another name`);
        const budget = effectiveBudget(spec.budget, config.objectives.length);
        for (const seed of seeds) {
          const key: RunKey = { problem: 'dice', config, solver: solverSpec.name, params: {}, seed, budget, remote: true };
          runs.push({ ...key, id: runId(key), index: runs.length, instance: instance.name, label: solverLabel(solverSpec) });
        }
        return;
      }
      const given = programOf(solverSpec);
      // Every program of a blind experiment is blind (validateSpec refuses "blind": false there).
      const program = given && blind ? { ...given, blind: true } : given;
      if (program) {
        if (solvers.some((info) => info.name === solverSpec.name))
          throw new SpecError(`solvers[${s}].name`, `${JSON.stringify(solverSpec.name)} is a built-in solver's name; give the solver program another name`);
        const budget = effectiveBudget(spec.budget, config.objectives.length);
        const identity = runProgramOf(program);
        for (const seed of seeds) {
          const key: RunKey = { problem: 'dice', config, solver: solverSpec.name, params: {}, seed, budget, program: identity };
          runs.push({ ...key, id: runId(key), index: runs.length, instance: instance.name, label: solverLabel(solverSpec), launch: program });
        }
        return;
      }
      let info;
      try {
        info = findSolver(solverSpec.name);
      } catch (e) {
        if (e instanceof SolverError) throw new SpecError(`solvers[${s}].name`, e.message);
        throw e;
      }
      try {
        checkSolverFits(info, problem);
      } catch (e) {
        if (e instanceof SolverError) throw new SpecError(`solvers[${s}].name`, e.message.replace('this problem', `instance ${instance.name}`));
        throw e;
      }
      const budget = effectiveBudget(spec.budget, config.objectives.length);
      let params: Record<string, ParamValue>;
      try {
        params = resolveParams(info.name, info.params, solverSpec.params ?? {}, problem);
      } catch (e) {
        if (e instanceof ParamError) throw new SpecError(`solvers[${s}].params.${e.param}`, e.message);
        throw e;
      }
      if (setups) {
        try {
          checkSolverSetup(info, problem, params);
        } catch (e) {
          if (e instanceof ParamError) throw new SpecError(`solvers[${s}].params.${e.param}`, `${e.message} (instance ${instance.name})`);
          throw e;
        }
      }
      for (const seed of seeds) {
        const key: RunKey = { problem: 'dice', config, solver: info.name, params, seed, budget, ...(blind ? { blind: true as const } : {}) };
        runs.push({ ...key, id: runId(key), index: runs.length, instance: instance.name, label: solverLabel(solverSpec) });
      }
    });
  });
  return runs;
}

/** Shard k of n (1-based): every n-th run of the grid, starting at run k - 1. */
export function shardOf<T extends { index: number }>(runs: readonly T[], k: number, n: number): T[] {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`shard count must be a positive integer, got ${n}`);
  if (!Number.isInteger(k) || k < 1 || k > n) throw new RangeError(`shard must be between 1 and ${n}, got ${k}`);
  return runs.filter((r) => r.index % n === k - 1);
}

/** Parses "K/N" (1 <= K <= N). */
export function parseShard(text: string): { k: number; n: number } {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  if (!match) throw new RangeError(`expected K/N such as 3/10, got "${text}"`);
  const k = Number(match[1]);
  const n = Number(match[2]);
  if (n < 1 || k < 1 || k > n) throw new RangeError(`K/N needs 1 <= K <= N, got ${k}/${n}`);
  return { k, n };
}
