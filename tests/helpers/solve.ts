/**
 * A dice solver run in this process on the code a worker runs: a SolverRun
 * (src-shared/solvers/solver-run.ts) driven by the one driver (src-shared/core/driver.ts),
 * as the dice kind of run builds and executeRun drives it. For tests that need what a request
 * cannot carry: a problem of their own (counting or logging its evaluations), a step size, a
 * trace length, a front indicator, a fake clock. A test that runs a config as the app does uses
 * executeRunSync / executeRun (src-shared/runtime/kinds/) or the launcher (src-main/app/launcher.ts);
 * tests/shared/solvers/solver-run.test.ts checks that both give the same result.
 */
import { RunClock, type RunControl } from '../../src-shared/core/control.ts';
import { drive, driveSync } from '../../src-shared/core/driver.ts';
import type { Problem } from '../../src-shared/core/problem.ts';
import type { Termination } from '../../src-shared/core/termination.ts';
import { SolverRun, type SolverRunOptions } from '../../src-shared/solvers/solver-run.ts';
import type { Snapshot, SolverResult } from '../../src-shared/solvers/types.ts';

export interface SolveOptions extends Omit<SolverRunOptions, 'clock'> {
  /** Milliseconds clock (default performance.now). */
  clock?: () => number;
}

/** What `solve` adds: the driver's options for a host (pause, cancel, snapshots, yielding). */
export interface DriveSolveOptions extends SolveOptions {
  onSnapshot?: (snapshot: Snapshot) => void;
  control?: RunControl;
  snapshotInterval?: number;
  sliceMilliseconds?: number;
  yieldToHost?: () => Promise<void>;
}

function solverRun(
  problem: Problem,
  solver: string,
  params: Readonly<Record<string, unknown>>,
  seed: number,
  termination: Termination,
  options: SolveOptions,
): SolverRun {
  const { clock, ...runOptions } = options;
  return new SolverRun(problem, solver, params, seed, termination, { ...runOptions, clock: new RunClock(clock) });
}

/** Runs to termination without yielding (driveSync) and returns the result. */
export function solveSync(
  problem: Problem,
  solver: string,
  params: Readonly<Record<string, unknown>>,
  seed: number,
  termination: Termination,
  options: SolveOptions = {},
): SolverResult {
  const run = solverRun(problem, solver, params, seed, termination, options);
  return driveSync(run, run.termination, { clock: run.clock });
}

/** Runs as a worker does (drive): pause and cancel through `control`, throttled snapshots, yielding. */
export function solve(
  problem: Problem,
  solver: string,
  params: Readonly<Record<string, unknown>>,
  seed: number,
  termination: Termination,
  options: DriveSolveOptions = {},
): Promise<SolverResult> {
  const { onSnapshot, control, snapshotInterval, sliceMilliseconds, yieldToHost, ...runOptions } = options;
  const run = solverRun(problem, solver, params, seed, termination, runOptions);
  return drive(run, run.termination, { onSnapshot, control, clock: run.clock, snapshotInterval, sliceMilliseconds, yieldToHost });
}
