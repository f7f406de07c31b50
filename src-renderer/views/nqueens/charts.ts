/**
 * ECharts options for the N-Queens lab, built by pure functions from the history and the sweep
 * summary so they can be tested without a canvas. The look is the theme's (charts/theme.ts);
 * the palette argument gives the history the colours that mean the same as on the board
 * (conflicts, kicks).
 */
import type { EChartsCoreOption } from 'echarts/core';
import { LIGHT_PALETTE, type ChartPalette } from '../../../src-shared/charts/palette.ts';
import { kickSpans, type History } from './lab.ts';
import type { SweepCell, SweepSetting } from './sweep.ts';

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
export function historyOption(h: History, n: number, palette: ChartPalette = LIGHT_PALETTE): EChartsCoreOption {
  const pairs = (ys: number[]) => ys.map((y, i) => [h.step[i], y]);
  return {
    color: [palette.accent, palette.bad, palette.warn],
    legend: { data: ['queens', 'conflicts', 'energy'] },
    tooltip: { trigger: 'axis' },
    xAxis: { type: 'value', name: 'step', min: 0, max: Math.max(1, h.step[h.step.length - 1] ?? 1), splitLine: { show: false } },
    yAxis: [
      { type: 'value', name: 'queens / conflicts', min: 0, max: axisMax([h.queens, h.conflicts], 2 * n) },
      { type: 'value', name: 'energy', min: 0, max: axisMax([h.energy], 2 * n), splitLine: { show: false } },
    ],
    series: [
      {
        name: 'queens',
        type: 'line',
        showSymbol: false,
        data: pairs(h.queens),
        lineStyle: { width: 1.5 },
        markLine: {
          silent: true,
          symbol: 'none',
          label: { formatter: `N = ${n}`, position: 'insideEndTop' },
          lineStyle: { type: 'dashed' },
          data: [{ yAxis: n }],
        },
        markArea: {
          silent: true,
          itemStyle: { color: palette.kick, opacity: 0.18 },
          data: kickSpans(h).map(([a, b]) => [{ xAxis: a - 0.5 }, { xAxis: b + 0.5 }]),
        },
      },
      { name: 'conflicts', type: 'line', showSymbol: false, data: pairs(h.conflicts), lineStyle: { width: 1.5 } },
      { name: 'energy', type: 'line', yAxisIndex: 1, showSymbol: false, data: pairs(h.energy), lineStyle: { width: 1 } },
    ],
  };
}

/** Success rate against N, one line per setting. */
export function successOption(cells: SweepCell[][], settings: readonly SweepSetting[]): EChartsCoreOption {
  return {
    legend: {},
    tooltip: { trigger: 'axis' },
    xAxis: { type: 'log', name: 'N' },
    yAxis: { type: 'value', name: 'success rate', min: 0, max: 1 },
    series: cells.map((list, s) => ({
      name: settings[s]?.label ?? `setting ${s + 1}`,
      type: 'line',
      data: list.map((c) => [c.n, c.successRate]),
    })),
  };
}

/** Median steps to solution against N (log-log) with the IQR as a vertical bar per point. */
export function stepsOption(cells: SweepCell[][], settings: readonly SweepSetting[]): EChartsCoreOption {
  const series: unknown[] = [];
  cells.forEach((list, s) => {
    const solved = list.filter((c) => c.median !== null);
    const name = settings[s]?.label ?? `setting ${s + 1}`;
    series.push({ name, type: 'line', data: solved.map((c) => [c.n, c.median]) });
    // Same name, same colour from the theme's palette: the bars take their line's colour.
    series.push({
      name,
      type: 'custom',
      data: solved.map((c) => [c.n, c.q1, c.q3]),
      renderItem: (_params: unknown, api: { value: (i: number) => number; coord: (p: number[]) => number[]; visual: (key: 'color') => string }) => {
        const [x, lo] = api.coord([api.value(0), Math.max(1, api.value(1))]);
        const [, hi] = api.coord([api.value(0), Math.max(1, api.value(2))]);
        const style = { stroke: api.visual('color'), lineWidth: 1.5 };
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
    legend: { data: settings.map((s) => s.label) },
    tooltip: { trigger: 'item' },
    xAxis: { type: 'log', name: 'N' },
    yAxis: { type: 'log', name: 'steps to solution (median, IQR)', min: 1 },
    series,
  };
}
