/** Random search: independent uniform sequences. A baseline for any number of objectives. */
import { Random } from '../../random.ts';
import { num } from '../../core/params.ts';
import type { Ask, Solver, SolverInfo } from '../types.ts';
import type { ParamValues } from '../../core/params.ts';
import type { Problem } from '../../core/problem.ts';

class RandomSearch implements Solver {
  private problem!: Problem;
  private random!: Random;
  private batch = 100;

  setup(problem: Problem, params: ParamValues, seed: number): void {
    this.problem = problem;
    this.random = Random.fromSeed(seed);
    this.batch = num(params, 'batch');
  }

  ask(limit: number): Ask {
    const { n, lower, upper } = this.problem;
    const count = Math.min(limit, this.batch);
    const candidates: Uint8Array[] = [];
    for (let c = 0; c < count; c++) {
      const x = new Uint8Array(n);
      for (let i = 0; i < n; i++) x[i] = this.random.int(lower, upper);
      candidates.push(x);
    }
    return { candidates };
  }

  tell(): void {}
}

export const randomSearch: SolverInfo = {
  name: 'random',
  title: 'Random search',
  summary: 'Uniformly random sequences; the floor every solver must beat.',
  objectives: 'any',
  baseline: true,
  params: [
    {
      name: 'batch',
      type: 'integer',
      default: 100,
      min: 1,
      max: 100000,
      description: 'Sequences generated per step (does not change the result, only the step size).',
    },
  ],
  create: () => new RandomSearch(),
};
