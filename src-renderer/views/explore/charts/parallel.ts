/** The parallel coordinates' option: an axis per objective, a line per solution (sampled), and the selection's lines. */
import type { EChartsCoreOption } from 'echarts/core';
import { LIGHT_PALETTE, type ChartPalette } from '../../../../src-shared/charts/palette.ts';
import { formatNumber } from '../../../logic/dice/labels.ts';
import type { ExplorerData } from '../../../logic/explore/front-data.ts';
import { strideSample, type SeriesGroup } from '../../../logic/explore/groups.ts';
import { groupColour } from './point-series.ts';

/** Parallel coordinates draw at most this many lines; selections still count every point. */
export const PARALLEL_LINE_LIMIT = 4000;

export interface ParallelInput {
  data: ExplorerData;
  groups: readonly SeriesGroup[];
  hidden: ReadonlySet<string>;
  palette?: ChartPalette;
}

function rows(data: ExplorerData, indices: Int32Array): number[][] {
  const m = data.objectiveCount;
  return Array.from(indices, (i) => Array.from(data.objectives.subarray(i * m, i * m + m)));
}

/** The lines' opacity: the more lines, the fainter. */
const lineOpacity = (drawn: number) => (drawn > 1000 ? 0.18 : drawn > 200 ? 0.35 : 0.6);
/** How much fainter the other lines are while a selection is shown (its lines take their series' colours too). */
const UNDER_SELECTION = 0.3;

/** The id of the selection's series in the parallel coordinates, which the view updates in place. */
export const SELECTION_SERIES = 'selection';

/** The parallel axis id of objective k (axisAreaSelected events name it). */
export const parallelAxisId = (k: number) => `objective-${k}`;

/**
 * Parallel coordinates: an axis per objective (drag along an axis to select an interval; several
 * axes combine), a line per solution, and an empty selection series that
 * parallelSelectionSeries fills. At most PARALLEL_LINE_LIMIT lines, a stride sample beyond.
 */
export function parallelOption({ data, groups, hidden, palette = LIGHT_PALETTE }: ParallelInput): { option: EChartsCoreOption; drawn: number; total: number } {
  const total = groups.reduce((s, g) => s + g.indices.length, 0);
  const shown = groups.map((g) => strideSample(g.indices, Math.max(1, Math.round((PARALLEL_LINE_LIMIT * g.indices.length) / Math.max(1, total)))));
  const drawn = shown.reduce((s, g) => s + g.length, 0);
  const opacity = lineOpacity(drawn);
  const series: Record<string, unknown>[] = groups.map((g, gi) => ({
    id: `lines-${g.name}`,
    name: g.name,
    type: 'parallel',
    data: rows(data, shown[gi]),
    lineStyle: { color: groupColour(palette, g), width: 1, opacity },
    inactiveOpacity: 0.03,
    activeOpacity: Math.min(1, opacity * 2),
    progressive: 0,
    silent: true,
  }));
  series.push({
    id: SELECTION_SERIES,
    name: SELECTION_SERIES,
    type: 'parallel',
    data: [],
    lineStyle: { color: palette.accent, width: 2, opacity: 0.9 },
    inactiveOpacity: 0.9,
    activeOpacity: 0.9,
    progressive: 0,
    silent: true,
    z: 5,
  });
  return {
    drawn,
    total,
    option: {
      legend: {
        data: groups.map((g) => g.name),
        selected: Object.fromEntries(groups.map((g) => [g.name, !hidden.has(g.name)])),
        type: 'scroll',
        left: 8,
        right: 40,
      },
      parallel: { left: 56, right: 84, top: 64, bottom: 28, parallelAxisDefault: { realtime: false } },
      parallelAxis: data.objectiveNames.map((name, k) => ({
        id: parallelAxisId(k),
        dim: k,
        name,
        scale: true,
        nameLocation: 'end',
        nameGap: 14,
        nameTextStyle: { color: palette.muted, fontSize: 11 },
        axisLine: { lineStyle: { color: palette.axis } },
        axisTick: { lineStyle: { color: palette.axis } },
        // Over the lines, on a box of the surface colour: 4,000 lines would hide them otherwise.
        axisLabel: {
          color: palette.muted,
          fontSize: 10,
          formatter: (v: number) => formatNumber(v),
          backgroundColor: palette.surface,
          padding: [1, 3],
          borderRadius: 2,
          hideOverlap: true,
        },
        z: 10,
        areaSelectStyle: { width: 18, borderWidth: 1, color: palette.accent, borderColor: palette.accent, opacity: 0.25 },
      })),
      series,
    },
  };
}

/**
 * The selection's lines (at most PARALLEL_LINE_LIMIT, a stride sample beyond), to merge into the
 * parallel option by id: each in its series' colour (`colours`: the grouping's, as the lines
 * below are drawn), wider and stronger than the rest.
 */
export function parallelSelectionSeries(
  data: ExplorerData,
  selection: Int32Array | null,
  colours?: { groups: readonly SeriesGroup[]; groupOf: Int32Array; palette?: ChartPalette },
): Record<string, unknown> {
  const shown = selection && selection.length ? strideSample(selection, PARALLEL_LINE_LIMIT) : new Int32Array(0);
  // Many lines at once: fainter, so the bundle keeps its shape.
  const opacity = shown.length > 1000 ? 0.25 : shown.length > 100 ? 0.5 : 0.9;
  const palette = colours?.palette ?? LIGHT_PALETTE;
  const colourOf = (i: number) => {
    const g = colours ? colours.groupOf[i] : -1;
    return g >= 0 && colours ? groupColour(palette, colours.groups[g]) : palette.accent;
  };
  const values = rows(data, shown);
  return {
    id: SELECTION_SERIES,
    data: values.map((value, j) => ({ value, lineStyle: { color: colourOf(shown[j]) } })),
    lineStyle: { opacity, width: 2 },
    inactiveOpacity: opacity,
    activeOpacity: opacity,
  };
}

/**
 * The other lines' opacity while a selection is shown (fainter) or not, to merge into the option
 * by id with the selection's series: the selected lines stand out by width and strength, since
 * they keep their series' colours.
 */
export function parallelLinesUnderSelection(groups: readonly SeriesGroup[], drawn: number, selected: boolean): Record<string, unknown>[] {
  const opacity = lineOpacity(drawn) * (selected ? UNDER_SELECTION : 1);
  return groups.map((g) => ({ id: `lines-${g.name}`, lineStyle: { opacity } }));
}
