// @vitest-environment happy-dom
// The N-Queens lab's "Run in a worker" card against a fake API that checks requests with the
// main side's own checker and sends the events a real run would send (real solutions from the
// shared solvers). The lab's own board, shortcuts and tests (view.test.ts) are unchanged.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApp, nextTick, type App as VueApp } from 'vue';
import { createPinia } from 'pinia';
import NqueensView from '../../../src-renderer/views/nqueens/NqueensView.vue';
import { provideApi } from '../../../src-renderer/api/index.ts';
import { progressOf } from '../../../src-renderer/views/nqueens/worker-run.ts';
import type { NqueensRunReport, RunSnapshotEvent } from '../../../src-shared/api.ts';
import { frameworkParams } from '../../../src-shared/problems/nqueens/request.ts';
import { defaultMinConflictsParams, runMinConflicts } from '../../../src-shared/problems/nqueens/minconflicts.ts';
import { defaultNeuralParams, NeuralNet, runNeural } from '../../../src-shared/problems/nqueens/neural.ts';
import { verifySolution } from '../../../src-shared/problems/nqueens/verify.ts';
import { fakeRunApi } from '../fake-run-api.ts';

/** The main side as far as the card sees it: requests planned as RunService plans them; events sent by the test. */
const fakeApi = fakeRunApi;

let app: VueApp;
let root: HTMLElement;
let env: ReturnType<typeof fakeApi>;

const byId = <T extends Element = HTMLElement>(id: string) => root.querySelector<T>(`[data-testid="${id}"]`);
const text = (id: string) => byId(id)?.textContent?.replace(/\s+/g, ' ').trim() ?? null;
const click = (el: Element | null) => (el as HTMLElement).dispatchEvent(new MouseEvent('click', { bubbles: true }));
const key = (k: string) => window.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true }));
const setValue = async (id: string, value: string) => {
  const el = byId<HTMLInputElement | HTMLSelectElement>(id)!;
  el.value = value;
  el.dispatchEvent(new Event(el instanceof HTMLSelectElement ? 'change' : 'input'));
  await nextTick();
};
/** Lets every pending promise chain (store, API) and render finish: a macrotask, then a render. */
const settle = async () => {
  await new Promise((r) => setTimeout(r, 0));
  await nextTick();
};
type NqueensEvent = Extract<RunSnapshotEvent, { kind: 'nqueens' }>;
const snap = (runId: string, steps: number, conflicts: number, extra: Partial<NqueensEvent['snapshot']> = {}): NqueensEvent => ({
  runId,
  kind: 'nqueens',
  snapshot: { steps, conflicts, queens: 1000, seconds: 0.4, progress: 0, paused: false, ...extra },
});
const done = (runId: string, status: 'done' | 'failed' | 'cancelled', reason: string | null, result: NqueensRunReport | null) => ({
  runId,
  kind: 'nqueens' as const,
  status,
  reason,
  result,
});

function report(over: Partial<NqueensRunReport> & Pick<NqueensRunReport, 'n' | 'method' | 'solved' | 'steps' | 'queens'>): NqueensRunReport {
  return { seed: 1, params: {}, seconds: 0.91, stopReason: 'solver', failure: null, initialConflicts: null, message: '', verified: over.solved, ...over };
}

beforeEach(() => {
  document.body.innerHTML = '<div id="app"></div>';
  root = document.getElementById('app')!;
  env = fakeApi();
  app = createApp(NqueensView);
  provideApi(app, env.api);
  app.use(createPinia());
  app.mount(root);
});
afterEach(() => app.unmount());

describe('Run in a worker', () => {
  it('runs min-conflicts: request, live counts and progress, then the verified result with the first queens', async () => {
    await nextTick();
    expect(byId<HTMLSelectElement>('nqw-method')!.value).toBe('minconflicts');
    await setValue('nqw-n', '1000');
    await setValue('nqw-seed', '7');
    click(byId('nqw-start'));
    await settle();
    expect(env.requests).toEqual([{ kind: 'nqueens', method: 'minconflicts', n: 1000, seed: 7 }]);
    expect(text('nqw-counts')).toBe('Running in a worker…');
    // The greedy start, 250 of the 1000 queens placed: the counts and the bar say so.
    env.snapshot(snap('run-test-1', 0, 3, { queens: 250 }));
    await nextTick();
    expect(text('nqw-counts')).toBe('greedy start: 250 of 1,000 queens placed · 0.4 s');
    expect(root.querySelector('[role="progressbar"]')!.getAttribute('aria-valuenow')).toBe('25');
    // 80 attacking pairs after the greedy start, 20 left: 75 % repaired.
    env.snapshot(snap('run-test-1', 0, 80));
    env.snapshot(snap('run-test-1', 1234, 20));
    env.snapshot(snap('run-test-9', 99, 0)); // another run's event: ignored
    await nextTick();
    expect(text('nqw-counts')).toBe('1,234 steps · 20 conflicts · 0.4 s');
    const bar = root.querySelector('[role="progressbar"]')!;
    expect(bar.getAttribute('aria-valuenow')).toBe('75');
    expect(bar.getAttribute('aria-label')).toBe('20 attacking pairs left of 80');
    click(byId('nqw-pause'));
    await settle();
    expect(env.pauses).toEqual([['run-test-1', true]]);
    env.snapshot(snap('run-test-1', 1234, 20, { paused: true }));
    await nextTick();
    expect(byId('nqw-pause')!.textContent).toBe('Resume');
    expect(text('nqw-counts')).toBe('1,234 steps · 20 conflicts · 0.4 s · paused');

    const mc = runMinConflicts(defaultMinConflictsParams(1000), 7);
    expect(mc.solved && verifySolution(mc.queens)).toBe(true);
    env.finish(done('run-test-1', 'done', null, report({ n: 1000, method: 'minconflicts', seed: 7, solved: true, steps: mc.steps, queens: [...mc.queens] })));
    await nextTick();
    expect(text('nqw-outcome')).toBe(`Solved N = 1,000 with min-conflicts (seed 7): ${mc.steps.toLocaleString('en-US')} steps, 0.91 s, verified.`);
    expect(byId('nqw-outcome')!.className).toContain('ok');
    expect(text('nqw-queens')).toBe(`Columns by row (0-based): ${[...mc.queens].slice(0, 16).join(' ')} …`);
    expect(byId('nqw-show')).toBeNull(); // N > 64
    expect(byId('nqw-live')).toBeNull();
    expect(byId<HTMLButtonElement>('nqw-start')!.disabled).toBe(false);
  });

  it("runs the network with the lab's parameters and shows a solution on the board until the network steps again", async () => {
    await nextTick();
    await setValue('nqw-method', 'neural');
    // 100 000 is beyond the network's 4000: N becomes the lab's N.
    expect(byId<HTMLInputElement>('nqw-n')!.value).toBe('8');
    click(byId('nqw-start'));
    await settle();
    expect(env.requests).toEqual([{ kind: 'nqueens', method: 'neural', n: 8, seed: 1, params: frameworkParams('neural', defaultNeuralParams(8)) }]);
    env.snapshot({
      runId: 'run-test-1',
      kind: 'nqueens',
      snapshot: { steps: 40, conflicts: 3, queens: 9, energy: 2.5, seconds: 0.2, progress: 0, paused: false },
    });
    await nextTick();
    expect(text('nqw-counts')).toBe('40 steps · 3 conflicts · energy 2.5 · 0.2 s');
    // The network's progress is steps against its step limit (5000 at N = 8).
    expect(root.querySelector('[role="progressbar"]')!.getAttribute('aria-label')).toBe('40 of 5,000 steps');

    const r = runNeural(defaultNeuralParams(8), 1);
    expect(r.solved).toBe(true);
    env.finish(done('run-test-1', 'done', null, report({ n: 8, method: 'neural', solved: true, steps: r.steps, queens: r.queens })));
    await nextTick();
    expect(text('nqw-outcome')).toBe(`Solved N = 8 with the network (seed 1): ${r.steps} steps, 0.91 s, verified.`);
    click(byId('nqw-show'));
    await nextTick();
    expect(text('nq-status')).toBe("A worker's solution (N = 8, the network, seed 1), verified. Step, Play or Restart returns to the network.");
    expect(root.querySelector('.board-card .card-title .sub')!.textContent).toBe("a worker's solution, N = 8");
    // The right arrow still steps the lab's network, which takes the board back.
    key('ArrowRight');
    await nextTick();
    expect(root.querySelector('.board-card .card-title .sub')!.textContent).toBe('step 1');
    expect(text('nq-status')).not.toContain("worker's solution");
    const net = new NeuralNet(defaultNeuralParams(8), 1);
    expect(root.querySelector('[data-testid="nq-stats"] dd')!.textContent).toBe(String(net.step().queens));
  });

  it("names a bad N or seed before sending, and shows the main side's refusal", async () => {
    await nextTick();
    await setValue('nqw-n', '2');
    expect(text('nqw-problem')).toBe('n: N = 2 has no solution (N must be 1 or at least 4)');
    expect(byId('nqw-n')!.getAttribute('aria-invalid')).toBe('true');
    expect(byId<HTMLButtonElement>('nqw-start')!.disabled).toBe(true);
    await setValue('nqw-method', 'neural');
    await setValue('nqw-n', '5000');
    expect(text('nqw-problem')).toBe('n: must be at most 4000, got 5000');
    await setValue('nqw-n', '10');
    await setValue('nqw-seed', '1.5');
    expect(text('nqw-problem')).toBe('seed: expected an integer, got 1.5');
    await setValue('nqw-seed', '3');
    expect(byId('nqw-problem')).toBeNull();
    // A bad lab parameter stops the network's run (it uses them), not min-conflicts'.
    await setValue('nq-A', '-2');
    expect(text('nqw-problem')).toBe("The network runs with the lab's parameters: fix the Parameters panel first.");
    await setValue('nqw-method', 'minconflicts');
    expect(byId('nqw-problem')).toBeNull();
    env.refuse(Object.assign(new Error('solver runs are not available in this app instance'), { name: 'UnavailableError' }));
    click(byId('nqw-start'));
    await settle();
    expect(text('nqw-error')).toBe('solver runs are not available in this app instance');
    expect(env.requests).toEqual([]);
  });

  it('keeps events that overtake the answer, reports failure modes and cancels', async () => {
    await nextTick();
    await setValue('nqw-method', 'neural');
    env.setBeforeAnswer((runId) =>
      env.finish(done(runId, 'done', null, report({ n: 8, method: 'neural', solved: false, steps: 5000, queens: null, failure: 'oscillation' }))),
    );
    click(byId('nqw-start'));
    await settle();
    expect(text('nqw-outcome')).toBe(
      'Not solved: N = 8 with the network (seed 1) stopped at the step limit after 5,000 steps, 0.91 s; failure mode: oscillation.',
    );
    expect(byId('nqw-outcome')!.className).toContain('bad');

    env.setBeforeAnswer(null);
    click(byId('nqw-start'));
    await settle();
    click(byId('nqw-cancel'));
    await settle();
    expect(env.cancelled).toEqual(['run-test-2']);
    env.finish(
      done('run-test-2', 'cancelled', 'cancelled', report({ n: 8, method: 'neural', solved: false, steps: 321, queens: null, stopReason: 'cancelled' })),
    );
    await nextTick();
    expect(text('nqw-outcome')).toBe('Cancelled N = 8 with the network (seed 1) after 321 steps, 0.91 s.');
    // A worker that died: no result, the reason.
    click(byId('nqw-start'));
    await settle();
    env.finish(done('run-test-3', 'failed', 'the worker exited with code 1', null));
    await nextTick();
    expect(text('nqw-outcome')).toBe('The run failed: the worker exited with code 1.');
    // A worker stuck in a long step is killed after the host's grace period.
    click(byId('nqw-start'));
    await settle();
    env.finish(done('run-test-4', 'cancelled', 'cancelled (worker did not stop within 2000 ms and was killed)', null));
    await nextTick();
    expect(text('nqw-outcome')).toBe('Cancelled: worker did not stop within 2000 ms and was killed.');
  });

  it('the run outlives the lab: nothing is cancelled when it goes away, and a new lab (a reload) shows it going', async () => {
    await nextTick();
    click(byId('nqw-start'));
    await settle();
    env.snapshot(snap('run-test-1', 500, 12));
    app.unmount();
    await settle();
    expect(env.cancelled).toEqual([]);
    // A reload: a new app, a new store, the same main side.
    env.snapshot(snap('run-test-1', 900, 7, { queens: 100_000 }));
    app = createApp(NqueensView);
    provideApi(app, env.api);
    app.use(createPinia());
    root = document.createElement('div');
    app.mount(root);
    await settle();
    expect(text('nqw-counts')).toBe('900 steps · 7 conflicts · 0.4 s');
    expect(byId('nqw-cancel')).not.toBeNull();
    click(byId('nqw-cancel'));
    await settle();
    expect(env.cancelled).toEqual(['run-test-1']);
  });

  it('progress: min-conflicts counts repairs, the network its step budget', () => {
    const s = { steps: 300, conflicts: 0, queens: 8, seconds: 1, progress: 0, paused: false };
    expect(progressOf('minconflicts', s, 100_000, 0, 8)).toEqual({ value: 1, label: '0 attacking pairs left' });
    expect(progressOf('minconflicts', { ...s, conflicts: 30 }, 100_000, 120, 8).value).toBe(0.75);
    expect(progressOf('neural', s, 1200, 5, 8)).toEqual({ value: 0.25, label: '300 of 1,200 steps' });
    // During the greedy start only some queens are on the board: that is the progress.
    expect(progressOf('minconflicts', { ...s, steps: 0, queens: 2_500_000 }, 500_000_000, 0, 10_000_000)).toEqual({
      value: 0.25,
      label: 'greedy start: 2,500,000 of 10,000,000 queens placed',
    });
  });
});
