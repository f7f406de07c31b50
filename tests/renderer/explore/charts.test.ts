// The explorer's option builders carry the data: every shown point once, at its objective values,
// in the series of its solver (or run), infeasible points apart; the tooltip lookup leads back to
// the point (above LARGE_THRESHOLD points the scatter and the matrix give ECharts none: the point
// layer draws them, point-layer.test.ts); the reference points are ideal + 1.1 (nadir - ideal);
// the parallel coordinates and the 3-D scatter stay within their drawing budgets; attainment surfaces are the
// step lines of attainment.ts's surfaces, the median at level ceil(n/2).
import { describe, expect, it } from 'vitest';
import { attainmentSummary } from '../../../src-shared/metrics/attainment.ts';
import { LIGHT_PALETTE } from '../../../src-shared/charts/palette.ts';
import { allPoints, groupPoints, INFEASIBLE_SERIES, projectPairs, strideSample } from '../../../src-renderer/views/explore/groups.ts';
import { objectivesOf, referencePoints } from '../../../src-renderer/views/explore/front-data.ts';
import {
  attainmentOption,
  boundsOf,
  LARGE_THRESHOLD,
  MARKER_ZLEVEL,
  matrixOption,
  PARALLEL_LINE_LIMIT,
  parallelOption,
  parallelSelectionSeries,
  pointAt,
  pointTooltip,
  cubeOf,
  DEFAULT_VIEW3D,
  projectUnit,
  scatter3DOption,
  scatterOption,
  surfaceLine,
  VIEW3D_EXTENT,
} from '../../../src-renderer/views/explore/charts.ts';
import { smallFront } from './fixtures.ts';
import { paddedBounds } from '../../../src-shared/charts/axes.ts';
import { LAYER_ZLEVEL, POINT_LAYER_ZLEVEL } from '../../../src-renderer/views/explore/useChartLayer.ts';

type Series = { name: string; type: string; data: Float32Array | number[][]; large?: boolean; symbol?: string; itemStyle?: { color?: string } };

describe('groupPoints', () => {
  const data = smallFront(1000, 3, 2);

  it('puts every point of a chosen run in exactly one series: its solver, or the infeasible one', () => {
    const { groups, visible, visibleCount } = groupPoints(data, allPoints(data), 'solver');
    expect(groups.map((g) => g.name)).toEqual([...data.solvers, INFEASIBLE_SERIES]);
    const seen = new Int32Array(data.count);
    for (const g of groups)
      for (const i of g.indices) {
        seen[i]++;
        expect(g.name).toBe(data.feasible[i] ? data.runs[data.run[i]].solver : INFEASIBLE_SERIES);
      }
    expect(seen.every((n) => n === 1)).toBe(true);
    expect(visibleCount).toBe(data.count);
    expect(visible.every((v) => v === 1)).toBe(true);
    // Each series's range of every objective, found while grouping, is that of its points.
    for (const g of groups)
      for (let k = 0; k < 3; k++) {
        const values = Array.from(g.indices, (i) => objectivesOf(data, i)[k]);
        expect([g.min[k], g.max[k]]).toEqual([Math.min(...values), Math.max(...values)]);
      }
  });

  it('leaves out the runs of unchosen solvers and seeds, and hides series without dropping them', () => {
    const filter = { solvers: new Set(data.solvers.slice(1)), seeds: new Set([1, 2]), hidden: new Set([data.solvers[1]]) };
    const { groups, visible } = groupPoints(data, filter, 'run');
    const chosen = (i: number) => filter.solvers.has(data.runs[data.run[i]].solver) && filter.seeds.has(data.runs[data.run[i]].seed);
    expect(groups.reduce((n, g) => n + g.indices.length, 0)).toBe(Array.from({ length: data.count }, (_, i) => i).filter(chosen).length);
    // Coloured by run: one series per chosen run, named by solver and seed.
    expect(groups.filter((g) => g.feasible).map((g) => g.name)).toEqual(
      data.runs.filter((r) => filter.solvers.has(r.solver) && filter.seeds.has(r.seed)).map((r) => `${r.solver} · seed ${r.seed}`),
    );
    for (let i = 0; i < data.count; i++) expect(visible[i]).toBe(chosen(i) ? 1 : 0);
  });

  it('strideSample keeps at most the limit, evenly, and everything below it', () => {
    const all = Int32Array.from({ length: 1000 }, (_, i) => i * 2);
    expect(strideSample(all, 2000)).toBe(all);
    const s = strideSample(all, 100);
    expect(s.length).toBe(100);
    expect(Array.from(s.slice(0, 3))).toEqual([0, 20, 40]);
  });
});

describe('scatterOption', () => {
  const data = smallFront(3000, 3, 4);
  const { groups } = groupPoints(data, allPoints(data), 'solver');
  const few = smallFront(LARGE_THRESHOLD - 100, 3, 4);
  const fewGroups = groupPoints(few, allPoints(few), 'solver').groups;

  it('up to LARGE_THRESHOLD points, draws every point at its objectives xi, yi, in its series; the lookup leads back to it', () => {
    const { option, lookup, layer } = scatterOption({ data: few, groups: fewGroups, hidden: new Set(), xi: 2, yi: 0, references: null, palette: LIGHT_PALETTE });
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
    const { option, lookup, layer } = scatterOption({ data, groups, hidden: new Set(), xi: 2, yi: 0, references: null, palette: LIGHT_PALETTE, extent: 'front' });
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
      (scatterOption({ data, groups, hidden: new Set(), xi: 0, yi: 1, references: null, zoom }).option.dataZoom as { xAxisIndex?: number; start: number; end: number }[]).map((z) => [z.xAxisIndex === 0 ? 'x' : 'y', z.start, z.end]);
    expect(zooms({ x: [20, 45], y: [5, 60] })).toEqual([['x', 20, 45], ['y', 5, 60], ['x', 20, 45], ['y', 5, 60]]);
    expect(zooms(null)).toEqual([['x', 0, 100], ['y', 0, 100], ['x', 0, 100], ['y', 0, 100]]);
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

  it("'front' fits the axes to the points shown, on round ends, and leaves out markers beyond them", () => {
    const m = data.objectiveCount;
    const range = (k: number, skip: string | null) => {
      let lo = Infinity;
      let hi = -Infinity;
      for (const g of groups) if (g.name !== skip) for (const i of g.indices) (lo = Math.min(lo, data.objectives[i * m + k])), (hi = Math.max(hi, data.objectives[i * m + k]));
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
    expect(axes('box')).toEqual({ x: ends(paddedBounds(x0, refs.reference[0])), y: ends(paddedBounds(y0, refs.reference[1])), markers: ['ideal', 'nadir', 'HV reference'] });
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
    const zoom = (pan: boolean) => (scatterOption({ data, groups, hidden: new Set(), xi: 0, yi: 1, references: null, pan }).option.dataZoom as { type: string; moveOnMouseMove?: boolean }[]).filter((z) => z.type === 'inside');
    expect(zoom(true).every((z) => z.moveOnMouseMove)).toBe(true);
    expect(zoom(false).every((z) => !z.moveOnMouseMove)).toBe(true);
  });
});

describe('matrixOption, parallelOption, scatter3DOption', () => {
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
      for (let i = 0; i < data.count; i++) (lo = Math.min(lo, data.objectives[i * 5 + k])), (hi = Math.max(hi, data.objectives[i * 5 + k]));
      const b = paddedBounds(lo, hi);
      layout.panels.forEach(({ xi, yi }, p) => {
        if (xi === k) expect([xAxes[p].min, xAxes[p].max]).toEqual([b.min, b.max]);
        if (yi === k) expect([yAxes[p].min, yAxes[p].max]).toEqual([b.min, b.max]);
      });
    }
  });

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
    expect(parallelSelectionSeries(data, selection)).toMatchObject({ id: 'selection', data: [7, 8, 9].map((i) => objectivesOf(data, i)) });
  });

  it('the 3-D view projects every point of the cube: a front view shows (f1, f3), a view from above (f1, f2)', () => {
    const data = smallFront(500, 3, 3);
    const { groups } = groupPoints(data, allPoints(data), 'solver');
    const cube = cubeOf(data, Array.from({ length: data.count }, (_, i) => i));
    const unit = (i: number, k: number) => (2 * (objectivesOf(data, i)[k] - cube.lo[k])) / (cube.hi[k] - cube.lo[k]) - 1;
    const check = (view: { yaw: number; pitch: number }, u: (i: number) => number, v: (i: number) => number) => {
      const { option, lookup } = scatter3DOption({ data, groups, hidden: new Set(), cube, view });
      const series = option.series as Series[];
      let total = 0;
      groups.forEach((_, k) => {
        const pairs = series[k].data as Float32Array;
        for (let j = 0; j < pairs.length / 2; j++) {
          const i = pointAt(lookup, k, j)!;
          expect(pairs[2 * j]).toBeCloseTo(u(i), 4);
          expect(pairs[2 * j + 1]).toBeCloseTo(v(i), 4);
        }
        total += pairs.length / 2;
      });
      expect(total).toBe(data.count);
    };
    check({ yaw: 0, pitch: 0 }, (i) => unit(i, 0), (i) => unit(i, 2));
    check({ yaw: 0, pitch: Math.PI / 2 }, (i) => unit(i, 0), (i) => unit(i, 1));
    // Turned a quarter about the vertical axis: f2 runs across, backwards.
    check({ yaw: Math.PI / 2, pitch: 0 }, (i) => -unit(i, 1), (i) => unit(i, 2));
    // Every corner of the cube stays inside the square drawn.
    for (const view of [DEFAULT_VIEW3D, { yaw: 2, pitch: -1 }, { yaw: 0.3, pitch: 1.4 }])
      for (const c of [-1, 1].flatMap((x) => [-1, 1].flatMap((y) => [-1, 1].map((z) => projectUnit(x, y, z, view)))))
        expect(Math.max(Math.abs(c[0]), Math.abs(c[1]))).toBeLessThan(VIEW3D_EXTENT);
  });

  it('while the 3-D view turns it draws a sample, within the limit', () => {
    const data = smallFront(60_000, 3, 3);
    const { groups } = groupPoints(data, allPoints(data), 'solver');
    const { option } = scatter3DOption({ data, groups, hidden: new Set(), cube: cubeOf(data, [0, 1, 2]), view: DEFAULT_VIEW3D, limit: 10_000 });
    const drawn = (option.series as Series[]).slice(0, groups.length).reduce((n, s) => n + (s.data as Float32Array).length / 2, 0);
    expect(drawn).toBeLessThanOrEqual(10_000 + groups.length);
    expect(drawn).toBeGreaterThan(9_000);
  });
});

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
    expect(surfaceLine([[1, 5], [2, 3], [4, 1]], bounds)).toEqual([
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
