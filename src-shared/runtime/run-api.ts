/**
 * Runs of every kind as the app's API shows them (src-shared/api.ts: startRun, getRun,
 * listRuns, pauseRun, cancelRun, onRunSnapshot, onRunFinished). A run is started from a
 * StartRunRequest keyed by `kind`; the main side checks it the way the CLI checks its options
 * (errors name the field), resolves it (RunStarted says exactly what runs), queues it on the
 * solver host, and keeps it, finished or not, so that any window or tab can find it again.
 *
 * Everything here is plain JSON: no typed arrays, no Infinity, null for "none".
 */
import type { DiceConfig, TrackName } from '../problems/dice/config.ts';
import type { HvNormalisation } from '../problems/dice/hv-reference.ts';
import type { NqueensRequestFields } from '../problems/nqueens/request.ts';
import type { Snapshot, SolverResult } from '../solvers/types.ts';
import type { ParamValue } from '../core/params.ts';
import type { StopReason } from '../core/termination.ts';
import type { NqueensSnapshot, NqueensSweepPoint, NqueensSweepResult, NqueensSweepSnapshot, RunKindName } from './kinds/index.ts';
import type { ProgramSpec } from '../solvers/program/protocol.ts';
import type { ProgressPoint } from './progress.ts';

export type { ProgressPoint } from './progress.ts';
export type { NqueensSweepOutcome, NqueensSweepPoint, NqueensSweepResult, NqueensSweepSnapshot } from './kinds/index.ts';

/** A dice run: the problem, the solver and its budget. */
export interface StartDiceRun {
  /** May be left out: a request without a kind is a dice run. */
  kind?: 'dice';
  /** The problem; omitted fields take the track's defaults (as in evaluateDice). */
  config: Partial<DiceConfig> & { n: number };
  /**
   * A solver name from listSolvers(); by default the strongest for the config's track. With
   * `program`: the program's name (by default its script's file name).
   */
  solver?: string;
  /**
   * The solver is this program, speaking the external-solver protocol (docs/external-solvers.md):
   * its command (argv, no shell), and optionally cwd (relative to the open project's folder, or
   * the app's working folder), env, blind, grace, timeout. `params` must then be empty. The app
   * may refuse it (web mode without --allow-commands) or ask first (desktop): ProgramNotAllowedError.
   */
  program?: ProgramSpec;
  /** Solver parameters by name; missing ones take their defaults. */
  params?: Record<string, ParamValue>;
  seed: number;
  /** The evaluation budget. */
  evaluations: number;
  /**
   * Use the whole budget: a single-objective run otherwise stops at its first feasible f = 0
   * (the one stopping policy, as `saikoro solve` without --whole-budget and experiments).
   */
  wholeBudget?: boolean;
}

/**
 * An N-Queens run: method, board size N, parameters by their framework names (A, B, C, kick,
 * kickEvery, kickLength, update, threshold, clamp, maxSteps / samples, greedyTries, noise,
 * maxSteps; docs/nqueens.md), seed, and how many queens the report of a solved run carries
 * (`maxQueens`, default min(N, 10 000)).
 */
export interface StartNqueensRun extends NqueensRequestFields {
  kind: 'nqueens';
  /**
   * 'baseline': a run the N-Queens lab starts itself, to compare its network with min-conflicts
   * on the same N and seed (its worker card does not show these); 'run' (the default): any other.
   */
  purpose?: NqueensRunPurpose;
}

export type NqueensRunPurpose = 'run' | 'baseline';
export const NQUEENS_RUN_PURPOSES: readonly NqueensRunPurpose[] = ['run', 'baseline'];

/**
 * The N-Queens lab's sweep: the network on each (setting, N) point with seeds 1..seeds, one
 * cell after the other in one worker; its result is every cell's outcome (each exactly the
 * nqueens run of its N, parameters and seed).
 */
export interface StartNqueensSweep {
  kind: 'nqueens-sweep';
  /** Parameters by their framework names, as StartNqueensRun's; missing ones take their defaults. */
  points: NqueensSweepPoint[];
  seeds: number;
}

/** What a sweep runs. */
export interface NqueensSweepStarted extends StartedBase {
  kind: 'nqueens-sweep';
  /** Every parameter of each point, defaults filled in. */
  points: NqueensSweepPoint[];
  seeds: number;
  /** points x seeds. */
  cells: number;
}

export type StartRunRequest = RunApiTypes[RunKindName]['start'];

interface StartedBase {
  runId: string;
  /** One line that names the run ("ils on SO, N = 50, seed 1"). */
  title: string;
  /** When startRun was answered (ISO 8601). */
  createdAt: string;
}

/** What a dice run runs, every default filled in. */
export interface DiceRunStarted extends StartedBase {
  kind: 'dice';
  /** A registered solver's name, or a solver program's name (then `program` says what runs). */
  solver: string;
  /** The solver program (docs/external-solvers.md), when the solver is one; `params` is then empty. */
  program?: ProgramSpec;
  /** Every parameter, defaults filled in, and sizes derived at setup shown as used (NSGA-III's population). */
  params: Record<string, ParamValue>;
  seed: number;
  n: number;
  /** The track whose objective grouping the config uses, or null for a custom one. */
  track: TrackName | null;
  objectiveCount: number;
  config: DiceConfig;
  evaluations: number;
  /** The f at which a single-objective run stops early (0), or null (whole budget, or M > 1). */
  target: number | null;
  /** M >= 2: how the hypervolume of the front is normalised (computed once per instance, in a worker process). */
  hvNormalisation: HvNormalisation | null;
  /** A run of an experiment (runExperiment): which one, and the run's content-hash id in its grid. */
  experiment: ExperimentRunTag | null;
}

export interface ExperimentRunTag {
  name: string;
  /** The run id of docs/projects.md (a content hash), as listExperimentRuns shows it. */
  id: string;
  instance: string;
  label: string;
}

/** What an N-Queens run runs. */
export interface NqueensRunStarted extends StartedBase {
  kind: 'nqueens';
  method: 'neural' | 'minconflicts';
  n: number;
  seed: number;
  /** Every parameter, defaults filled in. */
  params: Record<string, ParamValue>;
  /** The step limit that applies (maxSteps, or the method's default for N). */
  stepLimit: number;
  maxQueens: number;
  purpose: NqueensRunPurpose;
}

/** What a finished N-Queens run found. */
export interface NqueensRunReport {
  n: number;
  method: 'neural' | 'minconflicts';
  seed: number;
  params: Record<string, ParamValue>;
  solved: boolean;
  steps: number;
  seconds: number;
  /** 'solver': solved or the method's step limit; 'cancelled'. */
  stopReason: StopReason;
  /** Why an unsolved run failed (network: loop, oscillation, stall, wander; min-conflicts: attacking pairs left). */
  failure: string | null;
  /** Min-conflicts: the attacking pairs its greedy start left; null for the network (or a run cancelled during the start). */
  initialConflicts: number | null;
  message: string;
  /** Solved and confirmed by verifySolution on the main side (besides the worker's own check). */
  verified: boolean;
  /** queens[r] = 0-based column of the queen in row r, for the first `maxQueens` rows; null unless solved. */
  queens: number[] | null;
}

/**
 * Per kind: what startRun takes, what it answers, what snapshots carry, what a finished run
 * reports. A kind of run has one line here, its shared descriptor in
 * src-shared/runtime/kinds/index.ts (RUN_KINDS) and its app descriptor in
 * src-main/app/run-kinds.ts (RUN_KIND_DESCRIPTORS); both are mapped over the kind names, so
 * the compiler asks for each.
 */
export interface RunApiTypes {
  dice: { start: StartDiceRun; started: DiceRunStarted; snapshot: Snapshot; result: SolverResult };
  nqueens: { start: StartNqueensRun; started: NqueensRunStarted; snapshot: NqueensSnapshot; result: NqueensRunReport };
  'nqueens-sweep': { start: StartNqueensSweep; started: NqueensSweepStarted; snapshot: NqueensSweepSnapshot; result: NqueensSweepResult };
}

export type RunStarted = RunApiTypes[RunKindName]['started'];

export type RunStatus = 'queued' | 'running' | 'paused' | 'done' | 'failed' | 'cancelled';
export type FinishedStatus = 'done' | 'failed' | 'cancelled';

export type RunInfoOf<K extends RunKindName> = {
  runId: string;
  kind: K;
  started: RunApiTypes[K]['started'];
  status: RunStatus;
  /** The latest snapshot (null before the first). */
  snapshot: RunApiTypes[K]['snapshot'] | null;
  /** Once finished: what it found (null when it failed, or was cancelled before it began). */
  result: RunApiTypes[K]['result'] | null;
  /** Why it failed or was cancelled; null otherwise. */
  reason: string | null;
  /** Progress points from the snapshots so far, thinned (src-shared/runtime/progress.ts). */
  history: ProgressPoint[];
};
export type RunInfo = { [K in RunKindName]: RunInfoOf<K> }[RunKindName];

/** A live progress snapshot, about five per second while a run goes. */
export type RunSnapshotEvent = { [K in RunKindName]: { runId: string; kind: K; snapshot: RunApiTypes[K]['snapshot'] } }[RunKindName];

/** How a run ended; `result` is there when done (and when cancelled after it started). */
export type RunFinishedEvent = {
  [K in RunKindName]: { runId: string; kind: K; status: FinishedStatus; reason: string | null; result: RunApiTypes[K]['result'] | null };
}[RunKindName];
