import { defineStore } from 'pinia';
import { computed, markRaw, onScopeDispose, ref, shallowRef } from 'vue';
import type { ParamValue, RunFinishedEvent, RunStarted, Snapshot, SolverDescriptor, SolverResult } from '../../src-shared/api.ts';
import { DEFAULT_N, TRACK_OBJECTIVES, trackConfig, type TrackName } from '../../src-shared/problems/dice/config.ts';
import { diceHvNormalisation, normalisedHypervolume, type HvNormalisation } from '../../src-shared/metrics/hv-reference.ts';
import { useApi } from '../api/index.ts';

export type RunPhase = 'idle' | 'starting' | 'running' | 'done' | 'failed' | 'cancelled';

/** One point of the live convergence line. */
export interface ConvergencePoint {
  evaluations: number;
  /** SO: best feasible f so far; MO: the front's indicator (hypervolume) when known. */
  value: number | null;
  /** SO: violation of the best while infeasible; MO: front size. */
  secondary: number | null;
}

/**
 * A snapshot as a convergence point. SO: best f or, while infeasible, the violation. MO: the
 * front size and, given the run's normalisation (M <= 3), the front's hypervolume, the same
 * figure the worker records in the final trace.
 */
export function snapshotPoint(s: Snapshot, objectiveCount: number, hv: HvNormalisation | null = null): ConvergencePoint {
  if (objectiveCount === 1) {
    const best = s.best;
    return { evaluations: s.evaluations, value: best && best.feasible ? best.objectives[0] : null, secondary: best && !best.feasible ? best.violation : null };
  }
  return { evaluations: s.evaluations, value: hv && s.front.length ? normalisedHypervolume(s.front, hv) : null, secondary: s.front.length };
}

/** The largest M whose hypervolume is drawn live (as in the host's trace). */
export const LIVE_HV_MAX_OBJECTIVES = 3;

/** The final trace of a result as convergence points (MO: hypervolume where recorded). */
export function tracePoints(result: SolverResult): ConvergencePoint[] {
  return result.trace.map((t) =>
    result.objectiveCount === 1
      ? { evaluations: t.evaluations, value: t.feasible ? t.best : null, secondary: t.feasible ? null : t.violation }
      : { evaluations: t.evaluations, value: t.indicator, secondary: t.frontSize },
  );
}

/** Solver runs started from the Solve view: the form, the current run and its live data. */
export const useRunsStore = defineStore('runs', () => {
  const api = useApi();

  const solvers = shallowRef<SolverDescriptor[]>([]);
  const track = ref<TrackName>('so');
  const n = ref<number>(DEFAULT_N);
  /** '' = the default solver for the track. */
  const solver = ref('');
  const params = ref<Record<string, ParamValue>>({});
  const evaluations = ref(20_000);
  const seed = ref(1);

  const phase = ref<RunPhase>('idle');
  const started = shallowRef<RunStarted | null>(null);
  const snapshot = shallowRef<Snapshot | null>(null);
  // Replaced (not pushed into) on every snapshot, and markRaw'd: never deeply reactive.
  const points = shallowRef<readonly ConvergencePoint[]>([]);
  const result = shallowRef<SolverResult | null>(null);
  const message = ref<string | null>(null);
  /** The config of the current run, for "open in the evaluator". */
  const runTrack = ref<TrackName>('so');
  const runN = ref<number>(DEFAULT_N);
  /** The HV normalisation of the current run (MO, else null): shown with the HV chart. */
  const hvNormalisation = shallowRef<HvNormalisation | null>(null);

  const objectiveCount = computed(() => TRACK_OBJECTIVES[track.value].length);
  const compatibleSolvers = computed(() => solvers.value.filter((s) => s.objectives === 'any' || (s.objectives === 'single') === (objectiveCount.value === 1)));
  const selectedSolver = computed(() => solvers.value.find((s) => s.name === solver.value) ?? null);
  const running = computed(() => phase.value === 'starting' || phase.value === 'running');

  async function loadSolvers(): Promise<void> {
    if (solvers.value.length) return;
    try {
      solvers.value = markRaw(await api.listSolvers());
    } catch (e) {
      message.value = `could not list the solvers: ${(e as Error).message}`;
    }
  }

  function selectSolver(name: string): void {
    solver.value = name;
    params.value = {};
  }

  async function start(): Promise<void> {
    if (running.value) return;
    phase.value = 'starting';
    message.value = null;
    snapshot.value = null;
    result.value = null;
    points.value = markRaw([]);
    runTrack.value = track.value;
    runN.value = n.value;
    const m = TRACK_OBJECTIVES[track.value].length;
    hvNormalisation.value = m >= 2 && Number.isInteger(n.value) && n.value >= 1 ? diceHvNormalisation(trackConfig(track.value, n.value)) : null;
    try {
      const given = Object.fromEntries(Object.entries(params.value).filter(([, v]) => v !== '' && v !== null && v !== undefined));
      started.value = await api.startRun({
        config: { n: n.value, objectives: TRACK_OBJECTIVES[track.value].map((g) => [...g]) },
        ...(solver.value ? { solver: solver.value } : {}),
        params: given,
        seed: seed.value,
        evaluations: evaluations.value,
      });
      if (phase.value === 'starting') phase.value = 'running';
    } catch (e) {
      phase.value = 'failed';
      message.value = (e as Error).message;
    }
  }

  async function togglePause(): Promise<void> {
    if (started.value && phase.value === 'running') await api.pauseRun(started.value.runId, !snapshot.value?.paused);
  }

  async function cancel(): Promise<void> {
    if (started.value && running.value) await api.cancelRun(started.value.runId);
  }

  const offSnapshot = api.onRunSnapshot((e) => {
    if (e.runId !== started.value?.runId) return;
    snapshot.value = markRaw(e.snapshot);
    // Live hypervolume for M <= 3 only; for more objectives the final trace brings it (at doublings).
    const liveHv = started.value.objectiveCount <= LIVE_HV_MAX_OBJECTIVES ? hvNormalisation.value : null;
    points.value = markRaw([...points.value, snapshotPoint(e.snapshot, started.value.objectiveCount, liveHv)]);
  });
  const offFinished = api.onRunFinished((e: RunFinishedEvent) => {
    if (e.runId !== started.value?.runId) return;
    phase.value = e.status;
    message.value = e.reason ?? e.result?.message ?? null;
    if (e.result) {
      result.value = markRaw(e.result);
      points.value = markRaw(tracePoints(e.result));
    }
  });
  onScopeDispose(() => {
    offSnapshot();
    offFinished();
  });

  return {
    solvers,
    track,
    n,
    solver,
    params,
    evaluations,
    seed,
    phase,
    started,
    snapshot,
    points,
    result,
    message,
    runTrack,
    runN,
    hvNormalisation,
    objectiveCount,
    compatibleSolvers,
    selectedSolver,
    running,
    loadSolvers,
    selectSolver,
    start,
    togglePause,
    cancel,
  };
});
