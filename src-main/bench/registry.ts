import type { BenchSuite } from './suite.ts';

/**
 * One entry per suite: its name, one-line summary and whether `saikoro bench` runs it when no
 * suite is named, known without loading it (`saikoro bench --help` lists them), and how to load
 * it: a suite's module (a web server and Chromium for pareto, worker processes for solvers)
 * loads only when it runs. Each suite lives in its own file beside this one.
 */
export interface BenchEntry {
  name: string;
  summary: string;
  /** Run when `saikoro bench` names no suite (false for long suites such as solvers). */
  byDefault: boolean;
  load(): Promise<BenchSuite>;
}

export const suites: BenchEntry[] = [
  {
    name: 'blind',
    summary: "Each track's default solver blind against sighted on hidden instances (issue 26; long)",
    byDefault: false,
    load: async () => (await import('./blind.ts')).blindBench,
  },
  {
    name: 'eval',
    summary: 'dice evaluation: full and incremental evaluations per second, chi-square quantiles',
    byDefault: true,
    load: async () => (await import('./eval.ts')).evalBench,
  },
  {
    name: 'external',
    summary: 'External-solver protocol overhead per evaluation, against the same random search in process',
    byDefault: true,
    load: async () => (await import('./external.ts')).externalBench,
  },
  { name: 'hv', summary: 'Exact hypervolume (WFG) of n simplex points at M = 2..7', byDefault: true, load: async () => (await import('./hv.ts')).hvBench },
  {
    name: 'minimax',
    summary: 'Game-tree lab: plain minimax nodes/s on nim(25), largest n in 10 s, alpha-beta and memo counts',
    byDefault: true,
    load: async () => (await import('./minimax.ts')).minimaxBench,
  },
  {
    name: 'nqueens',
    summary: 'N-Queens: network success over seeds up to N = 1000; min-conflicts at 10^6 and 10^7',
    byDefault: true,
    load: async () => (await import('./nqueens.ts')).nqueensBench,
  },
  {
    name: 'pareto',
    summary: 'Pareto explorer in headless Chromium: first draw, hover, brush, change of axis (--points N)',
    byDefault: false,
    load: async () => (await import('./pareto.ts')).paretoBench,
  },
  {
    name: 'service',
    summary: 'Competition server: evaluations/s per entrant over a WebSocket (one, one with a batch in flight, two) and over POST, N = 840, batches of 100',
    byDefault: false,
    load: async () => (await import('./service.ts')).serviceBench,
  },
  {
    name: 'solvers',
    summary: 'Solver quality at equal evaluations with wall time (10 seeds; long)',
    byDefault: false,
    load: async () => (await import('./solvers.ts')).solversBench,
  },
  {
    name: 'startup',
    summary: 'cost of one saikoro call (fresh processes): --help, rngbias, eval, solve, a Slurm task; --reference rngbias.py',
    byDefault: false,
    load: async () => (await import('./startup.ts')).startupBench,
  },
];
