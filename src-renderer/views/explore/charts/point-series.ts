/**
 * What the explorer's charts of points share: when the points go to the view's point layer
 * instead of ECharts, a group's colour, a series of points, the tooltip of a point and the
 * lookup from (series, data index) back to the point, and the range of the groups shown.
 *
 * Above LARGE_THRESHOLD points the scatter and the matrix do not give ECharts their points: their
 * series carry no data (ECharts keeps the legend, axes, grid, tooltip and zoom) and the view
 * draws the points itself, as pixels on a layer of its own (point-layer.ts), so a change of axis,
 * a zoom or a pan only maps the typed arrays to pixels again. Below it, ECharts draws them, round
 * and outlined, as vectors in the SVG export too. In the scatter and the matrix the selection is
 * not a series either: the view draws it on another layer (useChartLayer), so a new selection
 * never redraws the points (the 3-D view too). The 3-D view runs ECharts' large mode (one path of
 * 3-pixel squares); the parallel coordinates, which draw fewer lines, have a selection series
 * that the view updates in place.
 *
 * Each chart's option is a pure function of the explorer's data in a module of its own beside
 * this one (tests import them). The look is the theme's (charts/theme.ts); colours that mean
 * something (a solver's series, infeasible points, the selection) come from the palette argument.
 */
import { seriesColor, type ChartPalette } from '../../../../src-shared/charts/palette.ts';
import { formatNumber } from '../../../logic/dice/labels.ts';
import type { ExplorerData } from '../../../logic/explore/front-data.ts';
import { runLabel } from '../../../logic/explore/front-data.ts';
import type { SeriesGroup } from '../../../logic/explore/groups.ts';

/** Above this many points a series is drawn in large mode (small squares, no outline): by the view's point layer in the scatter and the matrix. */
export const LARGE_THRESHOLD = 2000;
/** Whether the scatter and the matrix draw `total` points on the view's point layer (point-layer.ts) rather than through ECharts. */
export const drawsOnPointLayer = (total: number) => total > LARGE_THRESHOLD;

/** A group's series colour (the palette's `bad` for the infeasible series). */
export function groupColour(palette: ChartPalette, group: Pick<SeriesGroup, 'colour'>): string {
  return group.colour < 0 ? palette.bad : seriesColor(palette, group.colour);
}

/** Text made safe inside a tooltip's HTML. */
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A solution's values for a tooltip (HTML): run, objectives, feasibility, and what a click does. */
export function pointTooltip(data: ExplorerData, i: number): string {
  const m = data.objectiveCount;
  const lines = [`<b>${escapeHtml(runLabel(data.runs[data.run[i]]))}</b> <span style="opacity:.7">#${i + 1}</span>`];
  for (let k = 0; k < m; k++) lines.push(`${escapeHtml(data.objectiveNames[k])}: <b>${formatNumber(data.objectives[i * m + k])}</b>`);
  lines.push(data.feasible[i] ? 'feasible' : `infeasible, violation ${formatNumber(data.violation[i])}`);
  lines.push(`<span style="opacity:.7">${data.x[i] ? 'click: open in the evaluator' : 'no sequence to open'}</span>`);
  return lines.join('<br>');
}

/** What the tooltip formatter and click handlers need: the point index behind (series, data index). */
export interface PointLookup {
  /** Per series index of the option: the point indices it draws, or null (reference markers, lines). A view may fill in the selection's slot. */
  seriesPoints: (Int32Array | null)[];
}

/** The tooltip of a chart of points: the solution under the cursor, at once (ECharts throttles the mouse for us). */
export function pointTooltipOption(data: ExplorerData, lookup: PointLookup) {
  return {
    trigger: 'item',
    className: 'explore-tooltip',
    showDelay: 0,
    transitionDuration: 0,
    formatter: (p: { seriesIndex: number; dataIndex: number }) => {
      const i = pointAt(lookup, p.seriesIndex, p.dataIndex);
      return i === null ? '' : pointTooltip(data, i);
    },
  };
}

export function pointAt(lookup: PointLookup, seriesIndex: number, dataIndex: number): number | null {
  const points = lookup.seriesPoints[seriesIndex];
  return points && dataIndex >= 0 && dataIndex < points.length ? points[dataIndex] : null;
}

export function pointSeries(
  data: ExplorerData,
  group: SeriesGroup,
  indices: Int32Array,
  palette: ChartPalette,
  pairs: Float32Array,
  total: number,
): Record<string, unknown> {
  const large = total > LARGE_THRESHOLD;
  return {
    id: `points-${group.name}`,
    name: group.name,
    type: 'scatter',
    // Flat [x0, y0, x1, y1, ...]: ECharts reads typed arrays as rows of these dimensions.
    dimensions: ['x', 'y'],
    data: pairs,
    // Large mode draws 3-pixel squares with fillRect (ECharts' fast path; useLargeExport keeps
    // them in PNG exports); infeasible points stay triangles, bigger, so they stand out whatever
    // the size of the front.
    large,
    largeThreshold: LARGE_THRESHOLD,
    progressive: 0,
    symbol: group.feasible ? 'circle' : 'triangle',
    symbolSize: group.feasible ? (large ? 3 : 7) : large ? 5 : 9,
    itemStyle: { color: groupColour(palette, group), ...(large ? { borderWidth: 0, opacity: 0.75 } : {}) },
    // Hover must not restyle a series of 100,000 points (a redraw of all of them per move).
    emphasis: large ? { disabled: true } : { scale: 1.6 },
    clip: true,
    z: group.feasible ? 2 : 3,
  };
}

/** The range of objective k over the points of the groups not hidden, or null when none is shown (from the groups' own ranges: no pass over the points). */
export function shownRange(groups: readonly SeriesGroup[], hidden: ReadonlySet<string>, k: number): [number, number] | null {
  let min = Infinity;
  let max = -Infinity;
  for (const g of groups) {
    if (hidden.has(g.name) || !g.indices.length) continue;
    min = Math.min(min, g.min[k]);
    max = Math.max(max, g.max[k]);
  }
  return min <= max ? [min, max] : null;
}
