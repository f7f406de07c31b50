// Quality indicators besides the hypervolume (every objective MINIMISED).
//
// Sources:
//   IGD+: H. Ishibuchi, H. Masuda, Y. Tanigaki, Y. Nojima, "Modified Distance Calculation in
//     Generational Distance and Inverted Generational Distance", EMO 2015, LNCS 9019, 110–125.
//   Additive epsilon: E. Zitzler, L. Thiele, M. Laumanns, C. M. Fonseca, V. Grunert da Fonseca,
//     "Performance Assessment of Multiobjective Optimizers: An Analysis and Review", IEEE TEVC
//     7(2), 2003.
//   Spacing: J. R. Schott, "Fault Tolerant Design Using Single and Multicriteria Genetic
//     Algorithm Optimization", MSc thesis, MIT, 1995 (as restated in K. Deb, "Multi-Objective
//     Optimization Using Evolutionary Algorithms", Wiley 2001, Sec. 8.2).

import type { Objectives } from './dominance.ts';

function checkSet(name: string, set: readonly Objectives[], m?: number): number {
  if (set.length === 0) throw new Error(`${name} is empty`);
  const dims = m ?? set[0].length;
  set.forEach((p, i) => {
    if (p.length !== dims) throw new Error(`${name}[${i}] has ${p.length} objectives, expected ${dims}`);
    for (let k = 0; k < dims; k++) if (!Number.isFinite(p[k])) throw new Error(`${name}[${i}] objective ${k} is not a finite number (${p[k]})`);
  });
  return dims;
}

/**
 * IGD+ of the approximation `front` against the reference set `reference` (lower is better):
 * the mean over reference points z of min over a in front of sqrt(sum_k max(a_k − z_k, 0)^2).
 * Only the amount by which a is worse than z counts, which makes IGD+ weakly Pareto compliant.
 */
export function igdPlus(front: readonly Objectives[], reference: readonly Objectives[]): number {
  const m = checkSet('reference set', reference);
  checkSet('front', front, m);
  let total = 0;
  for (const z of reference) {
    let best = Infinity;
    for (const a of front) {
      let s = 0;
      for (let k = 0; k < m; k++) {
        const d = a[k] - z[k];
        if (d > 0) s += d * d;
      }
      if (s < best) best = s;
    }
    total += Math.sqrt(best);
  }
  return total / reference.length;
}

/** Plain IGD (Euclidean distance), for comparison with IGD+ and the literature. */
export function igd(front: readonly Objectives[], reference: readonly Objectives[]): number {
  const m = checkSet('reference set', reference);
  checkSet('front', front, m);
  let total = 0;
  for (const z of reference) {
    let best = Infinity;
    for (const a of front) {
      let s = 0;
      for (let k = 0; k < m; k++) s += (a[k] - z[k]) ** 2;
      if (s < best) best = s;
    }
    total += Math.sqrt(best);
  }
  return total / reference.length;
}

/**
 * Additive epsilon indicator I_eps+(front, reference): the smallest eps such that every
 * reference point is weakly dominated by some front point moved by −eps in every objective,
 * i.e. max over z of min over a of max_k (a_k − z_k). Lower is better; <= 0 means the front
 * weakly dominates the whole reference set.
 */
export function additiveEpsilon(front: readonly Objectives[], reference: readonly Objectives[]): number {
  const m = checkSet('reference set', reference);
  checkSet('front', front, m);
  let worst = -Infinity;
  for (const z of reference) {
    let best = Infinity;
    for (const a of front) {
      let gap = -Infinity;
      for (let k = 0; k < m; k++) {
        const d = a[k] - z[k];
        if (d > gap) gap = d;
      }
      if (gap < best) best = gap;
    }
    if (best > worst) worst = best;
  }
  return worst;
}

/**
 * Schott's spacing: with d_i the Manhattan distance from point i to its nearest other point and
 * d̄ their mean, S = sqrt(sum_i (d_i − d̄)^2 / (n − 1)). 0 means evenly spaced. Fewer than two
 * points give 0.
 */
export function spacing(front: readonly Objectives[]): number {
  const n = front.length;
  if (n < 2) return 0;
  const m = checkSet('front', front);
  const nearest = new Float64Array(n).fill(Infinity);
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      let d = 0;
      for (let k = 0; k < m; k++) d += Math.abs(front[i][k] - front[j][k]);
      if (d < nearest[i]) nearest[i] = d;
      if (d < nearest[j]) nearest[j] = d;
    }
  }
  let mean = 0;
  for (let i = 0; i < n; i++) mean += nearest[i];
  mean /= n;
  let s = 0;
  for (let i = 0; i < n; i++) s += (nearest[i] - mean) ** 2;
  return Math.sqrt(s / (n - 1));
}

/** Something with a total (normalised) constraint violation: 0 (or less) means feasible. */
export interface HasViolation {
  readonly violation: number;
}

/** Fraction of the solutions that are feasible (violation <= 0). An empty list is an error. */
export function feasibilityRate(solutions: readonly HasViolation[]): number {
  if (solutions.length === 0) throw new Error('feasibility rate of an empty list of solutions');
  let feasible = 0;
  solutions.forEach((s, i) => {
    if (Number.isNaN(s.violation)) throw new Error(`solution ${i} has no violation value (NaN)`);
    if (s.violation <= 0) feasible++;
  });
  return feasible / solutions.length;
}

/**
 * The best single-objective value: the smallest objectives[0] among the feasible solutions,
 * or null when none is feasible.
 */
export function bestSingleObjective(solutions: readonly (HasViolation & { readonly objectives: readonly number[] })[]): number | null {
  let best: number | null = null;
  solutions.forEach((s, i) => {
    if (s.objectives.length < 1) throw new Error(`solution ${i} has no objective value`);
    if (s.violation <= 0 && (best === null || s.objectives[0] < best)) best = s.objectives[0];
  });
  return best;
}
