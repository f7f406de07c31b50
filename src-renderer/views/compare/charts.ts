/**
 * ECharts options for the comparison view, pure functions of plain data; the look is the
 * theme's (charts/theme.ts). Each solver keeps one colour across the charts: the palette's
 * series colour at its place in the spec.
 */
import type { EChartsCoreOption } from 'echarts/core';
import type { InstanceComparison, InstanceMetricValues } from '../../../src-shared/experiments/compare.ts';
import { LIGHT_PALETTE, seriesColor, type ChartPalette } from '../../../src-shared/charts/palette.ts';
import { GRID_TOP_NO_LEGEND } from '../../charts/theme.ts';
import { compact } from '../solve/charts.ts';
import type { Convergence, LogView, MedianRun } from './compare.ts';
import { formatStat } from './compare.ts';

/** Where a run's point sits beside its box (a fixed spread, so the same data draw the same). */
function jitter(k: number): number {
  return ((k % 7) - 3) * 0.045;
}

/**
 * How the box plots' values are drawn on a log axis (`log`, from logView): each value v as
 * itself or as its gap to the maximum, and every one at or below 0 (f = 0, an HV at its maximum)
 * at `floor`, a decade under the smallest positive one, where the axis begins. `atFloor`: how
 * many runs sit there.
 */
export function logScaleOf(log: LogView, values: readonly number[]): { map: (v: number) => number; floor: number; atFloor: number } {
  const raw = (v: number) => (log.kind === 'gap' ? log.max - v : v);
  const positive = values.map(raw).filter((v) => v > 0);
  const floor = positive.length ? 10 ** (Math.floor(Math.log10(Math.min(...positive))) - 1) : 1;
  return { map: (v: number) => Math.max(floor, raw(v)), floor, atFloor: values.filter((v) => !(raw(v) > 0)).length };
}

/**
 * Per solver, a box from compareExperiment's summary (whiskers at min and max, the box from q1 to
 * q3, the line at the median) and every run's value as a point beside it. Solvers without a
 * value have no box. With `log` (logView of the metric) the axis is logarithmic: the values, or
 * for the hypervolume the gap to its maximum drawn upside down (better stays up); the tooltips
 * keep the values themselves.
 */
export function boxplotOption(
  instance: InstanceComparison,
  values: InstanceMetricValues | null,
  metric: string,
  palette: ChartPalette = LIGHT_PALETTE,
  log: LogView | null = null,
): EChartsCoreOption {
  const labels = instance.solvers.map((s) => s.label);
  const all = [
    ...instance.solvers.flatMap((s) => (s.summary ? [s.summary.min, s.summary.max] : [])),
    ...(values?.solvers.flatMap((s) => s.runs.flatMap((r) => (r.value === null ? [] : [r.value]))) ?? []),
  ];
  const scale = log ? logScaleOf(log, all) : null;
  const y = (v: number) => (scale ? scale.map(v) : v);
  const boxes = instance.solvers.map((s, i) => {
    if (!s.summary) return { name: s.label, value: ['-', '-', '-', '-', '-'] }; // ECharts' mark of a missing value keeps the other boxes at their categories.
    const raw = [s.summary.min, s.summary.q1, s.summary.median, s.summary.q3, s.summary.max];
    // Ascending as ECharts wants them (a gap to the maximum turns the order round).
    const drawn = raw.map(y).sort((a, b) => a - b);
    return { name: s.label, value: drawn, raw, itemStyle: { color: 'transparent', borderColor: seriesColor(palette, i), borderWidth: 1.6 } };
  });
  const points: { value: [number, number]; raw: number; seed: number; label: string; itemStyle: { color: string } }[] = [];
  values?.solvers.forEach((s, i) => {
    let k = 0;
    for (const r of s.runs)
      if (r.value !== null)
        points.push({ value: [i + jitter(k++), y(r.value)], raw: r.value, seed: r.seed, label: s.label, itemStyle: { color: seriesColor(palette, i) } });
  });
  const yName = !log ? metric : log.kind === 'gap' ? `${formatStat(log.max)} − ${metric} (log, best up)` : `${metric} (log)`;
  return {
    grid: { top: GRID_TOP_NO_LEGEND },
    tooltip: { trigger: 'item' },
    xAxis: [
      { type: 'category', data: labels, name: 'solver' },
      // The points' axis: the same places as the categories (i at the middle of category i).
      { type: 'value', min: -0.5, max: labels.length - 0.5, show: false },
    ],
    // Not on the points' axis' zero (the first box): at the left edge.
    yAxis: scale
      ? {
          type: 'log',
          name: yName,
          min: scale.floor,
          inverse: log!.kind === 'gap',
          axisLine: { onZero: false },
          axisLabel: { formatter: (v: number) => formatStat(v) },
        }
      : { type: 'value', name: yName, scale: true, axisLine: { onZero: false } },
    series: [
      {
        name: metric,
        type: 'boxplot',
        boxWidth: [14, 48],
        data: boxes,
        tooltip: {
          formatter: (p: { name: string; data: { raw?: number[] } }) => {
            const v = p.data.raw;
            return v
              ? `${p.name}<br>max ${formatStat(v[4])}<br>q3 ${formatStat(v[3])}<br>median ${formatStat(v[2])}<br>q1 ${formatStat(v[1])}<br>min ${formatStat(v[0])}`
              : `${p.name}: no values`;
          },
        },
      },
      {
        name: 'runs',
        type: 'scatter',
        xAxisIndex: 1,
        symbolSize: 6,
        itemStyle: { opacity: 0.75 },
        data: points,
        tooltip: {
          formatter: (p: { data: { seed: number; label: string; raw: number } }) => `${p.data.label}, seed ${p.data.seed}: ${formatStat(p.data.raw)}`,
        },
      },
    ],
  };
}

/**
 * The indicator against evaluations, one colour per solver: the median over seeds as a line and
 * the band between the quartiles (stacked: an invisible q1 line, then q3 − q1 filled).
 */
export function convergenceOption(c: Convergence, palette: ChartPalette = LIGHT_PALETTE): EChartsCoreOption {
  const series: Record<string, unknown>[] = [];
  c.bands.forEach((band, i) => {
    const color = seriesColor(palette, i);
    const at = (values: (number | null)[]) => c.evaluations.map((e, k) => [e, values[k]]);
    const width = c.evaluations.map((e, k) => [e, band.q1[k] !== null && band.q3[k] !== null ? band.q3[k]! - band.q1[k]! : null]);
    series.push(
      { name: band.label, type: 'line', step: 'end', showSymbol: false, color, data: at(band.median), z: 3 },
      {
        name: band.label,
        type: 'line',
        step: 'end',
        showSymbol: false,
        color,
        stack: `band-${i}`,
        lineStyle: { opacity: 0 },
        data: at(band.q1),
        tooltip: { show: false },
        silent: true,
      },
      {
        name: band.label,
        type: 'line',
        step: 'end',
        showSymbol: false,
        color,
        stack: `band-${i}`,
        lineStyle: { opacity: 0 },
        areaStyle: { color, opacity: 0.16 },
        data: width,
        tooltip: { show: false },
        silent: true,
      },
    );
  });
  return {
    legend: { data: c.bands.map((b) => b.label) },
    tooltip: {
      trigger: 'axis',
      formatter: (params: { seriesName: string; seriesIndex: number; value: [number, number | null]; color: string }[]) => {
        const medians = params.filter((p) => p.seriesIndex % 3 === 0);
        if (!medians.length) return '';
        return [
          `${compact(medians[0].value[0])} evaluations (median)`,
          ...medians.map((p) => `<span style="color:${p.color}">●</span> ${p.seriesName}: ${p.value[1] === null ? '–' : formatStat(p.value[1])}`),
        ].join('<br>');
      },
    },
    xAxis: { type: 'value', name: 'evaluations', min: 0, axisLabel: { formatter: (v: number) => compact(v) } },
    yAxis: { type: 'value', name: c.single ? 'best feasible f' : 'hypervolume', scale: true },
    series,
  };
}

export interface FrontSeries {
  run: MedianRun;
  /** Raw objectives of the run's final front. */
  front: readonly (readonly number[])[];
}

/** The final fronts of the solvers' median-HV runs, projected on objectives xi and yi (0-based). */
export function frontsOption(
  fronts: readonly FrontSeries[],
  labels: readonly string[],
  xi: number,
  yi: number,
  palette: ChartPalette = LIGHT_PALETTE,
): EChartsCoreOption {
  return {
    legend: {},
    tooltip: {
      trigger: 'item',
      formatter: (p: { seriesName: string; value: number[] }) =>
        `${p.seriesName}<br>f${xi + 1} = ${formatStat(p.value[0])}, f${yi + 1} = ${formatStat(p.value[1])}`,
    },
    xAxis: { type: 'value', name: `f${xi + 1}`, scale: true },
    yAxis: { type: 'value', name: `f${yi + 1}`, scale: true },
    series: fronts.map((f) => ({
      name: `${f.run.label} (seed ${f.run.seed})`,
      type: 'scatter',
      symbolSize: 8,
      color: seriesColor(palette, Math.max(0, labels.indexOf(f.run.label))),
      data: f.front.map((o) => [o[xi], o[yi]]),
    })),
  };
}
