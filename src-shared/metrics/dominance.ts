// Pareto dominance, constrained domination, non-dominated sorting and crowding distance.
// Every objective is MINIMISED.
//
// Sources:
//   K. Deb, A. Pratap, S. Agarwal, T. Meyarivan, "A fast and elitist multiobjective genetic
//   algorithm: NSGA-II", IEEE TEVC 6(2), 2002 — fast non-dominated sort, crowding distance,
//   constrained domination (Section VI).
//   M. T. Jensen, "Reducing the run-time complexity of multiobjective EAs: the NSGA-II and other
//   algorithms", IEEE TEVC 7(5), 2003 — O(N log N) sort for two objectives.

export type Objectives = readonly number[];

/** -1: a dominates b; 1: b dominates a; 0: neither (incomparable or equal). */
export type DominanceRelation = -1 | 0 | 1;

/** Pareto comparison of two objective vectors of the same length (minimisation). */
export function compareDominance(a: Objectives, b: Objectives): DominanceRelation {
  let aBetter = false;
  let bBetter = false;
  for (let k = 0; k < a.length; k++) {
    const x = a[k];
    const y = b[k];
    if (x < y) {
      if (bBetter) return 0;
      aBetter = true;
    } else if (y < x) {
      if (aBetter) return 0;
      bBetter = true;
    }
  }
  if (aBetter) return -1;
  if (bBetter) return 1;
  return 0;
}

/** True if a Pareto-dominates b: a is no worse in every objective and better in at least one. */
export function dominates(a: Objectives, b: Objectives): boolean {
  let strictly = false;
  for (let k = 0; k < a.length; k++) {
    if (a[k] > b[k]) return false;
    if (a[k] < b[k]) strictly = true;
  }
  return strictly;
}

/** True if a weakly dominates b (a is no worse in every objective; equal vectors count). */
export function weaklyDominates(a: Objectives, b: Objectives): boolean {
  for (let k = 0; k < a.length; k++) if (a[k] > b[k]) return false;
  return true;
}

/** True if the two vectors are equal component-wise. */
export function objectivesEqual(a: Objectives, b: Objectives): boolean {
  if (a.length !== b.length) return false;
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return false;
  return true;
}

/**
 * Deb's constrained domination. `violation` is the total constraint violation (>= 0; a value
 * <= 0 means feasible). A feasible solution beats an infeasible one; of two infeasible ones the
 * smaller total violation wins; two feasible ones are compared by Pareto dominance.
 * Returns -1 if a constrained-dominates b, 1 if b constrained-dominates a, 0 otherwise.
 */
export function compareConstrained(a: Objectives, violationA: number, b: Objectives, violationB: number): DominanceRelation {
  const feasA = violationA <= 0;
  const feasB = violationB <= 0;
  if (feasA && feasB) return compareDominance(a, b);
  if (feasA) return -1;
  if (feasB) return 1;
  if (violationA < violationB) return -1;
  if (violationB < violationA) return 1;
  return 0;
}

/** True if (a, violationA) constrained-dominates (b, violationB) in Deb's sense. */
export function constrainedDominates(a: Objectives, violationA: number, b: Objectives, violationB: number): boolean {
  return compareConstrained(a, violationA, b, violationB) === -1;
}

/**
 * Non-dominated sorting. Returns the fronts as arrays of indices into `points`; front 0 is the
 * non-dominated set, front 1 is non-dominated once front 0 is removed, and so on. Equal vectors
 * share a front. Indices inside a front are in ascending order.
 * Two objectives use Jensen's O(N log N) sweep; otherwise Deb's O(M N^2) fast non-dominated sort.
 */
export function nonDominatedSort(points: readonly Objectives[]): number[][] {
  const n = points.length;
  if (n === 0) return [];
  const m = points[0].length;
  const fronts = m === 2 ? sortTwoObjectives(points) : sortDeb(points);
  for (const f of fronts) f.sort((a, b) => a - b);
  return fronts;
}

/** Rank (front number, 0-based) of every point. */
export function nonDominatedRanks(points: readonly Objectives[]): number[] {
  const ranks = new Array<number>(points.length).fill(0);
  nonDominatedSort(points).forEach((front, r) => {
    for (const i of front) ranks[i] = r;
  });
  return ranks;
}

/** Indices of the non-dominated points (front 0), ascending. */
export function nonDominatedIndices(points: readonly Objectives[]): number[] {
  if (points.length === 0) return [];
  return nonDominatedSort(points)[0];
}

function sortDeb(points: readonly Objectives[]): number[][] {
  const n = points.length;
  const dominatedBy = new Array<number>(n).fill(0); // number of points dominating i
  const dominatesList: number[][] = Array.from({ length: n }, () => []);
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const c = compareDominance(points[i], points[j]);
      if (c === -1) {
        dominatesList[i].push(j);
        dominatedBy[j]++;
      } else if (c === 1) {
        dominatesList[j].push(i);
        dominatedBy[i]++;
      }
    }
  }
  const fronts: number[][] = [];
  let current: number[] = [];
  for (let i = 0; i < n; i++) if (dominatedBy[i] === 0) current.push(i);
  while (current.length > 0) {
    fronts.push(current);
    const next: number[] = [];
    for (const i of current) {
      for (const j of dominatesList[i]) {
        if (--dominatedBy[j] === 0) next.push(j);
      }
    }
    current = next;
  }
  return fronts;
}

function sortTwoObjectives(points: readonly Objectives[]): number[][] {
  const order = points.map((_, i) => i);
  order.sort((a, b) => points[a][0] - points[b][0] || points[a][1] - points[b][1]);
  const fronts: number[][] = [];
  // lastOf[f]: last point appended to front f. Points arrive in lexicographic order, so within a
  // front f1 is non-decreasing and f2 non-increasing; the last point has the smallest f2 and a
  // later point p is dominated by front f iff it is dominated by (or strictly worse than) its last.
  const lastOf: number[] = [];
  const frontDominates = (f: number, p: Objectives): boolean => {
    const q = points[lastOf[f]];
    return q[1] < p[1] || (q[1] === p[1] && q[0] < p[0]);
  };
  for (const i of order) {
    const p = points[i];
    // "front f dominates p" is monotone in f (transitivity), so binary-search the first front
    // that does not dominate p.
    let lo = 0;
    let hi = fronts.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (frontDominates(mid, p)) lo = mid + 1;
      else hi = mid;
    }
    if (lo === fronts.length) {
      fronts.push([i]);
      lastOf.push(i);
    } else {
      fronts[lo].push(i);
      lastOf[lo] = i;
    }
  }
  return fronts;
}

/**
 * Constrained non-dominated sorting (Deb 2002): feasible points (violation <= 0) are sorted by
 * Pareto dominance first; then infeasible points follow, one front per distinct violation value
 * in increasing order (equal violations share a front). Consistent with compareConstrained.
 */
export function constrainedNonDominatedSort(points: readonly Objectives[], violations: readonly number[]): number[][] {
  if (points.length !== violations.length) throw new Error('points and violations differ in length');
  const feasible: number[] = [];
  const infeasible: number[] = [];
  violations.forEach((v, i) => (v <= 0 ? feasible : infeasible).push(i));
  const fronts = nonDominatedSort(feasible.map((i) => points[i])).map((f) => f.map((j) => feasible[j]));
  infeasible.sort((a, b) => violations[a] - violations[b] || a - b);
  for (let s = 0; s < infeasible.length; ) {
    let e = s + 1;
    while (e < infeasible.length && violations[infeasible[e]] === violations[infeasible[s]]) e++;
    fronts.push(infeasible.slice(s, e).sort((a, b) => a - b));
    s = e;
  }
  return fronts;
}

/**
 * NSGA-II crowding distance of each point of ONE front (the array passed in). Boundary points of
 * every objective get Infinity; interior points get the sum over objectives of the gap between
 * their neighbours divided by the objective's range in the front. Objectives with zero range add
 * nothing. Ties in an objective are broken by index, so the result is deterministic.
 */
export function crowdingDistance(front: readonly Objectives[]): number[] {
  const n = front.length;
  const dist = new Array<number>(n).fill(0);
  if (n === 0) return dist;
  if (n <= 2) return dist.fill(Infinity);
  const m = front[0].length;
  const order = front.map((_, i) => i);
  for (let k = 0; k < m; k++) {
    order.sort((a, b) => front[a][k] - front[b][k] || a - b);
    const lo = front[order[0]][k];
    const hi = front[order[n - 1]][k];
    dist[order[0]] = Infinity;
    dist[order[n - 1]] = Infinity;
    const range = hi - lo;
    if (!(range > 0)) continue;
    for (let r = 1; r < n - 1; r++) {
      const i = order[r];
      if (dist[i] !== Infinity) dist[i] += (front[order[r + 1]][k] - front[order[r - 1]][k]) / range;
    }
  }
  return dist;
}
