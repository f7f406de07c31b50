/**
 * The Competition view's runtime ECDF charts (docs/competition.md, "Runtime ECDFs"), drawn as
 * COCO draws them: per entrant, the fraction of (run, target) pairs reached against evaluations
 * on a log axis, a step up at each runtime, flat to the budget after the last.
 */
import type { EChartsCoreOption } from 'echarts/core';
import type { CompetitionEcdfGroup } from '../../../src-shared/api.ts';
import { LIGHT_PALETTE, seriesColor, type ChartPalette } from '../../../src-shared/charts/palette.ts';
import { compact } from '../solve/charts.ts';

/** One entrant's ECDF as chart points: from (1, 0), each step, then flat to the budget. */
export function ecdfPoints(points: readonly { evaluations: number; fraction: number }[], budget: number): [number, number][] {
  const out: [number, number][] = [[1, 0]];
  for (const p of points) out.push([Math.max(1, p.evaluations), p.fraction]);
  const last = out[out.length - 1];
  if (last[0] < budget) out.push([budget, last[1]]);
  return out;
}

/**
 * One group's ECDFs (a track or the suite). `entrants`: every entrant in the order they entered,
 * so each keeps its colour in every chart; `budget`: the evaluations of every run.
 */
export function ecdfOption(group: CompetitionEcdfGroup, entrants: readonly string[], budget: number, palette: ChartPalette = LIGHT_PALETTE): EChartsCoreOption {
  return {
    legend: {},
    tooltip: {
      trigger: 'item',
      formatter: (p: { seriesName: string; value: [number, number] }) =>
        `${p.seriesName}<br>${compact(p.value[0])} evaluations: ${(p.value[1] * 100).toFixed(1)}% of pairs`,
    },
    xAxis: { type: 'log', name: 'evaluations', min: 1, max: Math.max(10, budget), logBase: 10, axisLabel: { formatter: (v: number) => compact(v) } },
    yAxis: { type: 'value', name: 'fraction of (run, target) pairs', min: 0, max: 1 },
    series: group.ecdfs.map((e) => ({
      name: e.solver,
      type: 'line',
      step: 'end',
      showSymbol: false,
      color: seriesColor(palette, Math.max(0, entrants.indexOf(e.solver))),
      data: ecdfPoints(e.points, budget),
    })),
  };
}
