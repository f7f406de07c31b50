import { describe, expect, it } from 'vitest';
import {
  attainmentSummary,
  attainmentSurfaces,
  eafAt,
  eafDifference,
  medianLevel,
  type EafRectangle,
  type Point2,
} from '../../../src-shared/metrics/attainment.ts';
import { Random } from '../../../src-shared/random.ts';

type Fronts = number[][][];

// ---------------------------------------------------------------------------------------------
// Brute force, written from the definitions only (Grunert da Fonseca et al. 2001): a run attains
// z when one of its points is <= z in both objectives; alpha(z) = (runs attaining z) / n.
// ---------------------------------------------------------------------------------------------

function attainCount(fronts: Fronts, z: readonly number[]): number {
  return fronts.filter((run) => run.some((p) => p[0] <= z[0] && p[1] <= z[1])).length;
}

function axes(...sets: Fronts[]): { xs: number[]; ys: number[] } {
  const all = sets.flatMap((fronts) => fronts.flat());
  const xs = [...new Set(all.map((p) => p[0]))].sort((a, b) => a - b);
  const ys = [...new Set(all.map((p) => p[1]))].sort((a, b) => a - b);
  return { xs, ys };
}

/** Non-dominated distinct points of a set, f1 ascending, by checking every pair. */
function nondominated(points: readonly number[][]): Point2[] {
  const distinct = [...new Map(points.map((p) => [`${p[0]},${p[1]}`, p])).values()];
  const kept = distinct.filter((p) => !distinct.some((q) => q !== p && q[0] <= p[0] && q[1] <= p[1]));
  return kept.map((p) => [p[0], p[1]] as Point2).sort((a, b) => a[0] - b[0]);
}

/**
 * The level-k surface by brute force. alpha is constant on each cell [X_i, X_i+1) x [Y_j, Y_j+1)
 * of the grid of all coordinates and zero below and left of it, so the region attained by at
 * least k runs is a union of such cells closed at their lower-left corners, and its minimal points
 * are grid points: the grid points with count >= k that no other such grid point weakly dominates.
 */
function bruteSurface(fronts: Fronts, k: number): Point2[] {
  const { xs, ys } = axes(fronts);
  const region: number[][] = [];
  for (const x of xs) for (const y of ys) if (attainCount(fronts, [x, y]) >= k) region.push([x, y]);
  return nondominated(region);
}

/** The componentwise maximum of two points: the least point both of them attain. */
const join = (a: readonly number[], b: readonly number[]): number[] => [Math.max(a[0], b[0]), Math.max(a[1], b[1])];

/**
 * The region attained by every run, folded run by run: the points attained by both X and Y are
 * those at or above some join(x, y), so the minimal points of the intersection are the
 * non-dominated joins. Independent of the grid and of counting.
 */
function intersectionMinima(fronts: Fronts): Point2[] {
  let acc: number[][] = fronts[0];
  for (const run of fronts.slice(1)) acc = nondominated(acc.flatMap((a) => run.map((b) => join(a, b))));
  return nondominated(acc);
}

/**
 * The canonical rectangles of alpha_A - alpha_B by brute force over the grid (definition in
 * eafDifference's comment): the value of every cell from the counts at its lower-left corner,
 * maximal vertical runs of equal non-zero values per column, merged across consecutive columns
 * while identical.
 */
function bruteDifference(a: Fronts, b: Fronts): EafRectangle[] {
  const { xs, ys } = axes(a, b);
  const nA = a.length;
  const nB = b.length;
  const X = [...xs, Infinity];
  const Y = [...ys, Infinity];
  const open = new Map<string, { x0: number; j0: number; j1: number; key: number }>();
  const out: EafRectangle[] = [];
  const emit = (r: { x0: number; j0: number; j1: number; key: number }, x1: number): void => {
    out.push({ x0: r.x0, y0: Y[r.j0], x1, y1: Y[r.j1], value: r.key / (nA * nB) });
  };
  for (let i = 0; i < xs.length; i++) {
    const keys = ys.map((y) => attainCount(a, [xs[i], y]) * nB - attainCount(b, [xs[i], y]) * nA);
    const column = new Map<string, { x0: number; j0: number; j1: number; key: number }>();
    for (let j0 = 0; j0 < ys.length; ) {
      let j1 = j0 + 1;
      while (j1 < ys.length && keys[j1] === keys[j0]) j1++;
      if (keys[j0] !== 0) {
        const id = `${j0},${j1},${keys[j0]}`;
        column.set(id, open.get(id) ?? { x0: xs[i], j0, j1, key: keys[j0] });
      }
      j0 = j1;
    }
    for (const [id, r] of open) if (!column.has(id)) emit(r, X[i]);
    open.clear();
    for (const [id, r] of column) open.set(id, r);
  }
  for (const r of open.values()) emit(r, Infinity);
  return out.sort((p, q) => p.x0 - q.x0 || p.y0 - q.y0);
}

// ---------------------------------------------------------------------------------------------
// Random fronts (seeded). Small integer coordinates give many ties and duplicates; runs are
// random clouds, so most contain dominated points; some runs are empty.
// ---------------------------------------------------------------------------------------------

function randomFronts(random: Random, runs: number, opts: { maxPoints: number; max?: number; real?: boolean; emptyChance?: number }): Fronts {
  const coordinate = (): number => (opts.real ? Math.round(random.float() * 1000) / 100 : random.int(0, opts.max ?? 9));
  return Array.from({ length: runs }, () => {
    if (random.chance(opts.emptyChance ?? 0.1)) return [];
    const run = Array.from({ length: random.int(1, opts.maxPoints) }, () => [coordinate(), coordinate()]);
    if (run.length > 1 && random.chance(0.3)) run.push([...run[random.below(run.length)]]); // a duplicate
    return run;
  });
}

const CASES = 300;

function forEachCase(seed: number, body: (random: Random, fronts: Fronts, c: number) => void): void {
  const random = Random.fromSeed(seed);
  for (let c = 0; c < CASES; c++) {
    const runs = c < 20 ? 1 : random.int(1, 7); // n = 1 first, then up to 7 runs
    const fronts = randomFronts(random, runs, { maxPoints: c % 3 === 0 ? 12 : 6, real: c % 4 === 3 });
    body(random, fronts, c);
  }
}

// ---------------------------------------------------------------------------------------------

describe('a worked example with three runs', () => {
  // R1 = {(1,4), (3,2)}, R2 = {(2,3), (4,1)}, R3 = {(2,2), (3,3)} where (3,3) is dominated by (2,2).
  // Sweep by f1, keeping each run's best f2 b = (b1, b2, b3), Infinity before a run's first point:
  //   f1 = 1: b = (4, inf, inf)     sorted 4, inf, inf
  //   f1 = 2: b = (4, 3, 2)         sorted 2, 3, 4
  //   f1 = 3: b = (2, 3, 2)         sorted 2, 2, 3     ((3,3) does not lower b3)
  //   f1 = 4: b = (2, 1, 2)         sorted 1, 2, 2
  // The level-k surface gets (f1, k-th smallest) whenever that drops:
  //   k = 1: (1,4) (2,2) (4,1)      = the non-dominated points of the union
  //   k = 2: (2,3) (3,2)            = the median, ceil(3/2) = 2
  //   k = 3: (2,4) (3,3) (4,2)      = the worst; the joins of one point per run, non-dominated:
  //          (1,4)v(2,3)v(2,2) = (2,4), (3,2)v(2,3)v(2,2) = (3,3), (3,2)v(4,1)v(2,2) = (4,2).
  const fronts = [
    [
      [1, 4],
      [3, 2],
    ],
    [
      [2, 3],
      [4, 1],
    ],
    [
      [2, 2],
      [3, 3],
    ],
  ];

  it('has the surfaces worked out by hand', () => {
    const [k1, k2, k3] = attainmentSurfaces(fronts, [1, 2, 3]);
    expect(k1).toEqual({
      level: 1,
      fraction: 1 / 3,
      points: [
        [1, 4],
        [2, 2],
        [4, 1],
      ],
    });
    expect(k2).toEqual({
      level: 2,
      fraction: 2 / 3,
      points: [
        [2, 3],
        [3, 2],
      ],
    });
    expect(k3).toEqual({
      level: 3,
      fraction: 1,
      points: [
        [2, 4],
        [3, 3],
        [4, 2],
      ],
    });
    const summary = attainmentSummary(fronts);
    expect(summary.runs).toBe(3);
    expect(summary.best.points).toEqual(k1.points);
    expect(summary.median).toEqual(k2);
    expect(summary.worst.points).toEqual(k3.points);
  });

  it('has the EAF values worked out by hand', () => {
    expect(eafAt(fronts, [2, 3])).toBe(2 / 3); // R2's (2,3) and R3's (2,2); R1's points are above or right of it
    expect(eafAt(fronts, [3, 3])).toBe(1);
    expect(eafAt(fronts, [1, 4])).toBe(1 / 3);
    expect(eafAt(fronts, [0.999, 100])).toBe(0);
    expect(eafAt(fronts, [1.5, 3.5])).toBe(0);
    expect(eafAt(fronts, [Infinity, Infinity])).toBe(1);
  });

  it('levels and requests: order kept, repeats allowed, median ceil(n/2)', () => {
    const surfaces = attainmentSurfaces(fronts, [3, 1, 3]);
    expect(surfaces.map((s) => s.level)).toEqual([3, 1, 3]);
    expect(surfaces[2]).toEqual(surfaces[0]);
    expect(surfaces[2].points).not.toBe(surfaces[0].points);
    expect([1, 2, 3, 4, 5, 6, 7].map(medianLevel)).toEqual([1, 1, 2, 2, 3, 3, 4]);
    expect(attainmentSurfaces(fronts, [])).toEqual([]);
  });
});

describe('the difference of two EAFs: worked examples', () => {
  it('one run each: A = {(1,2)}, B = {(2,1)}', () => {
    // alpha_A = 1 on [1,inf) x [2,inf), alpha_B = 1 on [2,inf) x [1,inf). The difference is +1 on
    // [1,2) x [2,inf) (only A), -1 on [2,inf) x [1,2) (only B), 0 where both attain and elsewhere.
    expect(eafDifference([[[1, 2]]], [[[2, 1]]])).toEqual([
      { x0: 1, y0: 2, x1: 2, y1: Infinity, value: 1 },
      { x0: 2, y0: 1, x1: Infinity, y1: 2, value: -1 },
    ]);
  });

  it('two runs each: A = {(1,3)}, {(3,1)}; B = {(2,2)}, {(2,2)}', () => {
    // Columns [1,2), [2,3), [3,inf); alpha_A counts (1,3) and (3,1), alpha_B is 1 at and above (2,2).
    //   [1,2):   y >= 3: 1/2 - 0 = 1/2
    //   [2,3):   [2,3): 0 - 1 = -1;       y >= 3: 1/2 - 1 = -1/2
    //   [3,inf): [1,2): 1/2 - 0 = 1/2;   [2,3): 1/2 - 1 = -1/2;   y >= 3: 1 - 1 = 0
    // No interval repeats in the next column, so there are five rectangles.
    expect(eafDifference([[[1, 3]], [[3, 1]]], [[[2, 2]], [[2, 2]]])).toEqual([
      { x0: 1, y0: 3, x1: 2, y1: Infinity, value: 0.5 },
      { x0: 2, y0: 2, x1: 3, y1: 3, value: -1 },
      { x0: 2, y0: 3, x1: 3, y1: Infinity, value: -0.5 },
      { x0: 3, y0: 1, x1: Infinity, y1: 2, value: 0.5 },
      { x0: 3, y0: 2, x1: Infinity, y1: 3, value: -0.5 },
    ]);
  });

  it('different run counts: A = {(0,0)}; B = {(0,0)}, {}, {(1,1)}', () => {
    // alpha_A = 1 from (0,0) on; alpha_B = 1/3 from (0,0), 2/3 from (1,1). Difference 2/3 on the
    // L-shaped region from (0,0) outside [1,inf)^2, which is [0,1) x [0,inf) and [1,inf) x [0,1),
    // and 1/3 on [1,inf)^2.
    const d = eafDifference([[[0, 0]]], [[[0, 0]], [], [[1, 1]]]);
    expect(d).toEqual([
      { x0: 0, y0: 0, x1: 1, y1: Infinity, value: 2 / 3 },
      { x0: 1, y0: 0, x1: Infinity, y1: 1, value: 2 / 3 },
      { x0: 1, y0: 1, x1: Infinity, y1: Infinity, value: 1 / 3 },
    ]);
  });
});

describe('eafAt against brute force', () => {
  it('equals the share of runs with a point weakly dominating z, on and between grid points', () => {
    forEachCase(11, (random, fronts) => {
      const n = fronts.length;
      const { xs, ys } = axes(fronts);
      const probes: number[][] = [];
      for (const x of xs) for (const y of ys) probes.push([x, y], [x - 0.005, y], [x, y - 0.005]);
      for (let i = 0; i < 20; i++) probes.push([random.float() * 11 - 0.5, random.float() * 11 - 0.5]);
      for (const z of probes) expect(eafAt(fronts, z), `z = ${z}`).toBe(attainCount(fronts, z) / n);
    });
  });
});

describe('attainment surfaces against brute force', () => {
  it('every level k of every case is exactly the minimal grid points with eafAt >= k/n', () => {
    forEachCase(12, (_random, fronts) => {
      const n = fronts.length;
      const levels = Array.from({ length: n }, (_, i) => i + 1);
      const surfaces = attainmentSurfaces(fronts, levels);
      for (const s of surfaces) {
        expect(s.points, `level ${s.level} of ${JSON.stringify(fronts)}`).toEqual(bruteSurface(fronts, s.level));
        // and through the module's own eafAt: attained at level k, not one step below in f1 or f2
        for (const [x, y] of s.points) {
          expect(eafAt(fronts, [x, y])).toBeGreaterThanOrEqual(s.level / n);
          expect(eafAt(fronts, [x - 1e-9, y])).toBeLessThan(s.level / n);
          expect(eafAt(fronts, [x, y - 1e-9])).toBeLessThan(s.level / n);
        }
      }
    });
  });

  it('holds the invariants: staircases, nested levels, best = non-dominated union, worst = the intersection', () => {
    forEachCase(13, (_random, fronts) => {
      const n = fronts.length;
      const surfaces = attainmentSurfaces(
        fronts,
        Array.from({ length: n }, (_, i) => i + 1),
      );
      for (const s of surfaces) {
        for (let i = 1; i < s.points.length; i++) {
          expect(s.points[i][0]).toBeGreaterThan(s.points[i - 1][0]);
          expect(s.points[i][1]).toBeLessThan(s.points[i - 1][1]);
        }
      }
      // The level-k region contains the level-k' region for k < k': every point of the higher
      // surface is weakly dominated by a point of the lower one.
      for (let k = 1; k < n; k++) {
        for (const z of surfaces[k].points) expect(surfaces[k - 1].points.some((p) => p[0] <= z[0] && p[1] <= z[1])).toBe(true);
      }
      expect(surfaces[0].points).toEqual(nondominated(fronts.flat()));
      expect(surfaces[n - 1].points).toEqual(fronts.some((run) => run.length === 0) ? [] : intersectionMinima(fronts));
      // n = 1: every level is the run's non-dominated set
      if (n === 1) expect(surfaces[0].points).toEqual(nondominated(fronts[0]));
    });
  });

  it('ignores the order of runs and points, dominated points and duplicates within a run', () => {
    forEachCase(14, (random, fronts) => {
      const n = fronts.length;
      const levels = Array.from({ length: n }, (_, i) => i + 1);
      const expected = attainmentSurfaces(fronts, levels);
      const shuffled = random.shuffle(fronts.map((run) => random.shuffle([...run])));
      expect(attainmentSurfaces(shuffled, levels)).toEqual(expected);
      // each run reduced to its non-dominated set, or padded with points its own points dominate
      expect(
        attainmentSurfaces(
          fronts.map((run) => nondominated(run)),
          levels,
        ),
      ).toEqual(expected);
      const padded = fronts.map((run) => [...run, ...run.map((p) => [p[0] + random.int(0, 3), p[1] + random.int(0, 3)]), ...run]);
      expect(attainmentSurfaces(padded, levels)).toEqual(expected);
      expect(attainmentSummary(fronts)).toEqual({ runs: n, best: expected[0], median: expected[medianLevel(n) - 1], worst: expected[n - 1] });
    });
  });
});

describe('the difference of two EAFs against brute force', () => {
  it('equals the canonical decomposition of the grid, and each rectangle carries eafAt(A) - eafAt(B)', () => {
    const random = Random.fromSeed(15);
    for (let c = 0; c < CASES; c++) {
      const nA = random.int(1, 5);
      const nB = c % 2 ? nA : random.int(1, 5); // equal and unequal run counts
      const opts = { maxPoints: c % 3 === 0 ? 10 : 5, real: c % 4 === 3, emptyChance: 0.15 };
      const a = randomFronts(random, nA, opts);
      const b = randomFronts(random, nB, opts);
      const rectangles = eafDifference(a, b);
      expect(rectangles, `${JSON.stringify(a)} vs ${JSON.stringify(b)}`).toEqual(bruteDifference(a, b));
      for (const r of rectangles) {
        expect(r.value).not.toBe(0);
        expect(Math.abs(r.value)).toBeLessThanOrEqual(1);
        // inside the cell: its lower-left corner (closed side) and a point short of the upper ends
        const inner = [Math.min(r.x1, r.x0 + 100) - 1e-9, Math.min(r.y1, r.y0 + 100) - 1e-9];
        for (const z of [[r.x0, r.y0], inner]) expect(r.value).toBeCloseTo(eafAt(a, z) - eafAt(b, z), 12);
      }
      // the other way round, every value changes sign; against itself, nothing
      expect(eafDifference(b, a)).toEqual(rectangles.map((r) => ({ ...r, value: -r.value })));
      expect(eafDifference(a, a)).toEqual([]);
    }
  });

  it('covers every grid cell once where the difference is not zero, and none where it is', () => {
    const random = Random.fromSeed(16);
    for (let c = 0; c < 100; c++) {
      const a = randomFronts(random, random.int(1, 6), { maxPoints: 8, real: c % 2 === 1 });
      const b = randomFronts(random, random.int(1, 6), { maxPoints: 8, real: c % 2 === 1 });
      const rectangles = eafDifference(a, b);
      const { xs, ys } = axes(a, b);
      const probes: number[][] = [];
      for (const x of [xs[0] - 1, ...xs]) for (const y of [ys[0] - 1, ...ys]) probes.push([x, y], [x + 0.001, y + 0.001]);
      for (const z of probes) {
        const inside = rectangles.filter((r) => r.x0 <= z[0] && z[0] < r.x1 && r.y0 <= z[1] && z[1] < r.y1);
        const d = eafAt(a, z) - eafAt(b, z);
        expect(inside.length).toBe(Math.abs(d) < 1e-12 ? 0 : 1);
        if (inside.length) expect(inside[0].value).toBeCloseTo(d, 12);
      }
    }
  });

  it('agrees with eafAt at random points on a larger pair (20 runs of up to 60 points each)', () => {
    const random = Random.fromSeed(17);
    const a = randomFronts(random, 20, { maxPoints: 60, real: true, emptyChance: 0.05 });
    const b = randomFronts(random, 20, { maxPoints: 60, real: true, emptyChance: 0.05 });
    const rectangles = eafDifference(a, b);
    for (let i = 0; i < 2000; i++) {
      const z = [random.float() * 11 - 0.5, random.float() * 11 - 0.5];
      const inside = rectangles.filter((r) => r.x0 <= z[0] && z[0] < r.x1 && r.y0 <= z[1] && z[1] < r.y1);
      const d = eafAt(a, z) - eafAt(b, z);
      expect(inside.length).toBe(Math.abs(d) < 1e-12 ? 0 : 1);
      if (inside.length) expect(inside[0].value).toBeCloseTo(d, 12);
    }
  });
});

describe('edge cases', () => {
  it('runs that attained nothing count in n and attain nothing', () => {
    expect(attainmentSurfaces([[], []], [1, 2])).toEqual([
      { level: 1, fraction: 0.5, points: [] },
      { level: 2, fraction: 1, points: [] },
    ]);
    const fronts = [[[1, 1]], []];
    expect(attainmentSummary(fronts)).toEqual({
      runs: 2,
      best: { level: 1, fraction: 0.5, points: [[1, 1]] },
      median: { level: 1, fraction: 0.5, points: [[1, 1]] },
      worst: { level: 2, fraction: 1, points: [] },
    });
    expect(eafAt(fronts, [5, 5])).toBe(0.5);
    expect(eafDifference([[]], [[]])).toEqual([]);
    expect(eafDifference(fronts, [[]])).toEqual([{ x0: 1, y0: 1, x1: Infinity, y1: Infinity, value: 0.5 }]);
  });

  it('ties on an axis and duplicates across runs give one staircase point each', () => {
    // three runs with the same f1 = 1, f2 = 3, 2, 2; and (1,2) twice across runs
    const fronts = [
      [
        [1, 3],
        [2, 1],
      ],
      [[1, 2]],
      [
        [1, 2],
        [1, 2],
      ],
    ];
    expect(attainmentSurfaces(fronts, [1, 2, 3]).map((s) => s.points)).toEqual([
      [
        [1, 2],
        [2, 1],
      ],
      [[1, 2]],
      [
        [1, 3],
        [2, 2],
      ],
    ]);
  });

  it('reads -0 as 0', () => {
    expect(attainmentSurfaces([[[-0, 1]], [[0, -0]]], [1])[0].points).toEqual([[0, 0]]);
    expect(Object.is(attainmentSurfaces([[[-0, 1]]], [1])[0].points[0][0], 0)).toBe(true);
  });

  it('refuses what has no meaning', () => {
    expect(() => attainmentSurfaces([[[1, 2]]], [0])).toThrow(RangeError);
    expect(() => attainmentSurfaces([[[1, 2]]], [2])).toThrow(/from 1 to the number of runs \(1\)/);
    expect(() => attainmentSurfaces([[[1, 2]]], [0.5])).toThrow(RangeError);
    expect(() => attainmentSurfaces([[[1, 2, 3]]], [1])).toThrow(/fronts\[0\]\[0\] has 3 objectives/);
    expect(() => attainmentSurfaces([[[1, 2]], [[NaN, 1]]], [1])).toThrow(/fronts\[1\]\[0\]/);
    expect(() => attainmentSurfaces([[[Infinity, 1]]], [1])).toThrow(RangeError);
    expect(() => attainmentSummary([])).toThrow(/at least one run/);
    expect(() => eafAt([], [1, 1])).toThrow(/at least one run/);
    expect(() => eafAt([[[1, 1]]], [NaN, 1])).toThrow(RangeError);
    expect(() => eafDifference([], [[[1, 1]]])).toThrow(/at least one run on each side/);
    expect(() => eafDifference([[[1, 1]]], [[[1, 1, 1]]])).toThrow(/frontsB\[0\]\[0\]/);
    expect(() => medianLevel(0)).toThrow(RangeError);
  });
});
