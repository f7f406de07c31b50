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
import { Random } from '../../random.ts';
import { compareScalar } from '../constraints.ts';
import { bool, num, str } from '../../core/params.ts';
import type { Ask, Solver, SolverInfo } from '../types.ts';
import type { ParamValues } from '../../core/params.ts';
import type { Problem } from '../../core/problem.ts';
import { BestTracker, LocalSearch, neighbourhoodParam, randomSequence, swapShareParam, type Move, type Neighbourhood } from './local.ts';

class FirstImprovement implements Solver {
  private problem!: Problem;
  private random!: Random;
  private ls: LocalSearch | null = null;
  private neighbourhood!: Neighbourhood;
  private swapShare = 0;
  private sideways = true;
  private patience = 0;
  private sinceImprovement = 0;
  private readonly best = new BestTracker();
  private readonly move: Move = { p: 0, q: -1, face: 1 };

  setup(problem: Problem, params: ParamValues, seed: number): void {
    this.problem = problem;
    this.random = Random.fromSeed(seed);
    this.neighbourhood = str(params, 'neighbourhood') as Neighbourhood;
    this.swapShare = num(params, 'swapShare');
    this.sideways = bool(params, 'sideways');
    this.patience = num(params, 'patience');
  }

  ask(limit: number): Ask {
    let used = 0;
    while (used < limit) {
      if (!this.ls || this.sinceImprovement >= this.patience) {
        const x = randomSequence(this.problem, this.random);
        if (this.ls) this.ls.reset(x);
        else this.ls = new LocalSearch(this.problem, x);
        this.sinceImprovement = 0;
        used++;
      } else {
        const ls = this.ls;
        ls.randomMove(this.random, this.neighbourhood, this.swapShare, this.move);
        ls.peek(this.move);
        used++;
        const c = ls.comparePeek();
        if (c < 0 || (c === 0 && this.sideways)) ls.apply(this.move);
        this.sinceImprovement = c < 0 ? 0 : this.sinceImprovement + 1;
      }
      if (this.best.better(this.ls.f, this.ls.v)) this.best.record(this.ls, used);
    }
    return { candidates: [], internal: { evaluations: used, reported: this.best.take() } };
  }

  tell(): void {}
}

class Steepest implements Solver {
  private problem!: Problem;
  private random!: Random;
  private ls: LocalSearch | null = null;
  private useChanges = true;
  private swaps = 0;
  private restart = true;
  private finished = false;
  private needRestart = false;
  /** Position in the current scan: changes 0..5N-1, then swaps. */
  private scan = 0;
  private bestMove: Move | null = null;
  private bestF = 0;
  private bestV = 0;
  private readonly best = new BestTracker();
  private readonly move: Move = { p: 0, q: -1, face: 1 };

  setup(problem: Problem, params: ParamValues, seed: number): void {
    this.problem = problem;
    this.random = Random.fromSeed(seed);
    const neighbourhood = str(params, 'neighbourhood') as Neighbourhood;
    this.useChanges = neighbourhood !== 'swap';
    this.swaps = neighbourhood === 'change' || problem.n < 2 ? 0 : num(params, 'swapSample');
    this.restart = bool(params, 'restart');
  }

  done(): boolean {
    return this.finished;
  }

  private scanLength(): number {
    return (this.useChanges ? 5 * this.problem.n : 0) + this.swaps;
  }

  ask(limit: number): Ask {
    let used = 0;
    const changes = this.useChanges ? 5 * this.problem.n : 0;
    while (used < limit && !this.finished) {
      if (!this.ls) {
        this.ls = new LocalSearch(this.problem, randomSequence(this.problem, this.random));
        used++;
      } else if (this.needRestart) {
        this.ls.reset(randomSequence(this.problem, this.random));
        this.needRestart = false;
        used++;
      } else {
        const ls = this.ls;
        const m = this.move;
        if (this.scan < changes) {
          m.p = Math.floor(this.scan / 5);
          m.q = -1;
          const k = (this.scan % 5) + 1;
          m.face = k >= ls.state.face(m.p) ? k + 1 : k;
        } else {
          ls.randomMove(this.random, 'swap', 1, m);
        }
        this.scan++;
        ls.peek(m);
        used++;
        if (this.bestMove === null || compareScalar(ls.peekF, ls.peekV, this.bestF, this.bestV) < 0) {
          this.bestMove = { ...m };
          this.bestF = ls.peekF;
          this.bestV = ls.peekV;
        }
        if (this.scan < this.scanLength()) continue;
        // End of a scan: take the best move, or restart (next iteration) at a local optimum.
        if (compareScalar(this.bestF, this.bestV, ls.f, ls.v) < 0) ls.apply(this.bestMove);
        else if (this.restart) this.needRestart = true;
        else this.finished = true;
        this.scan = 0;
        this.bestMove = null;
      }
      if (this.best.better(this.ls.f, this.ls.v)) this.best.record(this.ls, used);
    }
    return { candidates: [], internal: { evaluations: used, reported: this.best.take() } };
  }

  tell(): void {}
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
