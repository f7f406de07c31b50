import { evalBench } from './eval.ts';
import { externalBench } from './external.ts';
import { hvBench } from './hv.ts';
import { minimaxBench } from './minimax.ts';
import { nqueensBench } from './nqueens.ts';
import { paretoBench } from './pareto.ts';
import { solversBench } from './solvers.ts';
import { startupBench } from './startup.ts';
import type { BenchSuite } from './suite.ts';

// One line per suite; each lives in its own file beside this one.
export const suites: BenchSuite[] = [
  evalBench,
  externalBench,
  hvBench,
  minimaxBench,
  nqueensBench,
  paretoBench,
  solversBench,
  startupBench,
];
