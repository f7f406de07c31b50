/**
 * The lab's baseline: min-conflicts on the board's N and seed, run like every other run (the
 * API's startRun through the runs store, planned and launched by the app layer, in a worker
 * process), and one line that compares it with the network. One run per (N, seed) while the
 * lab is open; a run no longer wanted is cancelled, as is an unfinished one when the lab closes.
 */
import { computed, onScopeDispose, ref, watch } from 'vue';
import type { NqueensRunReport, StartNqueensRun } from '../../../src-shared/api.ts';
import { useRunsStore } from '../../stores/runs.ts';

export interface BaselineBoard {
  n: number;
  seed: number;
}

/** The start request of the baseline on a board: min-conflicts with its defaults, no queens reported. */
export function baselineRequest({ n, seed }: BaselineBoard): StartNqueensRun {
  return { kind: 'nqueens', method: 'minconflicts', n, seed, maxQueens: 0, purpose: 'baseline' };
}

const LEAD = 'Min-conflicts on the same N and seed';

/** The line for a baseline run in `status`, with its report once done. */
export function baselineText(
  status: 'starting' | 'queued' | 'running' | 'paused' | 'done' | 'failed' | 'cancelled',
  report: NqueensRunReport | null,
  reason: string | null,
): string {
  if (status === 'failed') return `${LEAD}: the run failed (${reason ?? 'no reason given'}).`;
  if (status === 'cancelled') return `${LEAD}: cancelled.`;
  if (status !== 'done' || !report) return `${LEAD}: running in a worker…`;
  if (!report.solved) return `${LEAD}: not solved in ${report.steps} steps.`;
  const k = report.initialConflicts;
  const start = k === null ? '' : ` (${k} attacking ${k === 1 ? 'pair' : 'pairs'} after its greedy start)`;
  return `${LEAD}: solved in ${report.steps} repair steps${start}, ${(report.seconds * 1000).toFixed(1)} ms in a worker.`;
}

export function useBaseline(board: () => BaselineBoard) {
  const runs = useRunsStore();
  /** The baseline run of each board seen so far, by "N/seed". */
  const started = new Map<string, string>();
  const runId = ref<string | null>(null);
  const error = ref<string | null>(null);
  let wanted = '';

  const unfinished = (id: string | null | undefined) => {
    const status = runs.get(id)?.status;
    return status === 'queued' || status === 'running' || status === 'paused';
  };
  function drop(key: string): void {
    const id = started.get(key);
    if (id && unfinished(id)) {
      started.delete(key);
      void runs.cancel(id);
    }
  }

  async function show(b: BaselineBoard): Promise<void> {
    const key = `${b.n}/${b.seed}`;
    if (key === wanted) return;
    if (wanted) drop(wanted);
    wanted = key;
    error.value = null;
    const known = started.get(key);
    runId.value = known ?? null;
    if (known) return;
    try {
      const s = await runs.start(baselineRequest(b));
      started.set(key, s.runId);
      if (wanted === key) runId.value = s.runId;
      else drop(key);
    } catch (e) {
      if (wanted === key) error.value = (e as Error).message;
    }
  }

  watch(
    () => ({ ...board() }),
    (b) => void show(b),
    { immediate: true },
  );
  onScopeDispose(() => drop(wanted));

  const text = computed(() => {
    if (error.value) return `${LEAD}: could not start (${error.value}).`;
    const run = runs.get(runId.value);
    if (!run) return baselineText('starting', null, null);
    return baselineText(run.status, run.kind === 'nqueens' ? run.result : null, run.reason);
  });

  return { runId, text };
}
