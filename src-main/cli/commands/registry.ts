import type { Command, CommandHelp } from '../command.ts';

/**
 * One entry per subcommand: its name and one-line summary, known without loading it; its help
 * (usage text and options, <name>.help.ts), loaded without the command; and how to load the
 * command. A command's module (and whatever it imports: ECharts, the report renderers, YAML, the
 * project store) loads only when that command runs, so `saikoro --help`, `saikoro <command>
 * --help` and `saikoro rngbias` start in about the time Node itself does. Each command lives in
 * its own file beside this one, its help in <name>.help.ts.
 */
export interface CommandEntry {
  name: string;
  summary: string;
  help(): Promise<CommandHelp>;
  load(): Promise<Command>;
}

export const commands: CommandEntry[] = [
  {
    name: 'init',
    summary: 'Make a first study to run: a project, its spec, a Python solver, what to do next',
    help: async () => (await import('./init.help.ts')).initHelp,
    load: async () => (await import('./init.ts')).initCommand,
  },
  {
    name: 'rngbias',
    summary: 'Drop-in for the EC-Comp 2020 reference evaluator (one sequence on stdin)',
    help: async () => (await import('./rngbias.help.ts')).rngbiasHelp,
    load: async () => (await import('./rngbias.ts')).rngbiasCommand,
  },
  {
    name: 'eval',
    summary: 'Evaluate dice sequences in batches (JSON lines in, JSON lines out)',
    help: async () => (await import('./eval.help.ts')).evalHelp,
    load: async () => (await import('./eval.ts')).evalCommand,
  },
  {
    name: 'bench',
    summary: 'Measure speed: evaluator, quantiles, hypervolume, labs, solvers, start-up',
    help: async () => (await import('./bench.help.ts')).benchHelp,
    load: async () => (await import('./bench.ts')).benchCommand,
  },
  {
    name: 'minimax',
    summary: "Game-tree lab: the notes' estimate-my-turn / estimate-his-turn on a tree or nim(N)",
    help: async () => (await import('./minimax.help.ts')).minimaxHelp,
    load: async () => (await import('./minimax.ts')).minimaxCommand,
  },
  {
    name: 'nqueens',
    summary: 'N-Queens: the hill-climbing neural network or min-conflicts',
    help: async () => (await import('./nqueens.help.ts')).nqueensHelp,
    load: async () => (await import('./nqueens.ts')).nqueensCommand,
  },
  {
    name: 'project',
    summary: 'Create a project file, show what it holds, add notes',
    help: async () => (await import('./project.help.ts')).projectHelp,
    load: async () => (await import('./project.ts')).projectCommand,
  },
  {
    name: 'experiment',
    summary: 'Add, run (resumable, sharded), inspect and verify experiments in a project',
    help: async () => (await import('./experiment.help.ts')).experimentHelp,
    load: async () => (await import('./experiment.ts')).experimentCommand,
  },
  {
    name: 'compare',
    summary: 'Compare the solvers of an experiment: summaries, Mann-Whitney + A12, Friedman + Holm',
    help: async () => (await import('./compare.help.ts')).compareHelp,
    load: async () => (await import('./compare.ts')).compareCommand,
  },
  {
    name: 'report',
    summary: 'Write a report of an experiment: HTML, CSV, JSON, LaTeX or PDF',
    help: async () => (await import('./report.help.ts')).reportHelp,
    load: async () => (await import('./report.ts')).reportCommand,
  },
  {
    name: 'competition',
    summary: "The competition's setting: secret instances, blind entrants, standings",
    help: async () => (await import('./competition.help.ts')).competitionHelp,
    load: async () => (await import('./competition.ts')).competitionCommand,
  },
  {
    name: 'merge',
    summary: 'Fold results files (e.g. experiment shards) into a project without duplicates',
    help: async () => (await import('./merge.help.ts')).mergeHelp,
    load: async () => (await import('./merge.ts')).mergeCommand,
  },
  {
    name: 'serve',
    summary: 'serve the UI to a browser on a local web server',
    help: async () => (await import('./serve.help.ts')).serveHelp,
    load: async () => (await import('./serve.ts')).serveCommand,
  },
  {
    name: 'solve',
    summary: 'Run a solver on the dice problem (single or multi-objective)',
    help: async () => (await import('./solve.help.ts')).solveHelp,
    load: async () => (await import('./solve.ts')).solveCommand,
  },
  {
    name: 'client',
    summary: 'Where the Python client for solver programs is, to pip install or copy',
    help: async () => (await import('./client.help.ts')).clientHelp,
    load: async () => (await import('./client.ts')).clientCommand,
  },
  {
    name: 'solvers',
    summary: 'List the solvers and their parameters',
    help: async () => (await import('./solvers.help.ts')).solversHelp,
    load: async () => (await import('./solvers.ts')).solversCommand,
  },
];
