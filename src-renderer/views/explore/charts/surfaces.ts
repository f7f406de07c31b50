/** Attainment surfaces as step lines inside padded data bounds: what the attainment chart and the EAF difference share. */
import type { Point2 } from '../../../../src-shared/metrics/attainment.ts';
import { formatNumber } from '../../../logic/dice/labels.ts';

/** Data bounds of point sets, padded by a fraction of their range on each side. */
export interface Bounds2 {
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

export function boundsOf(points: Iterable<readonly number[]>, pad = 0.05): Bounds2 | null {
  let x0 = Infinity;
  let x1 = -Infinity;
  let y0 = Infinity;
  let y1 = -Infinity;
  for (const p of points) {
    x0 = Math.min(x0, p[0]);
    x1 = Math.max(x1, p[0]);
    y0 = Math.min(y0, p[1]);
    y1 = Math.max(y1, p[1]);
  }
  if (!Number.isFinite(x0)) return null;
  const dx = (x1 - x0 || Math.abs(x0) || 1) * pad;
  const dy = (y1 - y0 || Math.abs(y0) || 1) * pad;
  return { x0: x0 - dx, x1: x1 + dx, y0: y0 - dy, y1: y1 + dy };
}

/**
 * An attainment surface as a step line inside the bounds: down from the top edge to the first
 * point, then right and down from point to point (ECharts' step 'end'), then right to the edge.
 */
export function surfaceLine(points: readonly Point2[], bounds: Bounds2): [number, number][] {
  if (!points.length) return [];
  return [[points[0][0], bounds.y1], ...points.map((p): [number, number] => [p[0], p[1]]), [bounds.x1, points[points.length - 1][1]]];
}

/** Axis labels of an axis whose ends are padded data bounds: the ends' odd values are not labelled. */
export const boundedLabels = { formatter: (v: number) => formatNumber(v), showMinLabel: false, showMaxLabel: false };
