/**
 * The open project as the renderer knows it: its summary (experiments with their counts and
 * sessions, notes, lab runs), the project files it can offer, and every experiment session of
 * this app instance. The one place that talks to the project API; the project home, the
 * experiment editor, the run monitor, the comparison and the exports read from here.
 *
 * The main side's file is the truth: the summary is re-read whenever the project changes
 * (onProjectChanged), when the event socket reconnects, and on refresh() (which also brings
 * runs another process, such as the CLI, stored). Session events update in place.
 */
import { defineStore } from 'pinia';
import { computed, markRaw, onScopeDispose, ref, shallowRef } from 'vue';
import type {
  Disposer,
  ExperimentSession,
  ExperimentSummary,
  MetricName,
  ProjectFileEntry,
  ProjectSummary,
  SaikoroApi,
  SavedRun,
} from '../../src-shared/api.ts';
import { useApi } from '../api/index.ts';

type ReconnectingApi = SaikoroApi & { onReconnect?(listener: () => void): Disposer };

export const useProjectStore = defineStore('project', () => {
  const api = useApi() as ReconnectingApi;
  const summary = shallowRef<ProjectSummary | null>(null);
  const files = shallowRef<ProjectFileEntry[]>([]);
  /** The latest event of each experiment's session (by name). */
  const sessions = shallowRef<ReadonlyMap<string, ExperimentSession>>(new Map());
  const loading = ref(false);
  /** The last failure of a project call (its message names the problem). */
  const error = ref<string | null>(null);
  const loaded = ref(false);
  /** Whether the user dismissed the recovery notices of the project opened last (a new open shows them again). */
  const recoveredDismissed = ref(false);

  const isOpen = computed(() => summary.value !== null);
  const experiments = computed<ExperimentSummary[]>(() =>
    (summary.value?.experiments ?? []).map((e) => {
      const live = sessions.value.get(e.name);
      return live && (!e.session || live.startedAt >= e.session.startedAt) ? { ...e, session: live } : e;
    }),
  );
  /** What recovery kept aside when the app opened the file (docs/reliability.md), until dismissed. */
  const recovered = computed<string[]>(() => (recoveredDismissed.value ? [] : (summary.value?.recovered ?? [])));
  const dismissRecovered = () => (recoveredDismissed.value = true);
  /** Sessions queued or running, in the order they began. */
  const activeSessions = computed(() =>
    [...sessions.value.values()]
      .filter((s) => s.status === 'queued' || s.status === 'running' || s.status === 'stopping')
      .sort((a, b) => a.startedAt.localeCompare(b.startedAt)),
  );

  function experiment(name: string): ExperimentSummary | null {
    return experiments.value.find((e) => e.name === name) ?? null;
  }

  /** Runs a project call; a failure is kept in `error` (and rethrown for the caller's own message). */
  async function attempt<T>(fn: () => Promise<T>): Promise<T> {
    loading.value = true;
    try {
      const value = await fn();
      error.value = null;
      return value;
    } catch (e) {
      error.value = (e as Error).message;
      throw e;
    } finally {
      loading.value = false;
    }
  }

  function adopt(next: ProjectSummary | null): void {
    summary.value = next ? markRaw(next) : null;
    const map = new Map<string, ExperimentSession>();
    for (const e of next?.experiments ?? []) if (e.session) map.set(e.name, e.session);
    // Events newer than the summary stay.
    for (const [name, s] of sessions.value) {
      const known = map.get(name);
      if (next && (!known || !isBehind(s, known))) map.set(name, s);
    }
    sessions.value = map;
    loaded.value = true;
  }

  /** Re-reads the project and the files to offer. */
  async function refresh(): Promise<void> {
    try {
      const [next, list] = await Promise.all([api.getProject(), api.listProjectFiles().catch(() => [] as ProjectFileEntry[])]);
      adopt(next);
      files.value = markRaw(list);
      error.value = null;
    } catch (e) {
      error.value = `could not read the project: ${(e as Error).message}`;
    }
  }

  const opened = (next: ProjectSummary) => {
    recoveredDismissed.value = false;
    adopt(next);
  };
  const create = (path: string) => attempt(async () => opened(await api.createProject(path)));
  const open = (path: string) => attempt(async () => opened(await api.openProject(path)));
  const close = () => attempt(async () => (await api.closeProject(), adopt(null)));
  /** A refusal is the editor's to show (with its field), not the project's: `error` is left alone. */
  async function addExperiment(spec: unknown): Promise<ExperimentSummary> {
    loading.value = true;
    try {
      return await api.addExperiment(spec);
    } finally {
      loading.value = false;
    }
  }
  const runExperiment = (name: string, jobs?: number) =>
    attempt(async () => {
      const s = await api.runExperiment(name, jobs === undefined ? {} : { jobs });
      applySession(s);
      return s;
    });
  const cancelExperiment = (name: string) => attempt(() => api.cancelExperiment(name));
  const addNote = (text: string, experimentName: string | null = null) => attempt(() => api.addNote(text, experimentName));
  /** Stores a finished app run in the open project; its refusal is the caller's to show (the store's `error` is left alone). */
  async function saveRun(runId: string, name?: string): Promise<SavedRun> {
    const saved = await api.saveRun(runId, name);
    await refresh();
    return saved;
  }

  // Reads about one experiment, straight from the file (views keep what they need; a failure is
  // theirs to show, so these leave `error` alone).
  /** Every run of the experiment's grid with its status (running ones with their API run id). */
  const experimentRuns = (name: string) => api.listExperimentRuns(name);
  /** The numbers of `saikoro compare FILE NAME --metric M --json`. */
  const compare = (name: string, metric: MetricName) => api.compareExperiment(name, { metric });
  /** Stored results (fronts, bests, traces) of every run, or of the content ids given. */
  const experimentResults = (name: string, ids?: string[]) => api.getExperimentResults(name, ids);

  /**
   * A native dialog where there is one (desktop): the path chosen, null when cancelled, or
   * undefined when there is no dialog here (the page offers the workspace instead).
   */
  async function pick(purpose: 'open' | 'create'): Promise<string | null | undefined> {
    try {
      return await api.pickProjectFile(purpose);
    } catch (e) {
      if ((e as Error).name === 'UnavailableError') return undefined;
      throw e;
    }
  }

  /** Takes a session's state unless it is behind the one known (an answer its own events overtook). */
  function applySession(s: ExperimentSession): void {
    const known = sessions.value.get(s.experiment);
    if (known && isBehind(s, known)) return;
    const next = new Map(sessions.value);
    next.set(s.experiment, s);
    sessions.value = next;
  }

  const disposers: Disposer[] = [
    api.onProjectChanged((e) => {
      // Opened or created elsewhere (the desktop's File menu, a dropped file): its notices show.
      if (e.reason === 'opened' || e.reason === 'created') recoveredDismissed.value = false;
      void refresh();
    }),
    api.onExperimentSession((s) => applySession(s)),
  ];
  if (api.onReconnect) disposers.push(api.onReconnect(() => void refresh()));
  onScopeDispose(() => disposers.forEach((d) => d()));
  void refresh();

  return {
    summary,
    files,
    sessions,
    loading,
    loaded,
    error,
    isOpen,
    recovered,
    dismissRecovered,
    experiments,
    activeSessions,
    experiment,
    refresh,
    create,
    open,
    close,
    addExperiment,
    runExperiment,
    cancelExperiment,
    addNote,
    saveRun,
    experimentRuns,
    compare,
    experimentResults,
    pick,
    applySession,
  };
});

const STAGE: Record<ExperimentSession['status'], number> = { queued: 0, running: 1, stopping: 2, done: 3, cancelled: 3, failed: 3 };

/**
 * Whether `s` is an older state of the session `known` is (a session only moves forward:
 * queued, running, stopping, ended; runs finished; progress), or of an older session. The
 * answer to runExperiment ("queued") can arrive after the event that says it runs.
 */
export function isBehind(s: ExperimentSession, known: ExperimentSession): boolean {
  if (s.startedAt !== known.startedAt) return s.startedAt < known.startedAt;
  if (STAGE[s.status] !== STAGE[known.status]) return STAGE[s.status] < STAGE[known.status];
  return s.finished + s.progress < known.finished + known.progress;
}
