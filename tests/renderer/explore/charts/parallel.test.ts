// The parallel coordinates' option: an axis per objective, at most the line limit, the selection
// apart, tick labels over the lines.
import { describe, expect, it } from 'vitest';
import { LIGHT_PALETTE } from '../../../../src-shared/charts/palette.ts';
import { allPoints, groupPoints } from '../../../../src-renderer/logic/explore/groups.ts';
import { objectivesOf } from '../../../../src-renderer/logic/explore/front-data.ts';
import {
  PARALLEL_LINE_LIMIT,
  parallelLinesUnderSelection,
  parallelOption,
  parallelSelectionSeries,
} from '../../../../src-renderer/views/explore/charts/parallel.ts';
import { groupColour } from '../../../../src-renderer/views/explore/charts/point-series.ts';
import { smallFront } from '../fixtures.ts';

type Series = { name: string; type: string; data: Float32Array | number[][]; large?: boolean; symbol?: string; itemStyle?: { color?: string } };

describe('parallelOption', () => {
  it('parallel coordinates: the tick labels lie over the lines, each on a box of the surface colour', () => {
    const data = smallFront(5000, 4, 1);
    const { groups } = groupPoints(data, allPoints(data), 'solver');
    const { option } = parallelOption({ data, groups, hidden: new Set(), palette: LIGHT_PALETTE });
    const lines = Math.max(...(option.series as { z?: number }[]).map((s) => s.z ?? 2));
    for (const axis of option.parallelAxis as { z: number; axisLabel: { backgroundColor: string } }[]) {
      expect(axis.z).toBeGreaterThan(lines);
      expect(axis.axisLabel.backgroundColor).toBe(LIGHT_PALETTE.surface);
    }
  });

  it('parallel coordinates: an axis per objective, at most the line limit, the selection apart', () => {
    const data = smallFront(30_000, 4, 1);
    const { groups } = groupPoints(data, allPoints(data), 'solver');
    const { option, drawn, total } = parallelOption({ data, groups, hidden: new Set() });
    expect((option.parallelAxis as { dim: number }[]).map((a) => a.dim)).toEqual([0, 1, 2, 3]);
    expect(total).toBe(30_000);
    expect(drawn).toBeLessThanOrEqual(PARALLEL_LINE_LIMIT + groups.length);
    const lines = (option.series as Series[]).filter((s) => s.name !== 'selection').reduce((n, s) => n + (s.data as number[][]).length, 0);
    expect(lines).toBe(drawn);
    const selection = Int32Array.from([7, 8, 9]);
    expect(parallelSelectionSeries(data, selection)).toMatchObject({ id: 'selection', data: [7, 8, 9].map((i) => ({ value: objectivesOf(data, i) })) });
  });

  it("parallel coordinates: each selected line keeps its series' colour (it took the accent, close to the first solver's), and the rest grow fainter", () => {
    const data = smallFront(3_000, 4, 2);
    const grouping = groupPoints(data, allPoints(data), 'solver');
    expect(grouping.groups.length).toBeGreaterThanOrEqual(3);
    // One point of each series.
    const selection = Int32Array.from(grouping.groups.map((g) => g.indices[0]));
    const series = parallelSelectionSeries(data, selection, { groups: grouping.groups, groupOf: grouping.groupOf, palette: LIGHT_PALETTE }) as {
      data: { value: number[]; lineStyle: { color: string } }[];
    };
    expect(series.data.map((d) => d.lineStyle.color)).toEqual(grouping.groups.map((g) => groupColour(LIGHT_PALETTE, g)));
    expect(series.data.map((d) => d.value)).toEqual(Array.from(selection, (i) => objectivesOf(data, i)));
    const { drawn } = parallelOption({ data, groups: grouping.groups, hidden: new Set() });
    const plain = parallelLinesUnderSelection(grouping.groups, drawn, false) as { lineStyle: { opacity: number } }[];
    const under = parallelLinesUnderSelection(grouping.groups, drawn, true) as { lineStyle: { opacity: number } }[];
    for (let k = 0; k < plain.length; k++) expect(under[k].lineStyle.opacity).toBeLessThan(plain[k].lineStyle.opacity / 2);
  });
});
