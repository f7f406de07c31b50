// `saikoro bench hv --quick`: the suite reports one row per case, for the documented points,
// and the HV each row reports equals an independent computation of the same set's hypervolume.
// (Timings are never asserted.)
import { describe, expect, it } from 'vitest';
import { benchPoints, hvBench } from '../../../src-main/bench/hv.ts';
import { suites } from '../../../src-main/bench/registry.ts';
import { renderTable } from '../../../src-main/bench/suite.ts';

const REF = 1.1; // the reference coordinate the bench documents: (1.1, ..., 1.1)
const factorial = (m: number): number => (m <= 1 ? 1 : m * factorial(m - 1));

/**
 * Hypervolume by slicing (HSO, While et al. 2006), written independently of the WFG code under
 * test: sort by the last objective; each slab between consecutive values contributes its depth
 * times the (M-1)-dimensional hypervolume of the points below it.
 */
function slicedHypervolume(points: readonly (readonly number[])[], ref: readonly number[]): number {
  const m = ref.length;
  const inside = points.filter((p) => p.every((v, k) => v < ref[k]));
  if (inside.length === 0) return 0;
  if (m === 1) return ref[0] - Math.min(...inside.map((p) => p[0]));
  // Dropping dominated points (and later duplicates) changes nothing and keeps the recursion small.
  const kept = inside.filter((p, i) => !inside.some((q, j) => j !== i && q.every((v, k) => v <= p[k]) && (j < i || q.some((v, k) => v < p[k]))));
  const sorted = [...kept].sort((a, b) => a[m - 1] - b[m - 1]);
  let volume = 0;
  for (let k = 0; k < sorted.length; k++) {
    const depth = (k + 1 < sorted.length ? sorted[k + 1][m - 1] : ref[m - 1]) - sorted[k][m - 1];
    if (depth > 0)
      volume +=
        depth *
        slicedHypervolume(
          sorted.slice(0, k + 1).map((p) => p.slice(0, m - 1)),
          ref.slice(0, m - 1),
        );
  }
  return volume;
}

describe('the independent hypervolume used below', () => {
  it('gives the known values: a box, and r^M - 1 for the M vertices of the simplex', () => {
    expect(slicedHypervolume([[0.5, 0.25, 0]], [1, 1, 1])).toBeCloseTo(0.5 * 0.75 * 1, 15);
    // The union of the boxes [e_k, r] is [0, r]^M minus [0, 1)^M.
    for (const m of [2, 3, 5, 7]) {
      const vertices = Array.from({ length: m }, (_, k) => Array.from({ length: m }, (_, j) => (j === k ? 1 : 0)));
      expect(slicedHypervolume(vertices, new Array(m).fill(REF))).toBeCloseTo(REF ** m - 1, 12);
    }
    // pygmo's documented example: [[1,0,1],[1,1,0],[-1,2,2]] against (5,5,5) is 114.
    expect(
      slicedHypervolume(
        [
          [1, 0, 1],
          [1, 1, 0],
          [-1, 2, 2],
        ],
        [5, 5, 5],
      ),
    ).toBe(114);
  });
});

describe('bench hv', () => {
  it('reports, for each --quick case, the exact hypervolume of its n simplex points', async () => {
    const progress: string[] = [];
    const report = await hvBench.run({ quick: true, progress: (m) => progress.push(m) });
    const json = report.json as { cases: { n: number; m: number; medianMs: number; minMs: number; hypervolume: number }[] };
    expect(json.cases.map((c) => [c.n, c.m])).toEqual([
      [50, 3],
      [50, 5],
      [40, 7],
    ]);
    expect(progress).toEqual(['hv: 50 points, M = 3', 'hv: 50 points, M = 5', 'hv: 40 points, M = 7']);

    for (const c of json.cases) {
      const points = benchPoints(c.n, c.m);
      // n points with M coordinates on the unit simplex, none dominating another (the hard case).
      expect(points).toHaveLength(c.n);
      for (const p of points) {
        expect(p).toHaveLength(c.m);
        expect(p.every((v) => v >= 0 && v <= 1)).toBe(true);
        expect(p.reduce((s, v) => s + v, 0)).toBeCloseTo(1, 12);
      }
      const dominatedPairs = points.flatMap((p, i) => points.filter((q, j) => j !== i && p.every((v, k) => v <= q[k])));
      expect(dominatedPairs).toEqual([]);
      // The same points every run (the seed is fixed).
      expect(benchPoints(c.n, c.m)).toEqual(points);

      // The reported HV is that set's hypervolume against (1.1, ..., 1.1) ...
      expect(c.hypervolume, `n = ${c.n}, M = ${c.m}`).toBeCloseTo(slicedHypervolume(points, new Array(c.m).fill(REF)), 12);
      // ... so it is positive and below the box minus the corner under the simplex (1.1^M - 1/M!),
      // which no point on the simplex dominates.
      expect(c.hypervolume).toBeLessThan(REF ** c.m - 1 / factorial(c.m));
      expect(c.hypervolume).toBeGreaterThan(0);
    }

    // The table shows the same rows: points, M, two timings (not asserted) and HV to 6 places.
    const table = report.tables[0];
    expect(table.columns).toEqual(['points', 'M', 'median ms', 'min ms', 'HV']);
    expect(table.rows.map((r) => [r[0], r[1], r[4]])).toEqual(json.cases.map((c) => [c.n, c.m, c.hypervolume.toFixed(6)]));
    expect(table.notes?.[0]).toContain('reference (1.1, ..., 1.1); 1 timed run(s) after one warm-up');
    expect(renderTable(table)).toContain('| points | M | median ms | min ms | HV |');
    expect(suites.find((s) => s.name === 'hv')?.byDefault).toBe(true);
  });
});
