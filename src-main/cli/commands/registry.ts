import type { Command } from '../command.ts';

/**
 * One entry per subcommand: its name and one-line summary, known without loading it, and how to
 * load it. A command's module (and whatever it imports: ECharts, the report renderers, YAML, the
 * project store) loads only when that command runs, so `saikoro --help` and `saikoro rngbias`
 * start in about the time Node itself does. Each command lives in its own file beside this one.
 */
export interface CommandEntry {
  name: string;
  summary: string;
  load(): Promise<Command>;
}

export const commands: CommandEntry[] = [
  { name: 'rngbias', summary: 'Drop-in for the EC-Comp 2020 reference evaluator (one sequence on stdin)', load: async () => (await import('./rngbias.ts')).rngbiasCommand },
  { name: 'eval', summary: 'Evaluate dice sequences in batches (JSON lines in, JSON lines out)', load: async () => (await import('./eval.ts')).evalCommand },
  { name: 'bench', summary: 'Measure speed: evaluator, quantiles, hypervolume, labs, solvers, start-up', load: async () => (await import('./bench.ts')).benchCommand },
  { name: 'minimax', summary: "Game-tree lab: the notes' estimate-my-turn / estimate-his-turn on a tree or nim(N)", load: async () => (await import('./minimax.ts')).minimaxCommand },
  { name: 'nqueens', summary: 'N-Queens: the hill-climbing neural network or min-conflicts', load: async () => (await import('./nqueens.ts')).nqueensCommand },
  { name: 'project', summary: 'Create a project file, show what it holds, add notes', load: async () => (await import('./project.ts')).projectCommand },
  { name: 'experiment', summary: 'Add, run (resumable, sharded), inspect and verify experiments in a project', load: async () => (await import('./experiment.ts')).experimentCommand },
  { name: 'compare', summary: 'Compare the solvers of an experiment: summaries, Mann-Whitney + A12, Friedman + Holm', load: async () => (await import('./compare.ts')).compareCommand },
  { name: 'report', summary: 'Write a report of an experiment: HTML, CSV, JSON, LaTeX or PDF', load: async () => (await import('./report.ts')).reportCommand },
  { name: 'merge', summary: 'Fold results files (e.g. experiment shards) into a project without duplicates', load: async () => (await import('./merge.ts')).mergeCommand },
  { name: 'serve', summary: 'serve the UI to a browser on a local web server', load: async () => (await import('./serve.ts')).serveCommand },
  { name: 'solve', summary: 'Run a solver on the dice problem (single or multi-objective)', load: async () => (await import('./solve.ts')).solveCommand },
  { name: 'solvers', summary: 'List the solvers and their parameters', load: async () => (await import('./solvers.ts')).solversCommand },
];
