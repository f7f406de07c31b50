import { onScopeDispose } from 'vue';

export interface Shortcut {
  /** As shown in the help overlay, e.g. "?", "Ctrl+Enter", "1–9". */
  keys: string;
  description: string;
  /** Returns true when it handled the event. */
  match: (e: KeyboardEvent) => boolean;
  run: (e: KeyboardEvent) => void;
  /** Whether it also fires while the focus is in a text field (default false). */
  inFields?: boolean;
}

export function isEditable(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

/** Binds shortcuts on window for the lifetime of the calling scope. */
export function useShortcuts(shortcuts: readonly Shortcut[], target: Window = window): void {
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.defaultPrevented || e.isComposing) return;
    for (const s of shortcuts) {
      if ((s.inFields || !isEditable(e.target)) && s.match(e)) {
        e.preventDefault();
        s.run(e);
        return;
      }
    }
  };
  target.addEventListener('keydown', onKeyDown);
  onScopeDispose(() => target.removeEventListener('keydown', onKeyDown));
}
