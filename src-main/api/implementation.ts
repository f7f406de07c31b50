import type { ApiCalls, AppInfo, EvaluateDiceRequest, StartRunRequest } from '../../src-shared/api.ts';
import { configFromPartial, DEFAULT_N } from '../../src-shared/problems/dice/config.ts';
import { evaluateDice } from '../../src-shared/problems/dice/evaluate.ts';
import { checkEvaluateDiceRequest } from '../../src-shared/problems/dice/call-limits.ts';
import { describeSolvers } from '../../src-shared/solvers/registry.ts';
import { randomSequence } from './random-sequence.ts';
import type { RunService } from '../app/run-service.ts';
import type { ProjectService } from '../app/project-service.ts';

export interface ApiDependencies {
  /** Solver runs; without it startRun fails with a clear message (e.g. a read-only viewer). */
  runs?: RunService;
  /** The open project; without it the project calls fail with a clear message. */
  projects?: ProjectService;
  /** A native file dialog (the desktop app); without it pickProjectFile is unavailable. */
  pickProjectFile?: (purpose: 'open' | 'create') => Promise<string | null>;
}

/** Raised for a call this instance of the app cannot serve. */
export class UnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnavailableError';
  }
}

/**
 * The main side's implementation of every API call. Plain Node (no electron import), so the
 * Electron IPC handlers and the web server share it, and tests call it directly. Who may run a
 * solver program is not decided here: the services below pass every planned run through the
 * app's one program gate (src-main/app/program-gate.ts).
 */
export function createApi(appInfo: AppInfo, deps: ApiDependencies = {}): ApiCalls {
  return {
    async getAppInfo() {
      return { ...appInfo, ...(deps.runs ? { workerMemoryLimitMb: deps.runs.workerMemoryLimitMb } : {}) };
    },
    async evaluateDice(request: EvaluateDiceRequest) {
      if (typeof request?.x !== 'string') throw new TypeError('evaluateDice: request.x must be a string of faces 1-6');
      // One call stops at 10^6 rolls, so one request cannot stall every other.
      checkEvaluateDiceRequest(request);
      const config = configFromPartial({ ...request.config, n: request.config?.n ?? DEFAULT_N });
      return evaluateDice(request.x, config);
    },
    async randomSequence(n: number, seed: number) {
      return randomSequence(n, seed);
    },
    async listSolvers() {
      return describeSolvers();
    },
    async startRun(request: StartRunRequest) {
      if (!deps.runs) throw new UnavailableError('solver runs are not available in this app instance');
      return deps.runs.start(request);
    },
    async getRun(runId: string) {
      if (typeof runId !== 'string') throw new TypeError(`getRun: runId must be a string, got ${JSON.stringify(runId)}`);
      return deps.runs?.get(runId) ?? null;
    },
    async listRuns() {
      return deps.runs?.list() ?? [];
    },
    async cancelRun(runId: string) {
      if (typeof runId !== 'string') throw new TypeError(`cancelRun: runId must be a string, got ${JSON.stringify(runId)}`);
      return deps.runs?.cancel(runId) ?? false;
    },
    async pauseRun(runId: string, paused: boolean) {
      if (typeof runId !== 'string') throw new TypeError(`pauseRun: runId must be a string, got ${JSON.stringify(runId)}`);
      if (typeof paused !== 'boolean') throw new TypeError(`pauseRun: paused must be true or false, got ${JSON.stringify(paused)}`);
      return deps.runs?.pause(runId, paused) ?? false;
    },
    async createProject(path) {
      return projects().create(path);
    },
    async openProject(path) {
      return projects().open(path);
    },
    async closeProject() {
      return deps.projects ? deps.projects.close() : false;
    },
    async getProject() {
      return deps.projects?.summary() ?? null;
    },
    async listProjectFiles() {
      return deps.projects?.listFiles() ?? [];
    },
    async addExperiment(spec) {
      return projects().addExperiment(spec);
    },
    async runExperiment(name, options) {
      return projects().runExperiment(name, options ?? {});
    },
    async cancelExperiment(name) {
      return deps.projects?.cancelExperiment(name) ?? false;
    },
    async listExperimentRuns(name) {
      return projects().listExperimentRuns(name);
    },
    async compareExperiment(name, options) {
      return projects().compare(name, options);
    },
    async saveRun(runId, name) {
      return projects().saveRun(runId, name);
    },
    async addNote(text, experiment) {
      return projects().addNote(text, experiment ?? null);
    },
    async getExperimentResults(name, ids) {
      return projects().experimentResults(name, ids);
    },
    async exportReport(name, options) {
      return projects().exportReport(name, options);
    },
    async getCompetition() {
      return deps.projects?.competition() ?? null;
    },
    async getCompetitionStandings() {
      return projects().competitionStandings();
    },
    async runCompetition(options) {
      return projects().runCompetition(options ?? {});
    },
    async cancelCompetition() {
      return deps.projects?.cancelCompetition() ?? false;
    },
    async pickProjectFile(purpose) {
      if (purpose !== 'open' && purpose !== 'create')
        throw new TypeError(`pickProjectFile: purpose must be "open" or "create", got ${JSON.stringify(purpose)}`);
      if (!deps.pickProjectFile) throw new UnavailableError('no native file dialog here: choose a project in the workspace');
      return deps.pickProjectFile(purpose);
    },
  };

  function projects(): ProjectService {
    if (!deps.projects) throw new UnavailableError('projects are not available in this app instance');
    return deps.projects;
  }
}
