/**
 * NSGA-III (K. Deb, H. Jain, "An Evolutionary Many-Objective Optimization Algorithm Using
 * Reference-Point-Based Nondominated Sorting Approach, Part I", IEEE TEVC 18(4), 2014), for the
 * many-objective tracks (M = 5, 7). Survival: constrained non-dominated sorting (feasible first,
 * then normalised violation, then Pareto); the last front is filled by niching around
 * Das-Dennis reference directions after the adaptive normalisation of the paper (ideal point,
 * extreme points by the achievement scalarising function, hyperplane intercepts, falling back to
 * the worst objective values when the hyperplane is degenerate). Mating: binary tournament on
 * feasibility and violation, random between feasible parents (as in Part II, constrained case).
 */
import { ParamError, num } from '../../core/params.ts';
import type { Evaluated, SolverInfo } from '../types.ts';
import type { ParamValue, ParamValues } from '../../core/params.ts';
import { crossoverParam, dasDennis, dasDennisCount, GenerationalSolver, generationOffspring, mutationParam, rankAndCrowd } from './operators.ts';

/** Default Das-Dennis divisions per M: 100, 91, 120, 210, 126, 210 directions for M = 2..7. */
export function defaultDivisions(m: number): number {
  return ({ 2: 99, 3: 12, 4: 7, 5: 6, 6: 4, 7: 4 } as Record<number, number>)[m] ?? 3;
}

/** Solves A x = b (n x n, row-major) by Gaussian elimination with partial pivoting; null if singular. */
function solve(a: number[][], b: number[]): number[] | null {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r][c]) > Math.abs(m[p][c])) p = r;
    if (Math.abs(m[p][c]) < 1e-12) return null;
    [m[c], m[p]] = [m[p], m[c]];
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = m[r][c] / m[c][c];
      for (let k = c; k <= n; k++) m[r][k] -= f * m[c][k];
    }
  }
  return m.map((row, i) => row[n] / row[i]);
}

/**
 * Deb & Jain's normalisation: the intercepts of the hyperplane through the M extreme points
 * (each minimising the achievement scalarising function max_k f_k / w_k with w = e_axis, 1e-6
 * elsewhere) of translated objective vectors (ideal subtracted). Falls back to the worst value
 * of an objective when the hyperplane is degenerate or an intercept is not in (1e-6, worst];
 * 1 when that worst value is not above 1e-6 either.
 */
export function hyperplaneIntercepts(translated: readonly (readonly number[])[]): number[] {
  const m = translated[0].length;
  const extremes: number[][] = [];
  for (let axis = 0; axis < m; axis++) {
    let best = translated[0];
    let bestAsf = Infinity;
    for (const f of translated) {
      let asf = -Infinity;
      for (let k = 0; k < m; k++) asf = Math.max(asf, f[k] / (k === axis ? 1 : 1e-6));
      if (asf < bestAsf) {
        bestAsf = asf;
        best = f;
      }
    }
    extremes.push([...best]);
  }
  const worst = Array.from({ length: m }, (_, k) => Math.max(...translated.map((f) => f[k])));
  const a = solve(extremes, new Array<number>(m).fill(1));
  const out = a ? a.map((v) => 1 / v) : null;
  return worst.map((w, k) => {
    const v = out ? out[k] : NaN;
    if (Number.isFinite(v) && v > 1e-6 && v <= w * (1 + 1e-9) + 1e-12) return v;
    return w > 1e-6 ? w : 1;
  });
}

class Nsga3 extends GenerationalSolver {
  private size = 0;
  private crossoverRate = 0.9;
  private mutationRate = 0;
  private directions: number[][] = [];
  private ideal: number[] = [];
  private divisions = 0;

  protected configure(params: ParamValues): void {
    const m = this.problem.objectiveCount;
    const divisions = num(params, 'divisions') || defaultDivisions(m);
    this.divisions = divisions;
    if (dasDennisCount(m, divisions) > 100000)
      throw new ParamError('nsga3', 'divisions', `gives ${dasDennisCount(m, divisions)} reference directions at M = ${m}; at most 100000`);
    this.directions = dasDennis(m, divisions).map((w) => {
      const norm = Math.hypot(...w);
      return w.map((v) => v / norm);
    });
    const given = num(params, 'populationSize');
    if (given !== 0 && given < 4) throw new ParamError('nsga3', 'populationSize', `must be 0 (automatic) or at least 4, got ${given}`);
    this.size = given || Math.ceil(this.directions.length / 4) * 4;
    this.crossoverRate = num(params, 'crossoverRate');
    this.mutationRate = num(params, 'mutationRate');
    this.ideal = new Array<number>(m).fill(Infinity);
  }

  protected populationSize(): number {
    return this.size;
  }

  /** The automatic values (0) as used: the divisions for M and the population they give. */
  effectiveParams(): Record<string, ParamValue> {
    return { divisions: this.divisions, populationSize: this.size };
  }

  private tournament(): Evaluated {
    const a = this.population[this.random.below(this.population.length)];
    const b = this.population[this.random.below(this.population.length)];
    if (a.feasible !== b.feasible) return a.feasible ? a : b;
    if (!a.feasible && a.violation !== b.violation) return a.violation < b.violation ? a : b;
    return this.random.chance(0.5) ? a : b;
  }

  protected offspring(): Uint8Array[] {
    return generationOffspring(this.size, () => this.tournament(), this.crossoverRate, this.mutationRate, this.problem, this.random);
  }

  protected survive(pool: Evaluated[]): Evaluated[] {
    const m = this.problem.objectiveCount;
    for (const e of pool) for (let k = 0; k < m; k++) if (e.F[k] < this.ideal[k]) this.ideal[k] = e.F[k];
    const { fronts } = rankAndCrowd(pool);
    const chosen: number[] = [];
    let last: number[] = [];
    for (const front of fronts) {
      if (chosen.length + front.length <= this.size) {
        chosen.push(...front);
        if (chosen.length === this.size) break;
        continue;
      }
      last = front;
      break;
    }
    if (last.length === 0) return chosen.map((i) => pool[i]);

    // Normalise S_t = chosen + last front.
    const members = [...chosen, ...last];
    const translated = members.map((i) => Array.from(pool[i].F, (v, k) => v - this.ideal[k]));
    const intercepts = hyperplaneIntercepts(translated);
    const normalised = translated.map((f) => f.map((v, k) => v / intercepts[k]));
    // Associate every member with its nearest reference line (perpendicular distance).
    const niche = new Array<number>(members.length);
    const distance = new Array<number>(members.length);
    normalised.forEach((f, j) => {
      let best = 0;
      let bestD = Infinity;
      this.directions.forEach((w, r) => {
        let dot = 0;
        for (let k = 0; k < m; k++) dot += f[k] * w[k];
        let d2 = 0;
        for (let k = 0; k < m; k++) d2 += (f[k] - dot * w[k]) ** 2;
        if (d2 < bestD) {
          bestD = d2;
          best = r;
        }
      });
      niche[j] = best;
      distance[j] = bestD;
    });
    const count = new Array<number>(this.directions.length).fill(0);
    for (let j = 0; j < chosen.length; j++) count[niche[j]]++;
    // Niching over the last front.
    const candidates = new Map<number, number[]>(); // direction -> positions j (in members) of the last front
    for (let j = chosen.length; j < members.length; j++) {
      const list = candidates.get(niche[j]);
      if (list) list.push(j);
      else candidates.set(niche[j], [j]);
    }
    let need = this.size - chosen.length;
    const result = chosen.map((i) => pool[i]);
    while (need > 0) {
      let least = Infinity;
      for (const r of candidates.keys()) least = Math.min(least, count[r]);
      const tied = [...candidates.keys()].filter((r) => count[r] === least).sort((a, b) => a - b);
      const r = tied[this.random.below(tied.length)];
      const list = candidates.get(r)!;
      let pick: number;
      if (count[r] === 0) {
        pick = 0;
        for (let t = 1; t < list.length; t++) if (distance[list[t]] < distance[list[pick]]) pick = t;
      } else pick = this.random.below(list.length);
      result.push(pool[members[list[pick]]]);
      list.splice(pick, 1);
      if (list.length === 0) candidates.delete(r);
      count[r]++;
      need--;
    }
    return result;
  }
}

export const nsga3: SolverInfo = {
  name: 'nsga3',
  title: 'NSGA-III',
  summary: 'Deb & Jain 2014: reference-direction niching (Das-Dennis) for many objectives (M = 5, 7).',
  objectives: 'multi',
  baseline: false,
  params: [
    {
      name: 'divisions',
      type: 'integer',
      default: 0,
      defaultText: '0 (automatic: 99, 12, 7, 6, 4, 4 for M = 2..7, else 3)',
      min: 0,
      max: 1000,
      description: 'Das-Dennis divisions H; C(H + M - 1, M - 1) reference directions.',
    },
    {
      name: 'populationSize',
      type: 'integer',
      default: 0,
      defaultText: '0 (automatic: the number of reference directions rounded up to a multiple of 4)',
      min: 0,
      max: 100000,
      description: 'Individuals per generation (parents and offspring each).',
    },
    crossoverParam,
    mutationParam,
  ],
  create: () => new Nsga3(),
};
