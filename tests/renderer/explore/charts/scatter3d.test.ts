// The 3-D view's option: every point of the cube projected (a front view shows (f1, f3), a view
// from above (f1, f2)), and a sample within the limit while the view turns.
import { describe, expect, it } from 'vitest';
import { allPoints, groupPoints } from '../../../../src-renderer/logic/explore/groups.ts';
import { objectivesOf } from '../../../../src-renderer/logic/explore/front-data.ts';
import { pointAt } from '../../../../src-renderer/views/explore/charts/point-series.ts';
import { cubeOf, DEFAULT_VIEW3D, projectUnit, scatter3DOption, VIEW3D_EXTENT } from '../../../../src-renderer/views/explore/charts/scatter3d.ts';
import { smallFront } from '../fixtures.ts';

type Series = { name: string; type: string; data: Float32Array | number[][]; large?: boolean; symbol?: string; itemStyle?: { color?: string } };

describe('scatter3DOption', () => {
  it('the 3-D view projects every point of the cube: a front view shows (f1, f3), a view from above (f1, f2)', () => {
    const data = smallFront(500, 3, 3);
    const { groups } = groupPoints(data, allPoints(data), 'solver');
    const cube = cubeOf(
      data,
      Array.from({ length: data.count }, (_, i) => i),
    );
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
    check(
      { yaw: 0, pitch: 0 },
      (i) => unit(i, 0),
      (i) => unit(i, 2),
    );
    check(
      { yaw: 0, pitch: Math.PI / 2 },
      (i) => unit(i, 0),
      (i) => unit(i, 1),
    );
    // Turned a quarter about the vertical axis: f2 runs across, backwards.
    check(
      { yaw: Math.PI / 2, pitch: 0 },
      (i) => -unit(i, 1),
      (i) => unit(i, 2),
    );
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
