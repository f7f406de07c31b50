import { defineAsyncComponent, type Component } from 'vue';

export interface ViewRoute {
  /** Used in the URL hash (#/<id>) and by menu commands. */
  id: string;
  title: string;
  /** One line under the title in the navigation. */
  summary: string;
  /** A single glyph shown beside the title. */
  glyph: string;
  component: Component;
}

/** The navigation, in order. Adding a view is one entry here; digit keys 1-9 follow this order. */
export const routes: readonly ViewRoute[] = [
  { id: 'project', title: 'Project', summary: 'The open file: experiments, notes, lab runs, results', glyph: '⌂', component: defineAsyncComponent(() => import('./views/project/ProjectView.vue')) },
  { id: 'experiment', title: 'Experiment editor', summary: 'Instances × solvers × seeds, checked as you type', glyph: '✎', component: defineAsyncComponent(() => import('./views/experiment/ExperimentView.vue')) },
  { id: 'monitor', title: 'Run monitor', summary: 'Experiment sessions and every run, live', glyph: '◔', component: defineAsyncComponent(() => import('./views/monitor/MonitorView.vue')) },
  { id: 'compare', title: 'Comparison', summary: 'Box plots, statistics and convergence per solver', glyph: '⚖', component: defineAsyncComponent(() => import('./views/compare/CompareView.vue')) },
  { id: 'explore', title: 'Pareto explorer', summary: 'Fronts of experiments and runs: overlay, brush, attainment', glyph: '◭', component: defineAsyncComponent(() => import('./views/explore/ExploreView.vue')) },
  { id: 'dice', title: 'Dice evaluator', summary: 'Features, objectives and constraints of one sequence', glyph: '⚄', component: defineAsyncComponent(() => import('./views/dice/DiceView.vue')) },
  { id: 'solve', title: 'Solve', summary: 'Run a solver; watch convergence and the Pareto front', glyph: '⟳', component: defineAsyncComponent(() => import('./views/solve/SolveView.vue')) },
  { id: 'gametree', title: 'Game tree', summary: 'Minimax, alpha-beta and memo on a tree or nim(n)', glyph: '♜', component: defineAsyncComponent(() => import('./views/gametree/GameTreeView.vue')) },
  { id: 'nqueens', title: 'N-Queens lab', summary: 'The hill-climbing neural network, step by step; sweeps over N', glyph: '♛', component: defineAsyncComponent(() => import('./views/nqueens/NqueensView.vue')) },
  { id: 'export', title: 'Export', summary: 'A report of an experiment: HTML, PDF, CSV, JSON, LaTeX', glyph: '⇪', component: defineAsyncComponent(() => import('./views/export/ExportView.vue')) },
];

export const DEFAULT_ROUTE_ID = routes[0].id;

export function findRoute(id: string): ViewRoute | undefined {
  return routes.find((r) => r.id === id);
}
