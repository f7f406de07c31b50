import { onScopeDispose, ref, shallowRef, watch, type Ref } from 'vue';
import type { ExperimentRunRow } from '../../../src-shared/api.ts';
import { useProjectStore } from '../../stores/project.ts';
import { latestFinished, type RecentResult } from './format.ts';

/** At most one reading of every experiment's runs per this many ms while runs are being stored. */
const RELOAD_MS = 1000;

/**
 * The latest finished runs of the open project's experiments, read again (at most once a
 * second) whenever the project summary changes: a run stored, an experiment added, a refresh.
 */
export function useRecentResults(limit: number): { rows: Readonly<Ref<RecentResult[]>>; error: Readonly<Ref<string | null>> } {
  const project = useProjectStore();
  const rows = shallowRef<RecentResult[]>([]);
  const error = ref<string | null>(null);
  let timer: ReturnType<typeof setTimeout> | null = null;
  let lastLoad = 0;
  let generation = 0;

  async function load() {
    timer = null;
    lastLoad = Date.now();
    const mine = ++generation;
    const names = project.experiments.map((e) => e.name);
    try {
      const lists = await Promise.all(names.map((n) => project.experimentRuns(n)));
      if (mine !== generation) return;
      rows.value = latestFinished(new Map<string, ExperimentRunRow[]>(names.map((n, i) => [n, lists[i]])), limit);
      error.value = null;
    } catch (e) {
      if (mine === generation) error.value = (e as Error).message;
    }
  }
  function schedule() {
    if (!project.summary) {
      generation++;
      rows.value = [];
      return;
    }
    if (timer) return;
    timer = setTimeout(() => void load(), Math.max(0, lastLoad + RELOAD_MS - Date.now()));
  }
  watch(() => project.summary, schedule, { immediate: true });
  onScopeDispose(() => {
    if (timer) clearTimeout(timer);
    generation++;
  });
  return { rows, error };
}
