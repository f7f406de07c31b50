/**
 * ECharts options for the dice view, built from an evaluation by pure functions so they can be
 * tested without a canvas. Fonts, axes, tooltips and series colours come from the theme
 * (charts/theme.ts); the palette argument gives the colours that carry meaning here (in band or
 * not, the band itself).
 */
import type { EChartsCoreOption } from 'echarts/core';
import { blockReading, type BlockReading } from '../../../src-shared/problems/dice/block-reading.ts';
import { LIGHT_PALETTE, seriesColor, type ChartPalette } from '../../../src-shared/charts/palette.ts';
import { decadeAxis, FEATURE_PANELS, niceCeil, niceInterval } from '../../../src-shared/charts/axes.ts';
import { GRID_TOP_NO_LEGEND } from '../../charts/theme.ts';
import type { DiceConfig } from '../../../src-shared/problems/dice/config.ts';
import type { DiceEvaluation } from '../../../src-shared/api.ts';
import { FEATURE_LABELS, formatNumber } from '../../logic/dice/labels.ts';
import type { FaceWindow } from './face-counts.ts';
import { bandScale, type ObjectiveShare } from './inspect.ts';

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
  /** What the constraint means at this N (the values chi_d can take; block-reading.ts). */
  reading: BlockReading;
  /** chi_d is at its smallest possible value, K - B: every block different. */
  smallest: boolean;
}

export function constraintRows(evaluation: DiceEvaluation, config: DiceConfig): ConstraintRow[] {
  return config.constraints.map((d, k) => {
    const lower = evaluation.bounds[k][0] ?? 0;
    const upper = evaluation.bounds[k][1];
    const reading = blockReading(config.n, d, lower, upper);
    const chi = evaluation.chi[k];
    const smallest = reading.blocks <= reading.kinds && Math.abs(chi - reading.smallest) <= 1e-9 * reading.kinds;
    return { d, chi, lower, upper, g: evaluation.constraints[k], feasible: evaluation.constraints[k] <= 0, reading, smallest };
  });
}

/**
 * What the large d mean at this N, in a sentence, or null when every d is a fine-grained measure:
 * the d whose band holds only a few of the values chi_d can take (far fewer blocks than kinds),
 * what each then says, and those at their smallest value, whose place in the band (near the
 * middle) tells nothing more.
 */
export function blockReadingNote(rows: readonly ConstraintRow[], n: number): string | null {
  const read = rows.filter((r) => r.reading.meaning !== null);
  if (!read.length) return null;
  const ds = (list: readonly ConstraintRow[]) => dRange(list.map((r) => r.d));
  const norepeat = read.filter((r) => r.reading.pairs?.from === 0 && r.reading.pairs.to === 0);
  const parts = [
    `At N = ${formatNumber(n)}, d = ${ds(read)} cut the sequence into far fewer blocks than their 6ᵈ kinds (${read.map((r) => `${r.reading.blocks}`).join(', ')} blocks), so their χ² can only be 6ᵈ − B (every block different) or that plus 2·6ᵈ/B for each pair of equal blocks.`,
  ];
  if (norepeat.length) parts.push(`For d = ${ds(norepeat)} the constraint then means only that no block repeats.`);
  const atSmallest = read.filter((r) => r.smallest);
  if (atSmallest.length)
    parts.push(
      `The χ² of d = ${ds(atSmallest)} is at its smallest possible value: its place in the band (near the middle) says nothing more about how random the blocks look.`,
    );
  return parts.join(' ');
}

/** "7–12", "3, 5–7": a list of block lengths with runs joined. */
function dRange(ds: readonly number[]): string {
  const out: string[] = [];
  for (let i = 0; i < ds.length; ) {
    let j = i;
    while (j + 1 < ds.length && ds[j + 1] === ds[j] + 1) j++;
    out.push(j > i + 1 ? `${ds[i]}–${ds[j]}` : j === i + 1 ? `${ds[i]}, ${ds[j]}` : `${ds[i]}`);
    i = j + 1;
  }
  return out.join(', ');
}

type RenderApi = { value(dim: number): number; coord(p: number[]): number[]; size(p: number[]): number[] };

/**
 * Feature histograms: one bar per feature (green in band, red outside), drawn over its band
 * [alpha, beta] (a shaded box, a line when alpha = beta); one panel per scale. The feature
 * `picked` (1-based) is outlined in the accent colour and its name underlined.
 */
export function featureChartOption(rows: FeatureRow[], palette: ChartPalette = LIGHT_PALETTE, picked: number | null = null): EChartsCoreOption {
  const total = FEATURE_PANELS.reduce((s, p) => s + p.weight, 0);
  const gap = 2; // percent of the width between panels
  const grids: object[] = [];
  const titles: object[] = [];
  const xAxes: object[] = [];
  const yAxes: object[] = [];
  const series: object[] = [];
  let offset = 0;
  FEATURE_PANELS.forEach((panel, k) => {
    const panelRows = panel.features.map((f) => rows[f - 1]).filter((r): r is FeatureRow => r !== undefined);
    const share = (panel.weight / total) * 100;
    // ECharts has no calc(): panels are placed by percent; each grid keeps its labels inside.
    const left = offset + (k === 0 ? 0 : gap / 2);
    grids.push({ left: `${left}%`, width: `${share - gap / 2}%` });
    titles.push({ text: panel.title, left: `${left}%`, top: 4 });
    // Room above the tallest bar or band for its label.
    const axisTop = niceCeil(Math.max(...panelRows.map((r) => Math.max(r.value, r.beta)), 1) * 1.15);
    xAxes.push({
      type: 'category',
      gridIndex: k,
      data: panelRows.map((r) =>
        r.feature === picked ? { value: `F${r.feature}`, textStyle: { color: palette.accent, fontWeight: 800, textDecoration: 'underline' } } : `F${r.feature}`,
      ),
      axisLabel: { fontWeight: 600 },
    });
    yAxes.push({ type: 'value', gridIndex: k, min: 0, max: axisTop, interval: niceInterval(axisTop) });
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
            return { type: 'rect', shape: { x: lo[0] - width / 2, y: lo[1] - 1, width, height: 2 }, style: { fill: palette.bandEdge } };
          }
          return {
            type: 'rect',
            shape: { x: lo[0] - width / 2, y: hi[1], width, height, r: 3 },
            style: { fill: palette.band, stroke: palette.bandEdge, lineWidth: 1, lineDash: [3, 2] },
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
          itemStyle: {
            color: r.inBand ? palette.ok : palette.bad,
            opacity: 0.88,
            ...(r.feature === picked ? { borderColor: palette.accent, borderWidth: 2.5 } : {}),
          },
          label: {
            show: true,
            position: 'top',
            formatter: formatNumber(r.value),
            color: r.inBand ? palette.text : palette.bad,
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
    title: titles,
    grid: grids,
    xAxis: xAxes,
    yAxis: yAxes,
    tooltip: {
      trigger: 'item',
      formatter: (params: { seriesIndex: number; dataIndex: number }) => {
        const panel = FEATURE_PANELS[Math.floor(params.seriesIndex / 2)];
        const r = rows[panel.features[params.dataIndex] - 1];
        const status = r.inBand
          ? `<span style="color:${palette.ok}">in band</span>`
          : `<span style="color:${palette.bad}">out of band: E = ${formatNumber(r.error)}</span>`;
        return `<b>F${r.feature}</b> ${r.label}<br/>value ${formatNumber(r.value)} · band [${formatNumber(r.alpha)}, ${formatNumber(r.beta)}] · γ ${formatNumber(r.gamma)}<br/>${status}`;
      },
    },
    series,
  };
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
export function constraintChartOption(rows: ConstraintRow[], palette: ChartPalette = LIGHT_PALETTE): EChartsCoreOption {
  const { lo, hi, step, log } = decadeAxis(rows.flatMap((r) => [r.chi, r.lower, r.upper ?? 0]));
  return {
    grid: { top: GRID_TOP_NO_LEGEND },
    tooltip: {
      trigger: 'axis',
      axisPointer: { type: 'shadow' },
      formatter: (params: Array<{ dataIndex: number }>) => {
        const r = rows[params[0].dataIndex];
        const status = r.feasible
          ? `<span style="color:${palette.ok}">satisfied</span>`
          : `<span style="color:${palette.bad}">violated, g = ${formatNumber(r.g)}</span>`;
        return `<b>d = ${r.d}</b><br/>χ<sub>d</sub> ${formatNumber(r.chi)} · bounds [${formatNumber(r.lower)}, ${formatNumber(r.upper)}]<br/>${status}`;
      },
    },
    xAxis: { type: 'category', data: rows.map((r) => `d=${r.d}`) },
    yAxis: { type: 'value', min: lo, max: hi, interval: step, axisLabel: { formatter: (k: number) => powerOfTen(10 ** k) } },
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
            style: { fill: palette.band, stroke: palette.bandEdge, lineWidth: 1 },
          };
        },
        z: 1,
      },
      {
        name: 'chi',
        type: 'scatter',
        symbol: 'diamond',
        symbolSize: 12,
        itemStyle: { borderWidth: 1.5 },
        data: rows.map((r, i) => ({ value: [i, log(r.chi)], itemStyle: { color: r.feasible ? palette.ok : palette.bad } })),
        z: 3,
      },
    ],
  };
}

/**
 * Face counts of the whole sequence and of the four windows of F2..F5, side by side per face,
 * in the theme's series colours; the whole sequence's count per face if the faces were even, N/6,
 * as a dashed line.
 */
export function histogramOption(windows: FaceWindow[]): EChartsCoreOption {
  return {
    legend: {},
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    xAxis: { type: 'category', data: ['1', '2', '3', '4', '5', '6'], name: 'face', axisLabel: { fontWeight: 600 } },
    yAxis: { type: 'value', minInterval: 1 },
    series: windows.map((w, k) => ({
      name: w.label,
      type: 'bar',
      barGap: '8%',
      barCategoryGap: '22%',
      data: w.counts,
      ...(k === 0 && w.total > 0
        ? {
            markLine: {
              symbol: 'none',
              silent: true,
              lineStyle: { type: 'dashed', opacity: 0.7 },
              label: { formatter: `N/6 = ${formatNumber(w.total / 6)}`, position: 'insideEndTop' },
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

/**
 * A chi-square, a bound or a distance between them, readable when they are all near 6^d: from
 * 10^4 on, the whole number with its thousands grouped (the bands there are hundreds wide or
 * more, so the fraction says nothing), else formatNumber. At d = 12 chi, q(p) and q(P) all read
 * "2.177e+9" with formatNumber; here they read 2,176,782,332 against 2,176,697,777.
 */
export function formatBandValue(v: number): string {
  if (Number.isFinite(v) && Math.abs(v) >= 1e4) return Math.round(v).toLocaleString('en-US').replace('-', '−');
  return formatNumber(v).replace(/^-/, '−');
}

/** A distance to a band's end: whole numbers from 10^4 on, else 3 significant digits (the band is what it is measured against). */
function formatDistance(v: number): string {
  return Math.abs(v) >= 1e4 ? formatBandValue(v) : formatNumber(Number(v.toPrecision(3))).replace(/^-/, '−');
}

/** Where chi_d sits in its band, in words: the share of the band and the distances to its ends. */
export interface BandReading {
  /** (chi − q(p)) / (q(P) − q(p)) as a percentage ("49.9 %"; below 0 or above 100 outside); null without an upper bound. */
  percent: string | null;
  /** The distances to the band's ends: "84,555 above q(p) · 84,562 below q(P)", or how far outside. */
  distances: string;
}

/** t as a percentage to 3 significant digits, more when those would round a point inside the band onto its end (or an end's neighbour outside onto it). */
function bandPercent(t: number): number {
  const short = Number((t * 100).toPrecision(3));
  const readsAsEnd = short === 0 || short === 100;
  const isEnd = t === 0 || t === 1;
  return readsAsEnd && !isEnd ? Number((t * 100).toPrecision(6)) : short;
}

export function bandReading(row: Pick<ConstraintRow, 'chi' | 'lower' | 'upper'>): BandReading {
  const t = bandPosition(row);
  const percent = t === null ? null : `${formatNumber(bandPercent(t)).replace(/^-/, '−')} %`;
  const { chi, lower, upper } = row;
  let distances: string;
  if (chi < lower) distances = `${formatDistance(lower - chi)} below q(p)`;
  else if (upper === null) distances = `${formatDistance(chi - lower)} above q(p); no upper bound`;
  else if (chi > upper) distances = `${formatDistance(chi - upper)} above q(P)`;
  else distances = `${formatDistance(chi - lower)} above q(p) · ${formatDistance(upper - chi)} below q(P)`;
  return { percent, distances };
}

/**
 * Each objective as one bar of 100 %, split into the shares of the errors E_i of its group
 * (one colour per feature, its name written on its share when there is room). The axis labels
 * give each objective's value; an objective of 0 has no share to show and says "in band".
 */
export function objectiveShareOption(shares: ObjectiveShare[], palette: ChartPalette = LIGHT_PALETTE): EChartsCoreOption {
  const features = [...new Set(shares.flatMap((s) => s.parts.map((p) => p.feature)))].sort((a, b) => a - b);
  const name = (s: ObjectiveShare) => (shares.length > 1 ? `f${s.objective + 1}` : 'f');
  return {
    grid: { top: GRID_TOP_NO_LEGEND },
    tooltip: {
      trigger: 'item',
      formatter: (params: { seriesName: string; dataIndex: number; value: number }) => {
        const s = shares[params.dataIndex];
        const part = s.parts.find((p) => `F${p.feature}` === params.seriesName)!;
        return `<b>${params.seriesName}</b> ${FEATURE_LABELS[part.feature - 1]}<br/>E = ${formatNumber(part.error)} of ${name(s)} = ${formatNumber(s.value)} (${formatNumber(Math.round(part.share * 1000) / 10)} %)`;
      },
    },
    xAxis: { type: 'value', min: 0, max: 100, interval: 25, axisLabel: { formatter: '{value} %' } },
    yAxis: {
      type: 'category',
      inverse: true,
      data: shares.map((s) => `${name(s)} = ${formatNumber(s.value)}${s.value > 0 ? '' : ' (in band)'}`),
      axisLabel: { fontWeight: 600 },
    },
    series: features.map((f) => ({
      name: `F${f}`,
      type: 'bar',
      stack: 'share',
      barWidth: '64%',
      itemStyle: { color: seriesColor(palette, f - 1), borderColor: palette.surface, borderWidth: 1, borderRadius: 0 },
      label: {
        show: true,
        formatter: (p: { value: number }) => (p.value >= 6 ? `F${f}` : ''),
        color: palette.text,
        textBorderColor: palette.surface,
        textBorderWidth: 2.5,
        fontSize: 10.5,
        fontWeight: 600,
      },
      data: shares.map((s) => {
        const part = s.parts.find((p) => p.feature === f);
        return part && part.error > 0 ? part.share * 100 : '-';
      }),
    })),
  };
}

/** Where the constraint chart puts a tick: the band's ends, and 1, 10, 100, ... band widths outside it. */
export function bandTicks(lo: number, hi: number): { value: number; label: string }[] {
  const ticks = [
    { value: 0, label: 'q(p)' },
    { value: 1, label: 'q(P)' },
  ];
  for (let k = 0; k < 12; k++) {
    const above = 1 + Math.log10(1 + 10 ** k);
    const below = -Math.log10(1 + 10 ** k);
    const label = k === 0 ? '1×' : `${powerOfTen(10 ** k)}×`;
    if (above <= hi) ticks.push({ value: above, label: `+${label}` });
    if (below >= lo) ticks.push({ value: below, label: `−${label}` });
  }
  return ticks.sort((a, b) => a.value - b.value);
}

/**
 * chi_d of each constrained d placed relative to its own band (inspect.ts bandScale): the band
 * [q(p_d), q(P_d)] is the shaded stripe from 0 to 1, the same for every d, and a value outside
 * it sits at its distance in band widths on a log scale. A pass is a circle labelled "pass", a
 * fail a triangle pointing away from the band labelled "fail": shape and word as well as colour.
 */
export function constraintPositionOption(rows: ConstraintRow[], palette: ChartPalette = LIGHT_PALETTE): EChartsCoreOption {
  const scales = rows.map((r) => bandScale(r));
  const lo = Math.min(-0.6, Math.min(...scales) - 0.45);
  const hi = Math.max(1.6, Math.max(...scales) + 0.45);
  const ticks = bandTicks(lo, hi);
  return {
    grid: { top: GRID_TOP_NO_LEGEND },
    tooltip: {
      trigger: 'item',
      formatter: (params: { dataIndex: number }) => {
        const r = rows[params.dataIndex];
        const width = r.upper !== null && r.upper > r.lower ? r.upper - r.lower : null;
        const where = r.feasible
          ? width !== null
            ? `inside, ${formatNumber(Math.round(((r.chi - r.lower) / width) * 1000) / 10)} % of the way from q(p<sub>d</sub>) to q(P<sub>d</sub>)`
            : 'inside'
          : `${r.chi < r.lower ? 'below q(p<sub>d</sub>)' : 'above q(P<sub>d</sub>)'} by ${formatNumber(r.g)}${width !== null ? ` = ${formatNumber(r.g / width)} band widths` : ''}`;
        const status = r.feasible
          ? `<span style="color:${palette.ok}">pass</span>`
          : `<span style="color:${palette.bad}">fail, g = ${formatNumber(r.g)}</span>`;
        return `<b>d = ${r.d}</b> ${status}<br/>χ<sub>d</sub> ${formatNumber(r.chi)} · band [${formatNumber(r.lower)}, ${formatNumber(r.upper)}]<br/>${where}`;
      },
    },
    xAxis: { type: 'category', data: rows.map((r) => `d=${r.d}`) },
    yAxis: {
      type: 'value',
      min: lo,
      max: hi,
      splitLine: { show: false },
      axisTick: { show: true, customValues: ticks.map((t) => t.value) },
      axisLabel: { customValues: ticks.map((t) => t.value), formatter: (v: number) => ticks.find((t) => Math.abs(t.value - v) < 1e-9)?.label ?? '' },
    },
    series: [
      {
        name: 'chi',
        type: 'scatter',
        data: rows.map((r, i) => {
          const s = scales[i];
          const above = s > 1;
          return {
            value: [i, s],
            symbol: r.feasible ? 'circle' : 'triangle',
            symbolSize: r.feasible ? 11 : 14,
            symbolRotate: !r.feasible && !above ? 180 : 0,
            itemStyle: { color: r.feasible ? palette.ok : palette.bad },
            label: {
              show: true,
              position: !r.feasible && !above ? 'bottom' : 'top',
              formatter: r.feasible ? 'pass' : 'fail',
              color: r.feasible ? palette.ok : palette.bad,
              fontWeight: 700,
              fontSize: 10.5,
            },
          };
        }),
        markArea: {
          silent: true,
          itemStyle: { color: palette.band, borderColor: palette.bandEdge, borderWidth: 1, borderType: 'dashed' },
          data: [[{ yAxis: 0 }, { yAxis: 1 }]],
        },
        z: 3,
      },
    ],
  };
}
