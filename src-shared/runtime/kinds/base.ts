/** What every kind of run shares: the request's delivery options and what a kind builds. */
import type { Steppable } from '../../core/driver.ts';
import type { Termination } from '../../core/termination.ts';
import type { ProgramLauncher } from '../../solvers/program/solver.ts';

export interface RunRequestBase {
  /** Minimum milliseconds between snapshots; 200 (about 5 per second) by default. */
  snapshotIntervalMs?: number;
  /** Resident-memory limit of the worker for this run, in MB; overrides the host's limit. */
  memoryLimitMb?: number;
}

/** A run built from a request, ready for the driver. */
export interface KindRun<Snapshot, Result> {
  run: Steppable<Snapshot, Result>;
  termination: Termination;
  /** Whether the termination must bound the run (false for runs that end by themselves). */
  requireBudget: boolean;
  /** Checks the result before it is reported (throws: the run fails with the message). */
  check?(result: Result): void;
}

/**
 * What the process that executes runs offers them beyond src-shared: under Node, starting a
 * solver program (src-main/host/program-process.ts). A run that needs what is missing fails
 * with a message that says so.
 */
export interface RunEnvironment {
  launchProgram?: ProgramLauncher;
}
