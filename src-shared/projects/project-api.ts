/**
 * The open project as the app's API shows it (src-shared/api.ts: createProject, openProject,
 * closeProject, getProject, addExperiment, runExperiment, cancelExperiment,
 * listExperimentRuns, compareExperiment, saveRun, addNote, and the onProjectChanged /
 * onExperimentSession events). One project is open per app instance; its file is the truth:
 * every answer is read from it, so runs another process (the CLI) stores show up on the next
 * read. Plain JSON throughout.
 */
import type { ExperimentSpec } from '../experiments/spec.ts';
import type { Comparison, MetricName } from '../experiments/compare.ts';

export type { ExperimentSpec, Comparison, MetricName };

/** How far an experiment has got: runs of its grid by status. */
export interface RunCounts {
  total: number;
  done: number;
  failed: number;
  /** Neither stored nor running. */
  missing: number;
  /** Running (or queued) in this app's session now. */
  running: number;
}

/** A session of `runExperiment`: the missing and failed runs of one experiment, on the solver host. */
export interface ExperimentSession {
  experiment: string;
  status: 'queued' | 'running' | 'stopping' | 'done' | 'cancelled' | 'failed';
  /** Runs at the same time. */
  jobs: number;
  /** Runs this session has to do (the grid's missing and failed ones when it began). */
  todo: number;
  /** Of those: finished (done or failed) and failed. */
  finished: number;
  failed: number;
  /** The API run ids (getRun, pauseRun, cancelRun) of its runs in flight. */
  running: string[];
  /** 0..1 over the session's runs, the runs in flight counted by their own progress. */
  progress: number;
  /** Of the runs in flight, how many are paused (their time does not count, and the time left waits for them). */
  paused: number;
  /**
   * Estimated milliseconds left (estimateLeftMs in src-main/experiments/time-left.ts: each run's
   * own length laid out on the jobs, re-made as the runs in flight move, paused time excluded),
   * null until a run has finished or moved enough to tell its length.
   */
  etaMs: number | null;
  startedAt: string;
  finishedAt: string | null;
  /** Why a session failed (e.g. the project was closed under it). */
  error: string | null;
}

export interface ExperimentSummary {
  name: string;
  description: string | null;
  createdAt: string;
  spec: ExperimentSpec;
  counts: RunCounts;
  /** The newest session of this experiment in this app instance, if any. */
  session: ExperimentSession | null;
}

export interface NoteSummary {
  id: number;
  experiment: string | null;
  text: string;
  createdAt: string;
}

export interface LabRunSummary {
  id: string;
  kind: string;
  method: string;
  n: number;
  seed: number;
  status: 'done' | 'failed';
  solved: boolean | null;
  steps: number | null;
  seconds: number | null;
  error: string | null;
  finishedAt: string;
}

export interface ProjectSummary {
  /** As the app addresses it: relative to the workspace in web mode, absolute on the desktop. */
  path: string;
  /** The file name without `.saikoro`. */
  name: string;
  schemaVersion: number;
  createdAt: string | null;
  createdBy: string | null;
  sizeBytes: number;
  experiments: ExperimentSummary[];
  notes: NoteSummary[];
  labRuns: LabRunSummary[];
  /** Whether the app opened it read-only (a folder it cannot write). */
  readOnly: boolean;
  /** Whether it is a competition file (its experiments are its tracks: the Competition view runs them). */
  competition?: boolean;
  /**
   * What recovery did beside the file when the app opened it (a sidecar kept aside as
   * `NAME.kept-<time>`, docs/reliability.md), one message each; empty for a clean open.
   */
  recovered: string[];
}

/** One run of an experiment's grid, stored or not. */
export interface ExperimentRunRow {
  /** The content-hash run id (docs/projects.md). */
  id: string;
  instance: string;
  label: string;
  solver: string;
  seed: number;
  status: 'done' | 'failed' | 'missing' | 'running';
  /** While running: its API run id. */
  runId: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  elapsedMs: number | null;
  evaluations: number | null;
  error: string | null;
  /** Final indicators of a done run: best feasible f (one objective), or the front's size and normalised hypervolume. */
  best: number | null;
  feasible: boolean | null;
  frontSize: number | null;
  hv: number | null;
}

export interface RunExperimentOptions {
  /** Runs at the same time (default: the solver host's parallelism). */
  jobs?: number;
}

export interface CompareOptions {
  metric: MetricName;
}

/** What `saveRun` stored. */
export interface SavedRun {
  /** 'experiment' for a dice run (a one-run experiment), 'lab' for an N-Queens run. */
  as: 'experiment' | 'lab';
  /** The experiment's name, or the lab run's id. */
  name: string;
  /** The stored run's content-hash id. */
  id: string;
  /** False when the same run was already stored (nothing written). */
  added: boolean;
}

export interface ProjectChangedEvent {
  /** Why: opened, closed, experiment added, runs stored, an experiment session ended (its runs no longer running), note added, run saved. */
  reason: 'opened' | 'created' | 'closed' | 'experiment-added' | 'runs-stored' | 'session-ended' | 'note-added' | 'run-saved';
  /** The open project's path afterwards, or null. */
  path: string | null;
  /** The experiment concerned, if any. */
  experiment: string | null;
}

/** A project file the app can offer to open: in the workspace (web), or recently opened (desktop). */
export interface ProjectFileEntry {
  path: string;
  name: string;
  sizeBytes: number | null;
  modifiedAt: string | null;
}

/** A stored run's full result, for the explorer and the comparison's charts. */
export interface ExperimentRunResult {
  id: string;
  instance: string;
  label: string;
  solver: string;
  seed: number;
  status: 'done' | 'failed';
  error: string | null;
  /** The stored SolverResult (best, front with every member's values, trace); null for a failed run. */
  result: import('../solvers/types.ts').SolverResult | null;
}

/** What the app and `saikoro report` say and know of a report format. */
export interface ReportFormatInfo {
  label: string;
  /** One line on what the format gives (the Export view). */
  note: string;
  /** File name endings that choose the format for `saikoro report --out`; the first is the one it writes. */
  extensions: readonly string[];
  mediaType: string;
}

/**
 * The report formats (docs/report.md), in the order the Export view offers them: the one list.
 * `saikoro report --format`, the API's check of ExportOptions and the Export view take their
 * names, endings and labels from it; a format added here is then asked for by the compiler in
 * ProjectService.exportReport and `saikoro report`.
 */
export const REPORT_FORMATS = {
  html: {
    label: 'HTML',
    note: 'One self-contained page: setup, tables, charts, best sequences, failed runs',
    extensions: ['.html', '.htm'],
    mediaType: 'text/html',
  },
  pdf: { label: 'PDF', note: 'The HTML page printed on A4 by Chromium', extensions: ['.pdf'], mediaType: 'application/pdf' },
  csv: { label: 'CSV', note: 'Two files: every run with its indicators, every solution (RFC 4180)', extensions: ['.csv'], mediaType: 'text/csv' },
  json: {
    label: 'JSON',
    note: 'Everything the tables and charts are made from (docs/report.schema.json)',
    extensions: ['.json'],
    mediaType: 'application/json',
  },
  latex: { label: 'LaTeX', note: 'The results tables with booktabs, as a whole document', extensions: ['.tex'], mediaType: 'application/x-latex' },
} as const satisfies Record<string, ReportFormatInfo>;

export type ReportFormatName = keyof typeof REPORT_FORMATS;
export const REPORT_FORMAT_NAMES = Object.keys(REPORT_FORMATS) as ReportFormatName[];

export function isReportFormatName(name: unknown): name is ReportFormatName {
  return typeof name === 'string' && Object.hasOwn(REPORT_FORMATS, name);
}

export interface ExportOptions {
  format: ReportFormatName;
  /** Indicators, as compare's metrics (default: those that apply to some instance). */
  metrics?: MetricName[];
  /** The solver label the +/-/= marks compare against (default: the spec's first). */
  baseline?: string;
}

/** A report as files to save (CSV is two: runs and solutions). */
export interface ExportedReport {
  files: { filename: string; mediaType: string; encoding: 'utf8' | 'base64'; content: string }[];
}
