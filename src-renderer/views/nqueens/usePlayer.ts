/**
 * The lab's player: a NeuralPlayer on the checked parameters, stepped by hand or animated at a
 * chosen speed, restarted 250 ms after the last edit of the form. The board can instead show a
 * worker's solution until the network is played, stepped or restarted. Owns its animation frame
 * and timer and releases them in onScopeDispose.
 */
import { computed, markRaw, onScopeDispose, ref, shallowRef, watch, type Ref } from 'vue';
import { queensCells } from './worker-run.ts';
import { cellStates, NeuralPlayer, PRESETS, type FormResult } from './lab.ts';

export const SPEEDS = [1, 2, 5, 10, 30, 60, 0] as const; // steps per second; 0 = as fast as possible
export type Speed = (typeof SPEEDS)[number];
/** The history chart is redrawn at most this often while playing. */
const CHART_INTERVAL_MS = 250;
/** How long the form must stay unchanged before the board restarts on it. */
const RESTART_DELAY_MS = 250;

export interface ShownSolution {
  n: number;
  cells: Uint8Array;
  energies: Float64Array;
  label: string;
}

export function usePlayer(checked: Readonly<Ref<FormResult>>) {
  const initial = checked.value;
  // The player mutates typed arrays in place: held raw, redrawn when `frame` changes.
  const player = shallowRef<NeuralPlayer>(markRaw(initial.ok ? new NeuralPlayer(initial.params, initial.seed) : new NeuralPlayer(PRESETS.default.make(8), 1)));
  const frame = ref(0);
  const cells = shallowRef<Uint8Array>(cellStates(player.value.net));
  /** Bumped when the history chart is due for a redraw. */
  const chartFrame = ref(0);
  const playing = ref(false);
  const speed = ref<Speed>(10);
  /** A worker's solution on the board, or null (the network). */
  const shown = shallowRef<ShownSolution | null>(null);

  function showSolution(solution: { queens: number[]; label: string }): void {
    const n = solution.queens.length;
    shown.value = markRaw({ n, cells: queensCells(solution.queens), energies: new Float64Array(n * n), label: solution.label });
    frame.value++;
  }

  function redraw(chart = true): void {
    shown.value = null;
    cellStates(player.value.net, cells.value);
    frame.value++;
    if (chart) chartFrame.value++;
  }

  function reset(): void {
    const c = checked.value;
    if (!c.ok) return;
    pause();
    player.value = markRaw(new NeuralPlayer(c.params, c.seed));
    cells.value = cellStates(player.value.net);
    redraw();
  }

  let resetTimer: ReturnType<typeof setTimeout> | undefined;
  watch(checked, () => {
    clearTimeout(resetTimer);
    resetTimer = setTimeout(reset, RESTART_DELAY_MS);
  });

  let raf = 0;
  let lastTime = 0;
  let owed = 0;
  let lastChart = 0;

  function loop(now: number): void {
    if (!playing.value) return;
    const p = player.value;
    if (speed.value === 0) {
      const until = performance.now() + 14;
      while (!p.finished && performance.now() < until) p.advance(1);
    } else {
      owed += ((now - lastTime) / 1000) * speed.value;
      const k = Math.floor(owed);
      owed -= k;
      if (k > 0) p.advance(k);
    }
    lastTime = now;
    const chartDue = now - lastChart > CHART_INTERVAL_MS || p.finished;
    if (chartDue) lastChart = now;
    redraw(chartDue);
    if (p.finished) playing.value = false;
    else raf = requestAnimationFrame(loop);
  }

  function play(): void {
    if (playing.value || player.value.finished) return;
    playing.value = true;
    lastTime = performance.now();
    owed = 0;
    raf = requestAnimationFrame(loop);
  }
  function pause(): void {
    playing.value = false;
    cancelAnimationFrame(raf);
    chartFrame.value++;
  }
  function togglePlay(): void {
    if (shown.value && player.value.finished) return redraw();
    if (playing.value) pause();
    else play();
  }
  function stepOnce(): void {
    pause();
    player.value.advance(1);
    redraw();
  }
  onScopeDispose(() => {
    cancelAnimationFrame(raf);
    clearTimeout(resetTimer);
  });

  const snapshot = computed(() => (frame.value, player.value.snapshot));
  const status = computed(() => {
    if (shown.value) return { tone: 'ok', text: `A worker's solution (${shown.value.label}), verified. Step, Play or Restart returns to the network.` };
    const s = snapshot.value;
    const p = player.value;
    if (s.solved) return { tone: 'ok', text: `Solved at step ${s.step}: ${p.params.n} queens, verified.` };
    if (p.finished)
      return { tone: 'bad', text: `Not solved within ${p.params.maxSteps} steps${p.net.result().failure ? ` (${p.net.result().failure})` : ''}.` };
    return { tone: 'muted', text: playing.value ? 'Running…' : s.step === 0 ? 'Ready: random start with about half the neurons raised.' : 'Paused.' };
  });

  return { player, frame, cells, chartFrame, playing, speed, shown, snapshot, status, showSolution, reset, togglePlay, stepOnce };
}
