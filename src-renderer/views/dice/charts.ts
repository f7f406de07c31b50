/**
 * ECharts options for the dice view, built from an evaluation by pure functions so they can be
 * tested without a canvas.
 */
import type { EChartsCoreOption } from 'echarts/core';
import type { DiceConfig } from '../../../src-shared/problems/dice/config.ts';
import type { DiceEvaluation } from '../../../src-shared/api.ts';
import { FEATURE_LABELS, formatNumber } from './labels.ts';
import type { FaceWindow } from './face-counts.ts';

export const COLORS = {
  ok: '#15803d',
  bad: '#dc2626',
  band: '#c7d7f5',
  bandEdge: '#7c9ce0',
  axis: '#94a3b8',
  grid: '#e5e9f0',
  text: '#334155',
  windows: ['#334e8c', '#6a8fd8', '#58b8a8', '#e0a33c', '#c0699a'],
} as const;

const FONT = 'Inter, "Segoe UI", system-ui, sans-serif';

export interface FeatureRow {
  /** 1-based feature number. */
  feature: number;
  label: string;
  value: number;
  alpha: number;
  beta: number;
  gamma: number;
  error: number;
  inBand: boolean;
}

export function featureRows(evaluation: DiceEvaluation, config: DiceConfig): FeatureRow[] {
  return evaluation.features.map((value, i) => ({
    feature: i + 1,
    label: FEATURE_LABELS[i],
    value,
    alpha: config.alpha[i],
    beta: config.beta[i],
    gamma: config.gamma[i],
    error: evaluation.errors[i],
    inBand: value >= config.alpha[i] && value <= config.beta[i],
  }));
}

export interface ConstraintRow {
  d: number;
  chi: number;
  /** q(p_d); 0 when p_d = 0. */
  lower: number;
  /** q(P_d); null when P_d = 1 (unbounded). */
  upper: number | null;
  g: number;
  feasible: boolean;
}

export function constraintRows(evaluation: DiceEvaluation, config: DiceConfig): ConstraintRow[] {
  return config.constraints.map((d, k) => ({
    d,
    chi: evaluation.chi[k],
    lower: evaluation.bounds[k][0] ?? 0,
    upper: evaluation.bounds[k][1],
    g: evaluation.constraints[k],
    feasible: evaluation.constraints[k] <= 0,
  }));
}

type RenderApi = { value(dim: number): number; coord(p: number[]): number[]; size(p: number[]): number[] };

const tooltipBase = {
  backgroundColor: 'rgba(255,255,255,0.97)',
  borderColor: COLORS.grid,
  textStyle: { color: COLORS.text, fontFamily: FONT, fontSize: 12 },
  extraCssText: 'box-shadow: 0 4px 16px rgba(15,23,42,.12); border-radius: 8px;',
};

/** The feature panels of the chart: features on one scale share a panel. */
export const FEATURE_PANELS = [
  { title: 'Face balance χ²', features: [1, 2, 3, 4, 5], weight: 5 },
  // Wider than its two bars, so that its title and axis labels fit.
  { title: 'Neighbours', features: [6, 7], weight: 3 },
  { title: 'Patterns', features: [8, 9, 10, 11, 12, 13, 14, 15], weight: 8 },
] as const;

/**
 * Feature histograms: one bar per feature (green in band, red outside), drawn over its band
 * [alpha, beta] (a shaded box, a line when alpha = beta); one panel per scale.
 */
export function featureChartOption(rows: FeatureRow[]): EChartsCoreOption {
  const total = FEATURE_PANELS.reduce((s, p) => s + p.weight, 0);
  const usable = 100; // percent of the width, shared out below
  const grids: object[] = [];
  const titles: object[] = [];
  const xAxes: object[] = [];
  const yAxes: object[] = [];
  const series: object[] = [];
  let offset = 0;
  FEATURE_PANELS.forEach((panel, k) => {
    const panelRows = panel.features.map((f) => rows[f - 1]).filter((r): r is FeatureRow => r !== undefined);
    const share = (panel.weight / total) * usable;
    // ECharts has no calc(): panels are placed by percent, with room for the axis labels.
    const gridLeft = offset + (k === 0 ? 3.5 : 4);
    grids.push({ left: `${gridLeft}%`, width: `${share - (k === 0 ? 4 : 4.5)}%`, top: 34, bottom: 26 });
    titles.push({
      text: panel.title,
      left: `${gridLeft}%`,
      top: 4,
      textStyle: { fontSize: 12, fontWeight: 600, color: COLORS.text, fontFamily: FONT },
    });
    // Room above the tallest bar or band for its label.
    const axisTop = niceCeil(Math.max(...panelRows.map((r) => Math.max(r.value, r.beta)), 1) * 1.15);
    xAxes.push({
      type: 'category',
      gridIndex: k,
      data: panelRows.map((r) => `F${r.feature}`),
      axisTick: { show: false },
      axisLine: { lineStyle: { color: COLORS.axis } },
      axisLabel: { color: COLORS.text, fontWeight: 600, fontSize: 11 },
    });
    yAxes.push({
      type: 'value',
      gridIndex: k,
      min: 0,
      max: axisTop,
      interval: niceInterval(axisTop),
      axisLabel: { color: COLORS.axis, fontSize: 10 },
      splitLine: { lineStyle: { color: COLORS.grid } },
    });
    series.push(
      {
        name: `band ${k}`,
        type: 'custom',
        xAxisIndex: k,
        yAxisIndex: k,
        encode: { x: 0, y: [1, 2] },
        silent: true,
        data: panelRows.map((r, i) => [i, r.alpha, r.beta]),
        renderItem: (_params: unknown, api: RenderApi) => {
          const x = api.value(0);
          const lo = api.coord([x, api.value(1)]);
          const hi = api.coord([x, api.value(2)]);
          const width = api.size([1, 0])[0] * 0.78;
          const height = lo[1] - hi[1];
          if (height < 2) {
            return { type: 'rect', shape: { x: lo[0] - width / 2, y: lo[1] - 1, width, height: 2 }, style: { fill: COLORS.bandEdge } };
          }
          return {
            type: 'rect',
            shape: { x: lo[0] - width / 2, y: hi[1], width, height, r: 3 },
            style: { fill: COLORS.band, stroke: COLORS.bandEdge, lineWidth: 1, lineDash: [3, 2] },
          };
        },
        z: 1,
      },
      {
        name: `value ${k}`,
        type: 'bar',
        xAxisIndex: k,
        yAxisIndex: k,
        barWidth: '42%',
        data: panelRows.map((r) => ({
          value: r.value,
          itemStyle: { color: r.inBand ? COLORS.ok : COLORS.bad, borderRadius: [3, 3, 0, 0], opacity: 0.88 },
          label: {
            show: true,
            position: 'top',
            formatter: formatNumber(r.value),
            color: r.inBand ? COLORS.text : COLORS.bad,
            fontSize: 10,
            fontWeight: r.inBand ? 400 : 700,
          },
        })),
        z: 3,
      },
    );
    offset += share;
  });
  return {
    animation: false,
    textStyle: { fontFamily: FONT },
    title: titles,
    grid: grids,
    xAxis: xAxes,
    yAxis: yAxes,
    tooltip: {
      ...tooltipBase,
      trigger: 'item',
      formatter: (params: { seriesIndex: number; dataIndex: number }) => {
        const panel = FEATURE_PANELS[Math.floor(params.seriesIndex / 2)];
        const r = rows[panel.features[params.dataIndex] - 1];
        const status = r.inBand ? `<span style="color:${COLORS.ok}">in band</span>` : `<span style="color:${COLORS.bad}">out of band: E = ${formatNumber(r.error)}</span>`;
        return `<b>F${r.feature}</b> ${r.label}<br/>value ${formatNumber(r.value)} · band [${formatNumber(r.alpha)}, ${formatNumber(r.beta)}] · γ ${formatNumber(r.gamma)}<br/>${status}`;
      },
    },
    series,
  };
}

/** A tick interval that splits a niceCeil value into 4 or 5 equal steps. */
export function niceInterval(top: number): number {
  const p = 10 ** Math.floor(Math.log10(top));
  const lead = Math.round(top / p * 10) / 10;
  return lead === 2 ? top / 4 : top / 5;
}

/** The smallest of 1, 2, 2.5, 5 times a power of ten that is at least v (v > 0). */
export function niceCeil(v: number): number {
  if (!(v > 0)) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= v - 1e-12 * p) return m * p;
  return 10 * p;
}

const SUPERSCRIPT = '⁰¹²³⁴⁵⁶⁷⁸⁹';
/** 1000 -> "10³", 0.01 -> "10⁻²"; other values as they are. */
export function powerOfTen(v: number): string {
  const k = Math.round(Math.log10(v));
  if (Math.abs(10 ** k - v) > 1e-9 * v) return formatNumber(v);
  if (k === 0) return '1';
  if (k === 1) return '10';
  const digits = [...String(Math.abs(k))].map((c) => SUPERSCRIPT[Number(c)]).join('');
  return `10${k < 0 ? '⁻' : ''}${digits}`;
}

/**
 * chi_d of each constrained d against [q(p_d), q(P_d)] on a log scale. The axis is a value
 * axis over log10 (labelled 10^k), so that every decade can carry a tick and a label.
 */
export function constraintChartOption(rows: ConstraintRow[]): EChartsCoreOption {
  const positive = rows.flatMap((r) => [r.chi, r.lower, r.upper ?? 0]).filter((v) => v > 0 && Number.isFinite(v));
  const rawLo = positive.length ? Math.floor(Math.log10(Math.min(...positive))) : 0;
  const rawHi = positive.length ? Math.ceil(Math.log10(Math.max(...positive))) : 1;
  // Whole decades, each labelled up to 8 of them, every other one (even exponents) beyond.
  const step = rawHi - rawLo > 8 ? 2 : 1;
  const lo = Math.floor(rawLo / step) * step;
  const hi = Math.max(Math.ceil(rawHi / step) * step, lo + step);
  const log = (v: number) => Math.log10(Math.min(Math.max(v, 10 ** lo), 10 ** hi));
  return {
    animation: false,
    textStyle: { fontFamily: FONT },
    grid: { left: 52, right: 16, top: 12, bottom: 32 },
    tooltip: {
      ...tooltipBase,
      trigger: 'axis',
      axisPointer: { type: 'shadow' },
      formatter: (params: Array<{ dataIndex: number }>) => {
        const r = rows[params[0].dataIndex];
        const status = r.feasible ? `<span style="color:${COLORS.ok}">satisfied</span>` : `<span style="color:${COLORS.bad}">violated, g = ${formatNumber(r.g)}</span>`;
        return `<b>d = ${r.d}</b><br/>χ<sub>d</sub> ${formatNumber(r.chi)} · bounds [${formatNumber(r.lower)}, ${formatNumber(r.upper)}]<br/>${status}`;
      },
    },
    xAxis: {
      type: 'category',
      data: rows.map((r) => `d=${r.d}`),
      axisTick: { show: false },
      axisLine: { lineStyle: { color: COLORS.grid } },
      axisLabel: { color: COLORS.text },
    },
    yAxis: {
      type: 'value',
      min: lo,
      max: hi,
      interval: step,
      axisLabel: { color: COLORS.axis, formatter: (k: number) => powerOfTen(10 ** k) },
      splitLine: { lineStyle: { color: COLORS.grid } },
    },
    series: [
      {
        name: 'bounds',
        type: 'custom',
        encode: { x: 0, y: [1, 2] },
        silent: true,
        data: rows.map((r, i) => [i, log(r.lower), r.upper === null ? hi : log(r.upper)]),
        renderItem: (_params: unknown, api: RenderApi) => {
          const x = api.value(0);
          const bottom = api.coord([x, api.value(1)]);
          const top = api.coord([x, api.value(2)]);
          const width = api.size([1, 0])[0] * 0.42;
          const height = Math.max(bottom[1] - top[1], 4);
          return {
            type: 'rect',
            shape: { x: bottom[0] - width / 2, y: bottom[1] - height + (bottom[1] - top[1] < 4 ? (4 - (bottom[1] - top[1])) / 2 : 0), width, height, r: 2 },
            style: { fill: COLORS.band, stroke: COLORS.bandEdge, lineWidth: 1 },
          };
        },
        z: 1,
      },
      {
        name: 'chi',
        type: 'scatter',
        symbol: 'diamond',
        symbolSize: 12,
        data: rows.map((r, i) => ({
          value: [i, log(r.chi)],
          itemStyle: { color: r.feasible ? COLORS.ok : COLORS.bad, borderColor: '#fff', borderWidth: 1.5 },
        })),
        z: 3,
      },
    ],
  };
}

/** Face counts of the whole sequence and of the four windows of F2..F5, side by side per face. */
export function histogramOption(windows: FaceWindow[]): EChartsCoreOption {
  return {
    animation: false,
    textStyle: { fontFamily: FONT },
    color: [...COLORS.windows],
    grid: { left: 40, right: 12, top: 40, bottom: 28 },
    legend: { top: 4, left: 'center', itemWidth: 12, itemHeight: 10, textStyle: { color: COLORS.text, fontSize: 12 } },
    tooltip: { ...tooltipBase, trigger: 'axis', axisPointer: { type: 'shadow' } },
    xAxis: {
      type: 'category',
      data: ['1', '2', '3', '4', '5', '6'],
      name: 'face',
      nameLocation: 'middle',
      nameGap: 22,
      nameTextStyle: { color: COLORS.axis },
      axisTick: { show: false },
      axisLine: { lineStyle: { color: COLORS.grid } },
      axisLabel: { color: COLORS.text, fontWeight: 600 },
    },
    yAxis: { type: 'value', minInterval: 1, axisLabel: { color: COLORS.axis }, splitLine: { lineStyle: { color: COLORS.grid } } },
    series: windows.map((w, k) => ({
      name: w.label,
      type: 'bar',
      barGap: '8%',
      barCategoryGap: '22%',
      itemStyle: { borderRadius: [3, 3, 0, 0] },
      data: w.counts,
      ...(k === 0 && w.total > 0
        ? {
            markLine: {
              symbol: 'none',
              silent: true,
              lineStyle: { color: COLORS.windows[0], type: 'dashed', opacity: 0.6 },
              label: { formatter: `N/6 = ${formatNumber(w.total / 6)}`, color: COLORS.windows[0], fontSize: 11, position: 'insideEndTop' },
              data: [{ yAxis: w.total / 6 }],
            },
          }
        : {}),
    })),
  };
}

/**
 * Where chi_d sits in its band: 0 at q(p_d), 1 at q(P_d), below 0 or above 1 outside.
 * Null when the band has no width to measure against (an infinite or zero-width band).
 */
export function bandPosition(row: Pick<ConstraintRow, 'chi' | 'lower' | 'upper'>): number | null {
  if (row.upper === null || !(row.upper > row.lower)) return null;
  return (row.chi - row.lower) / (row.upper - row.lower);
}
