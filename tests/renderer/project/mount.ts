// Mounting one view (or the whole shell) against the real main side, as a page load would, the
// hooks of a file of such tests, and small DOM helpers for the project home and experiment
// editor tests.
import { afterAll, afterEach, beforeAll } from 'vitest';
import { createApp, nextTick, type App as VueApp, type Component } from 'vue';
import { createPinia, setActivePinia, type Pinia } from 'pinia';
import { provideApi } from '../../../src-renderer/api/index.ts';
import type { SaikoroApi } from '../../../src-shared/api.ts';
import { waitFor } from '../../main/processes.ts';
import { realApp, type RealApp } from '../real-app.ts';

export interface Mounted {
  app: VueApp;
  pinia: Pinia;
  unmount(): void;
}

/** Mounts `component` on `hash` with a fresh Pinia. */
export function mountView(component: Component, api: SaikoroApi, hash: string): Mounted {
  window.location.hash = hash;
  document.body.innerHTML = '<div id="app"></div>';
  const app = createApp(component);
  provideApi(app, api);
  const pinia = createPinia();
  app.use(pinia);
  setActivePinia(pinia);
  app.mount('#app');
  return {
    app,
    pinia,
    unmount() {
      app.unmount();
      pinia._e.stop();
    },
  };
}

/** The real main side of a file of view tests (realAppForViews), with the view a test mounts. */
export interface RealAppForViews extends Omit<RealApp, 'dispose'> {
  /** Mounts `component` on `hash` against `api` (the real app's by default); it is unmounted after the test. */
  mount(component: Component, hash: string, api?: SaikoroApi): Mounted;
}

/**
 * Registers the hooks of a file of view tests on the real main side: the app is made before the
 * file's tests and disposed after them; after each test, the view last mounted with `mount` is
 * unmounted and the open project closed.
 */
export function realAppForViews(options: Parameters<typeof realApp>[0]): RealAppForViews {
  let env: RealApp | null = null;
  let view: Mounted | null = null;
  const real = (): RealApp => {
    if (!env) throw new Error('the real app exists only while the tests run');
    return env;
  };
  beforeAll(() => {
    env = realApp(options);
  });
  afterAll(() => real().dispose());
  afterEach(async () => {
    view?.unmount();
    view = null;
    await real().api.closeProject();
  });
  return {
    get api() {
      return real().api;
    },
    get events() {
      return real().events;
    },
    get workspace() {
      return real().workspace;
    },
    get projects() {
      return real().projects;
    },
    get runs() {
      return real().runs;
    },
    menu: (command) => real().menu(command),
    mount(component, hash, api = real().api) {
      view = mountView(component, api, hash);
      return view;
    },
  };
}

export const q = <T extends HTMLElement = HTMLElement>(selector: string, root: ParentNode = document) => root.querySelector<T>(selector);
export const byTestId = <T extends HTMLElement = HTMLElement>(testid: string, root: ParentNode = document) =>
  q<T>(`[data-testid="${CSS.escape(testid)}"]`, root);
export const byField = <T extends HTMLElement = HTMLInputElement>(field: string) => q<T>(`[data-field="${CSS.escape(field)}"]`);
export const text = (el: Element | null) => el?.textContent?.replace(/\s+/g, ' ').trim() ?? null;
export const textOf = (testid: string) => text(byTestId(testid));
export const errorFor = (field: string) => text(q(`[data-error-for="${CSS.escape(field)}"]`));

export function click(el: HTMLElement | null): void {
  if (!el) throw new Error('no such element');
  el.click();
}

/** Types into an input or textarea as a user does: the value, then an input event. */
export function type(el: HTMLInputElement | HTMLTextAreaElement | null, value: string): void {
  if (!el) throw new Error('no such field');
  el.value = value;
  el.dispatchEvent(new Event('input', { bubbles: true }));
}

export function select(el: HTMLSelectElement | null, value: string): void {
  if (!el) throw new Error('no such select');
  el.value = value;
  el.dispatchEvent(new Event('change', { bubbles: true }));
}

export function key(k: string, target: EventTarget = window, init: KeyboardEventInit = {}): void {
  target.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true, ...init }));
}

export async function settle(): Promise<void> {
  for (let i = 0; i < 3; i++) {
    await new Promise((r) => setTimeout(r, 0));
    await nextTick();
  }
}

/** Waits until `selector` (a test id) is in the page and returns it. */
export function appear(testid: string, withinMs = 10_000): Promise<HTMLElement> {
  return waitFor(`[data-testid="${testid}"]`, () => byTestId(testid), { withinMs });
}
