/**
 * Simulated annealing on the incremental evaluator. Energy E = f + penalty * violation
 * (violation normalised as in constraints.ts); a worse move is accepted with probability
 * exp(-dE / T). The temperature falls geometrically from T0 to T0 * temperatureRatio over
 * one cycle of `cycle` evaluations (default: the run's budget), then the schedule restarts
 * from the best solution found (a reheat). With initialTemperature = 0, T0 is set from the
 * first 100 sampled moves so that the median worsening is accepted with probability 1/2 (the
 * median, because a few moves into infeasibility have huge energy deltas; the mean made T0
 * far too hot: 257 against 235 at N = 840 after 200,000 evaluations).
 */
import { quantileOfSorted } from '../../stats/summary.ts';
import { num, str } from '../../core/params.ts';
import type { SetupContext, SolverInfo } from '../types.ts';
import type { ParamValues } from '../../core/params.ts';
import type { Problem } from '../../core/problem.ts';
import { LocalSearch, LocalSearchSolver, neighbourhoodParam, swapShareParam, type Neighbourhood } from './local.ts';

const CALIBRATION_MOVES = 100;

class Annealing extends LocalSearchSolver {
  private penalty = 0;
  private t0 = 0;
  private ratio = 0;
  private cycle = 0;
  /** Evaluations into the current cycle. */
  private clock = 0;
  private readonly calibration: number[] = [];
  private calibrated = false;
  private bestX: Uint8Array | null = null;

  protected configure(params: ParamValues, _problem: Problem, context?: SetupContext): void {
    this.neighbourhood = str(params, 'neighbourhood') as Neighbourhood;
    this.swapShare = num(params, 'swapShare');
    this.penalty = num(params, 'penalty');
    this.t0 = num(params, 'initialTemperature');
    this.calibrated = this.t0 > 0;
    this.ratio = num(params, 'temperatureRatio');
    const cycle = num(params, 'cycle');
    this.cycle = cycle > 0 ? cycle : (context?.maxEvaluations ?? 100000);
  }

  protected override start(): LocalSearch {
    this.clock++;
    return super.start();
  }

  protected step(ls: LocalSearch): boolean {
    if (this.clock >= this.cycle && this.bestX) {
      ls.reset(this.bestX); // reheat from the best
      this.clock = 0;
      return true;
    }
    ls.randomMove(this.random, this.neighbourhood, this.swapShare, this.move);
    ls.peek(this.move);
    this.clock++;
    const delta = ls.peekF + this.penalty * ls.peekV - (ls.f + this.penalty * ls.v);
    let accept: boolean;
    if (delta <= 0) accept = true;
    else if (!this.calibrated) {
      this.calibration.push(delta);
      accept = false;
    } else {
      const t = this.t0 * Math.pow(this.ratio, Math.min(1, this.clock / this.cycle));
      accept = this.random.float() < Math.exp(-delta / t);
    }
    if (!this.calibrated && this.clock >= CALIBRATION_MOVES) {
      // The median worsening; of an even count, the upper middle value ('higher').
      const sorted = this.calibration.sort((a, b) => a - b);
      this.t0 = sorted.length > 0 ? quantileOfSorted(sorted, 0.5, 'higher') / Math.LN2 : 1;
      this.calibrated = true;
    }
    if (!accept) return false;
    ls.apply(this.move);
    return true;
  }

  protected override improved(ls: LocalSearch): void {
    this.bestX = ls.state.sequence();
  }
}

export const annealing: SolverInfo = {
  name: 'annealing',
  title: 'Simulated annealing',
  summary: 'Random moves accepted by the Metropolis rule on f + penalty * violation, geometric cooling, reheats from the best.',
  objectives: 'single',
  baseline: false,
  requires: ['incremental'],
  params: [
    neighbourhoodParam,
    swapShareParam,
    { name: 'penalty', type: 'number', default: 100, min: 0, description: 'Weight of the total normalised violation in the energy.' },
    {
      name: 'initialTemperature',
      type: 'number',
      default: 0,
      min: 0,
      description: 'T0; 0 calibrates it from the first 100 moves (the median worsening accepted with probability 1/2).',
    },
    {
      name: 'temperatureRatio',
      type: 'number',
      default: 0.001,
      min: 0,
      exclusiveMin: true,
      max: 1,
      description: 'Final temperature of a cycle as a fraction of T0.',
    },
    {
      name: 'cycle',
      type: 'integer',
      default: 0,
      min: 0,
      description: "Evaluations per cooling cycle; 0 uses the run's evaluation budget (100000 without one).",
    },
  ],
  create: () => new Annealing(),
};
