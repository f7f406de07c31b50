/**
 * Ending every process of a solver program, whoever asks: the program's own process when its
 * main process has ended or it is stopped (program-process.ts), and the solver host before it
 * kills a worker whose program still runs (pool.ts), so that no program outlives its run, even
 * one that ignores the end of its stdin and SIGTERM.
 *
 * A program's processes are its process group (it is spawned as a session leader) and, on
 * Linux, every process whose environment carries its marker (PROGRAM_MARKER=<its token>),
 * which reaches a child that started a session of its own (setsid) unless it cleared its
 * environment. In the sandbox the PID namespace makes all of this certain: killing bwrap ends
 * every process in it. Where the program has a cgroup (cgroup.ts), every process in it is
 * killed too, whatever its session or environment.
 */
import { randomBytes } from 'node:crypto';
import { killCgroupFolder } from './cgroup.ts';
import { processesMarked } from './process-state.ts';

/** The variable every program process gets in its environment, with its run's token. */
export const PROGRAM_MARKER = 'SAIKORO_PROGRAM_RUN';

/** A running program as the worker tells the host (and the spawn keeps it). */
export interface ProgramProcesses {
  /** The program's process (or bwrap's, sandboxed): the leader of its process group. */
  pid: number;
  /** The value of PROGRAM_MARKER in its environment. */
  marker: string;
  /** The folders of the program's cgroup, where it has one. */
  cgroups?: string[];
}

export function newMarker(): string {
  return randomBytes(12).toString('hex');
}

function kill(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
}

/** SIGKILL to the program's process group and to every process marked as the program's. */
export function killProgramProcesses(program: ProgramProcesses): void {
  if (process.platform === 'win32') {
    kill(program.pid, 'SIGKILL');
    return;
  }
  kill(-program.pid, 'SIGKILL');
  for (const dir of program.cgroups ?? []) killCgroupFolder(dir);
  for (const pid of processesMarked(PROGRAM_MARKER, program.marker)) kill(pid, 'SIGKILL');
}
