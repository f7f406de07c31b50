/**
 * The Pareto explorer's state: what it shows (a stored experiment's instance, an app run, or a
 * synthetic front), which runs (by solver and seed), how they are coloured and which series the
 * legend hides, the 2-D axes, and the selection every view highlights. The points themselves are
 * typed arrays kept out of Vue's reactivity (markRaw in shallowRefs) and replaced, never mutated.
 *
 * Sources come from the hash: #/explore/<experiment>[?instance=NAME], #/explore/run/<runId>,
 * #/explore/synthetic/<points>[?m=M&seed=S] (benchmarks and demos).
 */
import { defineStore } from 'pinia';
import { computed, markRaw, ref, shallowRef, watch } from 'vue';
import type { DiceRunStarted } from '../../src-shared/api.ts';
import type { DiceConfig, TrackName } from '../../src-shared/problems/dice/config.ts';
import { MAX_BLOCK_LENGTH } from '../../src-shared/problems/dice/config.ts';
import { syntheticFront } from '../../src-shared/charts/synthetic-front.ts';
import { useApi } from '../api/index.ts';
import { useDiceStore } from './dice.ts';
import { useRunsStore } from './runs.ts';
import { explorableInstances, fromAppRun, fromExperiment, fromSynthetic, runLabel, type ExplorerData } from '../logic/explore/front-data.ts';
import { allPoints, groupPoints, type ColourBy, type PointFilter } from '../logic/explore/groups.ts';
import { keepVisible, selectInRanges, type ObjectiveRange, type Selection, type SelectionSource } from '../logic/explore/selection.ts';

export type ExploreSource =
  | { kind: 'experiment'; name: string; instance: string | null }
  | { kind: 'run'; runId: string }
  | { kind: 'synthetic'; points: number; objectives: number; seed: number };

/** The most points a synthetic front may have (a page with 10^6 points still works; beyond is pointless). */
export const MAX_SYNTHETIC_POINTS = 1_000_000;

/** The source named by a location hash such as "#/explore/mo3?instance=n50", or null (none, or not the explorer). */
export function sourceFromHash(hash: string): ExploreSource | null {
  const [path, query = ''] = hash.replace(/^#\/?/, '').split('?');
  const parts = path.split('/').map((p) => decodeURIComponent(p));
  if (parts[0] !== 'explore' || parts.length < 2 || parts[1] === '') return null;
  const params = new URLSearchParams(query);
  if (parts.length >= 3 && parts[1] === 'run') return { kind: 'run', runId: parts.slice(2).join('/') };
  if (parts.length === 3 && parts[1] === 'synthetic') {
    const points = Number(parts[2]);
    const objectives = Number(params.get('m') ?? 3);
    const seed = Number(params.get('seed') ?? 1);
    if (!Number.isInteger(points) || points < 0 || points > MAX_SYNTHETIC_POINTS || !Number.isInteger(objectives) || !Number.isSafeInteger(seed)) return null;
    return { kind: 'synthetic', points, objectives, seed };
  }
  if (parts.length !== 2) return null;
  return { kind: 'experiment', name: parts[1], instance: params.get('instance') };
}

/** The hash of a source (inverse of sourceFromHash). */
export function hashOfSource(source: ExploreSource | null): string {
  if (!source) return '#/explore';
  switch (source.kind) {
    case 'experiment':
      return `#/explore/${encodeURIComponent(source.name)}${source.instance ? `?instance=${encodeURIComponent(source.instance)}` : ''}`;
    case 'run':
      return `#/explore/run/${encodeURIComponent(source.runId)}`;
    case 'synthetic':
      return `#/explore/synthetic/${source.points}?m=${source.objectives}&seed=${source.seed}`;
  }
}

const sameSource = (a: ExploreSource | null, b: ExploreSource | null) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Sets the dice store to a config: N, the track (its objective grouping), the bands and the
 * constraints with their percent points. False when the objective grouping is none of the
 * tracks' (the evaluator then shows the track of the same M, whose objectives differ).
 */
export function applyConfigToDice(dice: ReturnType<typeof useDiceStore>, config: DiceConfig, track: TrackName | null): boolean {
  const m = config.objectives.length;
  const fallback: TrackName = m === 1 ? 'so' : (`mo${m}` as TrackName);
  dice.n = config.n;
  dice.track = track ?? fallback;
  dice.alpha = [...config.alpha];
  dice.beta = [...config.beta];
  dice.gamma = [...config.gamma];
  dice.constraints = Array.from({ length: MAX_BLOCK_LENGTH }, (_, i) => {
    const d = i + 1;
    const k = config.constraints.indexOf(d);
    const current = dice.constraints[i];
    return k >= 0
      ? { d, enabled: true, lower: config.lowerBounds[k], upper: config.upperBounds[k] }
      : { d, enabled: false, lower: current?.lower ?? 0.1, upper: current?.upper ?? 0.9 };
  });
  return track !== null;
}

export const useExploreStore = defineStore('explore', () => {
  const api = useApi();
  const runs = useRunsStore();
  const dice = useDiceStore();

  const source = shallowRef<ExploreSource | null>(null);
  const data = shallowRef<ExplorerData | null>(null);
  const loading = ref(false);
  const error = ref<string | null>(null);
  /** For an experiment: its instances with two or more objectives. */
  const instances = shallowRef<string[]>([]);
  /** A live run shown from a snapshot: how many evaluations that snapshot had. */
  const snapshotEvaluations = ref<number | null>(null);

  const solvers = shallowRef<ReadonlySet<string>>(new Set());
  const seeds = shallowRef<ReadonlySet<number>>(new Set());
  const hidden = shallowRef<ReadonlySet<string>>(new Set());
  const colourBy = ref<ColourBy>('solver');
  const xObjective = ref(0);
  const yObjective = ref(1);
  const selection = shallowRef<Selection | null>(null);
  /** Why the last "open in the evaluator" could not be exact, if it could not. */
  const openNote = ref<string | null>(null);

  const filter = computed<PointFilter>(() => ({ solvers: solvers.value, seeds: seeds.value, hidden: hidden.value }));
  const grouping = computed(() => (data.value ? markRaw(groupPoints(data.value, filter.value, colourBy.value)) : null));

  function adopt(next: ExplorerData): void {
    data.value = markRaw(next);
    const all = allPoints(next);
    solvers.value = all.solvers;
    seeds.value = all.seeds;
    hidden.value = new Set();
    selection.value = null;
    xObjective.value = 0;
    yObjective.value = Math.min(1, next.objectiveCount - 1);
    colourBy.value = next.solvers.length === 1 && next.runs.length > 1 ? 'run' : 'solver';
    // The point the benchmark measures the first draw from.
    performance.mark('saikoro:explore-data');
  }

  let loadToken = 0;
  /** Loads a source (the hash's); the same source again reloads it only when asked. */
  async function load(next: ExploreSource | null, { force = false } = {}): Promise<void> {
    if (!force && sameSource(next, source.value) && (data.value || loading.value)) return;
    const token = ++loadToken;
    source.value = next;
    error.value = null;
    openNote.value = null;
    snapshotEvaluations.value = null;
    if (!next) {
      data.value = null;
      instances.value = [];
      return;
    }
    loading.value = true;
    try {
      const loaded = await read(next);
      if (token !== loadToken) return;
      if (loaded) adopt(loaded);
      else data.value = null;
    } catch (e) {
      if (token !== loadToken) return;
      data.value = null;
      error.value = (e as Error).message;
    } finally {
      if (token === loadToken) loading.value = false;
    }
  }

  async function read(next: ExploreSource): Promise<ExplorerData | null> {
    switch (next.kind) {
      case 'synthetic':
        instances.value = [];
        return fromSynthetic(
          syntheticFront({ points: next.points, objectives: next.objectives, seed: next.seed }),
          `synthetic front · ${next.points.toLocaleString('en-US')} points · M = ${next.objectives} · seed ${next.seed}`,
        );
      case 'run': {
        instances.value = [];
        const run = runs.get(next.runId) ?? (await api.getRun(next.runId));
        if (!run) throw new Error(`no run ${next.runId} in this app (runs are kept until the app closes; the last 100 finished ones)`);
        if (run.kind !== 'dice') throw new Error(`run ${next.runId} is not a dice run`);
        const started = run.started as DiceRunStarted;
        if (started.objectiveCount < 2) throw new Error(`run ${next.runId} has one objective: there is no front to explore`);
        const result = run.kind === 'dice' ? (run.result as import('../../src-shared/solvers/types.ts').SolverResult | null) : null;
        const snapshot = run.snapshot as import('../../src-shared/solvers/types.ts').Snapshot | null;
        if (!result) snapshotEvaluations.value = snapshot?.evaluations ?? 0;
        return fromAppRun(next.runId, started, result, snapshot?.front ?? null);
      }
      case 'experiment': {
        const project = await api.getProject();
        if (!project) throw new Error('no project is open: open one in the Project view');
        const experiment = project.experiments.find((e) => e.name === next.name);
        if (!experiment) throw new Error(`the project has no experiment ${next.name}`);
        const names = explorableInstances(experiment.spec);
        instances.value = names;
        if (!names.length) throw new Error(`experiment ${next.name} has only single-objective instances: there is no front to explore`);
        const instance = next.instance && names.includes(next.instance) ? next.instance : names[0];
        const results = await api.getExperimentResults(next.name);
        return fromExperiment(experiment.spec, instance, results);
      }
    }
  }

  // A live run shown from a snapshot is shown again, with its sequences, when it finishes.
  watch(
    () => (source.value?.kind === 'run' ? runs.get(source.value.runId)?.status : null),
    (status) => {
      if (snapshotEvaluations.value !== null && (status === 'done' || status === 'failed' || status === 'cancelled')) void load(source.value, { force: true });
    },
  );

  // The selection follows what is shown: points hidden since drop out of it.
  watch(grouping, (g) => {
    if (g && selection.value) selection.value = keepVisible(selection.value, g.visible);
  });

  function toggle<T>(set: ReadonlySet<T>, value: T, on: boolean): Set<T> {
    const next = new Set(set);
    if (on) next.add(value);
    else next.delete(value);
    return next;
  }
  /** The legend's series of a solver: its own when coloured by solver, its runs' when coloured by run. */
  function seriesOfSolver(name: string): string[] {
    const d = data.value;
    if (!d) return [];
    return colourBy.value === 'solver' ? [name] : d.runs.filter((r) => r.solver === name).map((r) => runLabel(r));
  }
  /**
   * Whether a solver's points are shown: its runs chosen and its series not all hidden in the
   * legend (the solver's checkbox says this, so it agrees with the legend and the count).
   */
  function solverShown(name: string): boolean {
    return solvers.value.has(name) && seriesOfSolver(name).some((s) => !hidden.value.has(s));
  }
  /** Shows or hides a solver's runs; showing it shows its series in the legend again too. */
  function setSolver(name: string, on: boolean): void {
    solvers.value = toggle(solvers.value, name, on);
    const series = seriesOfSolver(name);
    if (on && series.some((s) => hidden.value.has(s))) hidden.value = new Set([...hidden.value].filter((s) => !series.includes(s)));
  }
  const setSeed = (seed: number, on: boolean) => (seeds.value = toggle(seeds.value, seed, on));
  const setHidden = (series: string, isHidden: boolean) => (hidden.value = toggle(hidden.value, series, isHidden));
  function setAllSeeds(on: boolean): void {
    seeds.value = on && data.value ? new Set(data.value.seeds) : new Set();
  }

  /** Selects the visible points inside a brushed region (an empty region clears the selection). */
  function selectRegion(view: SelectionSource, ranges: readonly ObjectiveRange[]): void {
    const g = grouping.value;
    if (!data.value || !g || !ranges.some((r) => r.intervals.length)) {
      selection.value = null;
      return;
    }
    selection.value = markRaw({ indices: selectInRanges(data.value, g.visible, ranges), source: view, ranges });
  }
  function clearSelection(): void {
    selection.value = null;
  }

  /**
   * Opens point i in the evaluator (the dice view): its sequence and the instance's config,
   * through the dice store (undoable there). False when the point has no sequence.
   */
  function openInEvaluator(i: number): boolean {
    const d = data.value;
    const x = d?.x[i];
    if (!d || !x || !d.config) return false;
    dice.checkpoint('open from the explorer');
    const exact = applyConfigToDice(dice, d.config, d.track);
    dice.sequenceText = x;
    const run = d.runs[d.run[i]];
    const kind = source.value?.kind === 'experiment' ? 'experiment' : source.value?.kind === 'run' ? "this app's run" : 'front';
    dice.origin = {
      source: `${kind} ${d.title}`,
      solver: run.solver,
      seed: run.seed,
      run: run.id,
      what: d.feasible[i] ? 'a solution of its final front' : 'its best solution (infeasible: the run found no feasible one)',
      x,
    };
    openNote.value = exact
      ? null
      : `This instance groups the features into objectives in its own way; the evaluator shows the ${dice.track} track's objectives for it.`;
    window.location.hash = '#/dice';
    return true;
  }

  return {
    source,
    data,
    loading,
    error,
    instances,
    snapshotEvaluations,
    solvers,
    seeds,
    hidden,
    colourBy,
    xObjective,
    yObjective,
    selection,
    openNote,
    grouping,
    load,
    solverShown,
    setSolver,
    setSeed,
    setAllSeeds,
    setHidden,
    selectRegion,
    clearSelection,
    openInEvaluator,
  };
});
