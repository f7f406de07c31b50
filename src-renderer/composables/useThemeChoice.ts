import { readonly, ref, type Ref } from 'vue';

/** What the user picked in the shell's theme switch: follow the system, or force one scheme. */
export type ThemeChoice = 'system' | 'light' | 'dark';
export const THEME_CHOICES: readonly ThemeChoice[] = ['system', 'light', 'dark'];
export const THEME_STORAGE_KEY = 'saikoro.theme';

/** The remembered choice; 'system' when there is none, it is unreadable or storage is unavailable. */
export function readThemeChoice(storage: Pick<Storage, 'getItem'> | null = safeStorage()): ThemeChoice {
  try {
    const value = storage?.getItem(THEME_STORAGE_KEY);
    return THEME_CHOICES.includes(value as ThemeChoice) ? (value as ThemeChoice) : 'system';
  } catch {
    return 'system';
  }
}

/**
 * Sets `<html data-theme>` for a forced scheme and removes it for 'system', so styles/theme.css
 * and the charts (useColorScheme watches the attribute) follow.
 */
export function applyThemeChoice(choice: ThemeChoice, root: HTMLElement = document.documentElement): void {
  if (choice === 'system') delete root.dataset.theme;
  else root.dataset.theme = choice;
}

function safeStorage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

/**
 * The theme choice of this window: read from localStorage and applied at once; `choose` applies
 * and remembers a new one. (The page owns one <html>, so the shell calls this once.)
 */
export function useThemeChoice(): { choice: Readonly<Ref<ThemeChoice>>; choose: (next: ThemeChoice) => void } {
  const choice = ref<ThemeChoice>(readThemeChoice());
  applyThemeChoice(choice.value);
  function choose(next: ThemeChoice): void {
    choice.value = next;
    applyThemeChoice(next);
    try {
      const storage = safeStorage();
      if (next === 'system') storage?.removeItem(THEME_STORAGE_KEY);
      else storage?.setItem(THEME_STORAGE_KEY, next);
    } catch {
      // Storage refused (private mode, quota): the choice holds for this session.
    }
  }
  return { choice: readonly(choice), choose };
}
