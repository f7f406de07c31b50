// @vitest-environment happy-dom
// The shell's theme switch: System / Light / Dark set or remove <html data-theme> (which the
// CSS and the charts follow), the choice is remembered in localStorage and applied at the next
// start, and an unreadable stored value means System.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import App from '../../../src-renderer/App.vue';
import { currentColorScheme } from '../../../src-renderer/composables/useColorScheme.ts';
import { readThemeChoice, THEME_STORAGE_KEY } from '../../../src-renderer/composables/useThemeChoice.ts';
import { realApp, type RealApp } from '../real-app.ts';
import { appear, byTestId, mountView, settle, type Mounted } from './mount.ts';

let env: RealApp;
let view: Mounted | null = null;
beforeAll(() => {
  env = realApp({ parallelism: 1 });
});
afterAll(() => env.dispose());
beforeEach(() => {
  localStorage.clear();
  delete document.documentElement.dataset.theme;
});
afterEach(() => {
  view?.unmount();
  view = null;
});

const radio = (choice: string) => byTestId<HTMLInputElement>(`theme-${choice}`)!;
async function choose(choice: string) {
  radio(choice).checked = true;
  radio(choice).dispatchEvent(new Event('change', { bubbles: true }));
  await settle();
}

describe('theme switch', () => {
  it('sets <html data-theme>, removes it for System, and remembers the choice', async () => {
    view = mountView(App, env.api, '#/project');
    await appear('theme-switch');
    expect(radio('system').checked).toBe(true);
    expect(document.documentElement.hasAttribute('data-theme')).toBe(false);
    // Three native radios of one group: Tab reaches the group, the arrow keys move in it.
    expect([...document.querySelectorAll<HTMLInputElement>('[data-testid="theme-switch"] input')].map((i) => [i.type, i.name, i.value])).toEqual([
      ['radio', 'saikoro-theme', 'system'],
      ['radio', 'saikoro-theme', 'light'],
      ['radio', 'saikoro-theme', 'dark'],
    ]);
    await choose('dark');
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(currentColorScheme()).toBe('dark');
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('dark');
    await choose('light');
    expect(document.documentElement.dataset.theme).toBe('light');
    expect(currentColorScheme()).toBe('light');
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('light');
    await choose('system');
    expect(document.documentElement.hasAttribute('data-theme')).toBe(false);
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBeNull();
  });

  it('the remembered choice applies at the next start', async () => {
    localStorage.setItem(THEME_STORAGE_KEY, 'dark');
    view = mountView(App, env.api, '#/project');
    await appear('theme-switch');
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(radio('dark').checked).toBe(true);
  });

  it('an unknown stored value, or storage that throws, is System', () => {
    expect(readThemeChoice({ getItem: () => 'sepia' })).toBe('system');
    expect(
      readThemeChoice({
        getItem: () => {
          throw new Error('denied');
        },
      }),
    ).toBe('system');
    expect(readThemeChoice(null)).toBe('system');
    expect(readThemeChoice({ getItem: () => 'light' })).toBe('light');
  });
});
