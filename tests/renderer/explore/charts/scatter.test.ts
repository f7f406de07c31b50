// The 2-D scatter's option carries the data: every shown point once, at its objective values, in
// the series of its solver, infeasible points apart; the tooltip lookup leads back to the point
// (above LARGE_THRESHOLD points ECharts gets none: the point layer draws them, point-layer.test.ts);
// the reference points are ideal + 1.1 (nadir - ideal); zoom, extent, legend and pan as asked.
import { describe, expect, it } from 'vitest';
import { LIGHT_PALETTE } from '../../../../src-shared/charts/palette.ts';
import { paddedBounds } from '../../../../src-shared/charts/axes.ts';
import { allPoints, groupPoints, INFEASIBLE_SERIES } from '../../../../src-renderer/logic/explore/groups.ts';
import { fromExperiment, objectivesOf, referencePoints } from '../../../../src-renderer/logic/explore/front-data.ts';
import { LARGE_THRESHOLD, pointAt, pointTooltip } from '../../../../src-renderer/views/explore/charts/point-series.ts';
import { MARKER_ZLEVEL, pointsOnIdeal, scatterOption } from '../../../../src-renderer/views/explore/charts/scatter.ts';
import { LAYER_ZLEVEL, POINT_LAYER_ZLEVEL } from '../../../../src-renderer/views/explore/useChartLayer.ts';
import { result, runResult, smallFront, solution, SPEC } from '../fixtures.ts';

type Series = { name: string; type: string; data: Float32Array | number[][]; large?: boolean; symbol?: string; itemStyle?: { color?: string } };

describe('scatterOption', () => {
  const data = smallFront(3000, 3, 4);
  const { groups } = groupPoints(data, allPoints(data), 'solver');
  const few = smallFront(LARGE_THRESHOLD - 100, 3, 4);
  const fewGroups = groupPoints(few, allPoints(few), 'solver').groups;

  it('up to LARGE_THRESHOLD points, draws every point at its objectives xi, yi, in its series; the lookup leads back to it', () => {
    const { option, lookup, layer } = scatterOption({
      data: few,
      groups: fewGroups,
      hidden: new Set(),
      xi: 2,
      yi: 0,
      references: null,
      palette: LIGHT_PALETTE,
    });
    expect(layer).toBe(false);
    const series = option.series as Series[];
    const groups = fewGroups;
    const data = few;
    expect(series.length).toBe(groups.length);
    let total = 0;
    series.forEach((s, k) => {
      const pairs = s.data as Float32Array;
      expect(pairs.length).toBe(groups[k].indices.length * 2);
      for (let j = 0; j < pairs.length / 2; j++) {
        const i = pointAt(lookup, k, j)!;
        const f = objectivesOf(data, i);
        expect(pairs[2 * j]).toBeCloseTo(f[2], 3);
        expect(pairs[2 * j + 1]).toBeCloseTo(f[0], 3);
      }
      total += pairs.length / 2;
    });
    expect(total).toBe(data.count);
    expect(series.every((s) => !s.large)).toBe(true);
    const infeasible = series.find((s) => s.name === INFEASIBLE_SERIES)!;
    expect(infeasible.symbol).toBe('triangle');
    expect(infeasible.itemStyle?.color).toBe(LIGHT_PALETTE.bad);
    expect((option.xAxis as { name: string }).name).toBe('f3');
    expect(pointTooltip(data, pointAt(lookup, 0, 0)!)).toContain(`f3: <b>`);
  });

  it('above LARGE_THRESHOLD, gives ECharts no points (the point layer draws them): the series keep names and colours for the legend, the axes their ends', () => {
    const { option, lookup, layer } = scatterOption({
      data,
      groups,
      hidden: new Set(),
      xi: 2,
      yi: 0,
      references: null,
      palette: LIGHT_PALETTE,
      extent: 'front',
    });
    expect(data.count).toBeGreaterThan(LARGE_THRESHOLD);
    expect(layer).toBe(true);
    const series = option.series as Series[];
    expect(series.map((s) => s.name)).toEqual(groups.map((g) => g.name));
    expect(series.every((s) => s.data.length === 0)).toBe(true);
    expect(series.find((s) => s.name === INFEASIBLE_SERIES)!.itemStyle?.color).toBe(LIGHT_PALETTE.bad);
    expect(groups.every((_, k) => pointAt(lookup, k, 0) === null)).toBe(true);
    // The view shows the tooltip of the point it finds under the mouse.
    expect((option.tooltip as { triggerOn?: string }).triggerOn).toBe('none');
    const x = option.xAxis as { min: number; max: number };
    const lo = Math.min(...Array.from({ length: data.count }, (_, i) => objectivesOf(data, i)[2]));
    const hi = Math.max(...Array.from({ length: data.count }, (_, i) => objectivesOf(data, i)[2]));
    expect([x.min, x.max]).toEqual([paddedBounds(lo, hi).min, paddedBounds(lo, hi).max]);
  });

  it('starts from the zoom it is given (kept across Select and Pan), zoomed out by default', () => {
    const zooms = (zoom: { x: [number, number]; y: [number, number] } | null) =>
      (
        scatterOption({ data, groups, hidden: new Set(), xi: 0, yi: 1, references: null, zoom }).option.dataZoom as {
          xAxisIndex?: number;
          start: number;
          end: number;
        }[]
      ).map((z) => [z.xAxisIndex === 0 ? 'x' : 'y', z.start, z.end]);
    expect(zooms({ x: [20, 45], y: [5, 60] })).toEqual([
      ['x', 20, 45],
      ['y', 5, 60],
      ['x', 20, 45],
      ['y', 5, 60],
    ]);
    expect(zooms(null)).toEqual([
      ['x', 0, 100],
      ['y', 0, 100],
      ['x', 0, 100],
      ['y', 0, 100],
    ]);
  });

  it('marks ideal, nadir and the HV reference point, ideal + 1.1 (nadir - ideal), on the axes shown', () => {
    const refs = referencePoints({ ideal: [1, 2, 3], nadir: [11, 12, 23] })!;
    expect(refs.reference[0]).toBeCloseTo(12, 12);
    expect(refs.reference[1]).toBeCloseTo(13, 12);
    expect(refs.reference[2]).toBeCloseTo(25, 12);
    const { option, lookup } = scatterOption({ data, groups, hidden: new Set(), xi: 0, yi: 2, references: refs });
    const series = option.series as { id: string; data: { name: string; value: number[] }[] }[];
    const markers = series.find((s) => s.id === 'references')!;
    expect(markers.data.map((d) => [d.name, d.value])).toEqual([
      ['ideal', [1, 3]],
      ['nadir', [11, 23]],
      ['HV reference', [refs.reference[0], refs.reference[2]]],
    ]);
    expect(pointAt(lookup, series.length - 1, 0)).toBeNull();
    // Above the point layer and the selection's (zlevels 8000 and 9000), as they were above ECharts' points.
    expect((series.at(-1) as { zlevel?: number }).zlevel).toBe(MARKER_ZLEVEL);
    expect(MARKER_ZLEVEL).toBeGreaterThan(LAYER_ZLEVEL);
    expect(LAYER_ZLEVEL).toBeGreaterThan(POINT_LAYER_ZLEVEL);
  });

  it('draws points on the ideal point over its marker, which is hollow (points there were hidden under it: "3 of 16 shown" and an empty plot)', async () => {
    // A front that reached the ideal (0, 0) in both objectives: three runs' single points there.
    const refs = referencePoints({ ideal: [0, 0], nadir: [10, 20] })!;
    const spec = { ...SPEC, instances: [SPEC.instances[1]] };
    const onIdeal = fromExperiment(
      spec,
      'mo2-n8',
      [1, 2, 3].map((seed) => runResult(`r${seed}`, 'nsga2', seed, result([solution('1'.repeat(8), [0, 0])]))),
    );
    const grouping = groupPoints(onIdeal, allPoints(onIdeal), 'solver');
    expect(pointsOnIdeal(onIdeal, grouping.groups, new Set(), 0, 1, refs)).toBe(3);
    expect(pointsOnIdeal(onIdeal, grouping.groups, new Set(['nsga2']), 0, 1, refs)).toBe(0);
    expect(pointsOnIdeal(onIdeal, grouping.groups, new Set(), 0, 1, null)).toBe(0);
    const { option } = scatterOption({
      data: onIdeal,
      groups: grouping.groups,
      hidden: new Set(),
      xi: 0,
      yi: 1,
      references: refs,
      extent: 'box',
      palette: LIGHT_PALETTE,
    });
    // Drawn by ECharts as the app draws it (SVG, in this process): the last shape at the ideal's spot is the point, in its solver's colour.
    const echarts = await import('echarts');
    const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width: 400, height: 300 });
    chart.setOption(option);
    const ideal = chart.convertToPixel({ gridIndex: 0 }, [0, 0]) as number[];
    const svg = chart.renderToSVGString();
    chart.dispose();
    // The symbols of the series, in the order they are painted, each placed by its transform.
    const attr = (tag: string, name: string) => new RegExp(` ${name}="([^"]*)"`).exec(tag)?.[1] ?? null;
    const shapes = [...svg.matchAll(/<path [^>]*ecmeta_ssr_type="chart"[^>]*>/g)].map(([tag]) => {
      const at = /matrix\([^,]+,[^,]+,[^,]+,[^,]+,([-\d.]+),([-\d.]+)\)/.exec(attr(tag, 'transform') ?? '')!;
      return { x: Number(at[1]), y: Number(at[2]), fill: attr(tag, 'fill'), stroke: attr(tag, 'stroke') };
    });
    const near = shapes.filter((p) => Math.hypot(p.x - ideal[0], p.y - ideal[1]) < 1);
    expect(near.length).toBe(4);
    const pointColour = LIGHT_PALETTE.series[0];
    expect(
      near.some((p) => p.stroke === LIGHT_PALETTE.text),
      'the marker is drawn',
    ).toBe(true);
    expect(near.at(-1)!.fill).toBe(pointColour);
    // The marker itself lets what is under it show.
    for (const marker of near.filter((p) => p.stroke === LIGHT_PALETTE.text))
      expect(marker.fill === null || marker.fill === 'none' || marker.fill === 'transparent').toBe(true);
  });

  it("'front' fits the axes to the points shown, on round ends, and leaves out markers beyond them", () => {
    const m = data.objectiveCount;
    const range = (k: number, skip: string | null) => {
      let lo = Infinity;
      let hi = -Infinity;
      for (const g of groups)
        if (g.name !== skip) for (const i of g.indices) ((lo = Math.min(lo, data.objectives[i * m + k])), (hi = Math.max(hi, data.objectives[i * m + k])));
      return [lo, hi];
    };
    const [x0, x1] = range(0, null);
    const [y0, y1] = range(1, null);
    // The ideal at the lower left corner of the points, the nadir far beyond them.
    const refs = referencePoints({ ideal: [x0, y0, 0], nadir: [x1 * 10, y1 * 10, 1] })!;
    const axes = (extent: 'front' | 'box', hidden = new Set<string>()) => {
      const { option } = scatterOption({ data, groups, hidden, xi: 0, yi: 1, references: refs, extent });
      const series = option.series as { id?: string; data: { name: string }[] }[];
      const x = option.xAxis as { min?: number; max?: number };
      const y = option.yAxis as { min?: number; max?: number };
      return { x: [x.min, x.max], y: [y.min, y.max], markers: series.find((s) => s.id === 'references')!.data.map((d) => d.name) };
    };
    const front = axes('front');
    const ends = (b: { min: number; max: number }) => [b.min, b.max];
    expect(front.x).toEqual(ends(paddedBounds(x0, x1)));
    expect(front.y).toEqual(ends(paddedBounds(y0, y1)));
    expect(front.x[0]!).toBeLessThanOrEqual(x0);
    expect(front.x[1]!).toBeGreaterThanOrEqual(x1);
    expect(front.markers).toEqual(['ideal']);
    // 'box' takes in the markers too: ECharts does not see the points (they are on the layer), so the ends are given.
    expect(axes('box')).toEqual({
      x: ends(paddedBounds(x0, refs.reference[0])),
      y: ends(paddedBounds(y0, refs.reference[1])),
      markers: ['ideal', 'nadir', 'HV reference'],
    });
    // Below the threshold 'box' leaves the axes to ECharts, which sees points and markers.
    const fewBox = scatterOption({ data: few, groups: fewGroups, hidden: new Set(), xi: 0, yi: 1, references: refs, extent: 'box' }).option;
    expect([(fewBox.xAxis as { min?: number }).min, (fewBox.yAxis as { max?: number }).max]).toEqual([undefined, undefined]);
    // A hidden series no longer counts.
    const hidden = groups[0].name;
    expect(axes('front', new Set([hidden])).x).toEqual(ends(paddedBounds(...(range(0, hidden) as [number, number]))));
  });

  it('keeps legend choices: a hidden series is unselected in the legend', () => {
    const { option } = scatterOption({ data, groups, hidden: new Set([data.solvers[0]]), xi: 0, yi: 1, references: null });
    expect((option.legend as { selected: Record<string, boolean> }).selected).toMatchObject({ [data.solvers[0]]: false, [data.solvers[1]]: true });
  });

  it('pans on drag only in pan mode (otherwise the drag is the brush)', () => {
    const zoom = (pan: boolean) =>
      (
        scatterOption({ data, groups, hidden: new Set(), xi: 0, yi: 1, references: null, pan }).option.dataZoom as { type: string; moveOnMouseMove?: boolean }[]
      ).filter((z) => z.type === 'inside');
    expect(zoom(true).every((z) => z.moveOnMouseMove)).toBe(true);
    expect(zoom(false).every((z) => !z.moveOnMouseMove)).toBe(true);
  });
});
