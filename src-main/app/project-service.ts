/**
 * The open project of an app instance (desktop window or web server), behind the API's project
 * calls. The file is the truth: every answer is read from it, so runs another process stores
 * (the CLI, a second session) appear on the next read, and the store's file lock keeps writers
 * apart. Experiments run through the RunService like every other run (so their runs show in
 * listRuns, with pause and cancel), one experiment session at a time, the others queued; each
 * finished run is stored the moment it ends.
 *
 * Ownership: the service owns the open Project and its sessions; dispose() stops the sessions
 * (their runs in flight are cancelled and not stored) and closes the file.
 */
import { redactSpec } from '../../src-shared/competition/hidden.ts';
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
} from '../../src-shared/projects/project-api.ts';
import { isReportFormatName, REPORT_FORMAT_NAMES, REPORT_FORMATS } from '../../src-shared/projects/project-api.ts';
import { buildReport, renderCsv, renderHtml, renderJson, renderLatex, ReportError } from '../report/index.ts';
import type { Disposable } from '../../src-shared/base/disposable.ts';
import { expandGrid, type RunSpec } from '../../src-shared/experiments/grid.ts';
import { experimentStatus, plannedRuns, runExperiment, runThatCannotFit, type Executor } from '../experiments/runner.ts';
import { launchingExecutor } from './experiment-executor.ts';
import type { LaunchedRun } from './launcher.ts';
import { addExperiment as storeExperiment } from '../experiments/add.ts';
import { Project } from '../project/store.ts';
import { RUN_KIND_DESCRIPTORS, type FinishedRun, type RunKindDescriptor } from './run-kinds.ts';
import { checkExperimentName, checkMetric, compareStored, experimentNamed, experimentRunRows, prepareSpec, ProjectRequestError } from './experiments.ts';
import { projectFolder } from '../experiments/programs.ts';
import type { ProjectPaths } from './project-paths.ts';
import type { ApiEventHub } from './events.ts';
import type { RunService } from './run-service.ts';
import { boundedHvNormaliser } from './dice.ts';
import { requestSignal } from './request-context.ts';
import type { DiceRunRequest, RunKindName } from '../../src-shared/runtime/kinds/index.ts';
import { experimentPrograms, type GateProgram, type ProgramGate } from './program-gate.ts';
import { validateSpec } from '../../src-shared/experiments/spec.ts';
import type { CompetitionOverview, CompetitionStandings, RunCompetitionOptions } from '../../src-shared/projects/competition-api.ts';
import { competitionOverview, competitionStandings, programsRefusal } from './competition-overview.ts';
import { checkInterpreters, competitionRunPlan, extractEntrants, type ExtractedEntrants } from './competition-run.ts';

/** Notes longer than this are refused (a note is a line or a paragraph, not a file). */
export const MAX_NOTE_LENGTH = 10_000;
/** How often a session's progress is sent while its runs go (ms). */
const SESSION_EVENT_INTERVAL = 250;

interface Session {
  info: ExperimentSession;
  stop: boolean;
  /** A competition's session: a failed run is final (scored on what it evaluated, not run again). */
  failedAreFinal: boolean;
  /** Where the gate resolves its programs (a competition's entrants: their extracted folders). */
  programFolders?: ReadonlyMap<string, string>;
  /** Content id -> API run id of the runs in flight. */
  inFlight: Map<string, string>;
  done: Promise<void>;
  lastEvent: number;
}

interface Open {
  project: Project;
  file: string;
  /** What recovery reported while opening it (as the client sees paths). */
  recovered: string[];
}

/** How the app prints a report's page to PDF: Electron's printToPDF, or Chromium (playwright-core) on a server. */
export type PdfPrinter = (html: string) => Promise<Buffer>;

export class ProjectService implements Disposable {
  private current: Open | null = null;
  private readonly sessions = new Map<string, Session>();
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly runs: RunService,
    private readonly events: ApiEventHub,
    private readonly paths: ProjectPaths,
    /** Runs at the same time when runExperiment does not say (the solver host's parallelism). */
    private readonly defaultJobs: number,
    /** Every solver program of an experiment passes it before it runs (program-gate.ts). */
    private readonly gate: ProgramGate,
    private readonly printPdf: PdfPrinter | null = null,
  ) {}

  // ---- the file ---------------------------------------------------------------------------

  /** Creates a project file and opens it (the one open before is closed first). */
  async create(userPath: unknown): Promise<ProjectSummary> {
    const file = this.paths.resolve(userPath, 'create');
    const project = Project.create(file);
    await this.replace({ project, file, recovered: [] });
    this.changed('created', null);
    return this.summary()!;
  }

  /** Opens a project file (the one open before is closed first). */
  async open(userPath: unknown): Promise<ProjectSummary> {
    const file = this.paths.resolve(userPath, 'open');
    const recovered: string[] = [];
    const project = Project.open(file, { onRecovery: (message) => recovered.push(this.paths.redact(message)) });
    await this.replace({ project, file, recovered });
    this.changed('opened', null);
    return this.summary()!;
  }

  /** Closes the open project, stopping its experiment sessions first; false when none was open. */
  async close(): Promise<boolean> {
    if (!this.current) return false;
    await this.replace(null);
    this.changed('closed', null);
    return true;
  }

  private async replace(next: Open | null): Promise<void> {
    const previous = this.current;
    await this.stopAll();
    this.current = next;
    if (next) this.paths.remember(next.file);
    previous?.project.close();
  }

  private async stopAll(): Promise<void> {
    const running = [...this.sessions.values()].filter((s) => !isOver(s.info));
    for (const s of running) this.stopSession(s, 'cancelled');
    await Promise.all(running.map((s) => s.done));
    this.sessions.clear();
  }

  /** The open project's file, or null. */
  openFile(): string | null {
    return this.current?.file ?? null;
  }

  private open_(): Open {
    if (!this.current) throw new ProjectRequestError('project', 'no project is open (create or open one first)');
    return this.current;
  }

  private changed(reason: ProjectChangedEvent['reason'], experiment: string | null): void {
    this.events.emit('onProjectChanged', { reason, path: this.current ? this.paths.display(this.current.file) : null, experiment });
  }

  listFiles(): ProjectFileEntry[] {
    return this.paths.list();
  }

  // ---- reading ----------------------------------------------------------------------------

  summary(): ProjectSummary | null {
    if (!this.current) return null;
    const { project, file, recovered } = this.current;
    const info = project.info();
    const statuses = project.runStatuses();
    const hidden = project.hiddenInstances();
    const display = this.paths.display(file);
    return {
      path: display,
      name: display
        .split('/')
        .pop()!
        .replace(/\.saikoro$/, ''),
      schemaVersion: info.schemaVersion,
      createdAt: info.createdAt,
      createdBy: info.createdBy,
      sizeBytes: info.sizeBytes,
      readOnly: project.readOnly,
      competition: project.competition() !== null,
      recovered: [...recovered],
      experiments: project.experiments().map((e) => this.experimentSummary(e.spec, e.createdAt, statuses, hidden)),
      notes: project.notes().map((n) => ({ id: n.id, experiment: n.experiment, text: n.text, createdAt: n.createdAt })),
      labRuns: project.labRuns().map((r) => ({
        id: r.id,
        kind: r.kind,
        method: r.request.method,
        n: r.request.n,
        seed: r.request.seed,
        status: r.status,
        solved: r.result?.solved ?? null,
        steps: r.result?.steps ?? null,
        seconds: r.result?.seconds ?? null,
        error: r.error,
        finishedAt: r.finishedAt,
      })),
    };
  }

  /** `hidden`: a competition's instances still hidden, whose config and normalisation the summary leaves out (docs/competition.md). */
  private experimentSummary(
    spec: ExperimentSummary['spec'],
    createdAt: string,
    statuses: Map<string, 'done' | 'failed'>,
    hidden: ReadonlySet<string>,
  ): ExperimentSummary {
    const status = experimentStatus(spec, statuses);
    const session = this.sessions.get(spec.name) ?? null;
    const running = session && !isOver(session.info) ? session.inFlight.size : 0;
    return {
      name: spec.name,
      description: spec.description ?? null,
      createdAt,
      spec: redactSpec(spec, hidden),
      counts: { total: status.total, done: status.done, failed: status.failed, missing: Math.max(0, status.missing - running), running },
      session: session ? structuredClone(session.info) : null,
    };
  }

  listExperimentRuns(name: unknown): ExperimentRunRow[] {
    const { project } = this.open_();
    const spec = experimentNamed(project, checkExperimentName(name));
    const session = this.sessions.get(spec.name);
    return experimentRunRows(project, spec, session && !isOver(session.info) ? session.inFlight : new Map());
  }

  /** The stored results of an experiment's runs (all, or the given content ids). */
  experimentResults(name: unknown, ids?: unknown): ExperimentRunResult[] {
    const { project } = this.open_();
    const spec = experimentNamed(project, checkExperimentName(name));
    if (ids !== undefined && ids !== null && !(Array.isArray(ids) && ids.every((i) => typeof i === 'string')))
      throw new ProjectRequestError('ids', 'must be a list of run ids');
    const grid = new Map(expandGrid(spec).map((r) => [r.id, r]));
    const wanted = ids ? (ids as string[]).filter((i) => grid.has(i)) : [...grid.keys()];
    return project.runs(wanted).map((r) => {
      const cell = grid.get(r.id)!;
      return { id: r.id, instance: cell.instance, label: cell.label, solver: r.solver, seed: r.seed, status: r.status, error: r.error, result: r.result };
    });
  }

  /**
   * An experiment's report in a format (docs/report.md), as files to save: the numbers of
   * `saikoro report`. PDF prints the HTML report (Electron's printToPDF on the desktop,
   * Chromium on a server).
   */
  async exportReport(name: unknown, options: ExportOptions): Promise<ExportedReport> {
    const { project } = this.open_();
    const experiment = checkExperimentName(name);
    if (typeof options !== 'object' || options === null || !isReportFormatName(options.format))
      throw new ProjectRequestError('format', `must be one of ${REPORT_FORMAT_NAMES.join(', ')}, got ${JSON.stringify(options?.format)}`);
    if (options.metrics !== undefined) (Array.isArray(options.metrics) ? options.metrics : [options.metrics]).forEach(checkMetric);
    let data;
    try {
      data = buildReport(project, experiment, { metrics: options.metrics, baseline: options.baseline });
    } catch (e) {
      if (e instanceof ReportError) throw new ProjectRequestError(e.kind === 'usage' ? 'options' : 'experiment', e.message.replace(/^[^:]*\.saikoro: /, ''));
      throw e;
    }
    const format = options.format;
    const { extensions, mediaType } = REPORT_FORMATS[format];
    const utf8 = (content: string, suffix = '') => ({ filename: `${experiment}${suffix}${extensions[0]}`, mediaType, encoding: 'utf8' as const, content });
    switch (format) {
      case 'html':
        return { files: [utf8(renderHtml(data))] };
      case 'json':
        return { files: [utf8(renderJson(data))] };
      case 'latex':
        return { files: [utf8(renderLatex(data, { standalone: true }))] };
      case 'csv': {
        const csv = renderCsv(data);
        return { files: [utf8(csv.runs, '-runs'), utf8(csv.solutions, '-solutions')] };
      }
      case 'pdf': {
        if (!this.printPdf) throw new ProjectRequestError('format', 'PDF is not available in this app instance (no printer for the report page)');
        const pdf = await this.printPdf(renderHtml(data));
        return { files: [{ filename: `${experiment}${extensions[0]}`, mediaType, encoding: 'base64', content: pdf.toString('base64') }] };
      }
    }
  }

  compare(name: unknown, options: CompareOptions): Comparison {
    const { project } = this.open_();
    if (typeof options !== 'object' || options === null) throw new ProjectRequestError('options', 'must be {metric}');
    return compareStored(project, checkExperimentName(name), checkMetric(options.metric));
  }

  // ---- writing ----------------------------------------------------------------------------

  /** Adds an experiment from a spec, checked exactly as `saikoro experiment add` checks it. */
  /**
   * Checks and stores an experiment. A multi-objective instance's normalisation is computed in
   * a worker at large N (boundedHvNormaliser), so other calls are answered meanwhile; a call
   * whose client has gone by then stores nothing.
   */
  async addExperiment(input: unknown): Promise<ExperimentSummary> {
    const signal = requestSignal();
    const opened = this.open_();
    // A spec with a program is asked about (the gate's policy) before anything is stored; one that does not validate fails below.
    let named: GateProgram[] = [];
    try {
      named = experimentPrograms(validateSpec(input));
    } catch {
      named = [];
    }
    if (named.length)
      await this.gate.allow(named, { project: opened.file, action: `Adding experiment ${JSON.stringify((input as { name?: unknown })?.name)}` });
    const spec = await prepareSpec(
      input,
      projectFolder(opened.file),
      boundedHvNormaliser(() => this.runs, signal),
    );
    signal?.throwIfAborted();
    // Another project may have been opened, or this one closed, while the normalisation was computed.
    if (this.current !== opened)
      throw new ProjectRequestError('project', 'the project was closed or another one opened while the experiment was prepared; add it again');
    const { project } = opened;
    storeExperiment(project, spec);
    this.changed('experiment-added', spec.name);
    const stored = project.experiment(spec.name)!;
    return this.experimentSummary(stored.spec, stored.createdAt, project.runStatuses(), project.hiddenInstances());
  }

  addNote(text: unknown, experiment: unknown = null): NoteSummary {
    const { project } = this.open_();
    if (typeof text !== 'string' || text.trim() === '') throw new ProjectRequestError('text', 'must be a non-empty string');
    if (text.length > MAX_NOTE_LENGTH) throw new ProjectRequestError('text', `must be at most ${MAX_NOTE_LENGTH} characters, got ${text.length}`);
    const about = experiment === null || experiment === undefined ? null : experimentNamed(project, checkExperimentName(experiment)).name;
    const id = project.addNote(text, about);
    this.changed('note-added', about);
    const note = project.notes().find((n) => n.id === id)!;
    return { id: note.id, experiment: note.experiment, text: note.text, createdAt: note.createdAt };
  }

  /**
   * Stores a finished run of this app: a dice run as a one-run experiment (named `name`, or
   * after its solver, track and seed), an N-Queens run as a lab run. Its request and result are
   * stored as the CLI would store them, under the same content-hash id. An N-Queens sweep is
   * refused with why it is not stored.
   */
  saveRun(runIdArg: unknown, name?: unknown): SavedRun {
    const { project, file } = this.open_();
    if (typeof runIdArg !== 'string') throw new ProjectRequestError('runId', `must be a string, got ${JSON.stringify(runIdArg)}`);
    // A kind never stored says so first (a sweep keeps no result, so "no result" would hide why).
    const listed = this.runs.get(runIdArg);
    const save = listed ? (RUN_KIND_DESCRIPTORS[listed.kind] as RunKindDescriptor<RunKindName>).save : null;
    if (save && typeof save !== 'function') throw new ProjectRequestError('runId', `run ${runIdArg} ${save.notStored}`);
    const found = this.runs.finishedRun(runIdArg);
    if (!found || !save) throw new ProjectRequestError('runId', `no finished run ${JSON.stringify(runIdArg)} in this app (a run is saved once it has ended)`);
    const { plan, info, hostResult } = found;
    if (info.status !== 'done' || !hostResult)
      throw new ProjectRequestError(
        'runId',
        `run ${runIdArg} ${info.status === 'done' ? 'has no result to store' : `was ${info.status}`}: only a finished run with a result is saved`,
      );
    const saved = save({ project, folder: projectFolder(file) }, { plan, info, result: hostResult } as FinishedRun<RunKindName>, name);
    this.changed('run-saved', saved.as === 'experiment' ? saved.name : null);
    return saved;
  }

  // ---- experiment sessions ----------------------------------------------------------------

  /**
   * Runs the missing and failed runs of an experiment on the solver host, each stored the
   * moment it ends. Sessions run one after another: a second one waits, queued. Answers the
   * session (also sent with onExperimentSession whenever it moves). An experiment with solver
   * programs passes the program gate first (what will really run, its files against the stored
   * hashes), and each of its runs again as it starts (a script changed meanwhile fails that run).
   */
  async runExperiment(name: unknown, options: RunExperimentOptions = {}): Promise<ExperimentSession> {
    const open = this.open_();
    const spec = experimentNamed(open.project, checkExperimentName(name));
    if (open.project.readOnly) throw new ProjectRequestError('project', `${this.paths.display(open.file)} is open read-only: its runs cannot be stored`);
    // As `experiment run` refuses one: a competition runs under its failure policy, its programs from their archived folders.
    if (open.project.competition() !== null)
      throw new ProjectRequestError('experiment', `${this.paths.display(open.file)} is a competition file: run it from the Competition view (runCompetition)`);
    const existing = this.sessions.get(spec.name);
    if (existing && !isOver(existing.info)) return structuredClone(existing.info);
    const jobs = options?.jobs ?? this.defaultJobs;
    if (!Number.isInteger(jobs) || jobs < 1 || jobs > 256)
      throw new ProjectRequestError('jobs', `must be an integer from 1 to 256, got ${JSON.stringify(options?.jobs)}`);
    const runs = plannedRuns(spec);
    const statuses = open.project.runStatuses();
    const todo = runs.filter((r) => statuses.get(r.id) !== 'done');
    // Settings that cannot fit in a worker are refused before the session starts (not stored as failed runs).
    const tooBig = runThatCannotFit(todo, this.runs.workerMemoryLimitMb);
    if (tooBig) throw new ProjectRequestError('experiment', `${spec.name}: ${tooBig}`);
    const action = `Running experiment ${JSON.stringify(spec.name)}`;
    const programs = experimentPrograms(spec);
    if (programs.length) {
      await this.gate.allow(programs, { project: open.file, action });
      // While the gate asked, another call may have started this experiment's session.
      const started = this.sessions.get(spec.name);
      if (started && !isOver(started.info)) return structuredClone(started.info);
    }
    return structuredClone(this.startSession(open, spec.name, runs, todo.length, jobs, { failedAreFinal: false }).info);
  }

  /** Queues a session of an experiment's runs (behind every session queued before it). */
  private startSession(
    open: Open,
    experiment: string,
    runs: RunSpec[],
    todo: number,
    jobs: number,
    options: { failedAreFinal: boolean; programFolders?: ReadonlyMap<string, string> },
  ): Session {
    const session: Session = {
      info: {
        experiment,
        status: 'queued',
        jobs,
        todo,
        finished: 0,
        failed: 0,
        running: [],
        paused: 0,
        progress: 0,
        etaMs: null,
        startedAt: new Date().toISOString(),
        finishedAt: null,
        error: null,
      },
      stop: false,
      failedAreFinal: options.failedAreFinal,
      ...(options.programFolders ? { programFolders: options.programFolders } : {}),
      inFlight: new Map(),
      done: Promise.resolve(),
      lastEvent: 0,
    };
    this.sessions.set(experiment, session);
    session.done = this.queue = this.queue.then(() => this.runSession(open, session, runs));
    this.emitSession(session, true);
    return session;
  }

  // ---- a competition (docs/competition.md; competition-overview.ts) ------------------------

  /** The open project's competition (entrants, progress, sessions), or null when no project is open or it is not a competition file. */
  competition(): CompetitionOverview | null {
    if (!this.current) return null;
    const { project, file } = this.current;
    const running = new Map<string, string>();
    const sessions = new Map<string, ExperimentSession>();
    for (const [name, s] of this.sessions) {
      sessions.set(name, structuredClone(s.info));
      if (!isOver(s.info)) for (const [id, runId] of s.inFlight) running.set(id, runId);
    }
    return competitionOverview(project, this.paths.display(file), running, sessions);
  }

  /** The standings of `saikoro competition standings FILE --json` on the open file. */
  competitionStandings(): CompetitionStandings {
    const { project } = this.open_();
    if (project.competition() === null)
      throw new ProjectRequestError('project', `${this.paths.display(this.current!.file)} is not a competition file (make one with saikoro competition new)`);
    return competitionStandings(project);
  }

  /**
   * Runs the competition's runs not run yet, as `saikoro competition run` does: one session per
   * track (the experiment sessions above, queued in the definition's order, with their events
   * and cancel), a failed run final, program entrants from a copy of their archived folder (in
   * the system's temporary place, removed when the last session ends) through the one program
   * gate, and only in the sandbox: without it the call is refused with the sandbox's message.
   * While the competition's sessions go, it answers them again.
   */
  async runCompetition(options: RunCompetitionOptions = {}): Promise<ExperimentSession[]> {
    const open = this.open_();
    const display = this.paths.display(open.file);
    if (open.project.competition() === null)
      throw new ProjectRequestError('project', `${display} is not a competition file (make one with saikoro competition new)`);
    if (open.project.readOnly) throw new ProjectRequestError('project', `${display} is open read-only: its runs cannot be stored`);
    const jobs = options?.jobs ?? this.defaultJobs;
    if (!Number.isInteger(jobs) || jobs < 1 || jobs > 256)
      throw new ProjectRequestError('jobs', `must be an integer from 1 to 256, got ${JSON.stringify(options?.jobs)}`);
    const plan = competitionRunPlan(open.project);
    const going = () => plan.specs.map((s) => this.sessions.get(s.name)).filter((s): s is Session => s !== undefined && !isOver(s.info));
    if (going().length) return going().map((s) => structuredClone(s.info));
    const statuses = open.project.runStatuses();
    const todo = plan.specs.map((spec) => {
      const runs = plannedRuns(spec);
      return { spec, runs, todo: runs.filter((r) => !statuses.has(r.id) && !r.remote).length };
    });
    for (const { spec, runs } of todo) {
      const tooBig = runThatCannotFit(
        runs.filter((r) => !statuses.has(r.id)),
        this.runs.workerMemoryLimitMb,
      );
      if (tooBig) throw new ProjectRequestError('experiment', `track ${spec.name}: ${tooBig}`);
    }
    let extracted: ExtractedEntrants | null = null;
    if (plan.programs.length) {
      const refusal = programsRefusal(plan.programs);
      if (refusal) throw new ProjectRequestError('sandbox', refusal);
      extracted = extractEntrants(open.project, plan.programs);
      try {
        checkInterpreters(plan.programs, extracted.folders);
        await this.gate.allow(
          plan.specs.flatMap((s) => experimentPrograms(s)),
          { project: open.file, action: `Running the competition ${JSON.stringify(display)}`, programFolders: extracted.folders },
        );
      } catch (e) {
        extracted.dispose();
        throw e;
      }
      if (this.current !== open || going().length) {
        extracted.dispose();
        if (this.current !== open)
          throw new ProjectRequestError('project', 'the project was closed or another one opened while the programs were checked; run it again');
        return going().map((s) => structuredClone(s.info));
      }
    }
    // A track with nothing left to run here gets no session (its last one stays the one shown).
    const sessions = todo
      .filter((t) => t.todo > 0)
      .map(({ spec, runs, todo: count }) =>
        this.startSession(open, spec.name, runs, count, jobs, { failedAreFinal: true, ...(extracted ? { programFolders: extracted.folders } : {}) }),
      );
    if (extracted) void Promise.all(sessions.map((s) => s.done)).finally(() => extracted.dispose());
    if (!sessions.length)
      throw new ProjectRequestError(
        'competition',
        `${display}: every run that runs here has run (a remote entrant's runs play against saikoro serve --competition)`,
      );
    return sessions.map((s) => structuredClone(s.info));
  }

  /** Stops the competition's sessions (their runs in flight are cancelled and stay left); false when none was going. */
  cancelCompetition(): boolean {
    const competition = this.current?.project.competition();
    if (!competition) return false;
    let stopped = false;
    for (const track of competition.definition.tracks) {
      const session = this.sessions.get(track);
      if (session && !isOver(session.info)) {
        this.stopSession(session, 'cancelled');
        stopped = true;
      }
    }
    return stopped;
  }

  /** Stops an experiment's session: queued, it never starts; running, its runs in flight are cancelled (and stay missing). */
  cancelExperiment(name: unknown): boolean {
    const session = this.sessions.get(checkExperimentName(name));
    if (!session || isOver(session.info)) return false;
    this.stopSession(session, 'cancelled');
    return true;
  }

  private stopSession(session: Session, status: 'cancelled'): void {
    session.stop = true;
    if (session.info.status === 'queued') session.info.status = status;
    else session.info.status = 'stopping';
    for (const runId of session.inFlight.values()) this.runs.cancel(runId);
    this.emitSession(session, true);
  }

  private async runSession(open: Open, session: Session, runs: RunSpec[]): Promise<void> {
    if (session.stop || this.current !== open) {
      if (!isOver(session.info)) session.info.status = 'cancelled';
      session.info.finishedAt = new Date().toISOString();
      this.emitSession(session, true);
      return;
    }
    session.info.status = 'running';
    this.emitSession(session, true);
    try {
      const summary = await runExperiment(runs, {
        executor: this.executor(session, open.file),
        jobs: session.info.jobs,
        target: open.project,
        failedAreFinal: session.failedAreFinal,
        shouldStop: () => session.stop,
        onTick: (t) => {
          session.info.progress = t.overall;
          session.info.running = [...session.inFlight.values()];
          // Re-estimated as the runs in flight move, so the countdown does not run out before they end.
          if (t.etaMs !== null) session.info.etaMs = t.etaMs;
          // A pause or a resume is sent at once: the monitor's countdown stops and starts with it.
          const pausedChanged = t.paused !== session.info.paused;
          session.info.paused = t.paused;
          this.emitSession(session, pausedChanged);
        },
        onProgress: (e) => {
          session.info.finished = e.finished;
          if (e.status === 'failed') session.info.failed++;
          if (e.etaMs !== null) session.info.etaMs = e.etaMs;
          this.changed('runs-stored', session.info.experiment);
          this.emitSession(session, true);
        },
      });
      // A run the gate refused (a script changed since the session started): said, not stored as failed.
      if (summary.refused !== null) {
        session.info.status = 'failed';
        session.info.error = summary.refused;
      } else session.info.status = session.stop ? 'cancelled' : 'done';
      session.info.progress = summary.remaining === 0 ? 1 : session.info.progress;
      session.info.etaMs = session.stop ? null : 0;
    } catch (e) {
      session.info.status = 'failed';
      session.info.error = (e as Error).message;
    } finally {
      session.info.running = [];
      session.info.paused = 0;
      session.info.finishedAt = new Date().toISOString();
      this.emitSession(session, true);
      // Its runs no longer count as running: a run cancelled in it is missing again (the experiment's counts changed).
      this.changed('session-ended', session.info.experiment);
    }
  }

  /** Grid runs through the RunService: tracked, shown and controllable like every app run. */
  private executor(session: Session, projectFile: string): Executor {
    return launchingExecutor({
      experiment: session.info.experiment,
      admission: {
        gate: this.gate,
        context: {
          project: projectFile,
          action: `Running experiment ${JSON.stringify(session.info.experiment)}`,
          ...(session.programFolders ? { programFolders: session.programFolders } : {}),
        },
      },
      shouldStop: () => session.stop,
      launch: (run, plan) => {
        // Listed as queued at once, also while its instance's normalisation is computed in a worker.
        const { started, handle } = this.runs.launchPrepared(plan);
        session.inFlight.set(run.id, started.runId);
        return handle as LaunchedRun<DiceRunRequest>;
      },
      onEnded: (run) => session.inFlight.delete(run.id),
    });
  }

  private emitSession(session: Session, force: boolean): void {
    const now = Date.now();
    if (!force && now - session.lastEvent < SESSION_EVENT_INTERVAL) return;
    session.lastEvent = now;
    this.events.emit('onExperimentSession', structuredClone(session.info));
  }

  /** Every session of the open project (for a page that reloads). */
  sessionList(): ExperimentSession[] {
    return [...this.sessions.values()].map((s) => structuredClone(s.info));
  }

  dispose(): void {
    for (const s of this.sessions.values()) if (!isOver(s.info)) this.stopSession(s, 'cancelled');
    const current = this.current;
    this.current = null;
    // The sessions end as their cancelled runs come back; the file closes after them.
    void Promise.all([...this.sessions.values()].map((s) => s.done)).finally(() => current?.project.close());
  }
}

function isOver(info: ExperimentSession): boolean {
  return info.status === 'done' || info.status === 'cancelled' || info.status === 'failed';
}
