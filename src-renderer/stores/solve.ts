/**
 * The Solve view's form (track, N, solver, parameters, budget, seed) and which dice run it
 * shows: the one it started last, or, after a reload, the newest dice run the main side still
 * has. The runs themselves live in the runs store.
 */
import { defineStore } from 'pinia';
import { computed, markRaw, ref, shallowRef, watch } from 'vue';
import type { DiceRunStarted, ParamValue, SolverDescriptor } from '../../src-shared/api.ts';
import { DEFAULT_N, TRACK_OBJECTIVES, type TrackName } from '../../src-shared/problems/dice/config.ts';
import { handlesObjectives } from '../../src-shared/solvers/objective-support.ts';
import { useApi } from '../api/index.ts';
import { useRunsStore, type LiveRun } from './runs.ts';

export const useSolveStore = defineStore('solve', () => {
  const api = useApi();
  const runs = useRunsStore();

  const solvers = shallowRef<SolverDescriptor[]>([]);
  const track = ref<TrackName>('so');
  const n = ref<number>(DEFAULT_N);
  /** '' = the default solver for the track. */
  const solver = ref('');
  const params = ref<Record<string, ParamValue>>({});
  const evaluations = ref(20_000);
  const seed = ref(1);
  /** Single objective: run the whole budget instead of stopping at f = 0. */
  const wholeBudget = ref(false);

  /** The run shown: an id, null (nothing, e.g. after a failed start), or undefined (the newest dice run). */
  const selected = ref<string | null | undefined>(undefined);
  const starting = ref(false);
  /** Why the last start failed (the API's message names the field). */
  const startError = ref<string | null>(null);
  /** The form field the last refusal is about ('n', 'solver', 'params.<name>', ...), shown there; null when it is about none. */
  const startErrorField = ref<string | null>(null);
  const solversError = ref<string | null>(null);

  const objectiveCount = computed(() => TRACK_OBJECTIVES[track.value].length);
  const compatibleSolvers = computed(() => solvers.value.filter((s) => handlesObjectives(s.objectives, objectiveCount.value)));
  const selectedSolver = computed(() => solvers.value.find((s) => s.name === solver.value) ?? null);

  /** The dice runs of this view: started here or in another tab, not an experiment session's (those are the monitor's). */
  const diceRuns = computed(() => runs.ofKind('dice').filter((r) => !(r.started.kind === 'dice' && r.started.experiment)));
  const current = computed<LiveRun | null>(() => (selected.value === undefined ? (diceRuns.value[0] ?? null) : runs.get(selected.value)));
  const started = computed(() => (current.value?.started ?? null) as DiceRunStarted | null);
  const running = computed(() => starting.value || (current.value !== null && (current.value.status === 'queued' || current.value.status === 'running' || current.value.status === 'paused')));

  // A page that opens on a run it did not start (after a reload) shows that run's settings in
  // the form once, so what the form says and what runs agree; later runs leave the form alone.
  let formFollowsRun = true;
  watch(
    started,
    (s) => {
      if (!s || !formFollowsRun || selected.value !== undefined) return;
      formFollowsRun = false;
      if (s.track) track.value = s.track;
      n.value = s.n;
      solver.value = s.solver;
      params.value = {};
      evaluations.value = s.evaluations;
      seed.value = s.seed;
      wholeBudget.value = s.objectiveCount === 1 && s.target === null;
    },
    { immediate: true },
  );

  async function loadSolvers(): Promise<void> {
    if (solvers.value.length) return;
    try {
      solvers.value = markRaw(await api.listSolvers());
    } catch (e) {
      solversError.value = `could not list the solvers: ${(e as Error).message}`;
    }
  }

  function selectSolver(name: string): void {
    solver.value = name;
    params.value = {};
  }

  async function start(): Promise<void> {
    if (running.value) return;
    formFollowsRun = false;
    starting.value = true;
    startError.value = null;
    startErrorField.value = null;
    try {
      const given = Object.fromEntries(Object.entries(params.value).filter(([, v]) => v !== '' && v !== null && v !== undefined));
      const s = await runs.start({
        kind: 'dice',
        config: { n: n.value, objectives: TRACK_OBJECTIVES[track.value].map((g) => [...g]) },
        ...(solver.value ? { solver: solver.value } : {}),
        params: given,
        seed: seed.value,
        evaluations: evaluations.value,
        ...(wholeBudget.value && objectiveCount.value === 1 ? { wholeBudget: true } : {}),
      });
      selected.value = s.runId;
    } catch (e) {
      // Nothing runs: show the reason, not the previous run's labels.
      selected.value = null;
      startError.value = (e as Error).message;
      startErrorField.value = formFieldOf(e as Error & { field?: string });
    } finally {
      starting.value = false;
    }
  }

  // Editing the form after a refusal: the message at the field has been read.
  watch([track, n, solver, params, evaluations, seed, wholeBudget], () => {
    if (startErrorField.value === null) return;
    startErrorField.value = null;
    startError.value = null;
  });

  async function togglePause(): Promise<void> {
    const run = current.value;
    if (run && (run.status === 'running' || run.status === 'paused' || run.status === 'queued')) await runs.pause(run.runId, run.status !== 'paused' && !run.snapshot?.paused);
  }

  async function cancel(): Promise<void> {
    const run = current.value;
    if (run && running.value) await runs.cancel(run.runId);
  }

  return {
    solvers,
    track,
    n,
    solver,
    params,
    evaluations,
    seed,
    wholeBudget,
    selected,
    starting,
    startError,
    startErrorField,
    solversError,
    objectiveCount,
    compatibleSolvers,
    selectedSolver,
    diceRuns,
    current,
    started,
    running,
    loadSolvers,
    selectSolver,
    start,
    togglePause,
    cancel,
  };
});

/**
 * The Solve form's field a refused start is about: the API's field (n, seed, evaluations), the
 * solver for an unknown or unfitting solver, the parameter a ParamError names.
 */
export function formFieldOf(error: { name?: string; message: string; field?: string }): string | null {
  const byField: Record<string, string> = { n: 'n', 'config.n': 'n', seed: 'seed', evaluations: 'evaluations', wholeBudget: 'wholeBudget', solver: 'solver' };
  if (error.field !== undefined) return byField[error.field] ?? null;
  const param = /^solver \S+: parameter (\S+) /.exec(error.message);
  if (param) return `params.${param[1]}`;
  if (error.name === 'SolverError' || /^(unknown solver|solver \S+ is )/.test(error.message)) return 'solver';
  return null;
}
