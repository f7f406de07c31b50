import { onScopeDispose } from 'vue';

/** Listens to a window event for the lifetime of the calling scope. */
export function useWindowEvent<K extends keyof WindowEventMap>(type: K, listener: (e: WindowEventMap[K]) => void): void {
  window.addEventListener(type, listener);
  onScopeDispose(() => window.removeEventListener(type, listener));
}
