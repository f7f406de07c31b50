/**
 * The lab's sweep: its form (N list, seeds, which settings), the jobs run in a Web Worker
 * (sweep.worker.ts), the outcomes as they arrive (one UI update per animation frame) and their
 * summary per N and setting. Owns the worker and terminates it in onScopeDispose.
 */
import { computed, markRaw, onScopeDispose, reactive, ref, shallowRef, type Ref } from 'vue';
import type { FormResult } from './lab.ts';
import { parseNList, planSweep, summarizeSweep, type SweepOutcome, type SweepSetting } from './sweep.ts';
import type { SweepMessage } from './sweep.worker.ts';

/** The largest N a sweep may ask for. */
export const SWEEP_MAX_N = 1000;
const MAX_SEEDS = 200;

/** @param checked the lab's checked parameters: the "current parameters" setting. */
export function useSweep(checked: Readonly<Ref<FormResult>>) {
  const form = reactive({ ns: '8, 16, 32, 64', seeds: 10, useDefault: true, useSlides: true, useCustom: false });
  const settings = shallowRef<SweepSetting[]>([]);
  const outcomes = shallowRef<SweepOutcome[]>([]);
  const total = ref(0);
  const running = ref(false);
  const error = ref<string | null>(null);
  let worker: Worker | null = null;

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

  function start(): void {
    stop();
    error.value = null;
    let ns: number[];
    try {
      ns = parseNList(form.ns, SWEEP_MAX_N);
    } catch (e) {
      error.value = `N list: ${(e as Error).message}`;
      return;
    }
    if (!Number.isInteger(form.seeds) || form.seeds < 1 || form.seeds > MAX_SEEDS) {
      error.value = `Seeds: an integer from 1 to ${MAX_SEEDS}`;
      return;
    }
    const chosen = chosenSettings();
    if (!chosen.length) {
      error.value = 'Settings: choose at least one';
      return;
    }
    const jobs = planSweep(ns, chosen, form.seeds);
    settings.value = chosen;
    outcomes.value = [];
    total.value = jobs.length;
    running.value = true;
    const w = (worker = new Worker(new URL('./sweep.worker.ts', import.meta.url), { type: 'module' }));
    const collected: SweepOutcome[] = [];
    let pending = false;
    w.onmessage = (e: MessageEvent<SweepMessage>) => {
      const m = e.data;
      if (m.kind === 'outcome') {
        collected.push(m.outcome);
        // Batch UI updates: one per animation frame however fast results arrive.
        if (!pending) {
          pending = true;
          requestAnimationFrame(() => {
            pending = false;
            outcomes.value = markRaw([...collected]);
          });
        }
      } else {
        if (m.kind === 'error') error.value = m.message;
        outcomes.value = markRaw([...collected]);
        stop();
      }
    };
    w.onerror = (e) => {
      error.value = `The sweep worker failed: ${e.message}`;
      stop();
    };
    w.postMessage({ jobs });
  }

  function stop(): void {
    worker?.terminate();
    worker = null;
    running.value = false;
  }
  onScopeDispose(stop);

  const cells = computed(() => summarizeSweep(outcomes.value, settings.value.length));
  /** Every (N, setting) cell, N first. */
  const rows = computed(() => cells.value.flat().sort((a, b) => a.n - b.n || a.setting - b.setting));

  return { form, settings, outcomes, total, running, error, cells, rows, start, stop };
}
