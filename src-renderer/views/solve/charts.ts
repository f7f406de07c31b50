/** ECharts options for the Solve view, pure functions of plain data. */
import type { EChartsCoreOption } from 'echarts/core';
import type { ConvergencePoint } from '../../stores/runs.ts';
import { COLORS } from '../dice/charts.ts';
import { formatNumber } from '../dice/labels.ts';

const FONT = 'Inter, "Segoe UI", system-ui, sans-serif';
const tooltip = {
  backgroundColor: 'rgba(255,255,255,0.97)',
  borderColor: COLORS.grid,
  textStyle: { color: COLORS.text, fontFamily: FONT, fontSize: 12 },
};
const axisCommon = {
  axisLabel: { color: COLORS.axis, fontSize: 11 },
  splitLine: { lineStyle: { color: COLORS.grid } },
  nameTextStyle: { color: COLORS.axis, fontSize: 11 },
};

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
    animation: false,
    textStyle: { fontFamily: FONT },
    color: [COLORS.windows[0], COLORS.windows[3]],
    grid: { left: 56, right: 64, top: 36, bottom: 40 },
    legend: { top: 4, textStyle: { color: COLORS.text, fontSize: 12 } },
    tooltip: { ...tooltip, trigger: 'axis', valueFormatter: (v: number) => formatNumber(v) },
    xAxis: { type: 'value', name: 'evaluations', nameLocation: 'middle', nameGap: 26, min: 0, ...axisCommon, axisLabel: { ...axisCommon.axisLabel, formatter: (v: number) => compact(v) } },
    yAxis: [
      { type: 'value', name: single ? 'best f' : 'hypervolume', scale: true, ...axisCommon },
      single
        ? { type: 'log', name: 'violation', ...axisCommon, splitLine: { show: false } }
        : { type: 'value', name: 'front size', minInterval: 1, ...axisCommon, splitLine: { show: false } },
    ],
    series: [
      { name: single ? 'best f (feasible)' : 'hypervolume', type: 'line', step: 'end', showSymbol: main.length <= FEW, symbolSize: 7, lineStyle: { width: 2 }, data: main },
      { name: single ? 'violation (while infeasible)' : 'front size', type: 'line', step: 'end', showSymbol: second.length <= FEW, symbolSize: 5, yAxisIndex: 1, lineStyle: { width: 1.5, type: 'dashed' }, data: second },
    ],
  };
}

/** The feasible front projected on two objectives (0-based indices). */
export function paretoOption(front: readonly (readonly number[])[], xi: number, yi: number): EChartsCoreOption {
  return {
    animation: false,
    textStyle: { fontFamily: FONT },
    grid: { left: 56, right: 24, top: 32, bottom: 44 },
    tooltip: { ...tooltip, trigger: 'item', formatter: (p: { value: number[]; dataIndex: number }) => `#${p.dataIndex + 1}: (${front[p.dataIndex].map((v) => formatNumber(v)).join(', ')})` },
    xAxis: { type: 'value', name: `f${xi + 1}`, nameLocation: 'middle', nameGap: 26, scale: true, ...axisCommon },
    yAxis: { type: 'value', name: `f${yi + 1}`, scale: true, ...axisCommon },
    series: [
      {
        type: 'scatter',
        symbolSize: 9,
        itemStyle: { color: COLORS.windows[1], borderColor: '#fff', borderWidth: 1 },
        data: front.map((f) => [f[xi], f[yi]]),
      },
    ],
  };
}

/** 12000 -> "12k", 3500000 -> "3.5M". */
export function compact(v: number): string {
  if (Math.abs(v) >= 1e6) return `${Number((v / 1e6).toPrecision(3))}M`;
  if (Math.abs(v) >= 1e3) return `${Number((v / 1e3).toPrecision(3))}k`;
  return String(v);
}
