/**
 * The competition's setting (docs/competition.md), decided once for the CLI (`saikoro
 * competition ...`) and the app's API: making a competition file (the suite drawn from the
 * organiser's secret, a commitment to the secret instead of the secret), entering entrants
 * (built-in solvers, or programs whose folder is archived in the file), listing the problems
 * (bands only once revealed, or with the secret), and revealing the secret.
 */
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { CommandLineError, splitCommandLine } from '../../src-shared/solvers/program/command-line.ts';
import { findExecutable } from '../host/find-executable.ts';
import { hashFolder, ProgramFolderError } from '../host/program-folder.ts';
import { carriesProjectMark, isProjectOrBeside } from '../project/file-checks.ts';
import { namesScript } from './program-gate.ts';
import { buildSuite, checkSecret, drawInstance, SuiteError } from '../../src-shared/competition/suite.ts';
import {
  checkDefinition,
  checkEntrantName,
  competitionSpecs,
  CompetitionError,
  DEFAULT_ENTRANT_SOLVER,
  storedProblems,
  type Commitment,
  type Competition,
  type CompetitionDefinition,
  type Entrant,
  type InterpreterInfo,
  type StoredProblem,
} from '../../src-shared/competition/competition.ts';
import { expandGridWithSetups } from '../../src-shared/experiments/grid.ts';
import { SpecError, validateSpec, type ExperimentSpec } from '../../src-shared/experiments/spec.ts';
import { diceConfig, type DiceConfig } from '../../src-shared/problems/dice/config.ts';
import { createDiceProblem } from '../../src-shared/problems/dice/problem.ts';
import { checkSolverFits, findSolver, SolverError } from '../../src-shared/solvers/registry.ts';
import type { EntrantFile } from '../project/project-records.ts';
import { ProjectError } from '../project/errors.ts';
import { Project } from '../project/store.ts';
import type { HvNormaliser } from './dice.ts';

const COMMITMENT_PREFIX = 'saikoro-competition-commitment-1|';

/** A commitment to `secret`: sha256 over a fresh random salt and the secret (never the secret itself). */
export function commitTo(secret: string, salt: string = randomBytes(16).toString('hex')): Commitment {
  return { scheme: 'sha256-salted-1', salt, sha256: createHash('sha256').update(`${COMMITMENT_PREFIX}${salt}|${secret}`, 'utf8').digest('hex') };
}

/** Whether `secret` is the one the commitment was made to. */
export function secretMatches(commitment: Commitment, secret: string): boolean {
  const given = Buffer.from(commitTo(secret, commitment.salt).sha256, 'hex');
  return timingSafeEqual(given, Buffer.from(commitment.sha256, 'hex'));
}

/** The full config of a stored problem: its track's grouping, the public constraints, its bands and weights. */
export function storedProblemConfig(problem: StoredProblem): DiceConfig {
  return diceConfig({ track: problem.track, n: problem.n, ...problem.bands });
}

/** The competition of an open project, or CompetitionError when it is not a competition file. */
export function competitionOf(project: Project): Competition {
  const competition = project.competition();
  if (!competition) throw new CompetitionError('file', `${project.path}: is not a competition file (make one with saikoro competition new)`);
  return competition;
}

/**
 * Makes a competition file: checks the definition and the secret, draws the suite, computes
 * each multi-objective problem's normalisation (`normalise`: in a worker at large N), and only
 * then creates the file (an existing file is never touched) holding the suite and a commitment.
 */
export async function createCompetitionFile(file: string, definition: CompetitionDefinition, secret: string, normalise: HvNormaliser): Promise<Competition> {
  checkDefinition(definition);
  checkSecret(secret);
  const suite = buildSuite(definition, secret);
  const problems = storedProblems(suite);
  for (let i = 0; i < suite.length; i++) {
    if (suite[i].config.objectives.length < 2) continue;
    const { ideal, nadir, method } = await normalise(suite[i].config);
    problems[i].normalisation = { ideal, nadir, ...(method !== undefined ? { method } : {}) };
  }
  const competition: Competition = { definition, problems, commitment: commitTo(secret), secret: null, revealedAt: null, createdAt: new Date().toISOString() };
  const project = Project.create(file);
  try {
    project.createCompetition(competition);
  } finally {
    project.close();
  }
  return competition;
}

/** The experiments with one more entrant, checked as `experiment add` checks a spec (solvers, parameters, setups). */
function specsWith(competition: Competition, entrants: readonly Entrant[]): ExperimentSpec[] {
  const specs = competitionSpecs(competition, entrants);
  const last = entrants[entrants.length - 1];
  const seen = new Map<string, string>();
  for (const spec of specs) {
    let runs;
    try {
      runs = expandGridWithSetups(validateSpec(spec));
    } catch (e) {
      if (e instanceof SpecError) throw new CompetitionError('solver', `entrant ${last.name} cannot enter track ${spec.name}: ${e.message}`);
      throw e;
    }
    for (const run of runs) {
      const other = seen.get(run.id);
      if (other !== undefined && other !== run.label)
        throw new CompetitionError(
          'solver',
          `entrant ${last.name} would make the very runs of entrant ${other === last.name ? run.label : other} (the same solver on the same problems and seeds): enter it once`,
        );
      seen.set(run.id, run.label);
    }
  }
  return specs;
}

function refuseAfterReveal(competition: Competition, project: Project): void {
  if (competition.secret !== null)
    throw new CompetitionError('file', `${project.path}: the competition's secret has been revealed; no entrant can enter any more`);
}

/** The entrant's name, checked, and not taken already (nor a built-in solver's name for a program). */
function newEntrantName(project: Project, name: unknown): string {
  const checked = checkEntrantName(name);
  if (project.entrants().some((e) => e.name === checked))
    throw new CompetitionError('name', `an entrant named "${checked}" has entered already; choose another name`);
  return checked;
}

/**
 * Enters a built-in solver (run blind), or `default`: each track's default solver. A solver
 * that does not handle a track of the competition is refused, naming the track.
 */
export function enterBuiltIn(project: Project, name: unknown, solver: unknown): Entrant {
  const competition = competitionOf(project);
  refuseAfterReveal(competition, project);
  const checked = newEntrantName(project, name);
  if (typeof solver !== 'string' || solver === '')
    throw new CompetitionError('solver', `must be a built-in solver's name or ${DEFAULT_ENTRANT_SOLVER}, got ${JSON.stringify(solver)}`);
  if (solver !== DEFAULT_ENTRANT_SOLVER) {
    try {
      const info = findSolver(solver);
      for (const track of competition.definition.tracks) {
        try {
          checkSolverFits(info, createDiceProblem(diceConfig({ track, n: competition.definition.ns[0] })));
        } catch (e) {
          if (e instanceof SolverError)
            throw new SolverError(
              `${e.message.replace('this problem', `track ${track}`)}; enter a solver that handles every track of the competition, or ${DEFAULT_ENTRANT_SOLVER}`,
            );
          throw e;
        }
      }
    } catch (e) {
      if (e instanceof SolverError) throw new CompetitionError('solver', e.message);
      throw e;
    }
  }
  const entrant: Entrant = { name: checked, entry: { kind: 'builtin', solver }, createdAt: new Date().toISOString() };
  project.addEntrant(entrant, [], specsWith(competition, [...project.entrants(), entrant]));
  return entrant;
}

/** Enters a program whose folder has been archived (`files`: every file's bytes, checked against the entry). */
export function enterArchivedProgram(project: Project, entrant: Entrant, files: readonly EntrantFile[]): Entrant {
  const competition = competitionOf(project);
  refuseAfterReveal(competition, project);
  newEntrantName(project, entrant.name);
  if (findSolverOrNull(entrant.name)) throw new CompetitionError('name', `"${entrant.name}" is a built-in solver's name; give the program another name`);
  project.addEntrant(entrant, files, specsWith(competition, [...project.entrants(), entrant]));
  return entrant;
}

/**
 * Enters a remote entrant: it runs on its own machine and asks `saikoro serve --competition`
 * for evaluations with its token (competitionToken). Its runs are in the experiments like every
 * entrant's, and nothing of Saikoro's runs them.
 */
export function enterRemote(project: Project, name: unknown): Entrant {
  const competition = competitionOf(project);
  refuseAfterReveal(competition, project);
  const checked = newEntrantName(project, name);
  if (findSolverOrNull(checked)) throw new CompetitionError('name', `"${checked}" is a built-in solver's name; give the remote entrant another name`);
  const entrant: Entrant = { name: checked, entry: { kind: 'remote' }, createdAt: new Date().toISOString() };
  project.addEntrant(entrant, [], specsWith(competition, [...project.entrants(), entrant]));
  return entrant;
}

/** What starts every entrant token: tells it apart from the server's own token in logs and files. */
export const ENTRANT_TOKEN_PREFIX = 'skt_';

/** The sha256 under which the file keeps a token (hex). */
export function tokenHashOf(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** A remote entrant of the file by name, or CompetitionError naming what it is instead. */
function remoteEntrant(project: Project, name: unknown): Entrant {
  const checked = checkEntrantName(name);
  const entrant = project.entrants().find((e) => e.name === checked);
  if (!entrant)
    throw new CompetitionError(
      'entrant',
      `${project.path}: has no entrant named "${checked}" (enter it with saikoro competition enter FILE --name ${checked} --remote)`,
    );
  if (entrant.entry.kind !== 'remote')
    throw new CompetitionError(
      'entrant',
      `entrant ${checked} is not remote (it entered as ${entrant.entry.kind === 'builtin' ? `built-in solver ${entrant.entry.solver}` : 'a program'}): its runs run here, so it needs no token`,
    );
  return entrant;
}

/**
 * A new token for a remote entrant: 32 random bytes, returned once and stored only as its
 * sha256. The entrant's earlier token, if any, is revoked at the same moment (one valid token
 * per entrant).
 */
export function issueEntrantToken(project: Project, name: unknown): { entrant: string; token: string } {
  const competition = competitionOf(project);
  refuseAfterReveal(competition, project);
  const entrant = remoteEntrant(project, name);
  const token = `${ENTRANT_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  project.addEntrantToken(entrant.name, tokenHashOf(token), new Date().toISOString());
  return { entrant: entrant.name, token };
}

/** Revokes the remote entrant's token: a running server refuses it within a second. Returns whether one was valid. */
export function revokeEntrantTokens(project: Project, name: unknown): boolean {
  competitionOf(project);
  const entrant = remoteEntrant(project, name);
  return project.revokeEntrantTokens(entrant.name, new Date().toISOString()) > 0;
}

/**
 * Archives a program entrant's folder and enters it: every file of `dir` (the sandbox's folder
 * rules: src-main/host/program-folder.ts; a Saikoro project in it is left out, never archived),
 * each with its sha256, and the interpreter its command starts (found on this PATH, hashed, its
 * `--version`). The command runs in a copy of that folder; a script it names must be a file of it.
 */
export function enterProgram(
  project: Project,
  name: unknown,
  dir: string,
  commandLine: string,
  options: { shown?: string; pathVariable?: string } = {},
): Entrant {
  const shown = options.shown ?? dir;
  const pathVariable = 'pathVariable' in options ? options.pathVariable : process.env.PATH;
  const competition = competitionOf(project);
  refuseAfterReveal(competition, project);
  const checked = newEntrantName(project, name);
  let command: string[];
  try {
    command = splitCommandLine(commandLine);
  } catch (e) {
    if (e instanceof CommandLineError) throw new CompetitionError('command', `--command: ${e.message}`);
    throw e;
  }
  if (command.length === 0) throw new CompetitionError('command', '--command: names no program');
  let manifest;
  try {
    manifest = hashFolder(path.resolve(dir), { exclude: (file) => isProjectOrBeside(file, project.path) || carriesProjectMark(file) });
  } catch (e) {
    if (e instanceof ProgramFolderError) throw new CompetitionError('dir', e.message.replaceAll(path.resolve(dir), shown));
    throw e;
  }
  const root = manifest.root;
  const filesByPath = new Map(manifest.entries.filter((f) => f.kind === 'file').map((f) => [f.path, f]));
  const inFolder = (word: string) => filesByPath.get(path.posix.normalize(word.replace(/\\/g, '/')));
  for (const arg of command.slice(1))
    if (namesScript(arg) && !inFolder(arg))
      throw new CompetitionError(
        'command',
        `--command: ${arg} is not a file of ${shown} (the program runs in a copy of that folder, with nothing else of this machine's files)`,
      );
  let interpreter: InterpreterInfo | null = null;
  const word = command[0];
  if (word.includes('/')) {
    const own = inFolder(word);
    if (!own || !own.executable) throw new CompetitionError('command', `--command: ${word} is not an executable file of ${shown}`);
  } else {
    const found = findExecutable(word, root, pathVariable);
    if (found === null) throw new CompetitionError('command', `--command: ${word} is not on the PATH (${pathVariable ?? 'none'})`);
    const real = fs.realpathSync(found);
    interpreter = {
      command: word,
      path: found,
      sha256: createHash('sha256').update(fs.readFileSync(real)).digest('hex'),
      version: interpreterVersion(found, root),
    };
  }
  const files: EntrantFile[] = [];
  for (const entry of manifest.entries) {
    if (entry.kind !== 'file') continue;
    const content = fs.readFileSync(path.join(root, ...entry.path.split('/')));
    const sha256 = createHash('sha256').update(content).digest('hex');
    if (sha256 !== entry.sha256) throw new CompetitionError('dir', `${shown}: ${entry.path} changed while it was being archived; enter it again`);
    files.push({ path: entry.path, mode: entry.executable ? 0o755 : 0o644, sha256, content: new Uint8Array(content) });
  }
  const entrant: Entrant = {
    name: checked,
    entry: {
      kind: 'program',
      command,
      folder: { sha256: manifest.sha256, files: manifest.files, bytes: manifest.bytes, entries: manifest.entries.map((e) => ({ ...e })) },
      interpreter,
    },
    createdAt: new Date().toISOString(),
  };
  return enterArchivedProgram(project, entrant, files);
}

/** The first non-empty line an interpreter prints for `--version` (stdout, then stderr), at most 200 characters; null if none. */
export function interpreterVersion(executable: string, cwd: string): string | null {
  const version = spawnSync(executable, ['--version'], { encoding: 'utf8', timeout: 10_000, cwd });
  const line = `${version.stdout ?? ''}\n${version.stderr ?? ''}`
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l !== '');
  return line === undefined ? null : line.slice(0, 200);
}

function findSolverOrNull(name: string) {
  try {
    return findSolver(name);
  } catch (e) {
    if (e instanceof SolverError) return null;
    throw e;
  }
}

/** A problem as `competition problems` lists it; `alpha`, `beta`, `gamma` only when shown. */
export interface ListedProblem {
  id: string;
  track: string;
  n: number;
  instance: number;
  hidden: boolean;
  alpha?: number[];
  beta?: number[];
  gamma?: number[];
}

/**
 * The problems of a competition. Bands and weights are listed only once the competition is
 * revealed, or with `secret` (checked against the commitment: a wrong secret is an error,
 * never a listing of anything).
 */
export function listProblems(project: Project, secret: string | null = null): { problems: ListedProblem[]; shown: boolean } {
  const competition = competitionOf(project);
  if (secret !== null && !secretMatches(competition.commitment, secret))
    throw new CompetitionError('secret', `${project.path}: the secret does not match the competition's commitment`);
  const shown = secret !== null || competition.secret !== null;
  const problems = competition.problems.map((p) => ({
    id: p.id,
    track: p.track,
    n: p.n,
    instance: p.instance,
    hidden: p.hidden,
    ...(shown ? { alpha: p.bands.alpha, beta: p.bands.beta, gamma: p.bands.gamma } : {}),
  }));
  return { problems, shown };
}

/** What a reveal found. */
export interface Reveal {
  /** Hidden problems the secret drew again, all equal to the stored ones. */
  hidden: number;
  /** False when the competition was revealed before (with the same secret). */
  newlyRevealed: boolean;
  revealedAt: string;
}

/**
 * Reveals the competition: the secret must match the commitment, and must draw every stored
 * hidden instance again (so the instances were the secret's, not chosen after the fact). Then
 * the secret is stored, and from then on every command shows the bands.
 */
export function revealCompetition(project: Project, secret: unknown): Reveal {
  const competition = competitionOf(project);
  const hidden = checkRevealSecret(project, secret);
  if (competition.secret !== null) return { hidden, newlyRevealed: false, revealedAt: competition.revealedAt ?? '' };
  const revealedAt = new Date().toISOString();
  project.revealCompetition(secret as string, revealedAt);
  return { hidden, newlyRevealed: true, revealedAt };
}

/**
 * The checks of a reveal, without revealing: the secret matches the commitment and draws every
 * stored instance again. Returns how many instances are hidden; throws CompetitionError.
 */
export function checkRevealSecret(project: Project, secret: unknown): number {
  const competition = competitionOf(project);
  if (typeof secret !== 'string' || !secretMatches(competition.commitment, secret))
    throw new CompetitionError('secret', `${project.path}: the secret does not match the competition's commitment; nothing was revealed`);
  let hidden = 0;
  for (const p of competition.problems) {
    const drawn = drawInstance(secret, p.n, p.instance);
    const same = ['alpha', 'beta', 'gamma'].every((k) => JSON.stringify(drawn[k as 'alpha']) === JSON.stringify(p.bands[k as 'alpha']));
    if (!same)
      throw new CompetitionError(
        'secret',
        `${project.path}: the secret matches the commitment but does not draw problem ${p.id} as stored; the file's instances are not the secret's (it was changed); nothing was revealed`,
      );
    if (p.hidden) hidden++;
  }
  return hidden;
}

/** CompetitionError, SuiteError and ProjectError are the user's problems to fix: their messages say what. */
export function isCompetitionInputError(e: unknown): e is Error {
  return e instanceof CompetitionError || e instanceof SuiteError || e instanceof ProjectError;
}
