// The scatter-plot matrix's option: a panel per pair i < j with every point (through ECharts up to
// LARGE_THRESHOLD points, on the point layer beyond, each objective on the same fitted ends).
import { describe, expect, it } from 'vitest';
import { paddedBounds } from '../../../../src-shared/charts/axes.ts';
import { allPoints, groupPoints } from '../../../../src-renderer/logic/explore/groups.ts';
import { objectivesOf } from '../../../../src-renderer/logic/explore/front-data.ts';
import { LARGE_THRESHOLD, pointAt } from '../../../../src-renderer/views/explore/charts/point-series.ts';
import { matrixOption } from '../../../../src-renderer/views/explore/charts/matrix.ts';
import { smallFront } from '../fixtures.ts';

type Series = { name: string; type: string; data: Float32Array | number[][]; large?: boolean; symbol?: string; itemStyle?: { color?: string } };

describe('matrixOption', () => {
  it('the matrix has a panel per pair i < j, each with every point: through ECharts up to LARGE_THRESHOLD points', () => {
    const data = smallFront(1500, 5, 9);
    const { groups } = groupPoints(data, allPoints(data), 'solver');
    const { option, layout, lookup, layer } = matrixOption({ data, groups, hidden: new Set() });
    expect(layer).toBe(false);
    expect(layout.panels.length).toBe(10);
    expect((option.grid as unknown[]).length).toBe(10);
    expect(layout.total).toBe(data.count);
    const series = option.series as Series[];
    expect(series.length).toBe(10 * groups.length);
    // The fourth panel's first series: its sixth point, found through the lookup.
    const { xi, yi } = layout.panels[3];
    const s = series[3 * groups.length];
    const pairs = s.data as Float32Array;
    expect(pairs.length).toBe(groups[0].indices.length * 2);
    const i = pointAt(lookup, 3 * groups.length, 5)!;
    expect(pairs[10]).toBeCloseTo(objectivesOf(data, i)[xi], 3);
    expect(pairs[11]).toBeCloseTo(objectivesOf(data, i)[yi], 3);
  });

  it('above LARGE_THRESHOLD the matrix gives ECharts no points: one empty series per group (the legend), each objective on the same fitted ends in every panel', () => {
    const data = smallFront(200_000, 5, 9);
    const { groups } = groupPoints(data, allPoints(data), 'solver');
    const { option, layout, layer } = matrixOption({ data, groups, hidden: new Set() });
    expect(layer).toBe(true);
    expect(layout.panels.length).toBe(10);
    const series = option.series as Series[];
    expect(series.map((s) => s.name)).toEqual(groups.map((g) => g.name));
    expect(series.every((s) => s.data.length === 0)).toBe(true);
    const xAxes = option.xAxis as { min: number; max: number }[];
    const yAxes = option.yAxis as { min: number; max: number }[];
    for (let k = 0; k < 5; k++) {
      let lo = Infinity;
      let hi = -Infinity;
      for (let i = 0; i < data.count; i++) ((lo = Math.min(lo, data.objectives[i * 5 + k])), (hi = Math.max(hi, data.objectives[i * 5 + k])));
      const b = paddedBounds(lo, hi);
      layout.panels.forEach(({ xi, yi }, p) => {
        if (xi === k) expect([xAxes[p].min, xAxes[p].max]).toEqual([b.min, b.max]);
        if (yi === k) expect([yAxes[p].min, yAxes[p].max]).toEqual([b.min, b.max]);
      });
    }
  });
});
