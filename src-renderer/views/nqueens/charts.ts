/**
 * ECharts options for the N-Queens lab, built by pure functions from the history and the sweep
 * summary so they can be tested without a canvas.
 */
import { use, type EChartsCoreOption } from 'echarts/core';
import { LineChart } from 'echarts/charts';
import { MarkAreaComponent } from 'echarts/components';
import { kickSpans, type History } from './lab.ts';
import type { SweepCell, SweepSetting } from './sweep.ts';

// useEChart registers bars and scatter; the lab also draws lines and shaded kick spans.
use([LineChart, MarkAreaComponent]);

const FONT = 'Inter, "Segoe UI", system-ui, sans-serif';
export const COLORS = { queens: '#3658c9', conflicts: '#dc2626', energy: '#b45309', kick: 'rgba(245, 158, 11, 0.18)', axis: '#94a3b8', grid: '#e5e9f0', text: '#334155' } as const;

/**
 * An axis top that ignores the first steps: the random start (about N*N/2 queens) would
 * otherwise flatten everything after it. The start is clipped at the top of the chart.
 */
export function axisMax(series: readonly (readonly number[])[], floor: number): number {
  let top = 0;
  for (const ys of series) for (let i = Math.min(2, ys.length - 1); i < ys.length; i++) top = Math.max(top, ys[i]);
  const raw = Math.max(floor, top * 1.15);
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  return Math.ceil(raw / magnitude) * magnitude;
}

/** Queens and conflicts (left axis) and energy (right axis) per step, kicks shaded. */
export function historyOption(h: History, n: number): EChartsCoreOption {
  const pairs = (ys: number[]) => ys.map((y, i) => [h.step[i], y]);
  return {
    animation: false,
    textStyle: { fontFamily: FONT, color: COLORS.text },
    grid: { left: 48, right: 56, top: 34, bottom: 36 },
    legend: { top: 0, data: ['queens', 'conflicts', 'energy'] },
    tooltip: { trigger: 'axis' },
    xAxis: { type: 'value', name: 'step', nameLocation: 'middle', nameGap: 24, min: 0, max: Math.max(1, h.step[h.step.length - 1] ?? 1), axisLine: { lineStyle: { color: COLORS.axis } }, splitLine: { show: false } },
    yAxis: [
      { type: 'value', name: 'queens / conflicts', min: 0, max: axisMax([h.queens, h.conflicts], 2 * n), splitLine: { lineStyle: { color: COLORS.grid } } },
      { type: 'value', name: 'energy', min: 0, max: axisMax([h.energy], 2 * n), splitLine: { show: false } },
    ],
    series: [
      {
        name: 'queens',
        type: 'line',
        showSymbol: false,
        data: pairs(h.queens),
        lineStyle: { width: 1.5, color: COLORS.queens },
        itemStyle: { color: COLORS.queens },
        markLine: { silent: true, symbol: 'none', label: { formatter: `N = ${n}` }, lineStyle: { type: 'dashed', color: COLORS.queens }, data: [{ yAxis: n }] },
        markArea: { silent: true, itemStyle: { color: COLORS.kick }, data: kickSpans(h).map(([a, b]) => [{ xAxis: a - 0.5 }, { xAxis: b + 0.5 }]) },
      },
      { name: 'conflicts', type: 'line', showSymbol: false, data: pairs(h.conflicts), lineStyle: { width: 1.5, color: COLORS.conflicts }, itemStyle: { color: COLORS.conflicts } },
      { name: 'energy', type: 'line', yAxisIndex: 1, showSymbol: false, data: pairs(h.energy), lineStyle: { width: 1, color: COLORS.energy }, itemStyle: { color: COLORS.energy } },
    ],
  };
}

const SERIES_COLORS = ['#3658c9', '#dc2626', '#15803d', '#b45309', '#7c3aed', '#0891b2'];

/** Success rate against N, one line per setting. */
export function successOption(cells: SweepCell[][], settings: readonly SweepSetting[]): EChartsCoreOption {
  return {
    animation: false,
    textStyle: { fontFamily: FONT, color: COLORS.text },
    grid: { left: 48, right: 20, top: 34, bottom: 36 },
    legend: { top: 0 },
    tooltip: { trigger: 'axis' },
    xAxis: { type: 'log', name: 'N', nameLocation: 'middle', nameGap: 24, axisLine: { lineStyle: { color: COLORS.axis } } },
    yAxis: { type: 'value', name: 'success rate', min: 0, max: 1, splitLine: { lineStyle: { color: COLORS.grid } } },
    series: cells.map((list, s) => ({
      name: settings[s]?.label ?? `setting ${s + 1}`,
      type: 'line',
      data: list.map((c) => [c.n, c.successRate]),
      itemStyle: { color: SERIES_COLORS[s % SERIES_COLORS.length] },
    })),
  };
}

/** Median steps to solution against N (log-log) with the IQR as a vertical bar per point. */
export function stepsOption(cells: SweepCell[][], settings: readonly SweepSetting[]): EChartsCoreOption {
  const series: unknown[] = [];
  cells.forEach((list, s) => {
    const color = SERIES_COLORS[s % SERIES_COLORS.length];
    const solved = list.filter((c) => c.median !== null);
    const name = settings[s]?.label ?? `setting ${s + 1}`;
    series.push({ name, type: 'line', data: solved.map((c) => [c.n, c.median]), itemStyle: { color } });
    series.push({
      name,
      type: 'custom',
      data: solved.map((c) => [c.n, c.q1, c.q3]),
      renderItem: (_params: unknown, api: { value: (i: number) => number; coord: (p: number[]) => number[] }) => {
        const [x, lo] = api.coord([api.value(0), Math.max(1, api.value(1))]);
        const [, hi] = api.coord([api.value(0), Math.max(1, api.value(2))]);
        const style = { stroke: color, lineWidth: 1.5 };
        return {
          type: 'group',
          children: [
            { type: 'line', shape: { x1: x, y1: lo, x2: x, y2: hi }, style },
            { type: 'line', shape: { x1: x - 4, y1: lo, x2: x + 4, y2: lo }, style },
            { type: 'line', shape: { x1: x - 4, y1: hi, x2: x + 4, y2: hi }, style },
          ],
        };
      },
      z: 1,
    });
  });
  return {
    animation: false,
    textStyle: { fontFamily: FONT, color: COLORS.text },
    grid: { left: 56, right: 20, top: 34, bottom: 36 },
    legend: { top: 0, data: settings.map((s) => s.label) },
    tooltip: { trigger: 'item' },
    xAxis: { type: 'log', name: 'N', nameLocation: 'middle', nameGap: 24, axisLine: { lineStyle: { color: COLORS.axis } } },
    yAxis: { type: 'log', name: 'steps to solution (median, IQR)', min: 1, splitLine: { lineStyle: { color: COLORS.grid } } },
    series,
  };
}

