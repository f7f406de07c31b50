// Exact hypervolume indicator (minimisation), for any number of objectives.
//
// Algorithm: WFG — L. While, L. Bradstreet, L. Barone, "A Fast Way of Calculating Exact
// Hypervolumes", IEEE TEVC 16(1):86–95, 2012. The hypervolume of a set is the sum of the
// exclusive hypervolumes of its points, and the exclusive hypervolume of a point p is
//   exclhv(p) = inclhv(p) − hv(nds(limitset(p)))
// where the limit set bounds ("limits") the other points by p (component-wise max, the "worse"
// operation for minimisation) and nds keeps only its non-dominated points. The last objective
// is handled by slicing: points are sorted by the last objective (ascending) and each point
// contributes its exclusive (M−1)-dimensional hypervolume with respect to the points before it,
// times its distance to the reference point in the last objective (the area of the union of the
// projections of the points with f_M <= z, integrated over z). Limit sets are sorted by their
// own last objective while being filtered, so the recursive call needs no further sort. Points
// whose projection is weakly dominated by an earlier point are skipped (exclusive volume 0).
// Base cases: M = 2 by a sweep; up to 4 points (3 at M = 3) by the closed inclusion–exclusion
// formulas, as WFG's own implementation does for small sets; M = 3 by a z-sweep over an
// incrementally maintained 2-D staircase.
//
// Points that do not strictly dominate the reference point (p_k < r_k for every k) contribute
// nothing and are discarded up front. Non-finite coordinates are errors.

import { Random } from '../random.ts';

/**
 * Reference-point convention used across Saikoro: objectives are normalised by a given ideal and
 * nadir point into [0, 1] (see normalise) and the hypervolume is measured against the point with
 * HV_REFERENCE_COORDINATE in every objective. The largest attainable value is therefore
 * HV_REFERENCE_COORDINATE^M (a point at the ideal).
 */
export const HV_REFERENCE_COORDINATE = 1.1;

/** The normalised reference point (1.1, ..., 1.1) for m objectives. */
export function normalisedReferencePoint(m: number): number[] {
  return new Array<number>(m).fill(HV_REFERENCE_COORDINATE);
}

/**
 * Normalise objective vectors: (f_k − ideal_k) / (nadir_k − ideal_k). An objective whose range is
 * zero or negative is only shifted (divided by 1), so the ideal maps to 0. Values outside the
 * ideal–nadir box are not clipped.
 */
export function normalise(points: readonly (readonly number[])[], ideal: readonly number[], nadir: readonly number[]): number[][] {
  if (ideal.length !== nadir.length) throw new Error('ideal and nadir differ in length');
  const m = ideal.length;
  const scale = ideal.map((lo, k) => {
    const r = nadir[k] - lo;
    return r > 0 ? r : 1;
  });
  return points.map((p) => {
    if (p.length !== m) throw new Error(`point has ${p.length} objectives, expected ${m}`);
    return p.map((v, k) => (v - ideal[k]) / scale[k]);
  });
}

/** Exact hypervolume dominated by `points` and bounded by `reference` (minimisation). */
export function hypervolume(points: readonly (readonly number[])[], reference: readonly number[]): number {
  const m = reference.length;
  if (m === 0) throw new Error('reference point has no objectives');
  const inside: (readonly number[])[] = [];
  reference.forEach((r, k) => {
    if (!Number.isFinite(r)) throw new Error(`reference point coordinate ${k} is not a finite number (${r})`);
  });
  points.forEach((p, i) => {
    if (p.length !== m) throw new Error(`point ${i} has ${p.length} objectives, the reference point has ${m}`);
    for (let k = 0; k < m; k++) if (!Number.isFinite(p[k])) throw new Error(`point ${i} objective ${k} is not a finite number (${p[k]})`);
  });
  for (const p of points) {
    let ok = true;
    for (let k = 0; k < m; k++) {
      if (!(p[k] < reference[k])) {
        ok = false;
        break;
      }
    }
    if (ok) inside.push(p);
  }
  const n = inside.length;
  if (n === 0) return 0;
  if (m === 1) return reference[0] - Math.min(...inside.map((p) => p[0]));
  const ws = new Workspace(n, m, reference);
  const raw = ws.tmp[m];
  inside.forEach((p, i) => {
    for (let k = 0; k < m; k++) raw[i * m + k] = p[k];
  });
  const count = ndFilter(raw, n, m, ws.lim[m], ws.idx[m]);
  return wfg(ws, ws.lim[m], count, m);
}

/**
 * Scratch memory. Point sets are flat Float64Arrays (point i at [i*d, i*d+d)). At recursion level
 * d only one limit set is alive at a time, so each level owns one raw buffer (tmp[d]), one
 * filtered buffer (lim[d]) and one index buffer, allocated once per hypervolume() call.
 */
class Workspace {
  readonly tmp: Float64Array[] = [];
  readonly lim: Float64Array[] = [];
  readonly idx: Int32Array[] = [];
  readonly xs: Float64Array;
  readonly ys: Float64Array;
  readonly ref: Float64Array;
  readonly corner: Float64Array;
  constructor(n: number, m: number, reference: readonly number[]) {
    this.corner = new Float64Array(16 * m);
    for (let d = 0; d <= m; d++) {
      this.tmp.push(new Float64Array(n * d));
      this.lim.push(new Float64Array(n * d));
      this.idx.push(new Int32Array(n));
    }
    this.xs = new Float64Array(n + 1);
    this.ys = new Float64Array(n + 1);
    this.ref = Float64Array.from(reference);
  }
}

/**
 * Copy the non-dominated points of src (n points of dimension d) into dst, sorted by objective
 * d−1 ascending (ties: lexicographically over 0..d−2); weakly dominated points and duplicates are
 * dropped. With that order no later point can dominate an earlier one, so each point is only
 * compared with the points already kept. Returns the number kept.
 */
function ndFilter(src: Float64Array, n: number, d: number, dst: Float64Array, idx: Int32Array): number {
  const last = d - 1;
  if (n <= 64) {
    // Insertion sort of the indices (the common case: limit sets are small). The input arrives
    // sorted by another objective, which on a front runs roughly against this one, so it is
    // read backwards: nearly sorted input costs nearly nothing to insert.
    for (let r = 0; r < n; r++) {
      const i = n - 1 - r;
      const oi = i * d;
      const key = src[oi + last];
      let j = r - 1;
      while (j >= 0) {
        const oj = idx[j] * d;
        const kj = src[oj + last];
        if (kj < key) break;
        if (kj === key && !lexGreater(src, oj, oi, last)) break;
        idx[j + 1] = idx[j];
        j--;
      }
      idx[j + 1] = i;
    }
  } else {
    const order = Array.from({ length: n }, (_, i) => i);
    order.sort((a, b) => {
      const oa = a * d;
      const ob = b * d;
      const diff = src[oa + last] - src[ob + last];
      if (diff !== 0) return diff;
      return lexGreater(src, oa, ob, last) ? 1 : lexGreater(src, ob, oa, last) ? -1 : 0;
    });
    idx.set(order);
  }
  let kept = 0;
  for (let r = 0; r < n; r++) {
    const o = idx[r] * d;
    let covered = false;
    for (let os = 0, end = kept * d; os < end; os += d) {
      let k = 0;
      while (k < last && dst[os + k] <= src[o + k]) k++;
      if (k === last) {
        covered = true;
        break;
      }
    }
    if (!covered) {
      const od = kept * d;
      for (let k = 0; k < d; k++) dst[od + k] = src[o + k];
      kept++;
    }
  }
  return kept;
}

/** True if the first `len` coordinates at offset a are lexicographically greater than at offset b. */
function lexGreater(src: Float64Array, a: number, b: number, len: number): boolean {
  for (let k = 0; k < len; k++) {
    const x = src[a + k];
    const y = src[b + k];
    if (x !== y) return x > y;
  }
  return false;
}

/**
 * Inclusion–exclusion over all 2^n − 1 subsets, for n <= 4 points only: the intersection of the
 * boxes of a subset is the box of their component-wise maximum. WFG's reference implementation
 * uses the same closed forms for 1–4 points; deeper in the recursion most limit sets are this
 * small, and the closed form avoids three or four more levels of recursion.
 */
function smallSet(ws: Workspace, buf: Float64Array, n: number, m: number): number {
  const ref = ws.ref;
  const corner = ws.corner; // corner[mask * m + k] = max over the subset `mask` of point[k]
  let volume = 0;
  const subsets = 1 << n;
  for (let mask = 1; mask < subsets; mask++) {
    const low = mask & -mask;
    const i = 31 - Math.clz32(low);
    const rest = mask ^ low;
    const o = mask * m;
    const op = i * m;
    let box = 1;
    let sign = -1;
    if (rest === 0) {
      for (let k = 0; k < m; k++) {
        const v = buf[op + k];
        corner[o + k] = v;
        box *= ref[k] - v;
      }
    } else {
      const or = rest * m;
      for (let k = 0; k < m; k++) {
        const a = corner[or + k];
        const b = buf[op + k];
        const v = a > b ? a : b;
        corner[o + k] = v;
        box *= ref[k] - v;
      }
    }
    for (let bits = mask; bits !== 0; bits &= bits - 1) sign = -sign;
    volume += sign * box;
  }
  return volume;
}

/**
 * WFG over n points of dimension m stored in buf, which must be non-dominated and sorted by
 * objective m−1 ascending (as produced by ndFilter).
 */
function wfg(ws: Workspace, buf: Float64Array, n: number, m: number): number {
  const ref = ws.ref;
  if (n === 0) return 0;
  if (m === 2) return hv2(buf, n, ref);
  if (n <= (m === 3 ? 3 : 4)) return smallSet(ws, buf, n, m);
  if (m === 3) return hv3(ws, buf, n);
  const last = m - 1;
  const d = m - 1; // dimension of the limit sets
  const tmp = ws.tmp[d];
  const lim = ws.lim[d];
  const idx = ws.idx[d];
  let volume = 0;
  for (let i = 0; i < n; i++) {
    const oi = i * m;
    let ex = 1;
    for (let k = 0; k < d; k++) ex *= ref[k] - buf[oi + k];
    if (i > 0) {
      // limit set: the earlier points bounded by point i ("worse" = component-wise max)
      let same = false;
      for (let j = 0; j < i && !same; j++) {
        const oj = j * m;
        const ot = j * d;
        same = true;
        for (let k = 0; k < d; k++) {
          const a = buf[oj + k];
          const b = buf[oi + k];
          if (a > b) {
            tmp[ot + k] = a;
            same = false;
          } else tmp[ot + k] = b;
        }
      }
      if (same) continue; // projection of point i weakly dominated: exclusive volume 0
      const count = ndFilter(tmp, i, d, lim, idx);
      ex -= wfg(ws, lim, count, d);
    }
    volume += ex * (ref[last] - buf[oi + last]);
  }
  return volume;
}

/** 2-D: non-dominated points sorted by f1 ascending have f0 descending; sum the strips. */
function hv2(buf: Float64Array, n: number, ref: Float64Array): number {
  let volume = 0;
  for (let i = 0; i < n; i++) {
    const nextY = i + 1 < n ? buf[2 * i + 3] : ref[1];
    volume += (ref[0] - buf[2 * i]) * (nextY - buf[2 * i + 1]);
  }
  return volume;
}

/**
 * 3-D sweep along f2 (buf is sorted by f2): keep the 2-D staircase (x ascending, y descending,
 * mutually non-dominated) of the points seen so far and its area; the volume adds the area
 * times the distance to the next point's f2 (or the reference).
 */
function hv3(ws: Workspace, buf: Float64Array, n: number): number {
  const ref = ws.ref;
  const rx = ref[0];
  const ry = ref[1];
  const xs = ws.xs;
  const ys = ws.ys;
  let len = 0;
  let area = 0;
  let volume = 0;
  for (let i = 0; i < n; i++) {
    const x = buf[3 * i];
    const y = buf[3 * i + 1];
    // first staircase index with xs >= x
    let lo = 0;
    let hi = len;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (xs[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    const a = lo;
    const covered = (a > 0 && ys[a - 1] <= y) || (a < len && xs[a] === x && ys[a] <= y);
    if (!covered) {
      let b = a;
      while (b < len && ys[b] >= y) b++; // staircase points a..b−1 are dominated by (x, y)
      // Area = sum_k (x_{k+1} − x_k)(ry − y_k) with x_len = rx. Remove the old terms of
      // a−1..b−1 and add the new terms of a−1 (its right edge becomes x) and of (x, y).
      const nextX = b < len ? xs[b] : rx;
      let delta = (nextX - x) * (ry - y);
      for (let k = a; k < b; k++) delta -= ((k + 1 < len ? xs[k + 1] : rx) - xs[k]) * (ry - ys[k]);
      if (a > 0) delta += (x - (a < len ? xs[a] : rx)) * (ry - ys[a - 1]);
      area += delta;
      xs.copyWithin(a + 1, b, len);
      ys.copyWithin(a + 1, b, len);
      xs[a] = x;
      ys[a] = y;
      len += 1 - (b - a);
    }
    const nextZ = i + 1 < n ? buf[3 * i + 5] : ref[2];
    volume += area * (nextZ - buf[3 * i + 2]);
  }
  return volume;
}

/**
 * n points spread uniformly on the unit simplex sum(f) = 1 (normalised exponentials), seeded:
 * a linear front on which every point is non-dominated, the hardest kind of input for exact
 * hypervolume at a given size. Used by the bench suite and the tests.
 */
export function simplexPoints(n: number, m: number, seed: number): number[][] {
  const random = Random.fromSeed(seed);
  const out: number[][] = [];
  for (let i = 0; i < n; i++) {
    const e = Array.from({ length: m }, () => -Math.log(1 - random.float()));
    const s = e.reduce((a, b) => a + b, 0);
    out.push(e.map((v) => v / s));
  }
  return out;
}
