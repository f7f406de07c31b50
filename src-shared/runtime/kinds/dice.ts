/**
 * The dice problem as a kind of run: the request a worker receives (solver, parameters, seed,
 * config, termination) and how it becomes a SolverRun for the driver. The trace records the
 * normalised hypervolume of the feasible front for multi-objective runs: at every trace point
 * for M <= 3; for M >= 4, where exact hypervolume at every improvement would cost more than
 * the run, on the 'doubling' schedule (after 1,000 evaluations, after each doubling, at the end).
 */
import type { DiceConfig } from '../../problems/dice/config.ts';
import { diceHvNormalisation, normalisedHypervolume, type HvNormalisation } from '../../problems/dice/hv-reference.ts';
import { createDiceProblem } from '../../problems/dice/problem.ts';
import { SolverRun, type SolverRunOptions } from '../../solvers/solver-run.ts';
import type { ProgramSpec } from '../../solvers/program/protocol.ts';
import type { ProgramAdmission } from '../../solvers/program/admission.ts';
import { givenProgramSolver } from '../../solvers/program/solver.ts';
import type { Snapshot, SolverResult } from '../../solvers/types.ts';
import type { ParamValue } from '../../core/params.ts';
import type { RunClock } from '../../core/control.ts';
import type { Termination } from '../../core/termination.ts';
import type { KindRun, RunEnvironment, RunRequestBase } from './base.ts';
import { snapshotPoint, tracePoints } from '../progress.ts';
import type { DiceRunStarted } from '../run-api.ts';

export interface DiceRunRequest extends RunRequestBase {
  kind: 'dice';
  /** A solver name from the solver registry (src-shared/solvers/registry.ts), or the program's name. */
  solver: string;
  /**
   * The solver is this program, speaking the external-solver protocol
   * (src-shared/solvers/program/, docs/external-solvers.md); `solver` is its name and `params`
   * is empty. Its `cwd` is as the entry or the request gives it (relative to the project's
   * folder), which is what the result records; the program starts in `admitted.cwd`.
   */
  program?: ProgramSpec;
  /**
   * Set by the program gate (src-main/app/program-gate.ts) when it admitted the program: the
   * executable it resolved and hashed, which is what starts (the command's first word becomes
   * its argv[0]), the working directory it resolved (absolute), and what the program may see in
   * its sandbox, hashed (admission.ts). A program's request without it is refused by the launcher.
   */
  admitted?: ProgramAdmission;
  /**
   * A program's CPU-time limit in seconds (its rlimit, src-main/host/sandbox.ts); left out: a day.
   * A competition sets it from its rules.
   */
  programCpuSeconds?: number;
  /** Solver parameters; missing ones take their defaults, bad ones fail the run with the reason. */
  params: Record<string, ParamValue>;
  seed: number;
  config: DiceConfig;
  termination: Termination;
  /**
   * M >= 2: the normalisation of the hypervolume recorded in the trace; the main side has a worker compute
   * it once and sends it (by default the dice normalisation of the config, hv-reference.ts).
   */
  hvNormalisation?: HvNormalisation;
  /** Record that hypervolume in the trace (default true); benchmarks turn it off to time the solver alone. */
  traceHypervolume?: boolean;
  /**
   * The competition's setting (issue 26): the solver, built-in or program, gets only N, M, L, the
   * budget, the seed and the answers, never the bands and weights. A built-in solver sees the
   * blind problem (src-shared/problems/dice/blind.ts) and learns the bands from the answers
   * (src-shared/solvers/bands.ts); a program gets the blind first line.
   */
  blind?: boolean;
}

/** The largest M whose trace has the hypervolume at every point (beyond: at doublings). */
export const TRACE_HYPERVOLUME_MAX_OBJECTIVES = 3;

/** The SolverRun options of a dice request (the trace's front indicator), in one place. */
export function runOptionsFor(
  request: Pick<DiceRunRequest, 'config' | 'hvNormalisation' | 'traceHypervolume'>,
): Pick<SolverRunOptions, 'frontIndicator' | 'frontIndicatorSchedule'> {
  const options: Pick<SolverRunOptions, 'frontIndicator' | 'frontIndicatorSchedule'> = {};
  const m = request.config.objectives.length;
  if (request.traceHypervolume !== false && m >= 2) {
    const norm: HvNormalisation = request.hvNormalisation ?? diceHvNormalisation(request.config);
    options.frontIndicator = (front) => normalisedHypervolume(front, norm);
    options.frontIndicatorSchedule = m <= TRACE_HYPERVOLUME_MAX_OBJECTIVES ? 'every' : 'doubling';
  }
  return options;
}

function createSolverRun(request: DiceRunRequest, solver: string | ReturnType<typeof givenProgramSolver>, clock: RunClock): SolverRun {
  return new SolverRun(createDiceProblem(request.config), solver, request.params, request.seed, request.termination, {
    ...runOptionsFor(request),
    clock,
    ...(request.blind ? { blind: true } : {}),
  });
}

export const diceRunKind = {
  name: 'dice',
  progressPoint: (snapshot: Snapshot, started: DiceRunStarted) => snapshotPoint(snapshot, started.objectiveCount),
  finalPoints: (result: SolverResult) => tracePoints(result),
  create(request: DiceRunRequest, clock: RunClock, environment: RunEnvironment = {}): KindRun<Snapshot, SolverResult> {
    let solver: Parameters<typeof createSolverRun>[1] = request.solver;
    if (request.program !== undefined) {
      if (!environment.launchProgram)
        throw new Error(
          `solver ${request.solver} is a program (${request.program.command[0]}), and this process cannot start programs: run it through the solver host`,
        );
      const program = request.blind ? { ...request.program, blind: true } : request.program;
      solver = givenProgramSolver(request.solver, program, environment.launchProgram, request.config, request.admitted);
    }
    const run = createSolverRun(request, solver, clock);
    return { run, termination: run.termination, requireBudget: true };
  },
} as const;
