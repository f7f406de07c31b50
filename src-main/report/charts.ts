/**
 * The report's charts: ECharts options built from ReportData by pure functions, rendered to SVG
 * strings on the main side with ECharts' server-side renderer. Each chart is drawn in a light
 * theme (screen and print) and a dark one (prefers-color-scheme: dark); the HTML shows one.
 * The palettes are the app's (src-shared/charts/palette.ts), so report and app charts look alike.
 */
import { HIDDEN_TEXT } from '../../src-shared/competition/hidden.ts';
import * as echarts from 'echarts';
import { decadeAxis, FEATURE_PANELS, niceCeil, niceInterval, paddedBoundsOf } from '../../src-shared/charts/axes.ts';
import { seriesColor, type ChartPalette } from '../../src-shared/charts/palette.ts';
import { quantile } from '../../src-shared/stats/summary.ts';
import { formatValue, metricTitle } from './format.ts';
import { quoteSvgFonts } from '../../src-shared/charts/svg.ts';
import type { AttainmentData, AttainmentLevel, BestSolution, BoxplotData, ConvergenceData, EafDifferenceData, FrontData } from './types.ts';

const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';

type Option = Record<string, unknown>;
type RenderApi = { value(dim: number): number; coord(p: number[]): number[]; size(p: number[]): number[] };

/** Renders an option to an SVG string; ids are prefixed with `idPrefix` so that many charts can share one page. */
export function renderSvg(option: Option, size: { width: number; height: number }, idPrefix: string): string {
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width: size.width, height: size.height });
  try {
    chart.setOption({ animation: false, textStyle: { fontFamily: FONT }, ...option });
    return quoteSvgFonts(chart.renderToSVGString()).replace(/\bzr\d+-/g, `${idPrefix}-`);
  } finally {
    chart.dispose();
  }
}

function titleOf(text: string, theme: ChartPalette, subtext?: string): Option {
  return {
    text,
    subtext,
    left: 0,
    top: 0,
    textStyle: { fontSize: 14, fontWeight: 600, color: theme.text },
    subtextStyle: { fontSize: 11, color: theme.muted },
  };
}

const labelStyle = (theme: ChartPalette): Option => ({ color: theme.muted, fontSize: 11, formatter: (v: number) => formatValue(v) });

function valueAxis(theme: ChartPalette, extra: Option = {}): Option {
  return {
    type: 'value',
    axisLine: { show: true, lineStyle: { color: theme.axis } },
    axisLabel: labelStyle(theme),
    splitLine: { lineStyle: { color: theme.grid } },
    nameTextStyle: { color: theme.muted, fontSize: 12 },
    ...extra,
  };
}

function legendOf(theme: ChartPalette, names: string[], top = 24): Option {
  return { data: names, top, left: 0, itemWidth: 14, itemHeight: 10, itemGap: 16, textStyle: { color: theme.text, fontSize: 12 } };
}

/** Box plot of one indicator per solver on one instance: quartiles, whiskers min–max, each run a dot. */
export function boxplotOption(data: BoxplotData, theme: ChartPalette): Option {
  const solvers = data.solvers.map((s) => s.solver);
  const boxes = data.solvers.map((s, i) => {
    if (!s.values.length) return { value: [], itemStyle: {} };
    const v = s.values;
    return {
      value: [Math.min(...v), quantile(v, 0.25), quantile(v, 0.5), quantile(v, 0.75), Math.max(...v)],
      itemStyle: { color: seriesColor(theme, i) + '33', borderColor: seriesColor(theme, i), borderWidth: 1.5 },
    };
  });
  const dots = data.solvers.flatMap((s, i) => s.values.map((v) => ({ value: [i, v], itemStyle: { color: seriesColor(theme, i) } })));
  return {
    title: titleOf(metricTitle(data.metric), theme, `${data.higherIsBetter ? 'higher' : 'lower'} is better; box: quartiles, whiskers: min to max, dots: runs`),
    grid: { left: 64, right: 16, top: 60, bottom: 36 },
    xAxis: {
      type: 'category',
      data: solvers,
      axisLine: { lineStyle: { color: theme.axis } },
      axisTick: { show: false },
      axisLabel: { color: theme.text, fontSize: 12, interval: 0 },
    },
    yAxis: valueAxis(theme, data.metric === 'feasibility' ? { min: 0, max: 1 } : { scale: true }),
    series: [
      { type: 'boxplot', data: boxes, boxWidth: [14, 48], z: 2 },
      { type: 'scatter', data: dots, symbolSize: 6, itemStyle: { opacity: 0.75 }, z: 3 },
    ],
  };
}

/** Median and interquartile band of the indicator against evaluations (log axis), per solver. */
export function convergenceOption(data: ConvergenceData, theme: ChartPalette): Option {
  const series: Option[] = [];
  data.solvers.forEach((s, i) => {
    const colour = seriesColor(theme, i);
    const both = data.evaluations.map((_, k) => s.q1[k] !== null && s.q3[k] !== null);
    // The band is the difference q3 - q1 stacked on an invisible q1 line.
    series.push(
      {
        name: `${s.solver} q1`,
        type: 'line',
        stack: `band-${i}`,
        symbol: 'none',
        lineStyle: { opacity: 0 },
        data: data.evaluations.map((e, k) => [e, both[k] ? s.q1[k] : null]),
        silent: true,
        z: 1,
      },
      {
        name: `${s.solver} IQR`,
        type: 'line',
        stack: `band-${i}`,
        symbol: 'none',
        lineStyle: { opacity: 0 },
        areaStyle: { color: colour, opacity: theme.name === 'light' ? 0.16 : 0.24 },
        data: data.evaluations.map((e, k) => [e, both[k] ? (s.q3[k] as number) - (s.q1[k] as number) : null]),
        silent: true,
        z: 1,
      },
      {
        name: s.solver,
        type: 'line',
        symbol: 'none',
        lineStyle: { color: colour, width: 2 },
        itemStyle: { color: colour },
        data: data.evaluations.map((e, k) => [e, s.median[k]]),
        z: 3,
      },
    );
  });
  return {
    title: titleOf(
      data.indicator === 'best' ? 'Best feasible objective value' : 'Hypervolume of the feasible front (normalised)',
      theme,
      'median and interquartile band over the runs',
    ),
    legend: legendOf(
      theme,
      data.solvers.map((s) => s.solver),
      40,
    ),
    grid: { left: 64, right: 24, top: 72, bottom: 50 },
    xAxis: valueAxis(theme, {
      type: 'log',
      min: 1,
      max: data.evaluations[data.evaluations.length - 1],
      name: 'evaluations',
      nameLocation: 'middle',
      nameGap: 28,
      splitLine: { show: false },
    }),
    yAxis: valueAxis(theme, { scale: data.indicator === 'best', name: data.indicator === 'best' ? 'best f' : 'HV', nameLocation: 'middle', nameGap: 46 }),
    series,
  };
}

/** The fronts of the median runs: a scatter for M = 2, parallel coordinates beyond. */
export function frontOption(data: FrontData, theme: ChartPalette): Option {
  const names = data.solvers.map((s) => s.solver);
  const title = titleOf('Front of the median run', theme, data.solvers.map((s) => `${s.solver}: seed ${s.seed}, HV ${formatValue(s.hv)}`).join('; '));
  if (data.axes.length === 2)
    return {
      title,
      legend: legendOf(theme, names, 40),
      grid: { left: 64, right: 24, top: 72, bottom: 50 },
      // Padded, so that points on the edge of the range stay clear of the axes.
      xAxis: valueAxis(theme, {
        ...paddedBoundsOf(data.solvers.flatMap((s) => s.points.map((p) => p[0]))),
        name: data.axes[0],
        nameLocation: 'middle',
        nameGap: 28,
      }),
      yAxis: valueAxis(theme, {
        ...paddedBoundsOf(data.solvers.flatMap((s) => s.points.map((p) => p[1]))),
        name: data.axes[1],
        nameLocation: 'middle',
        nameGap: 46,
      }),
      series: data.solvers.map((s, i) => ({
        name: s.solver,
        type: 'scatter',
        symbolSize: 7,
        itemStyle: { color: seriesColor(theme, i), opacity: 0.85 },
        data: s.points.map((p) => [p[0], p[1]]),
      })),
    };
  return {
    title,
    legend: legendOf(theme, names, 40),
    parallel: { left: 48, right: 56, top: 104, bottom: 32 },
    parallelAxis: data.axes.map((name, dim) => ({
      dim,
      name,
      scale: true,
      nameTextStyle: { color: theme.text, fontSize: 12 },
      axisLine: { lineStyle: { color: theme.axis } },
      axisLabel: { color: theme.muted, fontSize: 10, formatter: (v: number) => formatValue(v) },
    })),
    series: data.solvers.map((s, i) => ({
      name: s.solver,
      type: 'parallel',
      lineStyle: { color: seriesColor(theme, i), width: 1.2, opacity: 0.7 },
      itemStyle: { color: seriesColor(theme, i) },
      data: s.points,
    })),
  };
}

/**
 * F1..F15 of the best solution (green in band, red outside) over their bands [alpha, beta]; a
 * hidden instance's bands are not drawn (bars in one colour, nothing in or out of a band).
 */
export function featureOption(best: BestSolution, theme: ChartPalette): Option {
  const total = FEATURE_PANELS.reduce((s, p) => s + p.weight, 0);
  const grids: Option[] = [];
  const { alpha, beta } = best;
  const bands = alpha !== null && beta !== null;
  const titles: Option[] = [
    titleOf(
      'Features of the best solution',
      theme,
      bands ? 'bar: value (green in band, red outside); box: band [α, β]' : `bar: value; the bands are ${HIDDEN_TEXT}`,
    ),
  ];
  const xAxes: Option[] = [];
  const yAxes: Option[] = [];
  const series: Option[] = [];
  let offset = 0;
  FEATURE_PANELS.forEach((panel, k) => {
    const share = (panel.weight / total) * 100;
    const left = offset + (k === 0 ? 5 : 4.5);
    grids.push({ left: `${left}%`, width: `${share - (k === 0 ? 6 : 5.5)}%`, top: 84, bottom: 28 });
    titles.push({ text: panel.title, left: `${left}%`, top: 54, textStyle: { fontSize: 12, fontWeight: 600, color: theme.muted } });
    const rows = panel.features.map((f) => ({ f, value: best.features[f - 1], alpha: bands ? alpha[f - 1] : 0, beta: bands ? beta[f - 1] : 0 }));
    const top = niceCeil(Math.max(...rows.map((r) => Math.max(r.value, r.beta)), 1) * 1.15);
    xAxes.push({
      type: 'category',
      gridIndex: k,
      data: rows.map((r) => `F${r.f}`),
      axisTick: { show: false },
      axisLine: { lineStyle: { color: theme.axis } },
      axisLabel: { color: theme.text, fontSize: 11, fontWeight: 600, interval: 0 },
    });
    yAxes.push(valueAxis(theme, { gridIndex: k, min: 0, max: top, interval: niceInterval(top) }));
    series.push(
      ...(!bands
        ? []
        : [
            {
              type: 'custom',
              xAxisIndex: k,
              yAxisIndex: k,
              silent: true,
              encode: { x: 0, y: [1, 2] },
              data: rows.map((r, i) => [i, r.alpha, r.beta]),
              renderItem: (_params: unknown, api: RenderApi) => {
                const lo = api.coord([api.value(0), api.value(1)]);
                const hi = api.coord([api.value(0), api.value(2)]);
                const width = api.size([1, 0])[0] * 0.78;
                const height = Math.max(lo[1] - hi[1], 2);
                return {
                  type: 'rect',
                  shape: { x: lo[0] - width / 2, y: lo[1] - height, width, height },
                  style: { fill: theme.band, stroke: theme.bandEdge, lineWidth: 1, lineDash: [3, 2] },
                };
              },
              z: 1,
            },
          ]),
      {
        type: 'bar',
        xAxisIndex: k,
        yAxisIndex: k,
        barWidth: '42%',
        data: rows.map((r) => {
          const inBand = !bands || (r.value >= r.alpha && r.value <= r.beta);
          return {
            value: r.value,
            itemStyle: { color: !bands ? theme.axis : inBand ? theme.ok : theme.bad },
            label: {
              show: true,
              position: 'top',
              formatter: formatValue(r.value),
              color: inBand ? theme.text : theme.bad,
              fontSize: 10,
              fontWeight: inBand ? 400 : 700,
            },
          };
        }),
        z: 3,
      },
    );
    offset += share;
  });
  return { title: titles, grid: grids, xAxis: xAxes, yAxis: yAxes, series };
}

const SUPERSCRIPT = '⁰¹²³⁴⁵⁶⁷⁸⁹';
function powerOfTen(k: number): string {
  if (k === 0) return '1';
  if (k === 1) return '10';
  return `10${k < 0 ? '⁻' : ''}${[...String(Math.abs(k))].map((c) => SUPERSCRIPT[Number(c)]).join('')}`;
}

/** chi_d of the best solution against [q(p_d), q(P_d)] per constrained d, on a log scale. */
export function constraintOption(best: BestSolution, theme: ChartPalette): Option {
  const rows = best.constraints;
  const { lo, hi, step, log } = decadeAxis(rows.flatMap((r) => [r.chi, r.lower ?? 0, r.upper ?? 0]));
  return {
    title: titleOf('Constraints of the best solution', theme, 'diamond: χ_d (green satisfied, red violated); box: [q(p_d), q(P_d)]; log scale'),
    grid: { left: 56, right: 16, top: 64, bottom: 32 },
    xAxis: {
      type: 'category',
      data: rows.map((r) => `d=${r.d}`),
      axisTick: { show: false },
      axisLine: { lineStyle: { color: theme.axis } },
      axisLabel: { color: theme.text, fontSize: 11, interval: 0 },
    },
    yAxis: valueAxis(theme, { min: lo, max: hi, interval: step, axisLabel: { color: theme.muted, fontSize: 11, formatter: (k: number) => powerOfTen(k) } }),
    series: [
      {
        type: 'custom',
        silent: true,
        encode: { x: 0, y: [1, 2] },
        data: rows.map((r, i) => [i, log(r.lower ?? 0), r.upper === null ? hi : log(r.upper)]),
        renderItem: (_params: unknown, api: RenderApi) => {
          const bottom = api.coord([api.value(0), api.value(1)]);
          const top = api.coord([api.value(0), api.value(2)]);
          const width = api.size([1, 0])[0] * 0.42;
          const height = Math.max(bottom[1] - top[1], 4);
          return {
            type: 'rect',
            shape: { x: bottom[0] - width / 2, y: bottom[1] - height, width, height, r: 2 },
            style: { fill: theme.band, stroke: theme.bandEdge, lineWidth: 1 },
          };
        },
        z: 1,
      },
      {
        type: 'scatter',
        symbol: 'diamond',
        symbolSize: 12,
        data: rows.map((r, i) => ({
          value: [i, log(r.chi)],
          itemStyle: { color: r.g <= 0 ? theme.ok : theme.bad, borderColor: theme.name === 'light' ? '#ffffff' : '#111827', borderWidth: 1.5 },
        })),
        z: 3,
      },
    ],
  };
}

/**
 * A surface as a line that ECharts draws as a staircase (`step: 'end'`: along f1 at the last
 * f2, then down): from the top of the plot at the first point to its right edge at the last,
 * so the region it bounds (above and to the right) is closed by the frame.
 */
export function staircase(points: readonly number[][], extent: AttainmentData['extent']): number[][] {
  if (!points.length) return [];
  return [[points[0][0], extent.y[1]], ...points.map((p) => [p[0], p[1]]), [extent.x[1], points[points.length - 1][1]]];
}

function extentAxes(data: AttainmentData, theme: ChartPalette): Option {
  const axis = (range: [number, number], name: string, gap: number) => {
    const span = range[1] - range[0];
    // Surfaces often run along an objective's floor of 0: a sliver below keeps them off the axis line.
    const below = range[0] === 0 ? span * 0.015 : 0;
    return valueAxis(theme, {
      min: range[0] - below,
      max: range[1],
      name,
      nameLocation: 'middle',
      nameGap: gap,
      axisLabel: { ...labelStyle(theme), showMinLabel: below === 0 },
    });
  };
  return { xAxis: axis(data.extent.x, data.axes[0], 28), yAxis: axis(data.extent.y, data.axes[1], 46) };
}

const LEVEL_STYLES = {
  best: { type: [6, 4] as number[], width: 1.6 },
  median: { type: 'solid', width: 2.6 },
  worst: { type: [2, 3] as number[], width: 1.8 },
} as const;

const levelName = (kind: 'best' | 'median' | 'worst', s: AttainmentLevel) => `${kind} (${s.level}/${Math.round(s.level / s.fraction)})`;

/** One solver's best, median and worst attainment surfaces as step lines in its colour. */
export function attainmentOption(data: AttainmentData, solverIndex: number, colourIndex: number, theme: ChartPalette): Option {
  const s = data.solvers[solverIndex];
  const colour = seriesColor(theme, colourIndex);
  const kinds = ['best', 'median', 'worst'] as const;
  return {
    title: titleOf(s.solver, theme, `attainment surfaces over ${s.runs} run${s.runs === 1 ? '' : 's'}`),
    legend: {
      ...legendOf(
        theme,
        kinds.map((k) => levelName(k, s[k])),
        40,
      ),
      itemWidth: 28,
      itemStyle: { opacity: 0 },
    },
    grid: { left: 64, right: 20, top: 72, bottom: 50 },
    ...extentAxes(data, theme),
    series: kinds.map((k) => ({
      name: levelName(k, s[k]),
      type: 'line',
      step: 'end',
      symbol: 'none',
      lineStyle: { color: colour, ...LEVEL_STYLES[k] },
      itemStyle: { color: colour },
      data: staircase(s[k].points, data.extent),
      z: k === 'median' ? 3 : 2,
    })),
  };
}

/** Steps of the EAF difference heatmap: |difference| rounded to twentieths. */
const SHADES = 20;
/** The opacity of a difference of 1 (its solver's colour over the surface). */
export const DIFFERENCE_OPACITY = 0.85;

/**
 * The grid's cells as drawn: cells whose difference rounds to the same shade (a multiple of
 * 1 / SHADES in [-1, 1]) merge along each row, and runs with the same columns and shade in
 * consecutive rows merge into one rectangle [x0, y0, x1, y1, shade]; zero cells are left out.
 */
export function differenceRectangles(d: EafDifferenceData): number[][] {
  const shade = (v: number) => Math.round(v * SHADES) / SHADES || 0;
  /** Open rectangles by "first column:end column:shade", growing upwards. */
  let open = new Map<string, number[]>();
  const out: number[][] = [];
  d.cells.forEach((row, r) => {
    const next = new Map<string, number[]>();
    let start = 0;
    for (let c = 1; c <= row.length; c++) {
      if (c < row.length && shade(row[c]) === shade(row[start])) continue;
      const value = shade(row[start]);
      if (value !== 0) {
        const key = `${start}:${c}:${value}`;
        const below = open.get(key);
        if (below) {
          below[3] = d.yEdges[r + 1];
          open.delete(key);
          next.set(key, below);
        } else {
          const rect = [d.xEdges[start], d.yEdges[r], d.xEdges[c], d.yEdges[r + 1], value];
          out.push(rect);
          next.set(key, rect);
        }
      }
      start = c;
    }
    open = next;
  });
  return out;
}

/** `colour` (#rrggbb) at `opacity` over `surface` (#rrggbb), as an opaque #rrggbb. */
export function blend(colour: string, surface: string, opacity: number): string {
  const channel = (hex: string, k: number) => parseInt(hex.slice(1 + 2 * k, 3 + 2 * k), 16);
  return `#${[0, 1, 2]
    .map((k) => Math.round(channel(colour, k) * opacity + channel(surface, k) * (1 - opacity)))
    .map((v) => v.toString(16).padStart(2, '0'))
    .join('')}`;
}

/**
 * The EAF difference alpha_a − alpha_b as a heatmap in a's colour where a attains more often and
 * b's where b does, darker for a larger difference; the median surfaces of both on top.
 */
export function eafDifferenceOption(data: AttainmentData, d: EafDifferenceData, colours: { a: number; b: number }, theme: ChartPalette): Option {
  const colourA = seriesColor(theme, colours.a);
  const colourB = seriesColor(theme, colours.b);
  const median = (label: string) => data.solvers.find((s) => s.solver === label)!.median;
  const fill = (v: number) => blend(v > 0 ? colourA : colourB, theme.surface, Math.abs(v) * DIFFERENCE_OPACITY);
  return {
    title: titleOf(
      `${d.a} − ${d.b}`,
      theme,
      `difference of the empirical attainment functions over ${d.runsA} and ${d.runsB} runs; lines: the median surfaces`,
    ),
    legend: {
      ...legendOf(
        theme,
        [d.a, d.b].map((l) => `${l} median`),
        40,
      ),
      itemWidth: 28,
      itemStyle: { opacity: 0 },
    },
    grid: { left: 64, right: 20, top: 72, bottom: 50 },
    ...extentAxes(data, theme),
    series: [
      {
        type: 'custom',
        silent: true,
        clip: true,
        encode: { x: [0, 2], y: [1, 3] },
        data: differenceRectangles(d),
        renderItem: (_params: unknown, api: RenderApi) => {
          const lo = api.coord([api.value(0), api.value(1)]);
          const hi = api.coord([api.value(2), api.value(3)]);
          // Opaque colours overlapping by a fraction of a pixel: no anti-aliased seams between cells.
          return { type: 'rect', shape: { x: lo[0], y: hi[1], width: hi[0] - lo[0] + 0.5, height: lo[1] - hi[1] + 0.5 }, style: { fill: fill(api.value(4)) } };
        },
        z: 1,
      },
      ...[d.a, d.b].map((label, k) => ({
        name: `${label} median`,
        type: 'line',
        step: 'end',
        symbol: 'none',
        lineStyle: { color: theme.text, width: 1.6, type: k === 0 ? 'solid' : [5, 4] },
        itemStyle: { color: theme.text },
        data: staircase(median(label).points, data.extent),
        z: 3,
      })),
    ],
  };
}

/** One group's runtime ECDFs (docs/competition.md): per entrant, the fraction of (run, target) pairs reached against evaluations (log axis). */
export function ecdfOption(
  data: { group: string; ecdfs: readonly { solver: string; pairs: number; points: readonly { evaluations: number; fraction: number }[] }[]; end: number },
  theme: ChartPalette,
): Option {
  const end = Math.max(1, data.end);
  return {
    title: titleOf(`Runtime ECDF: ${data.group}`, theme, 'fraction of (run, target) pairs reached, against evaluations'),
    legend: legendOf(
      theme,
      data.ecdfs.map((e) => e.solver),
      40,
    ),
    grid: { left: 56, right: 24, top: 72, bottom: 50 },
    xAxis: valueAxis(theme, { type: 'log', min: 1, max: end, name: 'evaluations', nameLocation: 'middle', nameGap: 28, splitLine: { show: false } }),
    yAxis: valueAxis(theme, { min: 0, max: 1, name: 'fraction', nameLocation: 'middle', nameGap: 40 }),
    series: data.ecdfs.map((e, i) => {
      const colour = seriesColor(theme, i);
      const last = e.points.length ? e.points[e.points.length - 1].fraction : 0;
      return {
        name: e.solver,
        type: 'line',
        step: 'end',
        symbol: 'none',
        lineStyle: { color: colour, width: 2 },
        itemStyle: { color: colour },
        data: [[1, 0], ...e.points.map((p) => [Math.max(1, p.evaluations), p.fraction]), [end, last]],
      };
    }),
  };
}
