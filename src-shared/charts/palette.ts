/**
 * The colours of every chart, the app's (src-renderer/charts/theme.ts turns them into ECharts
 * themes) and the report's (src-main/report/charts.ts), so the two look alike. Plain data: no
 * ECharts, no DOM. The app's colours also live in src-renderer/styles/theme.css as CSS
 * variables (named in the comments); tests/renderer/chart-theme.test.ts keeps the two equal.
 */

export type ColorScheme = 'light' | 'dark';

export interface ChartPalette {
  name: ColorScheme;
  /** What a chart is drawn on (--surface); also the ring around markers. */
  surface: string;
  /** Titles, category labels, legend (--text). */
  text: string;
  /** Value labels, axis names, subtitles (--text-muted). */
  muted: string;
  /** Axis lines (--text-faint). */
  axis: string;
  /** Split lines, tooltip border (--border). */
  grid: string;
  /** The interval a value should sit in (--band, --band-edge). */
  band: string;
  bandEdge: string;
  /** Emphasis that means nothing good or bad (--accent). */
  accent: string;
  /** Within bounds, satisfied, solved (--ok). */
  ok: string;
  /** Out of bounds, violated, in conflict (--bad). */
  bad: string;
  /** Needs attention (--warn). */
  warn: string;
  /** A highlighted stretch of steps (--kick), drawn translucent. */
  kick: string;
  /** One colour per series, in order (repeats after 8): Okabe-Ito, colour-blind safe. */
  series: readonly string[];
}

export const LIGHT_PALETTE: ChartPalette = {
  name: 'light',
  surface: '#ffffff',
  text: '#0f172a',
  muted: '#475569',
  axis: '#94a3b8',
  grid: '#e2e8f0',
  band: '#c7d7f5',
  bandEdge: '#7c9ce0',
  accent: '#3658c9',
  ok: '#15803d',
  bad: '#dc2626',
  warn: '#b45309',
  kick: '#f59e0b',
  // Darkened where needed for contrast on white.
  series: ['#0072b2', '#d55e00', '#009e73', '#cc79a7', '#b8860b', '#56b4e9', '#6a3d9a', '#000000'],
};

export const DARK_PALETTE: ChartPalette = {
  name: 'dark',
  surface: '#1e293b',
  text: '#e2e8f0',
  muted: '#94a3b8',
  axis: '#64748b',
  grid: '#334155',
  band: '#24395f',
  bandEdge: '#7c9ce0',
  accent: '#8ba5ff',
  ok: '#4ade80',
  bad: '#f87171',
  warn: '#fbbf24',
  kick: '#f59e0b',
  series: ['#56b4e9', '#f0a35e', '#34d399', '#f0a6cf', '#f0e442', '#93c5fd', '#c4b5fd', '#e5e7eb'],
};

export function chartPalette(scheme: ColorScheme): ChartPalette {
  return scheme === 'dark' ? DARK_PALETTE : LIGHT_PALETTE;
}

export const seriesColor = (palette: ChartPalette, index: number): string => palette.series[index % palette.series.length];

/** The app's font (--font), first choice for chart text. */
export const CHART_FONT = 'Inter, "Segoe UI", system-ui, -apple-system, "Helvetica Neue", Arial, sans-serif';
