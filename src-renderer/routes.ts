/**
 * The route list: each view's id, title and place in the navigation. Plain data below the
 * stores (stores/shell.ts and views read it); which component shows a route is views/index.ts,
 * above the views, so this file loads no view.
 */
export interface ViewRoute {
  /** Used in the URL hash (#/<id>) and by menu commands. */
  id: string;
  title: string;
  /** One line under the title in the navigation. */
  summary: string;
  /** A single glyph shown beside the title. */
  glyph: string;
}

/** The navigation, in order. Adding a view is one entry here and one in views/index.ts; digit keys 1-9 follow this order. */
const ROUTE_LIST = [
  { id: 'project', title: 'Project', summary: 'The open file: experiments, notes, lab runs, results', glyph: '⌂' },
  { id: 'experiment', title: 'Experiment editor', summary: 'Instances × solvers × seeds, checked as you type', glyph: '✎' },
  { id: 'monitor', title: 'Run monitor', summary: 'Experiment sessions and every run, live', glyph: '◔' },
  { id: 'compare', title: 'Comparison', summary: 'Box plots, statistics and convergence per solver', glyph: '⚖' },
  { id: 'competition', title: 'Competition', summary: 'Entrants on secret instances: progress, standings, runtime ECDFs', glyph: '⚑' },
  { id: 'explore', title: 'Pareto explorer', summary: 'Fronts of experiments and runs: overlay, brush, attainment', glyph: '◭' },
  { id: 'dice', title: 'Dice evaluator', summary: 'Features, objectives and constraints of one sequence', glyph: '⚄' },
  { id: 'solve', title: 'Solve', summary: 'Run a solver; watch convergence and the Pareto front', glyph: '⟳' },
  { id: 'gametree', title: 'Game tree', summary: 'Minimax, alpha-beta and memo on a tree or nim(n)', glyph: '♜' },
  { id: 'nqueens', title: 'N-Queens lab', summary: 'The hill-climbing neural network, step by step; sweeps over N', glyph: '♛' },
  { id: 'export', title: 'Export', summary: 'A report of an experiment: HTML, PDF, CSV, JSON, LaTeX', glyph: '⇪' },
] as const satisfies readonly ViewRoute[];

/** The id of a view in the navigation. */
export type RouteId = (typeof ROUTE_LIST)[number]['id'];

export const routes: readonly (ViewRoute & { id: RouteId })[] = ROUTE_LIST;

export const DEFAULT_ROUTE_ID: RouteId = routes[0].id;

export function findRoute(id: string): (ViewRoute & { id: RouteId }) | undefined {
  return routes.find((r) => r.id === id);
}
