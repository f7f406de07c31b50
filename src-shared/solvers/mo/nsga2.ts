/**
 * NSGA-II (Deb, Pratap, Agarwal, Meyarivan, IEEE TEVC 6(2), 2002), kept as the MO baseline:
 * binary tournament on (constrained rank, crowding distance), two-point crossover, uniform
 * integer mutation, and elitist survival of parents + offspring by constrained non-dominated
 * sorting with crowding distance. Constraint handling is Deb's constrained domination on the
 * total normalised violation (feasible first, then the smaller violation, then Pareto).
 */
import { num } from '../../core/params.ts';
import type { Evaluated, SolverInfo } from '../types.ts';
import type { ParamValues } from '../../core/params.ts';
import { crossoverParam, GenerationalSolver, generationOffspring, mutationParam, populationParam, rankAndCrowd, type Ranked } from './operators.ts';

class Nsga2 extends GenerationalSolver {
  private size = 100;
  private crossoverRate = 0.9;
  private mutationRate = 0;
  private ranked: Ranked = { rank: [], crowding: [] };

  protected configure(params: ParamValues): void {
    this.size = num(params, 'populationSize');
    this.crossoverRate = num(params, 'crossoverRate');
    this.mutationRate = num(params, 'mutationRate');
  }

  protected populationSize(): number {
    return this.size;
  }

  private tournament(): Evaluated {
    const { rank, crowding } = this.ranked;
    const a = this.random.below(this.population.length);
    const b = this.random.below(this.population.length);
    if (rank[a] !== rank[b]) return this.population[rank[a] < rank[b] ? a : b];
    return this.population[crowding[b] > crowding[a] ? b : a];
  }

  protected offspring(): Uint8Array[] {
    return generationOffspring(this.size, () => this.tournament(), this.crossoverRate, this.mutationRate, this.problem, this.random);
  }

  protected survive(pool: Evaluated[]): Evaluated[] {
    const { fronts, crowding } = rankAndCrowd(pool);
    const next: Evaluated[] = [];
    for (const front of fronts) {
      if (next.length + front.length <= this.size) {
        for (const i of front) next.push(pool[i]);
        if (next.length === this.size) break;
        continue;
      }
      // larger crowding first (Infinity included), then by index: deterministic
      const byCrowding = [...front].sort((i, j) => (crowding[i] === crowding[j] ? i - j : crowding[i] > crowding[j] ? -1 : 1));
      for (const i of byCrowding.slice(0, this.size - next.length)) next.push(pool[i]);
      break;
    }
    this.ranked = rankAndCrowd(next);
    return next;
  }
}

export const nsga2: SolverInfo = {
  name: 'nsga2',
  title: 'NSGA-II',
  summary: 'Deb et al. 2002 with constrained domination on normalised violations; the MO baseline.',
  objectives: 'multi',
  baseline: true,
  params: [populationParam(100), crossoverParam, mutationParam],
  create: () => new Nsga2(),
};
