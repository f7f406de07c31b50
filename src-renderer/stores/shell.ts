import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import { DEFAULT_ROUTE_ID, findRoute, routes } from '../routes.ts';

/** The route id in a location hash such as "#/dice"; the default route when there is none. */
export function routeIdFromHash(hash: string): string {
  const id = hash.replace(/^#\/?/, '').split(/[/?]/)[0];
  return findRoute(id) ? id : DEFAULT_ROUTE_ID;
}

/** The shell's own state: which view is shown and whether the shortcut overlay is open. */
export const useShellStore = defineStore('shell', () => {
  const currentId = ref(DEFAULT_ROUTE_ID);
  const helpOpen = ref(false);
  const current = computed(() => findRoute(currentId.value) ?? routes[0]);

  function navigate(id: string): boolean {
    if (!findRoute(id)) return false;
    currentId.value = id;
    return true;
  }

  function navigateToIndex(index: number): boolean {
    const route = routes[index];
    return route ? navigate(route.id) : false;
  }

  return { currentId, current, helpOpen, routes, navigate, navigateToIndex };
});
