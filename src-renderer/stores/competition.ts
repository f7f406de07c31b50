/**
 * The open project's competition as the Competition view shows it (docs/app.md, "Competition"):
 * the overview (problems by id, entrants, runs per entrant and track) and the standings with
 * their runtime ECDFs, both read from the main side, which reads the file. The one place that
 * talks to the competition API.
 *
 * Re-read whenever the project changes (a run stored, a session ended, another file opened:
 * the project store's summary moves), one read at a time: a change during a read asks for one
 * more read after it, so a competition storing runs quickly is read as fast as it is answered,
 * never many reads at once. The sessions themselves are the project store's (its events).
 */
import { defineStore } from 'pinia';
import { computed, markRaw, onScopeDispose, ref, shallowRef, watch } from 'vue';
import type { CompetitionOverview, CompetitionStandings, ExperimentSession } from '../../src-shared/api.ts';
import { useApi } from '../api/index.ts';
import { useProjectStore } from './project.ts';
import { useAction } from './action.ts';

/** Reads one thing at a time: asked while a read goes, it reads once more after it. */
function serialRead(read: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | null = null;
  let again = false;
  const go = async (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        await read();
      } while (again);
    })().finally(() => (running = null));
    return running;
  };
  return go;
}

/** How often the standings are computed again while the competition's sessions run (ms). */
export const STANDINGS_WHILE_RUNNING_MS = 5000;

export const useCompetitionStore = defineStore('competition', () => {
  const api = useApi();
  const project = useProjectStore();
  const overview = shallowRef<CompetitionOverview | null>(null);
  const standings = shallowRef<CompetitionStandings | null>(null);
  /** Whether the overview has been read once for the project open now. */
  const loaded = ref(false);
  const error = ref<string | null>(null);
  const standingsError = ref<string | null>(null);
  const standingsLoading = ref(false);

  const refreshOverview = serialRead(async () => {
    try {
      const next = await api.getCompetition();
      overview.value = next ? markRaw(next) : null;
      error.value = null;
    } catch (e) {
      error.value = `could not read the competition: ${(e as Error).message}`;
    } finally {
      loaded.value = true;
    }
  });
  const refreshStandings = serialRead(async () => {
    if (!overview.value || !overview.value.entrants.length) {
      standings.value = null;
      return;
    }
    standingsLoading.value = true;
    try {
      standings.value = markRaw(await api.getCompetitionStandings());
      standingsError.value = null;
    } catch (e) {
      standingsError.value = `could not compute the standings: ${(e as Error).message}`;
    } finally {
      standingsLoading.value = false;
    }
  });

  /** Reads the overview, then the standings when runs were stored since they were computed. */
  /**
   * Reads the overview, then the standings when runs were stored since they were computed. The
   * standings score every stored run again on the main side, so while the competition's
   * sessions go they are computed at most once every STANDINGS_WHILE_RUNNING_MS (the rest of
   * the time the main side answers the runs); once no session goes, at once.
   */
  async function refresh(force = false): Promise<void> {
    await refreshOverview();
    const o = overview.value;
    const s = standings.value;
    const stored = o ? o.totals.done + o.totals.failed : -1;
    const counted = s ? s.runs.done + s.runs.failed : -2;
    const stale = !s || stored !== counted || s.file !== o?.file.split('/').pop() || s.standings.length !== o?.entrants.length;
    if (!force && !stale) return;
    const wait = lastStandings + STANDINGS_WHILE_RUNNING_MS - Date.now();
    if (!force && s && active.value && wait > 0) {
      if (later === null) later = setTimeout(() => ((later = null), void refresh()), wait);
      return;
    }
    lastStandings = Date.now();
    await refreshStandings();
  }
  let lastStandings = 0;
  let later: ReturnType<typeof setTimeout> | null = null;

  /** The newest session of each track: the project store's live one, or the overview's. */
  const sessions = computed<ExperimentSession[]>(() => {
    const o = overview.value;
    if (!o) return [];
    return o.definition.tracks.flatMap((t) => {
      const live = project.sessions.get(t);
      const known = o.sessions[t];
      const s = live && (!known || live.startedAt >= known.startedAt) ? live : known;
      return s ? [s] : [];
    });
  });
  const active = computed(() => sessions.value.some((s) => s.status === 'queued' || s.status === 'running' || s.status === 'stopping'));

  const { actionError, busy, act } = useAction();
  /** Runs every run not run yet (one session per track, as `saikoro competition run`). */
  const run = (jobs?: number) =>
    act('Could not run the competition', async () => {
      const started = await api.runCompetition(jobs === undefined ? {} : { jobs });
      for (const s of started) project.applySession(s);
      await refreshOverview();
    });
  const cancel = () => act('Could not cancel the competition', () => api.cancelCompetition());

  // The summary is read again on every change of the project (runs stored, sessions ended, opened, closed).
  watch(
    () => project.summary,
    () => void refresh(),
    { immediate: true },
  );
  // The standings once the sessions end (not held back any longer).
  watch(active, (on) => !on && void refresh());
  onScopeDispose(() => later !== null && clearTimeout(later));

  return { overview, standings, loaded, error, standingsError, standingsLoading, sessions, active, actionError, busy, refresh, run, cancel };
});
