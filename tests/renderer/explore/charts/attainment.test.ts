// Attainment surfaces as step lines (surfaces.ts) and the attainment chart's option: best, median
// (level ceil(n/2)) and worst of attainment.ts's surfaces.
import { describe, expect, it } from 'vitest';
import { attainmentSummary } from '../../../../src-shared/metrics/attainment.ts';
import { attainmentOption } from '../../../../src-renderer/views/explore/charts/attainment.ts';
import { boundsOf, surfaceLine } from '../../../../src-renderer/views/explore/charts/surfaces.ts';

describe('attainment surfaces as step lines', () => {
  const fronts = [
    [
      [1, 5],
      [3, 2],
    ],
    [[2, 4]],
    [
      [2, 3],
      [4, 1],
    ],
  ];

  it('surfaceLine goes down from the top, right and down through the points, right to the edge', () => {
    const bounds = { x0: 0, x1: 10, y0: 0, y1: 10 };
    expect(
      surfaceLine(
        [
          [1, 5],
          [2, 3],
          [4, 1],
        ],
        bounds,
      ),
    ).toEqual([
      [1, 10],
      [1, 5],
      [2, 3],
      [4, 1],
      [10, 1],
    ]);
    expect(surfaceLine([], bounds)).toEqual([]);
  });

  it('the option draws best, median (level ceil(n/2)) and worst of attainmentSummary', () => {
    const summary = attainmentSummary(fronts);
    const points = fronts.flat();
    const option = attainmentOption({ solver: 'nsga2', colour: 0, points, surfaces: summary, runs: 3, names: ['f1', 'f2'] })!;
    const series = option.series as { name: string; data: number[][]; step?: string }[];
    expect(series.map((s) => s.name)).toEqual(['points', 'best (1/3)', 'median (2/3)', 'worst (3/3)']);
    const bounds = boundsOf(points)!;
    expect(series[2].step).toBe('end');
    expect(series[2].data).toEqual(surfaceLine(summary.median.points, bounds));
    expect(summary.median.points).toEqual([
      [2, 4],
      [3, 3],
      [4, 2],
    ]);
  });
});
