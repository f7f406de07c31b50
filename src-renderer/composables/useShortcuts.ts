import { getCurrentInstance, onActivated, onDeactivated, onScopeDispose } from 'vue';
import { useShellStore } from '../stores/shell.ts';

export interface Shortcut {
  /** As shown in the help overlay, e.g. "?", "Ctrl+Enter", "1–9". */
  keys: string;
  description: string;
  /** Returns true when it handled the event. */
  match: (e: KeyboardEvent) => boolean;
  run: (e: KeyboardEvent) => void;
  /** Whether it also fires while the focus is in a text field (default false). */
  inFields?: boolean;
  /** Left out of the help overlay (e.g. a second binding of a listed action). */
  hidden?: boolean;
}

/**
 * Inputs that take no typed text. Only the keys they work with (Space, Enter, arrows, Home, End,
 * Page Up/Down) stay theirs; other keys are the page's shortcuts (a clicked format radio kept
 * the focus and swallowed the digits).
 */
const NOT_TYPED = new Set(['radio', 'checkbox', 'button', 'submit', 'reset', 'image', 'file', 'color', 'range']);
const CONTROL_KEYS = new Set([' ', 'Enter', 'ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Home', 'End', 'PageUp', 'PageDown']);

/** Whether `key` pressed on `target` belongs to the field: text inputs, text areas, selects (type-ahead), contenteditable; a control's own keys. */
export function isEditable(target: EventTarget | null, key = ''): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target instanceof HTMLInputElement && NOT_TYPED.has(target.type)) return CONTROL_KEYS.has(key);
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

/**
 * Binds shortcuts on window for the lifetime of the calling scope and lists them, under
 * `section`, in the help overlay. Inside a kept-alive view they are live only while the view
 * is shown.
 */
export function useShortcuts(section: string, shortcuts: readonly Shortcut[], target: Window = window): void {
  let active = true;
  const onKeyDown = (e: KeyboardEvent) => {
    if (!active || e.defaultPrevented || e.isComposing) return;
    for (const s of shortcuts) {
      if ((s.inFields || !isEditable(e.target, e.key)) && s.match(e)) {
        e.preventDefault();
        s.run(e);
        return;
      }
    }
  };
  target.addEventListener('keydown', onKeyDown);
  const shell = useShellStore();
  const listed = shortcuts.filter((s) => !s.hidden).map(({ keys, description }) => ({ keys, description }));
  let unlist = shell.listShortcuts(section, listed);
  if (getCurrentInstance()) {
    onActivated(() => {
      active = true;
      unlist();
      unlist = shell.listShortcuts(section, listed);
    });
    onDeactivated(() => {
      active = false;
      unlist();
    });
  }
  onScopeDispose(() => {
    target.removeEventListener('keydown', onKeyDown);
    unlist();
  });
}
