// The report's attainment pieces on their own: the grid coarsening against brute force on random
// rectangles (infinite ones and ones outside the grid included) and at scale; the cells merged
// into few rectangles for drawing, each cell covered once; the staircase of a surface; the
// data from synthetic fronts (baseline against the others, solvers without runs left out).
import { describe, expect, it } from 'vitest';
import { attainmentData, axisEdges, coarsenRectangles, type UniformAxis } from '../../../src-main/report/attainment.ts';
import { blend, differenceRectangles, staircase } from '../../../src-main/report/charts.ts';
import { attainmentSummary, eafDifference, type EafRectangle } from '../../../src-shared/metrics/attainment.ts';
import type { EafDifferenceData } from '../../../src-main/report/types.ts';

/** A small seeded generator (mulberry32), so failures reproduce. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function bruteForce(rectangles: readonly EafRectangle[], x: UniformAxis, y: UniformAxis): number[][] {
  const xe = axisEdges(x);
  const ye = axisEdges(y);
  return Array.from({ length: y.count }, (_, r) =>
    Array.from({ length: x.count }, (_, c) => {
      let sum = 0;
      for (const q of rectangles)
        sum += q.value * Math.max(0, Math.min(xe[c + 1], q.x1) - Math.max(xe[c], q.x0)) * Math.max(0, Math.min(ye[r + 1], q.y1) - Math.max(ye[r], q.y0));
      return sum / ((xe[c + 1] - xe[c]) * (ye[r + 1] - ye[r]));
    }),
  );
}

describe('coarsenRectangles', () => {
  it('gives each cell the mean of the rectangles over it, as brute force does', () => {
    const next = random(7);
    const x: UniformAxis = { start: 2, step: 0.75, count: 13 };
    const y: UniformAxis = { start: -1, step: 0.5, count: 9 };
    for (let trial = 0; trial < 40; trial++) {
      const rectangles: EafRectangle[] = Array.from({ length: 1 + Math.floor(next() * 12) }, () => {
        // From before the grid to past it, some unbounded above, some inside one cell.
        const x0 = 0 + next() * 14;
        const y0 = -2 + next() * 7;
        const x1 = next() < 0.2 ? Infinity : x0 + next() * (next() < 0.3 ? 0.3 : 8);
        const y1 = next() < 0.2 ? Infinity : y0 + next() * (next() < 0.3 ? 0.2 : 4);
        return { x0, y0, x1, y1, value: Math.round((next() * 2 - 1) * 6) / 6 || 1 / 6 };
      });
      const got = coarsenRectangles(rectangles, x, y);
      const want = bruteForce(rectangles, x, y);
      got.forEach((row, r) => row.forEach((v, c) => expect(v, `trial ${trial} cell ${r},${c}`).toBeCloseTo(want[r][c], 8)));
    }
  });

  it('is exact on cell edges, and leaves out what lies outside the grid', () => {
    const x: UniformAxis = { start: 0, step: 1, count: 4 };
    const y: UniformAxis = { start: 0, step: 1, count: 2 };
    const cells = coarsenRectangles(
      [
        { x0: 1, y0: 0, x1: 3, y1: 1, value: 0.5 },
        { x0: 3.5, y0: 1, x1: Infinity, y1: Infinity, value: -1 },
        { x0: 5, y0: 0, x1: 6, y1: 1, value: 1 },
        { x0: -3, y0: -3, x1: -1, y1: 5, value: 1 },
      ],
      x,
      y,
    );
    expect(cells).toEqual([
      [0, 0.5, 0.5, 0],
      [0, 0, 0, -0.5],
    ]);
  });

  it('does work in the rectangles plus the cells, not their product: at most 3 x 3 blocks per rectangle, whatever the grid', () => {
    // A rectangle's value is read once per block of cells it adds to (coarsenRectangles' inner
    // loop); counted through a getter, so the bound is checked without a clock. Wide and tall
    // rectangles cross many cells of the fine grid and still add at most 9 blocks.
    const next = random(3);
    let reads = 0;
    const rectangles: EafRectangle[] = Array.from({ length: 20_000 }, () => {
      const x0 = next() * 100;
      const y0 = next() * 100;
      const r = { x0, y0, x1: next() < 0.3 ? Infinity : x0 + next() * 80, y1: y0 + next() * 50, v: next() < 0.5 ? 0.25 : -0.5 };
      return Object.defineProperty(r, 'value', { get: () => (reads++, r.v), enumerable: true }) as unknown as EafRectangle;
    });
    const readsOn = (columns: number, rows: number) => {
      reads = 0;
      const cells = coarsenRectangles(rectangles, { start: 0, step: 100 / columns, count: columns }, { start: 0, step: 100 / rows, count: rows });
      expect(cells).toHaveLength(rows);
      expect(cells[0]).toHaveLength(columns);
      return reads;
    };
    const coarse = readsOn(96, 64);
    const fine = readsOn(960, 640);
    expect(coarse).toBeGreaterThan(rectangles.length);
    expect(coarse).toBeLessThanOrEqual(9 * rectangles.length);
    expect(fine).toBeLessThanOrEqual(9 * rectangles.length);
    // Per cell it would be about the cells a rectangle covers: thousands each on the fine grid.
  });
});

describe('differenceRectangles', () => {
  const grid = (cells: number[][]): EafDifferenceData => ({
    a: 'a',
    b: 'b',
    runsA: 1,
    runsB: 1,
    rectangles: 0,
    min: -1,
    max: 1,
    xEdges: axisEdges({ start: 0, step: 1, count: cells[0].length }),
    yEdges: axisEdges({ start: 0, step: 10, count: cells.length }),
    cells,
  });

  it('merges equal shades along rows and then up the rows, and leaves zeros out', () => {
    const d = grid([
      [0.5, 0.5, 0, -1],
      [0.5, 0.5, 0.3, -1],
      [0.5, 0.51, 0, 0.01],
    ]);
    // 0.51 rounds to the shade 0.5; 0.01 rounds to 0.
    expect(differenceRectangles(d)).toEqual([
      [0, 0, 2, 30, 0.5],
      [3, 0, 4, 20, -1],
      [2, 10, 3, 20, 0.3],
    ]);
  });

  it('covers every non-zero cell exactly once, in its shade', () => {
    const next = random(11);
    const cells = Array.from({ length: 20 }, () => Array.from({ length: 30 }, () => (next() < 0.4 ? 0 : Math.round((next() * 2 - 1) * 4) / 4)));
    const d = grid(cells);
    const covered = cells.map((row) => row.map(() => 0));
    for (const [x0, y0, x1, y1, value] of differenceRectangles(d))
      for (let r = y0 / 10; r < y1 / 10; r++)
        for (let c = x0; c < x1; c++) {
          covered[r][c]++;
          expect(value).toBe(cells[r][c]);
        }
    cells.forEach((row, r) => row.forEach((v, c) => expect(covered[r][c]).toBe(v === 0 ? 0 : 1)));
  });
});

describe('staircase', () => {
  it('runs from the top of the plot down through the points to its right edge', () => {
    expect(
      staircase(
        [
          [1, 5],
          [2, 3],
          [4, 1],
        ],
        { x: [0, 10], y: [0, 8] },
      ),
    ).toEqual([
      [1, 8],
      [1, 5],
      [2, 3],
      [4, 1],
      [10, 1],
    ]);
    expect(staircase([], { x: [0, 1], y: [0, 1] })).toEqual([]);
  });
});

describe('blend', () => {
  it('mixes a colour over a surface', () => {
    expect(blend('#ff0000', '#ffffff', 0.5)).toBe('#ff8080');
    expect(blend('#0072b2', '#1e293b', 1)).toBe('#0072b2');
    expect(blend('#0072b2', '#1e293b', 0)).toBe('#1e293b');
  });
});

describe('attainmentData', () => {
  const a = [
    [
      [1, 5],
      [3, 2],
    ],
    [[2, 4]],
    [],
  ];
  const b = [[[4, 4]], [[0.5, 9]]];
  const c = [[[2, 2]]];

  it('summarises each solver with runs, and differences the baseline against each other solver', () => {
    const data = attainmentData(
      [
        { solver: 'a', fronts: a },
        { solver: 'none', fronts: [] },
        { solver: 'b', fronts: b },
        { solver: 'c', fronts: c },
      ],
      'b',
      { columns: 8, rows: 6 },
    )!;
    expect(data.solvers.map((s) => [s.solver, s.runs])).toEqual([
      ['a', 3],
      ['b', 2],
      ['c', 1],
    ]);
    const sa = attainmentSummary(a);
    expect(data.solvers[0]).toEqual({ solver: 'a', runs: 3, best: sa.best, median: sa.median, worst: sa.worst });
    expect(data.differences.map((d) => [d.a, d.b, d.rectangles])).toEqual([
      ['b', 'a', eafDifference(b, a).length],
      ['b', 'c', eafDifference(b, c).length],
    ]);
    expect(data.differences[0].cells).toHaveLength(6);
    expect(data.differences[0].cells[0]).toHaveLength(8);
    // Padded around every point, not below 0 for objectives that are not.
    expect(data.extent.x[0]).toBe(0);
    expect(data.extent.x[1]).toBeGreaterThan(4);
    expect(data.extent.y[0]).toBe(0);
    expect(data.extent.y[1]).toBeGreaterThan(9);
  });

  it('has no differences without a run of the baseline, and nothing without any run', () => {
    expect(
      attainmentData(
        [
          { solver: 'a', fronts: a },
          { solver: 'b', fronts: [] },
        ],
        'b',
      )!.differences,
    ).toEqual([]);
    expect(attainmentData([{ solver: 'a', fronts: [] }], 'a')).toBeNull();
    // Runs whose fronts are all empty: surfaces without points, a default range.
    const empty = attainmentData([{ solver: 'a', fronts: [[], []] }], 'a')!;
    expect(empty.solvers[0].best.points).toEqual([]);
    expect(empty.extent).toEqual({ x: [0, 1], y: [0, 1] });
  });
});
