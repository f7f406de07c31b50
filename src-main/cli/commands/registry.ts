import type { Command } from '../command.ts';
import { benchCommand } from './bench.ts';
import { compareCommand } from './compare.ts';
import { evalCommand } from './eval.ts';
import { experimentCommand } from './experiment.ts';
import { mergeCommand } from './merge.ts';
import { minimaxCommand } from './minimax.ts';
import { nqueensCommand } from './nqueens.ts';
import { projectCommand } from './project.ts';
import { reportCommand } from './report.ts';
import { rngbiasCommand } from './rngbias.ts';
import { serveCommand } from './serve.ts';
import { solveCommand } from './solve.ts';
import { solversCommand } from './solvers.ts';

// One line per subcommand; each lives in its own file beside this one.
export const commands: Command[] = [
  rngbiasCommand,
  evalCommand,
  benchCommand,
  minimaxCommand,
  nqueensCommand,
  projectCommand,
  experimentCommand,
  compareCommand,
  reportCommand,
  mergeCommand,
  serveCommand,
  solveCommand,
  solversCommand,
];
