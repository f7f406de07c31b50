/**
 * The solver programs of an experiment (docs/external-solvers.md), where they meet the file
 * system: the sha256 of each argument that is a file inside the project's folder, stored with
 * the spec when it is added (so run ids, `experiment verify` and reports say what ran), checked
 * again before runs start (a changed script would run under the ids of the old one), and the
 * working directory each run gets (relative to the project's folder).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { programOf, SpecError, type ExperimentSpec } from '../../src-shared/experiments/spec.ts';
import type { ProgramSpec } from '../../src-shared/solvers/program/protocol.ts';

/** The project's folder: where a spec's relative paths (cwd, script files) start. */
export function projectFolder(projectFile: string): string {
  return path.dirname(path.resolve(projectFile));
}

function sha256File(file: string): string {
  return createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

/** The program's working directory, absolute. */
export function programDirectory(program: Pick<ProgramSpec, 'cwd'>, projectDir: string): string {
  return path.resolve(projectDir, program.cwd ?? '.');
}

/** The arguments of a command that are files inside the project's folder, with their full paths. */
function projectFiles(program: ProgramSpec, projectDir: string): Map<string, string> {
  const cwd = programDirectory(program, projectDir);
  const files = new Map<string, string>();
  for (const arg of program.command) {
    if (arg === '' || arg.startsWith('-') || files.has(arg)) continue;
    const full = path.resolve(cwd, arg);
    const relative = path.relative(projectDir, full);
    if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) continue;
    try {
      if (fs.statSync(full).isFile()) files.set(arg, full);
    } catch {
      // not a file: an option's value, a module name, ...
    }
  }
  return files;
}

/**
 * The spec with `hashes` on every program entry: the sha256 of each argument that is a file in
 * the project's folder. Hashes the spec already carries must match the files (SpecError).
 */
export function withProgramHashes(spec: ExperimentSpec, projectDir: string): ExperimentSpec {
  if (!spec.solvers.some((s) => s.command !== undefined)) return spec;
  const solvers = spec.solvers.map((solver, i) => {
    const program = programOf(solver);
    if (!program) return solver;
    const hashes: Record<string, string> = {};
    for (const [arg, full] of projectFiles(program, projectDir)) hashes[arg] = sha256File(full);
    for (const [arg, given] of Object.entries(solver.hashes ?? {})) {
      if (hashes[arg] === undefined) throw new SpecError(`solvers[${i}].hashes.${arg}`, `is not a file in the project's folder ${projectDir}`);
      if (hashes[arg] !== given) throw new SpecError(`solvers[${i}].hashes.${arg}`, `the file's sha256 is ${hashes[arg]}, not ${given}`);
    }
    const { hashes: _old, ...rest } = solver;
    void _old;
    return Object.keys(hashes).length ? { ...rest, hashes } : rest;
  });
  return { ...spec, solvers };
}

/** A solver program's file is not what the experiment stored. */
export class ProgramFilesError extends Error {
  override name = 'ProgramFilesError';
}

/**
 * Checks that every file whose hash a program entry stores is still that file: a changed
 * script would run under the run ids of the one the experiment was added with. `who` names the
 * solver in the message ("experiment "e", solver ga (solvers[1])").
 */
export function checkProgramHashes(program: ProgramSpec, projectDir: string, who: string): void {
  const cwd = programDirectory(program, projectDir);
  for (const [arg, stored] of Object.entries(program.hashes ?? {})) {
    const full = path.resolve(cwd, arg);
    let now: string;
    try {
      now = sha256File(full);
    } catch (e) {
      throw new ProgramFilesError(
        `${who}: cannot read ${arg} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}), the file the experiment was added with (${full})`,
      );
    }
    if (now !== stored)
      throw new ProgramFilesError(
        `${who}: ${arg} has changed since the experiment was added (sha256 ${stored.slice(0, 12)}... then, ${now.slice(0, 12)}... now); its runs would not be the ones the experiment names. Restore the file, or add the changed program as a new experiment`,
      );
  }
}
