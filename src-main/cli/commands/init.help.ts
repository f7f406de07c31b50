import type { CommandHelp } from '../command.ts';

/** `saikoro init --help`, and the options it parses (see CommandHelp). */
export const initHelp = {
  usage: `Usage: saikoro init DIR

Makes a first study in DIR (made if missing), ready to run:

  study.saikoro      a project holding the experiment "first": random, NSGA-II, barrier-mo and
                     a Python solver on the dice problem with two and three objectives at
                     N = 200, 10 seeds, 3,000 evaluations a run (80 runs, about a minute)
  study.json         its spec (saikoro help spec)
  solver/            the Python solver, solver.py: hill climbers on saikoro_client.py (beside
                     it), with comments, to change and add as a new experiment (saikoro help
                     clients); the program's folder, which its sandbox copies
  README.md          the next commands: run, compare, explore in the app, report

Without python3 on the PATH the study has the three built-in solvers only. init never
overwrites anything: when DIR already holds any of these files it stops and writes nothing.`,
  options: {},
  positionals: true,
} satisfies CommandHelp;
