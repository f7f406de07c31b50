/**
 * How the command line lets a project's solver programs run (`experiment run`, `experiment
 * verify`): the program gate with the command line's policy (commandLinePrograms in
 * src-main/app/program-policy.ts), whose approvals are remembered per user
 * (program-approvals.ts), and which asks on a terminal.
 */
import path from 'node:path';
import { ProgramGate, experimentPrograms } from '../app/program-gate.ts';
import { commandLinePrograms, type ResolvedProgram } from '../app/program-policy.ts';
import { approvalsFile, fileApprovals } from '../app/program-approvals.ts';
import type { ExperimentSpec } from '../../src-shared/experiments/spec.ts';
import { formatCommand } from '../../src-shared/solvers/program/protocol.ts';
import { visibleControls, writeLine, type CliIo } from './command.ts';

/** A project file as the person gave it: relative to the working folder when it is inside it. */
export function shownPath(io: CliIo, file: string): string {
  const relative = path.relative(io.cwd, file);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
}

/** Reads one answer line from stdin after writing the question to stderr; yes is "y" or "yes". */
function askOnTerminal(io: CliIo): (question: string) => Promise<boolean> {
  return (question) =>
    new Promise((resolve) => {
      io.stderr.write(visibleControls(question));
      let text = '';
      const done = (answer: string) => {
        io.stdin.off('data', onData);
        io.stdin.off('end', onEnd);
        io.stdin.pause();
        resolve(/^\s*y(es)?\s*$/i.test(answer));
      };
      const onData = (chunk: Buffer | string) => {
        text += chunk.toString();
        const nl = text.indexOf('\n');
        if (nl >= 0) done(text.slice(0, nl));
      };
      const onEnd = () => done(text);
      io.stdin.on('data', onData);
      io.stdin.on('end', onEnd);
      io.stdin.resume();
    });
}

/** The gate for a project's programs: named on stderr, run when approved, with --yes, or when the person says yes on a terminal. */
export function projectProgramGate(io: CliIo, yes: boolean): ProgramGate {
  const policy = commandLinePrograms({
    approvals: fileApprovals(approvalsFile(io.env)),
    yes,
    ask: io.stdinIsTTY && io.stderrIsTTY ? askOnTerminal(io) : null,
    tell: (text) => writeLine(io.stderr, visibleControls(text)),
    show: (place) => shownPath(io, place),
  });
  return new ProgramGate({ policy });
}

/**
 * Remembers the programs `experiment add` stored (as the gate resolved them) as approved for the
 * project on this machine: the person gave the spec on the command line. Returns a line per
 * program and one saying whether the approval is kept, for stdout.
 */
export function approveAdded(io: CliIo, projectFile: string, resolved: readonly ResolvedProgram[]): string[] {
  if (resolved.length === 0) return [];
  const lines = resolved.map((r) => visibleControls(`  program ${r.name}: ${formatCommand(r.command)} (runs ${r.executable})`));
  const kept = fileApprovals(approvalsFile(io.env)).add(projectFile, resolved);
  lines.push(
    kept === null
      ? `  approved for ${shownPath(io, projectFile)} on this machine (experiment run and verify run ${resolved.length > 1 ? 'them' : 'it'} without asking)`
      : `  not remembered as approved: ${kept}; experiment run and verify will ask on a terminal, or take --yes`,
  );
  return lines;
}

/** A stored solver program as `project info --json` and `experiment status --json` show it. */
export interface StoredProgram {
  solver: string;
  command: string[];
  cwd: string | null;
  env: Record<string, string>;
  blind: boolean;
  /** sha256 of the arguments that are files in the project's folder, as `experiment add` stored them. */
  hashes: Record<string, string>;
}

/** The solver programs an experiment stores: what `experiment run` and `verify` would run. */
export function storedPrograms(spec: ExperimentSpec): StoredProgram[] {
  return experimentPrograms(spec).map(({ name, program }) => ({
    solver: name,
    command: [...program.command],
    cwd: program.cwd ?? null,
    env: { ...(program.env ?? {}) },
    blind: program.blind === true,
    hashes: { ...(program.hashes ?? {}) },
  }));
}

/** One line per stored program, for the human output of `project info` and `experiment status`. */
export function programLines(spec: ExperimentSpec, indent = '    '): string[] {
  return storedPrograms(spec).map((p) => {
    const where = [
      p.cwd !== null ? `in ${p.cwd}` : '',
      Object.keys(p.env).length
        ? `with ${Object.entries(p.env)
            .map(([k, v]) => `${k}=${v}`)
            .join(' ')}`
        : '',
      p.blind ? 'blind' : '',
    ]
      .filter(Boolean)
      .join(', ');
    return visibleControls(`${indent}program ${p.solver}: ${formatCommand(p.command)}${where ? ` (${where})` : ''}`);
  });
}
