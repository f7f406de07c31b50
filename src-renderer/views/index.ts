/**
 * Which component shows each route of routes.ts: every view, loaded when first shown. It sits
 * above the views (App.vue imports it) so that the route list, which the stores read, loads none.
 */
import { defineAsyncComponent, type Component } from 'vue';
import type { RouteId } from '../routes.ts';

export const viewComponents: Readonly<Record<RouteId, Component>> = {
  project: defineAsyncComponent(() => import('./project/ProjectView.vue')),
  experiment: defineAsyncComponent(() => import('./experiment/ExperimentView.vue')),
  monitor: defineAsyncComponent(() => import('./monitor/MonitorView.vue')),
  compare: defineAsyncComponent(() => import('./compare/CompareView.vue')),
  competition: defineAsyncComponent(() => import('./competition/CompetitionView.vue')),
  explore: defineAsyncComponent(() => import('./explore/ExploreView.vue')),
  dice: defineAsyncComponent(() => import('./dice/DiceView.vue')),
  solve: defineAsyncComponent(() => import('./solve/SolveView.vue')),
  gametree: defineAsyncComponent(() => import('./gametree/GameTreeView.vue')),
  nqueens: defineAsyncComponent(() => import('./nqueens/NqueensView.vue')),
  export: defineAsyncComponent(() => import('./export/ExportView.vue')),
};
