// The empirical attainment function (EAF) of a bi-objective minimiser (M = 2): attainment
// surfaces, the EAF at a point, and the difference of two solvers' EAFs as rectangles.
//
// Definitions. n runs give the outcome sets X_1..X_n (each a final front, possibly empty).
// A set X attains z when some x in X weakly dominates z (x_1 <= z_1 and x_2 <= z_2). The EAF is
//     alpha_n(z) = (1/n) * #{ i : X_i attains z },
// and the k-th attainment surface (k = 1..n) is the lower boundary of { z : alpha_n(z) >= k/n },
// given by the minimal points of that set (no other point of the set weakly dominates them).
//
// Sources:
//   V. Grunert da Fonseca, C. M. Fonseca, A. O. Hall, "Inferential Performance Assessment of
//     Stochastic Optimisers and the Attainment Function", EMO 2001, LNCS 1993, 213–225
//     (the attainment function and its empirical estimate).
//   M. López-Ibáñez, L. Paquete, T. Stützle, "Exploratory Analysis of Stochastic Local Search
//     Algorithms in Biobjective Optimization", in Experimental Methods for the Analysis of
//     Optimization Algorithms, Springer 2010, 209–222, doi:10.1007/978-3-642-02538-9_9 (best,
//     median and worst attainment surfaces; plots of the differences between two EAFs).
//   C. M. Fonseca, A. P. Guerreiro, M. López-Ibáñez, L. Paquete, "On the Computation of the
//     Empirical Attainment Function", EMO 2011, LNCS 6576, 106–120 (the dimension sweep for
//     two objectives). The median level ceil(n/2) is that of the EAF tools (`eaf --median`:
//     percentile 50 -> level ceil(50 n / 100)).
//
// Conventions: every objective is minimised; a run with no points attains nothing but counts in
// n; dominated and repeated points of a run are allowed and change nothing (the sweeps below keep
// each run's best f2 so far, which such a point never lowers: the same as filtering each run to
// its non-dominated set first). Coordinates must be finite; -0 is read as 0.

import type { Objectives } from './dominance.ts';

/** A point of the objective space: [f1, f2]. */
export type Point2 = [number, number];

/** The outcome sets of n runs of one solver: each run's final front, a list of [f1, f2]. */
export type RunFronts = ReadonlyArray<ReadonlyArray<Objectives>>;

export interface AttainmentSurface {
  /** k: the surface bounds the region attained by at least k of the n runs. */
  level: number;
  /** k / n. */
  fraction: number;
  /**
   * The minimal points of { z : at least k runs attain z }, f1 strictly ascending and f2
   * strictly descending (a staircase). Empty when fewer than k runs attained anything.
   */
  points: Point2[];
}

export interface AttainmentSummary {
  /** n, the number of runs (empty ones included). */
  runs: number;
  /** Level 1: the non-dominated points of the union of all runs. */
  best: AttainmentSurface;
  /** Level ceil(n/2) (`medianLevel`). */
  median: AttainmentSurface;
  /** Level n: the lower boundary of the region every run attains. */
  worst: AttainmentSurface;
}

/**
 * One region of `eafDifference`: the half-open rectangle [x0, x1) x [y0, y1) (x = f1, y = f2;
 * x1 and y1 may be Infinity), on which alpha_A - alpha_B equals `value` (non-zero, in [-1, 1]).
 */
export interface EafRectangle {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  value: number;
}

/** The level of the median attainment surface of n runs: ceil(n/2), as the EAF tools use. */
export function medianLevel(n: number): number {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`the number of runs must be a positive integer, got ${n}`);
  return Math.ceil(n / 2);
}

/** The points of all runs, flattened: coordinates in typed arrays and the run of each point. */
interface Flat {
  f1: Float64Array;
  f2: Float64Array;
  run: Int32Array;
}

function flatten(name: string, sets: RunFronts, runOffset = 0, into?: Flat, at = 0): Flat {
  let total = 0;
  for (const front of sets) total += front.length;
  const flat = into ?? { f1: new Float64Array(total), f2: new Float64Array(total), run: new Int32Array(total) };
  let p = at;
  for (let r = 0; r < sets.length; r++) {
    const front = sets[r];
    if (!Array.isArray(front)) throw new TypeError(`${name}[${r}] is not a list of points`);
    for (let i = 0; i < front.length; i++) {
      const point = front[i];
      if (point.length !== 2) throw new RangeError(`${name}[${r}][${i}] has ${point.length} objectives; attainment needs exactly 2`);
      const a = point[0];
      const b = point[1];
      if (!Number.isFinite(a) || !Number.isFinite(b)) throw new RangeError(`${name}[${r}][${i}] is not a pair of finite numbers ([${a}, ${b}])`);
      flat.f1[p] = a + 0; // -0 + 0 is +0
      flat.f2[p] = b + 0;
      flat.run[p] = runOffset + r;
      p++;
    }
  }
  return flat;
}

/** The sorted distinct values of `values`. */
function distinctSorted(values: Float64Array): Float64Array {
  const sorted = Float64Array.from(values).sort();
  let m = 0;
  for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[m - 1]) sorted[m++] = sorted[i];
  return sorted.slice(0, m);
}

/** The index of `value` in the sorted distinct array `axis` (it must be there). */
function rankOf(axis: Float64Array, value: number): number {
  let lo = 0;
  let hi = axis.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (axis[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Point indices ordered by f1 (ties in any order: the sweeps treat equal f1 as one event). */
function orderByF1(f1: Float64Array): Uint32Array {
  const order = new Uint32Array(f1.length);
  for (let i = 0; i < order.length; i++) order[i] = i;
  return order.sort((i, j) => f1[i] - f1[j]);
}

/**
 * alpha_n(point): the fraction of the runs that attain `point` (some point of the run is <= it in
 * both objectives). O(total points).
 */
export function eafAt(fronts: RunFronts, point: Objectives): number {
  const n = fronts.length;
  if (n === 0) throw new RangeError('eafAt needs at least one run');
  if (point.length !== 2 || Number.isNaN(point[0]) || Number.isNaN(point[1]))
    throw new RangeError(`eafAt needs a point [f1, f2] of two numbers, got [${point.join(', ')}]`);
  const flat = flatten('fronts', fronts);
  const z1 = point[0];
  const z2 = point[1];
  const attained = new Uint8Array(n);
  let count = 0;
  for (let p = 0; p < flat.f1.length; p++) {
    const r = flat.run[p];
    if (!attained[r] && flat.f1[p] <= z1 && flat.f2[p] <= z2) {
      attained[r] = 1;
      count++;
    }
  }
  return count / n;
}

/**
 * The attainment surfaces of the requested levels k (integers from 1 to n, in any order,
 * repeats allowed), one per requested level in the order given.
 *
 * Dimension sweep (Fonseca et al. 2011): the points of all runs are visited by f1 ascending, all
 * points with the same f1 at once. b_r = the smallest f2 of run r among the points visited so far
 * (Infinity before its first point). After an f1 value x, the runs that attain (x, y) are those
 * with b_r <= y, so the level-k region's lower boundary at x is v_k(x) = the k-th smallest b_r;
 * v_k only decreases, and the surface has a point (x, v_k(x)) wherever it does. The b_r are
 * counted in a Fenwick tree over the ranks of the distinct f2 values, whose k-th smallest is one
 * O(log m) descent. O(m log m + m L log m) for m points and L levels (a level is queried only at
 * events that can lower it), O(m + n) memory.
 */
export function attainmentSurfaces(fronts: RunFronts, levels: readonly number[]): AttainmentSurface[] {
  const n = fronts.length;
  for (const k of levels) {
    if (!Number.isInteger(k) || k < 1 || k > n) throw new RangeError(`attainment level must be an integer from 1 to the number of runs (${n}), got ${k}`);
  }
  const flat = flatten('fronts', fronts);
  const distinct = [...new Set(levels)].sort((a, b) => a - b);
  const surfaces = new Map<number, Point2[]>(distinct.map((k) => [k, []]));
  const m = flat.f1.length;
  if (m > 0 && distinct.length > 0) {
    const ys = distinctSorted(flat.f2);
    const size = ys.length;
    const rank = new Int32Array(m);
    for (let p = 0; p < m; p++) rank[p] = rankOf(ys, flat.f2[p]);
    const order = orderByF1(flat.f1);

    // Fenwick tree (1-based) of how many runs have their best f2 at each rank.
    const tree = new Int32Array(size + 1);
    let top = 1;
    while (top * 2 <= size) top *= 2;
    const add = (i: number, delta: number): void => {
      for (let j = i + 1; j <= size; j += j & -j) tree[j] += delta;
    };
    /** The rank of the k-th smallest best (1 <= k <= number of runs with a best). */
    const kth = (k: number): number => {
      let pos = 0;
      for (let step = top; step > 0; step >>= 1) {
        const next = pos + step;
        if (next <= size && tree[next] < k) {
          pos = next;
          k -= tree[next];
        }
      }
      return pos; // 0-based rank: the prefix up to pos holds fewer than k, up to pos + 1 at least k
    };

    const NONE = size; // "no point yet": above every rank
    const best = new Int32Array(n).fill(NONE);
    let withBest = 0;
    const current = new Int32Array(distinct.length).fill(NONE); // v_k as a rank, per level
    const out = distinct.map((k) => surfaces.get(k) as Point2[]);

    let g = 0;
    while (g < m) {
      const x = flat.f1[order[g]];
      let lowest = NONE; // the smallest new best of this event
      for (; g < m && flat.f1[order[g]] === x; g++) {
        const p = order[g];
        const r = flat.run[p];
        const y = rank[p];
        if (y < best[r]) {
          if (best[r] === NONE) withBest++;
          else add(best[r], -1);
          add(y, 1);
          best[r] = y;
          if (y < lowest) lowest = y;
        }
      }
      if (lowest === NONE) continue;
      // v_k can drop only if some new best is below it; v_k is non-decreasing in k, so the levels
      // that can change are the highest ones: walk down until one cannot.
      for (let l = distinct.length - 1; l >= 0; l--) {
        if (current[l] <= lowest) break;
        const k = distinct[l];
        if (withBest < k) continue;
        const v = kth(k);
        if (v < current[l]) {
          current[l] = v;
          out[l].push([x, ys[v]]);
        }
      }
    }
  }
  const given = new Set<number>();
  return levels.map((k) => {
    const points = surfaces.get(k) as Point2[];
    const first = !given.has(k);
    given.add(k);
    // A repeated level gets its own copy, so that no two surfaces share arrays.
    return { level: k, fraction: k / n, points: first ? points : points.map((q) => [q[0], q[1]] as Point2) };
  });
}

/** The best (level 1), median (level ceil(n/2)) and worst (level n) attainment surfaces. */
export function attainmentSummary(fronts: RunFronts): AttainmentSummary {
  const n = fronts.length;
  if (n === 0) throw new RangeError('attainmentSummary needs at least one run');
  const [best, median, worst] = attainmentSurfaces(fronts, [1, medianLevel(n), n]);
  return { runs: n, best, median, worst };
}

function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b];
  return a;
}

/** A vertical interval [lo, hi) of f2 ranks with one value of the difference, open since x0. */
interface Segment {
  lo: number;
  hi: number;
  key: number;
  x0: number;
}

/** The first index of the sorted `list` whose value is >= `value` (list.length if none). */
function firstAtLeast(list: readonly number[], value: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The index of the interval of `segments` (which tile the ranks in order) that holds rank `y`. */
function segmentHolding(segments: readonly Segment[], y: number): number {
  let lo = 0;
  let hi = segments.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (segments[mid].hi <= y) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The difference alpha_A - alpha_B of two solvers' EAFs (López-Ibáñez et al. 2010), as the
 * disjoint rectangles where it is not zero, sorted by x0 then y0.
 *
 * Cells: let X and Y be the sorted distinct f1 and f2 values of all points of both sets, and
 * X_{|X|} = Y_{|Y|} = Infinity. The cell (i, j) is [X_i, X_{i+1}) x [Y_j, Y_{j+1}): closed below,
 * open above, because a point attains exactly the z at or above it in both objectives. Both EAFs,
 * and so the difference, are constant on each cell, and zero wherever z_1 < X_0 or z_2 < Y_0.
 * Rectangles: in each column i, the maximal runs of vertically adjacent cells with the same
 * non-zero value are intervals [Y_j, Y_j'); a rectangle is such an interval over a maximal run of
 * consecutive columns in each of which it is one (same ends, same value). This decomposition is
 * unique; the rectangles are disjoint and cover exactly the cells with a non-zero difference.
 * Corners: x0 is in X, x1 in X or Infinity, y0 in Y, y1 in Y or Infinity. `value` is
 * cA/nA - cB/nB, with cA, cB the numbers of runs of A and B that attain the rectangle's points,
 * kept as an exact integer over lcm(nA, nB) until one final division.
 *
 * Sweep over f1, as in `attainmentSurfaces`: each run's best f2 so far; when it drops from u to v
 * the difference changes by +1/nA (run of A) or -1/nB (run of B) on [v, u) of that column. Only
 * the column's intervals meeting the changed range are rebuilt (from the runs' bests inside it)
 * and matched against the open ones; those that differ are closed (emitted) and new ones opened.
 * O(m log m + m (nA + nB) + output) for m points in all.
 */
export function eafDifference(frontsA: RunFronts, frontsB: RunFronts): EafRectangle[] {
  const nA = frontsA.length;
  const nB = frontsB.length;
  if (nA === 0 || nB === 0) throw new RangeError(`eafDifference needs at least one run on each side (got ${nA} and ${nB})`);
  const g = gcd(nA, nB);
  const deltaA = nB / g; // +1/nA in units of 1/lcm(nA, nB)
  const deltaB = -(nA / g); // -1/nB
  const denominator = (nA / g) * nB; // lcm(nA, nB)
  const n = nA + nB;

  let total = 0;
  for (const front of frontsA) total += front.length;
  const sizeA = total;
  for (const front of frontsB) total += front.length;
  const flat: Flat = { f1: new Float64Array(total), f2: new Float64Array(total), run: new Int32Array(total) };
  flatten('frontsA', frontsA, 0, flat, 0);
  flatten('frontsB', frontsB, nA, flat, sizeA);
  const m = total;
  if (m === 0) return [];

  const ys = distinctSorted(flat.f2);
  const size = ys.length;
  const yAt = (r: number): number => (r === size ? Infinity : ys[r]);
  const rank = new Int32Array(m);
  for (let p = 0; p < m; p++) rank[p] = rankOf(ys, flat.f2[p]);
  const order = orderByF1(flat.f1);

  const NONE = size;
  const best = new Int32Array(n).fill(NONE);
  const delta = new Int32Array(n);
  for (let r = 0; r < n; r++) delta[r] = r < nA ? deltaA : deltaB;
  // The runs' bests by rank: how many runs sit at each rank, their summed delta, and the sorted
  // list of ranks where at least one run sits.
  const runsAt = new Int32Array(size);
  const deltaAt = new Int32Array(size);
  const occupied: number[] = [];
  const place = (r: number, y: number, sign: 1 | -1): void => {
    if (sign > 0) {
      if (runsAt[y]++ === 0) occupied.splice(firstAtLeast(occupied, y), 0, y);
      deltaAt[y] += delta[r];
    } else {
      if (--runsAt[y] === 0) occupied.splice(firstAtLeast(occupied, y), 1);
      deltaAt[y] -= delta[r];
    }
  };

  // The open intervals of the current column: they tile [0, size) in order.
  const segments: Segment[] = [{ lo: 0, hi: size, key: 0, x0: -Infinity }];
  const rectangles: EafRectangle[] = [];
  const close = (s: Segment, x1: number): void => {
    if (s.key !== 0 && s.x0 < x1) rectangles.push({ x0: s.x0, y0: ys[s.lo], x1, y1: yAt(s.hi), value: s.key / denominator });
  };

  const changedRuns: number[] = [];
  const newBest = new Int32Array(n).fill(NONE);
  let p0 = 0;
  while (p0 < m) {
    const x = flat.f1[order[p0]];
    // The event: every point with this f1; a run's best becomes the smallest of its points here.
    changedRuns.length = 0;
    for (; p0 < m && flat.f1[order[p0]] === x; p0++) {
      const p = order[p0];
      const r = flat.run[p];
      const y = rank[p];
      if (y < best[r] && y < newBest[r]) {
        if (newBest[r] === NONE) changedRuns.push(r);
        newBest[r] = y;
      }
    }
    if (changedRuns.length === 0) continue;
    let low = NONE;
    let high = 0;
    for (const r of changedRuns) {
      const old = best[r];
      const y = newBest[r];
      if (old !== NONE) place(r, old, -1);
      place(r, y, 1);
      best[r] = y;
      newBest[r] = NONE;
      if (y < low) low = y;
      if (old > high) high = old;
    }
    // The difference changed only on ranks [low, high): rebuild the intervals that meet it.
    let s = segmentHolding(segments, low);
    let e = segmentHolding(segments, high - 1);
    const lo = segments[s].lo;
    const hi = segments[e].hi;
    const fresh: Segment[] = [];
    let key = s > 0 ? segments[s - 1].key : 0; // the value just below lo (unchanged)
    let start = lo;
    for (let i = firstAtLeast(occupied, lo); i < occupied.length && occupied[i] < hi; i++) {
      const y = occupied[i];
      const next = key + deltaAt[y];
      if (next === key) continue;
      if (y > start) fresh.push({ lo: start, hi: y, key, x0: x });
      start = y;
      key = next;
    }
    fresh.push({ lo: start, hi, key, x0: x });
    // Keep the intervals maximal: merge with an unchanged neighbour that now has the same value.
    if (s > 0 && fresh[0].key === segments[s - 1].key) {
      s--;
      fresh[0].lo = segments[s].lo;
    }
    if (e + 1 < segments.length && fresh[fresh.length - 1].key === segments[e + 1].key) {
      e++;
      fresh[fresh.length - 1].hi = segments[e].hi;
    }
    // An interval that is the same before and after stays open; the others close here.
    let i = s;
    let j = 0;
    while (i <= e || j < fresh.length) {
      const old = i <= e ? segments[i] : undefined;
      const now = j < fresh.length ? fresh[j] : undefined;
      if (old && now && old.lo === now.lo) {
        if (old.hi === now.hi && old.key === now.key) fresh[j] = old;
        else close(old, x);
        i++;
        j++;
      } else if (old && (!now || old.lo < now.lo)) {
        close(old, x);
        i++;
      } else {
        j++;
      }
    }
    segments.splice(s, e - s + 1, ...fresh);
  }
  for (const segment of segments) close(segment, Infinity);
  return rectangles.sort((a, b) => a.x0 - b.x0 || a.y0 - b.y0);
}
