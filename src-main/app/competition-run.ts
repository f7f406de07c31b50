/**
 * Running a competition (docs/competition.md, "Running it"): its experiments over the one
 * runner, executor and launcher every experiment uses. What a competition adds is here: its
 * program entrants run from a copy of their archived folder, extracted outside the project's
 * folder (the program gate resolves them there: GateContext.programFolders), with the
 * interpreter they entered with; and nothing runs a program without the sandbox.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CompetitionError, isTrackName, type Competition, type Entrant } from '../../src-shared/competition/competition.ts';
import type { ExperimentSpec } from '../../src-shared/experiments/spec.ts';
import type { Project } from '../project/store.ts';
import { competitionOf, interpreterVersion } from './competition.ts';
import { findExecutable } from '../host/find-executable.ts';
import { requireSandbox, SandboxUnavailableError } from '../host/sandbox.ts';
export { isolationSummary } from '../host/sandbox.ts';

/** What a competition run needs from its file. */
export interface CompetitionRunPlan {
  competition: Competition;
  entrants: Entrant[];
  /** Its experiments, one per track, in the definition's order. */
  specs: ExperimentSpec[];
  /** The entrants that are programs. */
  programs: Entrant[];
}

export function competitionRunPlan(project: Project): CompetitionRunPlan {
  const competition = competitionOf(project);
  const entrants = project.entrants();
  if (entrants.length === 0)
    throw new CompetitionError(
      'entrants',
      `${project.path}: nobody has entered yet (saikoro competition enter ${path.basename(project.path)} --name NAME --solver default)`,
    );
  const byName = new Map(project.experiments().map((e) => [e.name, e.spec]));
  const specs = competition.definition.tracks.map((track) => {
    const spec = byName.get(track);
    if (!spec) throw new CompetitionError('file', `${project.path}: the competition's experiment ${track} is missing (a damaged file)`);
    return spec;
  });
  for (const name of byName.keys())
    if (!isTrackName(name)) throw new CompetitionError('file', `${project.path}: holds experiment ${name}, which is not one of the competition's`);
  return { competition, entrants, specs, programs: entrants.filter((e) => e.entry.kind === 'program') };
}

/**
 * Why programs cannot run sandboxed here, or null when they can: the sandbox's own detection
 * (src-main/host/sandbox.ts: bubblewrap found and able to make a sandbox, no shared folders).
 * A competition with program entrants refuses to run without it.
 */
export function sandboxRefusal(): string | null {
  try {
    requireSandbox();
    return null;
  } catch (e) {
    if (e instanceof SandboxUnavailableError) return e.message;
    throw e;
  }
}

/** The program entrants' folders, extracted for a session; `dispose` removes them. */
export interface ExtractedEntrants {
  /** Entrant name -> its folder (absolute). */
  folders: Map<string, string>;
  root: string;
  dispose(): void;
}

function inside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * Writes each program entrant's archived folder into a fresh private folder of the system's
 * temporary place (never beside the project file), every file checked against its sha256 as
 * it is written, links only inside the folder.
 */
export function extractEntrants(project: Project, programs: readonly Entrant[], tempDir: string = os.tmpdir()): ExtractedEntrants {
  const root = fs.mkdtempSync(path.join(tempDir, 'saikoro-entrants-'));
  const dispose = () => fs.rmSync(root, { recursive: true, force: true });
  try {
    const folders = new Map<string, string>();
    for (const entrant of programs) {
      if (entrant.entry.kind !== 'program') continue;
      const folder = path.join(root, entrant.name);
      fs.mkdirSync(folder);
      const files = new Map(project.entrantFiles(entrant.name).map((f) => [f.path, f]));
      for (const entry of entrant.entry.folder.entries) {
        const to = path.join(folder, ...entry.path.split('/'));
        if (!inside(to, folder)) throw new CompetitionError('file', `entrant ${entrant.name}: the archived path ${entry.path} leads outside its folder`);
        fs.mkdirSync(path.dirname(to), { recursive: true });
        if (entry.kind === 'dir') fs.mkdirSync(to, { recursive: true });
        else if (entry.kind === 'link') {
          if (!inside(path.resolve(path.dirname(to), entry.target!), folder))
            throw new CompetitionError('file', `entrant ${entrant.name}: the archived link ${entry.path} leads outside its folder`);
          fs.symlinkSync(entry.target!, to);
        } else {
          const file = files.get(entry.path);
          if (!file || file.sha256 !== entry.sha256)
            throw new CompetitionError(
              'file',
              `${project.path}: entrant ${entrant.name}'s archived file ${entry.path} is missing or not the one entered (a damaged file)`,
            );
          const sha256 = createHash('sha256').update(file.content).digest('hex');
          if (sha256 !== entry.sha256)
            throw new CompetitionError(
              'file',
              `${project.path}: entrant ${entrant.name}'s archived file ${entry.path} does not match its sha256 (a damaged file)`,
            );
          fs.writeFileSync(to, file.content, { mode: file.mode });
        }
      }
      folders.set(entrant.name, folder);
    }
    return { folders, root, dispose };
  } catch (e) {
    dispose();
    throw e;
  }
}

/**
 * Refuses to run an entrant whose interpreter is not the one it entered with (another version
 * would make other runs under the same ids): found on this PATH, hashed, compared.
 */
export function checkInterpreters(
  programs: readonly Entrant[],
  folders: ReadonlyMap<string, string>,
  pathVariable: string | undefined = process.env.PATH,
): void {
  for (const entrant of programs) {
    if (entrant.entry.kind !== 'program' || entrant.entry.interpreter === null) continue;
    const known = entrant.entry.interpreter;
    const found = findExecutable(known.command, folders.get(entrant.name) ?? '/', pathVariable);
    if (found === null)
      throw new CompetitionError(
        'interpreter',
        `entrant ${entrant.name} runs ${known.command}, which is not on this PATH; it entered with ${known.path} (${known.version ?? 'no version printed'})`,
      );
    const sha256 = createHash('sha256')
      .update(fs.readFileSync(fs.realpathSync(found)))
      .digest('hex');
    if (sha256 !== known.sha256)
      throw new CompetitionError(
        'interpreter',
        `entrant ${entrant.name} entered with ${known.command} = ${known.path} (${known.version ?? 'no version printed'}, sha256 ${known.sha256.slice(0, 12)}...), but here ${known.command} is ${found} (sha256 ${sha256.slice(0, 12)}...): its runs would not be the ones it entered with. Run the competition where that interpreter is`,
      );
    // The same file may start another interpreter (a pyenv shim, a wrapper script): its --version too.
    if (known.version !== null) {
      const version = interpreterVersion(found, folders.get(entrant.name) ?? '/');
      if (version !== known.version)
        throw new CompetitionError(
          'interpreter',
          `entrant ${entrant.name} entered with ${known.command} = ${known.path} printing "${known.version}" for --version, but here it prints ${version === null ? 'nothing' : `"${version}"`} (the same file starts another interpreter: a pyenv shim or a wrapper): its runs would not be the ones it entered with. Run the competition where that interpreter is`,
        );
    }
  }
}
