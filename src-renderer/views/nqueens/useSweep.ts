/**
 * The lab's sweep: its form (N list, seeds, which settings) and the sweep as one run of the app
 * (startRun of kind 'nqueens-sweep' through the runs store, planned and launched by the app
 * layer, run in a worker process), its progress while it runs and its outcomes once it ends,
 * summarised per N and setting. A sweep no longer wanted is cancelled: by Cancel, by a new
 * sweep, and when the lab closes (onScopeDispose). A cancelled sweep shows the runs it finished.
 */
import { computed, onScopeDispose, reactive, ref, shallowRef, type Ref } from 'vue';
import type { NqueensSweepResult, NqueensSweepSnapshot, StartNqueensSweep } from '../../../src-shared/api.ts';
import { useRunsStore } from '../../stores/runs.ts';
import type { FormResult } from './lab.ts';
import { parseNList, planSweep, summarizeSweep, type SweepOutcome, type SweepSetting } from './sweep.ts';

/** The largest N a sweep may ask for. */
export const SWEEP_MAX_N = 1000;
const MAX_SEEDS = 200;
const NO_OUTCOMES: readonly SweepOutcome[] = Object.freeze([]);

/** @param checked the lab's checked parameters: the "current parameters" setting. */
export function useSweep(checked: Readonly<Ref<FormResult>>) {
  const runs = useRunsStore();
  const form = reactive({ ns: '8, 16, 32, 64', seeds: 10, useDefault: true, useSlides: true, useCustom: false });
  const settings = shallowRef<SweepSetting[]>([]);
  const runId = ref<string | null>(null);
  const starting = ref(false);
  const formError = ref<string | null>(null);
  /** Bumped by every start and stop: an answer to an older start is not wanted any more. */
  let generation = 0;

  const run = computed(() => {
    const r = runs.get(runId.value);
    return r?.kind === 'nqueens-sweep' ? r : null;
  });
  const unfinished = computed(() => run.value !== null && (run.value.status === 'queued' || run.value.status === 'running' || run.value.status === 'paused'));
  const running = computed(() => starting.value || unfinished.value);
  const total = computed(() => (run.value?.started.kind === 'nqueens-sweep' ? run.value.started.cells : 0));
  const result = computed(() => (run.value?.result as NqueensSweepResult | null | undefined) ?? null);
  const outcomes = computed(() => result.value?.outcomes ?? NO_OUTCOMES);
  /** Runs finished so far: the last snapshot's count while it runs, the result's once it ends. */
  const done = computed(() => (result.value ? result.value.outcomes.length : ((run.value?.snapshot as NqueensSweepSnapshot | null | undefined)?.done ?? 0)));
  const solvedSoFar = computed(() =>
    result.value ? result.value.outcomes.filter((o) => o.solved).length : ((run.value?.snapshot as NqueensSweepSnapshot | null | undefined)?.solved ?? 0),
  );
  const error = computed(() => formError.value ?? (run.value?.status === 'failed' ? `The sweep failed: ${run.value.reason ?? 'no reason given'}` : null));

  function chosenSettings(): SweepSetting[] {
    const out: SweepSetting[] = [];
    if (form.useDefault) out.push({ label: 'lab default', preset: 'default', overrides: {} });
    if (form.useSlides) out.push({ label: 'slides', preset: 'slides', overrides: {} });
    const c = checked.value;
    if (form.useCustom && c.ok) {
      const { n: _n, maxSteps: _m, ...rest } = c.params;
      out.push({ label: 'current parameters', preset: 'default', overrides: rest });
    }
    return out;
  }

  /** The form's sweep request, or null with formError saying what is wrong. */
  function request(chosen: SweepSetting[]): StartNqueensSweep | null {
    let ns: number[];
    try {
      ns = parseNList(form.ns, SWEEP_MAX_N);
    } catch (e) {
      formError.value = `N list: ${(e as Error).message}`;
      return null;
    }
    if (!Number.isInteger(form.seeds) || form.seeds < 1 || form.seeds > MAX_SEEDS) {
      formError.value = `Seeds: an integer from 1 to ${MAX_SEEDS}`;
      return null;
    }
    if (!chosen.length) {
      formError.value = 'Settings: choose at least one';
      return null;
    }
    try {
      return planSweep(ns, chosen, form.seeds);
    } catch (e) {
      formError.value = `Settings: ${(e as Error).message}`;
      return null;
    }
  }

  async function start(): Promise<void> {
    stop();
    formError.value = null;
    const chosen = chosenSettings();
    const req = request(chosen);
    if (!req) return;
    const mine = generation;
    settings.value = chosen;
    runId.value = null;
    starting.value = true;
    try {
      const s = await runs.start(req);
      if (mine === generation) runId.value = s.runId;
      else void runs.cancel(s.runId);
    } catch (e) {
      if (mine === generation) formError.value = (e as Error).message;
    } finally {
      if (mine === generation) starting.value = false;
    }
  }

  /** Cancels the sweep (one being started is cancelled as soon as it is answered). */
  function stop(): void {
    generation++;
    starting.value = false;
    if (unfinished.value && runId.value) void runs.cancel(runId.value);
  }
  onScopeDispose(stop);

  const cells = computed(() => summarizeSweep(outcomes.value, settings.value.length));
  /** Every (N, setting) cell, N first. */
  const rows = computed(() => cells.value.flat().sort((a, b) => a.n - b.n || a.setting - b.setting));

  return { form, settings, runId, outcomes, total, done, solvedSoFar, running, error, cells, rows, start, stop };
}
