// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApp, nextTick, type App as VueApp } from 'vue';
import { createPinia, setActivePinia } from 'pinia';
import App from '../../src-renderer/App.vue';
import { provideApi } from '../../src-renderer/api/index.ts';
import { useDiceStore } from '../../src-renderer/stores/dice.ts';
import { waitFor } from '../main/processes.ts';
import { apiFromBridge, type MenuCommand, type SaikoroBridge } from '../../src-shared/api.ts';
import { createAppCore } from '../../src-main/api/core.ts';
import { dispatchCall } from '../../src-main/api/dispatch.ts';
import { nodeSpawner } from '../../src-main/host/spawner.ts';

const SAMPLE = '31552264665432613134314646226624645162511461153216';

/** The real API implementation behind an in-process bridge, as the desktop preload would give it. */
function fakeBridge() {
  // The app wired as the desktop and the web server wire it (no project paths: these tests open
  // no project), with a workers' memory limit of its own for getAppInfo to report.
  const core = createAppCore({
    appInfo: { name: 'saikoro', version: '0.0.0-test', platform: 'test', runtime: 'web' },
    spawn: nodeSpawner(),
    parallelism: 1,
    memoryLimitMb: 6026,
    paths: null,
  });
  const impl = core.api;
  const menuListeners = new Set<(c: MenuCommand) => void>();
  const calls: string[] = [];
  const bridge = {
    getAppInfo: () => dispatchCall(impl, 'getAppInfo', []),
    evaluateDice: (...args: unknown[]) => {
      calls.push('evaluateDice');
      return dispatchCall(impl, 'evaluateDice', args);
    },
    randomSequence: (...args: unknown[]) => dispatchCall(impl, 'randomSequence', args),
    onMenuCommand: (listener: (c: MenuCommand) => void) => {
      menuListeners.add(listener);
      return () => menuListeners.delete(listener);
    },
  } as unknown as SaikoroBridge;
  return { core, bridge, calls, menu: (c: MenuCommand) => menuListeners.forEach((l) => l(c)), menuListeners };
}

/** Waits for the store to have nothing scheduled or awaited (its watchers run first), then for the page to show it. */
const settle = async () => {
  await nextTick();
  await store.whenIdle();
  await nextTick();
};
const text = (testid: string) => document.querySelector(`[data-testid="${testid}"]`)?.textContent?.trim() ?? null;
const key = (k: string, init: KeyboardEventInit = {}) =>
  window.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true, ...init }));

let app: VueApp;
let env: ReturnType<typeof fakeBridge>;
let store: ReturnType<typeof useDiceStore>;

beforeEach(async () => {
  document.body.innerHTML = '<div id="app"></div>';
  // The project home is the default view; these tests are about the evaluator.
  window.location.hash = '#/dice';
  env = fakeBridge();
  app = createApp(App);
  provideApi(app, apiFromBridge(env.bridge));
  const pinia = createPinia();
  app.use(pinia);
  setActivePinia(pinia);
  app.mount('#app');
  // The view is an async component: wait for it to load.
  await waitFor('the dice view', () => document.querySelector('[data-testid="sequence-input"]'));
  store = app.runWithContext(() => useDiceStore());
});
afterEach(() => {
  app.unmount();
  env.core.dispose();
});

describe('the dice view in the shell', () => {
  it('shows the navigation and an empty state first', () => {
    expect(text('nav-dice')).toContain('Dice evaluator');
    expect(document.querySelector('[data-testid="empty"]')).not.toBeNull();
    expect(text('app-info')).toContain('v0.0.0-test');
    expect(text('worker-memory-limit')).toBe('· workers ≤ 6,026 MB');
  });

  it('evaluates the reference sample: objective 76.8, 12 / 12 constraints satisfied, feasible', async () => {
    store.sequenceText = SAMPLE;
    await settle();
    expect(text('objective-0')).toBe('76.8');
    expect(text('constraints-summary')).toBe('12 / 12 satisfied');
    expect(text('feasibility')).toBe('feasible');
    expect(document.querySelectorAll('[data-testid^="constraint-status-"]')).toHaveLength(12);
    expect(document.querySelector('[data-testid="feature-table"] tbody')?.children).toHaveLength(15);
  });

  it('names the position of a bad character without calling the API, and keeps the last result (stale)', async () => {
    store.sequenceText = SAMPLE;
    await settle();
    const before = env.calls.length;
    store.sequenceText = SAMPLE.slice(0, 16) + '9' + SAMPLE.slice(17);
    await settle();
    expect(text('sequence-error')).toBe('character "9" at position 17 is not a die face 1-6');
    expect(env.calls.length).toBe(before);
    expect(store.stale).toBe(true);
    expect(document.querySelector('.roll.bad')?.textContent).toBe('9');
    expect(document.querySelector('[data-testid="sequence-input"]')?.getAttribute('aria-invalid')).toBe('true');
  });

  it('offers N = length for a sequence of another length, and that choice is undoable', async () => {
    store.sequenceText = SAMPLE.slice(0, 40);
    await settle();
    expect(text('sequence-error')).toBe('the sequence has 40 rolls, but N = 50');
    (document.querySelector('[data-testid="adopt-length"]') as HTMLButtonElement).click();
    await settle();
    expect(store.n).toBe(40);
    expect(text('sequence-error')).toBeNull();
    expect(text('objective-0')).not.toBeNull();
    store.undo();
    expect(store.n).toBe(50);
  });

  it('random sequences advance the seed; undo restores the previous sequence and seed', async () => {
    store.sequenceText = SAMPLE;
    await settle();
    (document.querySelector('[data-testid="random"]') as HTMLButtonElement).click();
    await settle();
    const first = store.sequence;
    expect(first).toMatch(/^[1-6]{50}$/);
    expect(store.seed).toBe(2);
    expect(text('undo')).toContain('random sequence (seed 1)');
    key('g');
    await settle();
    expect(store.sequence).not.toBe(first);
    expect(store.undo()).toBe(true);
    expect(store.sequence).toBe(first);
    expect(store.undo()).toBe(true);
    expect(store.sequence).toBe(SAMPLE);
    expect(store.seed).toBe(1);
    expect(store.undo()).toBe(false);
  });

  it('a multi-objective track shows one objective per group, summing to the single objective', async () => {
    store.sequenceText = SAMPLE;
    store.track = 'mo3';
    await settle();
    const values = [0, 1, 2].map((m) => Number(text(`objective-${m}`)));
    expect(values.reduce((a, b) => a + b, 0)).toBeCloseTo(76.8, 6);
  });

  it('a config the validator refuses is shown with its field, and nothing is sent', async () => {
    store.sequenceText = SAMPLE;
    await settle();
    const before = env.calls.length;
    store.constraints[0].lower = 0.95;
    await settle();
    expect(text('config-error')).toBe('lowerBounds[0]: must not exceed upperBounds[0] (d = 1: 0.95 > 0.9)');
    expect(env.calls.length).toBe(before);
  });

  it('"?" opens the shortcut list, Escape closes it; the menu can open it too', async () => {
    key('?');
    await nextTick();
    expect(document.querySelector('[data-testid="help-overlay"]')).not.toBeNull();
    expect(text('help-overlay')).toContain('Everywhere');
    expect(text('help-overlay')).toContain('Random sequence (then the next seed)');
    key('Escape');
    await nextTick();
    expect(document.querySelector('[data-testid="help-overlay"]')).toBeNull();
    env.menu({ kind: 'showShortcuts' });
    await nextTick();
    expect(document.querySelector('[data-testid="help-overlay"]')).not.toBeNull();
  });

  it('single-key shortcuts are ignored while typing in a field', async () => {
    const input = document.querySelector('[data-testid="sequence-input"]') as HTMLTextAreaElement;
    input.focus();
    input.dispatchEvent(new KeyboardEvent('keydown', { key: 'g', bubbles: true, cancelable: true }));
    await settle();
    expect(store.sequence).toBe('');
  });

  it('unmounting detaches the menu listener', () => {
    expect(env.menuListeners.size).toBe(1);
    app.unmount();
    expect(env.menuListeners.size).toBe(0);
    app = createApp({ render: () => null });
    app.mount(document.createElement('div'));
  });
});
