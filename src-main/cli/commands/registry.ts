import type { Command } from '../command.ts';
import { benchCommand } from './bench.ts';
import { evalCommand } from './eval.ts';
import { minimaxCommand } from './minimax.ts';
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
  serveCommand,
  solveCommand,
  solversCommand,
];
