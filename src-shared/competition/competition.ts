/**
 * A competition as its file holds it (docs/competition.md): the suite's definition and its
 * problems (every instance's bands and weights, drawn once from the secret at `competition
 * new`), the budget and seeds, the entrants, and the experiments they make: one blind
 * experiment per track, named by the track, of that track's problems x the entrants x the
 * seeds. The experiments are derived (competitionSpecs): entering an entrant adds its entry to
 * each of them, and no run of an earlier entrant changes its id.
 */
import { isName, NAME_RULE } from '../base/names.ts';
import { FEATURE_COUNT, TRACK_NAMES, type TrackName } from '../problems/dice/config.ts';
import { DEFAULT_SOLVERS } from '../solvers/registry.ts';
import type { ExperimentSpec, InstanceSpec, SolverSpec } from '../experiments/spec.ts';
import { checkSuiteDefinition, parseProblemId, problemId, SuiteError, type InstanceBands, type SuiteDefinition, type SuiteProblem } from './suite.ts';

/** The most evaluations and seeds a competition's runs may have (a run's budget; seeds per problem and entrant). */
export const MAX_COMPETITION_EVALUATIONS = 100_000_000;
export const MAX_COMPETITION_SEEDS = 1000;

/** What `competition new` was given: the suite, the budget of every run, and how many seeds (1..S). */
export interface CompetitionDefinition extends SuiteDefinition {
  /** Evaluations of every run. */
  evaluations: number;
  /** Seeds 1..seeds of every problem and entrant. */
  seeds: number;
}

/** A problem as the competition file stores it: the suite's problem without its full config. */
export interface StoredProblem {
  id: string;
  track: TrackName;
  n: number;
  instance: number;
  hidden: boolean;
  bands: InstanceBands;
  /** Several objectives: the HV / IGD+ normalisation stored with the problem's instance (docs/metrics.md). */
  normalisation?: { ideal: number[]; nadir: number[]; method?: string };
}

/**
 * A commitment to the organiser's secret: sha256 of "saikoro-competition-commitment-1|" + salt
 * + "|" + secret, with a random salt. The file never holds the secret until it is revealed.
 */
export interface Commitment {
  scheme: 'sha256-salted-1';
  salt: string;
  sha256: string;
}

export interface Competition {
  definition: CompetitionDefinition;
  problems: StoredProblem[];
  commitment: Commitment;
  /** The secret, once revealed (checked against the commitment); null before. */
  secret: string | null;
  revealedAt: string | null;
  createdAt: string;
}

/** The interpreter a program entrant's command starts, as found when it entered. */
export interface InterpreterInfo {
  /** The command's first word, as given. */
  command: string;
  /** The executable found on the PATH (absolute). */
  path: string;
  sha256: string;
  /** The first line `--version` printed (stdout, else stderr), or null when it printed none. */
  version: string | null;
}

/** A file or folder of a program entrant's archived folder (links inside the folder stay links). */
export interface ArchivedEntry {
  path: string;
  kind: 'file' | 'dir' | 'link';
  target?: string;
  bytes?: number;
  sha256?: string;
  executable?: boolean;
}

/** What an entrant is: a built-in solver (or each track's default), or a program with its archived folder. */
export type EntrantEntry =
  | { kind: 'builtin'; solver: string }
  | {
      kind: 'program';
      /** argv, run in a copy of the archived folder. */
      command: string[];
      /** The folder as archived: every entry, sorted by path, and the sha256 over the list. */
      folder: { sha256: string; files: number; bytes: number; entries: ArchivedEntry[] };
      /** The interpreter found when it entered (null: the command starts a file of the folder). */
      interpreter: InterpreterInfo | null;
    }
  /**
   * A remote entrant: it runs whatever it runs on its own machine and asks `saikoro serve
   * --competition` for evaluations with its token (docs/competition.md, "Running it as a
   * service"); nothing of it runs here.
   */
  | { kind: 'remote' };

export interface Entrant {
  name: string;
  entry: EntrantEntry;
  createdAt: string;
}

/** The word `--solver` takes for each track's default solver. */
export const DEFAULT_ENTRANT_SOLVER = 'default';

export class CompetitionError extends Error {
  override name = 'CompetitionError';
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/** An entrant's name: 1-64 letters, digits, . _ + - (the label of its runs in tables and reports). */
export function checkEntrantName(name: unknown): string {
  if (!isName(name)) throw new CompetitionError('name', `an entrant's name ${NAME_RULE}, got ${JSON.stringify(name)}`);
  return name;
}

/** Checks a competition's definition; throws SuiteError / CompetitionError naming the field. */
export function checkDefinition(definition: CompetitionDefinition): CompetitionDefinition {
  checkSuiteDefinition(definition);
  const { evaluations, seeds } = definition;
  if (!Number.isSafeInteger(evaluations) || evaluations < 1 || evaluations > MAX_COMPETITION_EVALUATIONS)
    throw new CompetitionError('budget', `the budget must be a whole number of evaluations from 1 to ${MAX_COMPETITION_EVALUATIONS}, got ${evaluations}`);
  if (!Number.isSafeInteger(seeds) || seeds < 1 || seeds > MAX_COMPETITION_SEEDS)
    throw new CompetitionError('seeds', `the seeds must be a whole number from 1 to ${MAX_COMPETITION_SEEDS}, got ${seeds}`);
  return definition;
}

/** A suite's problems as stored: ids, places and bands (the tracks' groupings and constraints are the public ones). */
export function storedProblems(suite: readonly SuiteProblem[]): StoredProblem[] {
  return suite.map(({ id, track, n, instance, hidden, config }) => ({
    id,
    track,
    n,
    instance,
    hidden,
    bands: { alpha: [...config.alpha], beta: [...config.beta], gamma: [...config.gamma] },
  }));
}

/** Checks stored problems against the definition: every problem of the suite once, in order, with 15 bands and weights each. */
export function checkStoredProblems(definition: CompetitionDefinition, problems: readonly StoredProblem[]): void {
  const expected: string[] = [];
  for (const track of definition.tracks)
    for (const n of definition.ns) for (let k = definition.withPublic ? 0 : 1; k <= definition.instances; k++) expected.push(problemId(track, n, k));
  if (problems.length !== expected.length) throw new SuiteError('problems', `holds ${problems.length} problems, the definition ${expected.length}`);
  problems.forEach((p, i) => {
    if (p.id !== expected[i]) throw new SuiteError(`problems[${i}].id`, `is ${JSON.stringify(p.id)}, expected ${expected[i]}`);
    const parts = parseProblemId(p.id)!;
    if (p.track !== parts.track || p.n !== parts.n || p.instance !== parts.instance || p.hidden !== (parts.instance !== 0))
      throw new SuiteError(`problems[${i}]`, `its track, N, instance or hidden do not match its id ${p.id}`);
    for (const key of ['alpha', 'beta', 'gamma'] as const) {
      const list = p.bands[key];
      if (!Array.isArray(list) || list.length !== FEATURE_COUNT || !list.every((x) => typeof x === 'number' && Number.isFinite(x)))
        throw new SuiteError(`problems[${i}].bands.${key}`, `must be ${FEATURE_COUNT} finite numbers`);
    }
  });
}

/** The solver entry of an entrant on one track; throws CompetitionError when a built-in solver does not fit the track. */
export function solverSpecOf(entrant: Entrant, track: TrackName): SolverSpec {
  const { entry } = entrant;
  if (entry.kind === 'program') {
    // Its identity: the command, the sha256 of every argument that is a file of its folder, and the folder's own.
    const files = new Map(entry.folder.entries.filter((e) => e.kind === 'file').map((e) => [e.path, e.sha256!]));
    const hashes: Record<string, string> = {};
    for (const arg of entry.command) {
      const inFolder = files.get(arg.replace(/^(\.\/)+/, ''));
      if (inFolder !== undefined) hashes[arg] = inFolder;
    }
    return { name: entrant.name, command: [...entry.command], ...(Object.keys(hashes).length ? { hashes } : {}), folder: entry.folder.sha256 };
  }
  if (entry.kind === 'remote') return { name: entrant.name, remote: true };
  const solver = entry.solver === DEFAULT_ENTRANT_SOLVER ? DEFAULT_SOLVERS[track] : entry.solver;
  return solver === entrant.name ? { name: solver } : { name: solver, label: entrant.name };
}

/** The name of a track's experiment in a competition file: the track's own name. */
export function trackExperimentName(track: TrackName): string {
  return track;
}

/**
 * The competition's experiments: one per track (in the definition's order), blind as a whole,
 * of that track's problems (hidden ones marked) x the entrants (in the order they entered) x
 * seeds 1..S, each run with the budget (a single-objective run ends early only at f = 0, the
 * best there is: the stopping policy's default target). Empty while nobody has entered.
 */
export function competitionSpecs(competition: Pick<Competition, 'definition' | 'problems'>, entrants: readonly Entrant[]): ExperimentSpec[] {
  if (entrants.length === 0) return [];
  const { definition, problems } = competition;
  return definition.tracks.map((track) => {
    const instances: InstanceSpec[] = problems
      .filter((p) => p.track === track)
      .map((p) => ({
        name: p.id,
        track,
        n: p.n,
        config: { alpha: [...p.bands.alpha], beta: [...p.bands.beta], gamma: [...p.bands.gamma] },
        ...(p.normalisation ? { normalisation: p.normalisation } : {}),
        ...(p.hidden ? { hidden: true } : {}),
      }));
    return {
      name: trackExperimentName(track),
      description: `The competition's track ${track}: ${instances.length} problem(s) x ${entrants.length} entrant(s) x ${definition.seeds} seed(s), blind`,
      blind: true,
      instances,
      solvers: entrants.map((e) => solverSpecOf(e, track)),
      seeds: { count: definition.seeds, start: 1 },
      budget: { evaluations: definition.evaluations },
    };
  });
}

/** The tracks a competition file's experiments are named by (to tell its experiments from others). */
export function isTrackName(name: string): name is TrackName {
  return (TRACK_NAMES as readonly string[]).includes(name);
}
