/**
 * The app's view of a competition file (docs/competition.md, docs/app.md "Competition"): what
 * the API's getCompetition, getCompetitionStandings and runCompetition answer. A hidden
 * instance is named by its id and nothing more: no type here has a place for bands, weights or
 * a normalisation. Plain JSON throughout.
 */
import type { CompetitionDefinition } from '../competition/competition.ts';
import type { Ecdf } from '../competition/ecdf.ts';
import type { RunScore } from '../competition/score.ts';
import type { PairwiseStanding, Standings } from '../competition/standings.ts';
import type { TrackName } from '../problems/dice/config.ts';
import type { ExperimentSession } from './project-api.ts';

/** A problem of the suite, by id (never its bands: those only `saikoro competition problems --reveal` lists). */
export interface CompetitionProblem {
  id: string;
  track: TrackName;
  n: number;
  instance: number;
  hidden: boolean;
}

/** How an entrant takes part: a built-in solver run blind, a program run sandboxed here, or a remote entrant playing against `saikoro serve --competition`. */
export type CompetitionEntrantKind = 'built-in' | 'program' | 'remote';

export interface CompetitionEntrant {
  name: string;
  kind: CompetitionEntrantKind;
  /** A built-in's solver (`default`: each track's default), a program's command line; null for a remote entrant. */
  what: string | null;
  createdAt: string;
}

/** Runs of one entrant on one track (or of the whole competition): how many are done, failed, running in this app, left. */
export interface CompetitionProgressCounts {
  total: number;
  done: number;
  /** Failed runs are scored on what they evaluated and not run again (the failure policy). */
  failed: number;
  /** In flight in this app's session now. */
  running: number;
  /** Neither stored nor running: what Run would run (a remote entrant's: what its server will play). */
  left: number;
}

export interface CompetitionProgress extends CompetitionProgressCounts {
  entrant: string;
  track: TrackName;
}

/** The open project's competition (getCompetition). */
export interface CompetitionOverview {
  /** The project's path as the app shows it. */
  file: string;
  definition: CompetitionDefinition;
  revealed: boolean;
  revealedAt: string | null;
  createdAt: string;
  /** Track-major, then N, then instance. */
  problems: CompetitionProblem[];
  entrants: CompetitionEntrant[];
  /** One row per entrant and track, entrants in the order they entered, tracks in the definition's. */
  progress: CompetitionProgress[];
  /** Over every entrant and track. */
  totals: CompetitionProgressCounts;
  /**
   * Why the program entrants cannot run here (the sandbox is missing: the message names the
   * package), or null: there are none, or they can run.
   */
  sandboxRefusal: string | null;
  /** Whether the file is open read-only (nothing can run). */
  readOnly: boolean;
  /** The newest session of each track's experiment in this app, by track (absent: none yet). */
  sessions: Partial<Record<TrackName, ExperimentSession>>;
}

/** An entrant's place on one problem (the `problems` of a standings line). */
export interface CompetitionStandingProblem {
  rank: number;
  runRank: number;
  best: RunScore | null;
  median: RunScore | null;
  runs: number;
}

/** One line of the standings: the fields of `saikoro competition standings --json`. */
export interface CompetitionStandingLine {
  entrant: string;
  rank: number;
  /** The entrant's problem ranks averaged over the suite (lower is better). */
  score: number;
  /** The average problem rank per track. */
  tracks: Record<string, number>;
  problems: Record<string, CompetitionStandingProblem>;
}

/** The runtime ECDFs of one group: a track, or `suite`. */
export interface CompetitionEcdfGroup {
  group: string;
  ecdfs: Ecdf[];
  withoutTargets: string[];
  inexact: string[];
}

/**
 * The standings as `saikoro competition standings FILE --json` prints them for the same file
 * (src-main/report/competition.ts builds both): the same JSON, field for field.
 */
export interface CompetitionStandings {
  format: 'saikoro-competition';
  generatedAt: string;
  appVersion: string;
  file: string;
  definition: CompetitionDefinition;
  revealed: boolean;
  entrants: { name: string; kind: string }[];
  problems: CompetitionProblem[];
  /** total, done, failed, missing (and any other count the report keeps). */
  runs: { total: number; done: number; failed: number; missing: number };
  complete: boolean;
  standings: CompetitionStandingLine[];
  friedman: Standings['friedman'];
  pairwise: PairwiseStanding[];
  contradictions: { id: string; problem: string; entrant: string; seed: number; reason: string }[];
  scoreNormalisation: string;
  ecdfs: CompetitionEcdfGroup[];
}

/** runCompetition's options. */
export interface RunCompetitionOptions {
  /** Runs at the same time (default: the app's parallelism). */
  jobs?: number;
}
