import { defineStore } from 'pinia';
import { computed, ref, shallowRef } from 'vue';
import { DEFAULT_ROUTE_ID, findRoute, routes, type RouteId } from '../routes.ts';

/** The route id in a location hash such as "#/dice"; the default route when there is none. */
export function routeIdFromHash(hash: string): string {
  const id = hash.replace(/^#\/?/, '').split(/[/?]/)[0];
  return findRoute(id) ? id : DEFAULT_ROUTE_ID;
}

export interface ShortcutListing {
  keys: string;
  description: string;
}
export interface ShortcutSection {
  section: string;
  shortcuts: readonly ShortcutListing[];
}

/** The shell's own state: which view is shown, the shortcut overlay and what it lists. */
export const useShellStore = defineStore('shell', () => {
  const currentId = ref<RouteId>(DEFAULT_ROUTE_ID);
  const helpOpen = ref(false);
  const current = computed(() => findRoute(currentId.value) ?? routes[0]);
  const shortcutSections = shallowRef<ShortcutSection[]>([]);

  function navigate(id: string): boolean {
    const route = findRoute(id);
    if (!route) return false;
    currentId.value = route.id;
    return true;
  }

  /** Lists shortcuts in the overlay under a section title; returns the function that unlists them. */
  function listShortcuts(section: string, shortcuts: readonly ShortcutListing[]): () => void {
    const entry: ShortcutSection = { section, shortcuts };
    shortcutSections.value = [...shortcutSections.value, entry];
    return () => {
      shortcutSections.value = shortcutSections.value.filter((s) => s !== entry);
    };
  }

  return { currentId, current, helpOpen, shortcutSections, navigate, listShortcuts };
});
