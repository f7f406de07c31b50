/** ECharts options for the Solve view, pure functions of plain data; the look is the theme's (charts/theme.ts). */
import type { EChartsCoreOption } from 'echarts/core';
import type { ConvergencePoint } from '../../stores/runs.ts';
import { GRID_TOP_NO_LEGEND } from '../../charts/theme.ts';
import { paddedBounds } from '../../../src-shared/charts/axes.ts';
import { formatNumber } from '../../logic/dice/labels.ts';

/** Below this many points the line shows its points too (a one-point trace is otherwise invisible). */
const FEW = 40;

/**
 * Convergence against evaluations. SO: best feasible f (left axis) and, before the first
 * feasible solution, the best violation (right, log). MO: the front's hypervolume (left) and
 * its size (right).
 */
export function convergenceOption(points: readonly ConvergencePoint[], objectiveCount: number): EChartsCoreOption {
  const single = objectiveCount === 1;
  const main = points.filter((p) => p.value !== null).map((p) => [p.evaluations, p.value]);
  const second = points.filter((p) => p.secondary !== null && (!single || p.secondary > 0)).map((p) => [p.evaluations, p.secondary]);
  return {
    legend: {},
    tooltip: { trigger: 'axis', valueFormatter: (v: number) => formatNumber(v) },
    xAxis: { type: 'value', name: 'evaluations', min: 0, axisLabel: { formatter: (v: number) => compact(v) } },
    yAxis: [
      { type: 'value', name: single ? 'best f' : 'hypervolume', scale: true },
      single
        ? { type: 'log', name: 'violation', splitLine: { show: false } }
        : { type: 'value', name: 'front size', minInterval: 1, splitLine: { show: false } },
    ],
    series: [
      { name: single ? 'best f (feasible)' : 'hypervolume', type: 'line', step: 'end', showSymbol: main.length <= FEW, symbolSize: 7, data: main },
      {
        name: single ? 'violation (while infeasible)' : 'front size',
        type: 'line',
        step: 'end',
        showSymbol: second.length <= FEW,
        yAxisIndex: 1,
        lineStyle: { width: 1.5, type: 'dashed' },
        data: second,
      },
    ],
  };
}

/**
 * The feasible front projected on two objectives (0-based indices), on axes padded around it
 * (paddedBounds): fitted exactly, the extreme points sat half outside the plot.
 */
export function paretoOption(front: readonly (readonly number[])[], xi: number, yi: number): EChartsCoreOption {
  const bounds = (k: number) => paddedBounds(Math.min(...front.map((f) => f[k])), Math.max(...front.map((f) => f[k])));
  return {
    grid: { top: GRID_TOP_NO_LEGEND },
    tooltip: {
      trigger: 'item',
      formatter: (p: { value: number[]; dataIndex: number }) => `#${p.dataIndex + 1}: (${front[p.dataIndex].map((v) => formatNumber(v)).join(', ')})`,
    },
    xAxis: { type: 'value', name: `f${xi + 1}`, scale: true, ...bounds(xi) },
    yAxis: { type: 'value', name: `f${yi + 1}`, scale: true, ...bounds(yi) },
    series: [{ type: 'scatter', symbolSize: 9, data: front.map((f) => [f[xi], f[yi]]) }],
  };
}

/** 12000 -> "12k", 3500000 -> "3.5M". */
export function compact(v: number): string {
  if (Math.abs(v) >= 1e6) return `${Number((v / 1e6).toPrecision(3))}M`;
  if (Math.abs(v) >= 1e3) return `${Number((v / 1e3).toPrecision(3))}k`;
  return String(v);
}
