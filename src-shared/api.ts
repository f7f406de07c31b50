/**
 * The one contract between the renderer and the main side (VS Code style): members named
 * `onSomething` are events that take a listener and return a disposer; every other member is
 * an async call. Electron carries it over IPC (the preload's `window.saikoroBridge`, wrapped
 * by `apiFromBridge`), the browser over HTTP and a WebSocket; both are generic over the name lists below, so adding a call means:
 *   1. add it to `SaikoroApi` and to `API_CALLS` here (the compiler insists on both), and
 *   2. implement it in `src-main/api/implementation.ts` (the compiler insists on that too), the
 *      logic in the service it belongs to (`src-main/app/`).
 * Arguments and results must survive both a structured clone and JSON (no Infinity, no Map,
 * no class instances): use null for "unbounded".
 */
import type { DiceConfig } from './problems/dice/config.ts';
import type { DiceEvaluation } from './problems/dice/evaluate.ts';
import type { SolverDescriptor } from './solvers/registry.ts';
import type { Snapshot, SolverResult } from './solvers/types.ts';
import type { ParamValue } from './core/params.ts';
import type { NqueensSnapshot } from './runtime/kinds/index.ts';
import type { RunFinishedEvent, RunInfo, RunSnapshotEvent, RunStarted, StartRunRequest } from './runtime/run-api.ts';
import type {
  Comparison,
  CompareOptions,
  ExperimentRunRow,
  ExperimentSession,
  ExperimentSummary,
  NoteSummary,
  ProjectChangedEvent,
  ProjectFileEntry,
  ProjectSummary,
  RunExperimentOptions,
  SavedRun,
  ExperimentRunResult,
  ExportOptions,
  ExportedReport,
} from './projects/project-api.ts';
import type { CompetitionOverview, CompetitionStandings, RunCompetitionOptions } from './projects/competition-api.ts';

export type { DiceEvaluation, SolverDescriptor, Snapshot, SolverResult, ParamValue, NqueensSnapshot };
export type * from './runtime/run-api.ts';
export type * from './projects/project-api.ts';
export type * from './projects/competition-api.ts';

export interface AppInfo {
  name: string;
  version: string;
  /** The platform of the process that runs the main side (node's process.platform). */
  platform: string;
  /** How the renderer reaches the main side. */
  runtime: 'electron' | 'web';
  /**
   * Each solver worker's memory limit in MB (null: none): runs whose settings are estimated to
   * need more are refused. Left out where no solver host runs.
   */
  workerMemoryLimitMb?: number | null;
}

export interface EvaluateDiceRequest {
  /** The sequence as digits 1-6. */
  x: string;
  /** Any config fields to override; `n` defaults to 50, the rest to the spec's defaults. */
  config?: Partial<DiceConfig> & { n?: number };
}

/** A command from the desktop app's menu, forwarded to the renderer. */
export type MenuCommand = { kind: 'navigate'; view: string } | { kind: 'showShortcuts' } | { kind: 'export' };

/** Unsubscribes a listener. */
export type Disposer = () => void;

export interface SaikoroApi {
  getAppInfo(): Promise<AppInfo>;
  evaluateDice(request: EvaluateDiceRequest): Promise<DiceEvaluation>;
  /** A uniformly random sequence of n faces, fully determined by the seed. */
  randomSequence(n: number, seed: number): Promise<string>;
  /** Every solver with its parameters (for the Solve view's form). */
  listSolvers(): Promise<SolverDescriptor[]>;
  /**
   * Queues a run of any kind (dice when `kind` is left out) on the solver host, checked as the
   * CLI checks its options (an error names the field); progress arrives through onRunSnapshot
   * and onRunFinished, which may come before this call answers.
   */
  startRun(request: StartRunRequest): Promise<RunStarted>;
  /** A run started in this app instance (still going or finished), or null. */
  getRun(runId: string): Promise<RunInfo | null>;
  /** Every run started in this app instance that is still going, then the recent finished ones, newest first. */
  listRuns(): Promise<RunInfo[]>;
  /** Asks a run to stop; false when there is no such unfinished run. */
  cancelRun(runId: string): Promise<boolean>;
  /** Pauses (paused = true) or resumes a run between steps; false when there is no such unfinished run. */
  pauseRun(runId: string, paused: boolean): Promise<boolean>;

  // ---- the open project (docs/projects.md; one per app instance) ----
  /** Creates a project file and opens it. In web mode the path is relative to the workspace and stays inside it. */
  createProject(path: string): Promise<ProjectSummary>;
  /** Opens a project file (the one open before is closed, its experiment sessions stopped). */
  openProject(path: string): Promise<ProjectSummary>;
  /** Closes the open project; false when none was open. */
  closeProject(): Promise<boolean>;
  /** The open project, read from its file now (runs another process stored included), or null. */
  getProject(): Promise<ProjectSummary | null>;
  /** Project files to offer: the workspace's `*.saikoro` (web), the recently opened (desktop). */
  listProjectFiles(): Promise<ProjectFileEntry[]>;
  /** Adds an experiment from a spec (docs/projects.md), checked as `saikoro experiment add` checks it (SpecError names the field). */
  addExperiment(spec: unknown): Promise<ExperimentSummary>;
  /** Runs the experiment's missing and failed runs on the solver host (queued behind another experiment's); progress: onExperimentSession and the run events. */
  runExperiment(name: string, options?: RunExperimentOptions): Promise<ExperimentSession>;
  /** Stops an experiment's session; its runs in flight are cancelled and stay missing. False when none was going. */
  cancelExperiment(name: string): Promise<boolean>;
  /** Every run of an experiment's grid: status, seed, solver, instance, timings, failure reason, final indicators. */
  listExperimentRuns(name: string): Promise<ExperimentRunRow[]>;
  /** The comparison of `saikoro compare FILE NAME --metric M --json` on the open file. */
  compareExperiment(name: string, options: CompareOptions): Promise<Comparison>;
  /** Stores a finished run of this app in the open project: a dice run as a one-run experiment (`name`, or a default), an N-Queens run as a lab run. */
  saveRun(runId: string, name?: string): Promise<SavedRun>;
  /** Adds a note to the project, or to one of its experiments. */
  addNote(text: string, experiment?: string | null): Promise<NoteSummary>;
  /** The stored results of an experiment's runs (all of them, or the content ids given): fronts, bests, traces. */
  getExperimentResults(name: string, ids?: string[]): Promise<ExperimentRunResult[]>;
  /** An experiment's report (html, csv, json, latex, pdf; docs/report.md) as files to save. */
  exportReport(name: string, options: ExportOptions): Promise<ExportedReport>;
  // ---- the open project's competition (docs/competition.md; a competition file) ----
  /** The open project's competition: problems by id (never a hidden instance's bands), entrants, progress per entrant and track, sessions; null when no project is open or it is not a competition file. */
  getCompetition(): Promise<CompetitionOverview | null>;
  /** The standings and runtime ECDFs of `saikoro competition standings FILE --json` on the open file. */
  getCompetitionStandings(): Promise<CompetitionStandings>;
  /** Runs the competition's runs not run yet, as `saikoro competition run` does (one experiment session per track; progress: onExperimentSession and the run events). Program entrants only in the sandbox. */
  runCompetition(options?: RunCompetitionOptions): Promise<ExperimentSession[]>;
  /** Stops the competition's sessions; false when none was going. */
  cancelCompetition(): Promise<boolean>;
  /** A native file dialog where there is one (the desktop app): the chosen path, or null when cancelled. */
  pickProjectFile(purpose: 'open' | 'create'): Promise<string | null>;

  onMenuCommand(listener: (command: MenuCommand) => void): Disposer;
  onRunSnapshot(listener: (event: RunSnapshotEvent) => void): Disposer;
  onRunFinished(listener: (event: RunFinishedEvent) => void): Disposer;
  /** The open project changed (opened, closed, experiment added, runs stored, note added, run saved). */
  onProjectChanged(listener: (event: ProjectChangedEvent) => void): Disposer;
  /** An experiment session moved (queued, running with progress and ETA, ended). */
  onExperimentSession(listener: (session: ExperimentSession) => void): Disposer;
}

type EventKey<K> = K extends `on${string}` ? K : never;
export type ApiEventName = EventKey<keyof SaikoroApi>;
export type ApiCallName = Exclude<keyof SaikoroApi, ApiEventName>;
/** The calls alone: what the main side implements. */
export type ApiCalls = Pick<SaikoroApi, ApiCallName>;
/** The payload an event delivers to its listeners. */
export type ApiEventPayload<E extends ApiEventName> = Parameters<Parameters<SaikoroApi[E]>[0]>[0];

// Records rather than arrays so that the compiler reports a call or an event missing here.
const API_CALLS: Record<ApiCallName, true> = {
  getAppInfo: true,
  evaluateDice: true,
  randomSequence: true,
  listSolvers: true,
  startRun: true,
  getRun: true,
  listRuns: true,
  cancelRun: true,
  pauseRun: true,
  createProject: true,
  openProject: true,
  closeProject: true,
  getProject: true,
  listProjectFiles: true,
  addExperiment: true,
  runExperiment: true,
  cancelExperiment: true,
  listExperimentRuns: true,
  compareExperiment: true,
  saveRun: true,
  addNote: true,
  getExperimentResults: true,
  exportReport: true,
  getCompetition: true,
  getCompetitionStandings: true,
  runCompetition: true,
  cancelCompetition: true,
  pickProjectFile: true,
};
const API_EVENTS: Record<ApiEventName, true> = {
  onMenuCommand: true,
  onRunSnapshot: true,
  onRunFinished: true,
  onProjectChanged: true,
  onExperimentSession: true,
};

export const API_CALL_NAMES = Object.keys(API_CALLS) as readonly ApiCallName[];
export const API_EVENT_NAMES = Object.keys(API_EVENTS) as readonly ApiEventName[];

export function isApiCallName(name: string): name is ApiCallName {
  return Object.hasOwn(API_CALLS, name);
}
export function isApiEventName(name: string): name is ApiEventName {
  return Object.hasOwn(API_EVENTS, name);
}

/** The IPC channel of a call or an event; the only place channel names are spelled. */
export const callChannel = (name: ApiCallName) => `saikoro:call:${name}`;
export const eventChannel = (name: ApiEventName) => `saikoro:event:${name}`;
/** HTTP path of a call (POST, JSON array of arguments) and the WebSocket path of events. */
export const callPath = (name: ApiCallName) => `/api/${name}`;
export const EVENTS_PATH = '/api/events';
/** The name of the global the desktop preload defines (saikoroBridge on the page's window). */
export const BRIDGE_GLOBAL = 'saikoroBridge';

/** What an event looks like on the wire (WebSocket frame). */
export interface EventMessage<E extends ApiEventName = ApiEventName> {
  event: E;
  payload: ApiEventPayload<E>;
}

/** A failure as it crosses the boundary: the error's class name, message and useful fields. */
export interface WireError {
  name: string;
  message: string;
  /** ConfigError: the field and the rule it breaks. */
  field?: string;
  rule?: string;
  /** SequenceError: the 0-based position of the offending character, when known. */
  position?: number;
}

/** Every call answers with an envelope, so errors keep their name and fields on both transports. */
export type CallResult<T = unknown> = { ok: true; value: T } | { ok: false; error: WireError };

/** The error a client throws for a failed call; `name` is the original error's class name. */
export class ApiError extends Error {
  readonly field?: string;
  readonly rule?: string;
  readonly position?: number;
  constructor(wire: WireError) {
    super(wire.message);
    this.name = wire.name;
    if (wire.field !== undefined) this.field = wire.field;
    if (wire.rule !== undefined) this.rule = wire.rule;
    if (wire.position !== undefined) this.position = wire.position;
  }
}

export function toWireError(e: unknown): WireError {
  if (!(e instanceof Error)) return { name: 'Error', message: String(e) };
  const wire: WireError = { name: e.name, message: e.message };
  const fields = e as Error & { field?: unknown; rule?: unknown; position?: unknown };
  if (typeof fields.field === 'string') wire.field = fields.field;
  if (typeof fields.rule === 'string') wire.rule = fields.rule;
  if (typeof fields.position === 'number') wire.position = fields.position;
  return wire;
}

export function unwrapResult<T>(result: CallResult<T>): T {
  if (result.ok) return result.value;
  throw new ApiError(result.error);
}

type CallValue<K extends ApiCallName> = Awaited<ReturnType<SaikoroApi[K]>>;

/**
 * What the desktop preload exposes as `window.saikoroBridge`: every call answers its raw
 * envelope, because an Error thrown across Electron's context bridge loses its name and
 * fields. The renderer turns it into a SaikoroApi with `apiFromBridge`.
 */
export type SaikoroBridge = {
  [K in ApiCallName]: (...args: Parameters<SaikoroApi[K]>) => Promise<CallResult<CallValue<K>>>;
} & Pick<SaikoroApi, ApiEventName>;

/** The SaikoroApi over a bridge: unwraps each envelope, rethrowing failures as ApiError. */
export function apiFromBridge(bridge: SaikoroBridge): SaikoroApi {
  const api: Record<string, unknown> = {};
  for (const name of API_CALL_NAMES) {
    const call = bridge[name] as (...args: unknown[]) => Promise<CallResult>;
    api[name] = async (...args: unknown[]) => unwrapResult(await call(...args));
  }
  for (const name of API_EVENT_NAMES) api[name] = bridge[name];
  return api as unknown as SaikoroApi;
}
