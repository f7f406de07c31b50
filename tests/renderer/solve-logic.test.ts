import { describe, expect, it } from 'vitest';
import { appendPoint, snapshotPoint, tracePoints, type ProgressPoint } from '../../src-shared/runtime/progress.ts';
import { compact, convergenceOption, paretoOption } from '../../src-renderer/views/solve/charts.ts';
import type { Snapshot, SolverResult } from '../../src-shared/api.ts';

const record = (f: number[], feasible: boolean, violation = 0) => ({ x: '123', objectives: f, constraints: [], feasible, violation });

describe('solve view data', () => {
  it('a single-objective snapshot gives best f when feasible, the violation otherwise', () => {
    const base: Snapshot = {
      evaluations: 500,
      seconds: 1,
      progress: 0.5,
      paused: false,
      feasibleFound: false,
      best: record([12], false, 3.5),
      front: [],
      indicator: null,
    };
    expect(snapshotPoint(base, 1)).toEqual({ evaluations: 500, value: null, secondary: 3.5 });
    expect(snapshotPoint({ ...base, best: record([7.5], true) }, 1)).toEqual({ evaluations: 500, value: 7.5, secondary: null });
    expect(
      snapshotPoint(
        {
          ...base,
          best: null,
          front: [
            [1, 2],
            [2, 1],
          ],
        },
        2,
      ),
    ).toEqual({ evaluations: 500, value: null, secondary: 2 });
  });

  it('a multi-objective snapshot carries the indicator the worker computed for its front', () => {
    const s: Snapshot = {
      evaluations: 9,
      seconds: 1,
      progress: 0.1,
      paused: false,
      feasibleFound: true,
      best: null,
      front: [
        [1, 0],
        [0, 1],
      ],
      indicator: 0.96,
    };
    expect(snapshotPoint(s, 2)).toEqual({ evaluations: 9, value: 0.96, secondary: 2 });
    // An empty front has no value, whatever the indicator says.
    expect(snapshotPoint({ ...s, front: [], indicator: 0 }, 2)).toEqual({ evaluations: 9, value: null, secondary: 0 });
  });

  it('a history is thinned to between the limit and twice it, keeping the first and the newest point', () => {
    const history: ProgressPoint[] = [];
    for (let i = 0; i < 1000; i++) appendPoint(history, { evaluations: i, value: i, secondary: null }, 100);
    expect(history.length).toBeGreaterThanOrEqual(100);
    expect(history.length).toBeLessThan(200);
    expect(history[0].evaluations).toBe(0);
    expect(history.at(-1)!.evaluations).toBe(999);
    for (let i = 1; i < history.length; i++) expect(history[i].evaluations).toBeGreaterThan(history[i - 1].evaluations);
  });

  it('a result trace becomes convergence points (MO: hypervolume and front size)', () => {
    const trace = [
      { evaluations: 10, seconds: 0, best: null, violation: 2, feasible: false, frontSize: 0, indicator: null },
      { evaluations: 90, seconds: 0, best: 4, violation: 0, feasible: true, frontSize: 3, indicator: 0.7 },
    ];
    const so = { objectiveCount: 1, trace } as unknown as SolverResult;
    expect(tracePoints(so)).toEqual([
      { evaluations: 10, value: null, secondary: 2 },
      { evaluations: 90, value: 4, secondary: null },
    ]);
    const mo = { objectiveCount: 2, trace } as unknown as SolverResult;
    expect(tracePoints(mo)[1]).toEqual({ evaluations: 90, value: 0.7, secondary: 3 });
  });

  it('chart options carry the data: convergence lines and the projected front', () => {
    const option = convergenceOption(
      [
        { evaluations: 10, value: null, secondary: 2 },
        { evaluations: 90, value: 4, secondary: null },
      ],
      1,
    ) as { series: { data: number[][] }[]; yAxis: { type: string }[] };
    expect(option.series[0].data).toEqual([[90, 4]]);
    expect(option.series[1].data).toEqual([[10, 2]]);
    expect(option.yAxis[1].type).toBe('log');
    const pareto = paretoOption(
      [
        [1, 5, 9],
        [2, 4, 8],
      ],
      0,
      2,
    ) as {
      series: { data: number[][] }[];
      xAxis: { name: string; min: number; max: number; interval: number };
      yAxis: { name: string; min: number; max: number; interval: number };
    };
    expect(pareto.series[0].data).toEqual([
      [1, 9],
      [2, 8],
    ]);
    expect([pareto.xAxis.name, pareto.yAxis.name]).toEqual(['f1', 'f3']);
    // Padded around the points (none on the plot's edge), on round ends.
    expect([pareto.xAxis.min, pareto.xAxis.max, pareto.xAxis.interval]).toEqual([0.75, 2.25, 0.25]);
    expect([pareto.yAxis.min, pareto.yAxis.max, pareto.yAxis.interval]).toEqual([7.75, 9.25, 0.25]);
    expect([compact(950), compact(12_000), compact(3_500_000)]).toEqual(['950', '12k', '3.5M']);
  });
});
