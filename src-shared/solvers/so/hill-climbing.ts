/**
 * Hill climbing on the incremental evaluator, feasibility first.
 *   - first-improvement ("hill-climbing"): sample random moves, take the first that is not
 *     worse (strictly better, or equal with `sideways`); restart from a random sequence after
 *     `patience` evaluations without a strict improvement.
 *   - steepest ("steepest"): scan every single-position change (5N) and `swapSample` random
 *     swaps, take the best if strictly better; at a local optimum restart from a random sequence.
 * The first ask evaluates the random start (one evaluation), every peek is one evaluation, and
 * every restart is one evaluation.
 */
import { compareScalar } from '../constraints.ts';
import { bool, num, str } from '../../core/params.ts';
import type { SolverInfo } from '../types.ts';
import type { ParamValues } from '../../core/params.ts';
import type { Problem } from '../../core/problem.ts';
import { LocalSearch, LocalSearchSolver, neighbourhoodParam, randomSequence, swapShareParam, type Move, type Neighbourhood } from './local.ts';

class FirstImprovement extends LocalSearchSolver {
  private sideways = true;
  private patience = 0;
  private sinceImprovement = 0;

  protected configure(params: ParamValues): void {
    this.neighbourhood = str(params, 'neighbourhood') as Neighbourhood;
    this.swapShare = num(params, 'swapShare');
    this.sideways = bool(params, 'sideways');
    this.patience = num(params, 'patience');
  }

  protected step(ls: LocalSearch): boolean {
    if (this.sinceImprovement >= this.patience) {
      ls.reset(randomSequence(this.problem, this.random));
      this.sinceImprovement = 0;
      return true;
    }
    ls.randomMove(this.random, this.neighbourhood, this.swapShare, this.move);
    ls.peek(this.move);
    const c = ls.comparePeek();
    if (c < 0 || (c === 0 && this.sideways)) ls.apply(this.move);
    this.sinceImprovement = c < 0 ? 0 : this.sinceImprovement + 1;
    return true;
  }
}

class Steepest extends LocalSearchSolver {
  /** A scan: the single-position changes (5N, or none), then the sampled swaps. */
  private changes = 0;
  private scanLength = 0;
  private restart = true;
  private needRestart = false;
  /** Position in the current scan: changes 0..5N-1, then swaps. */
  private scan = 0;
  private bestMove: Move | null = null;
  private bestF = 0;
  private bestV = 0;

  protected configure(params: ParamValues, problem: Problem): void {
    const neighbourhood = str(params, 'neighbourhood') as Neighbourhood;
    this.changes = neighbourhood !== 'swap' ? 5 * problem.n : 0;
    this.scanLength = this.changes + (neighbourhood === 'change' || problem.n < 2 ? 0 : num(params, 'swapSample'));
    this.restart = bool(params, 'restart');
  }

  done(): boolean {
    return this.finished;
  }

  protected step(ls: LocalSearch): boolean {
    if (this.needRestart) {
      ls.reset(randomSequence(this.problem, this.random));
      this.needRestart = false;
      return true;
    }
    const m = this.move;
    if (this.scan < this.changes) {
      m.p = Math.floor(this.scan / 5);
      m.q = -1;
      const k = (this.scan % 5) + 1;
      m.face = k >= ls.state.face(m.p) ? k + 1 : k;
    } else {
      ls.randomMove(this.random, 'swap', 1, m);
    }
    this.scan++;
    ls.peek(m);
    if (this.bestMove === null || compareScalar(ls.peekF, ls.peekV, this.bestF, this.bestV) < 0) {
      this.bestMove = { ...m };
      this.bestF = ls.peekF;
      this.bestV = ls.peekV;
    }
    if (this.scan < this.scanLength) return false;
    // End of a scan: take the best move, or restart (next step) at a local optimum.
    if (compareScalar(this.bestF, this.bestV, ls.f, ls.v) < 0) ls.apply(this.bestMove);
    else if (this.restart) this.needRestart = true;
    else this.finished = true;
    this.scan = 0;
    this.bestMove = null;
    return true;
  }
}

export const firstImprovement: SolverInfo = {
  name: 'hill-climbing',
  title: 'First-improvement hill climbing',
  summary: 'Random moves on the incremental evaluator; keeps the first move that is not worse, restarts when stuck.',
  objectives: 'single',
  baseline: false,
  requires: ['incremental'],
  params: [
    neighbourhoodParam,
    swapShareParam,
    { name: 'sideways', type: 'boolean', default: true, description: 'Also accept moves of equal quality (walks across plateaus).' },
    {
      name: 'patience',
      type: 'integer',
      default: (p: Problem) => 50 * p.n,
      defaultText: '50N',
      min: 1,
      description: 'Evaluations without a strict improvement before restarting from a random sequence.',
    },
  ],
  create: () => new FirstImprovement(),
};

export const steepest: SolverInfo = {
  name: 'steepest',
  title: 'Steepest-descent hill climbing',
  summary: 'Scans all 5N single-roll changes plus sampled swaps and takes the best; restarts at local optima.',
  objectives: 'single',
  baseline: false,
  requires: ['incremental'],
  params: [
    neighbourhoodParam,
    {
      name: 'swapSample',
      type: 'integer',
      default: (p: Problem) => p.n,
      defaultText: 'N',
      min: 1,
      description: 'Random swaps examined per scan when the neighbourhood includes swaps.',
    },
    { name: 'restart', type: 'boolean', default: true, description: 'Restart from a random sequence at a local optimum (otherwise the run stops there).' },
  ],
  create: () => new Steepest(),
};
