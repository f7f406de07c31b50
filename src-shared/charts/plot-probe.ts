/**
 * What a Pareto explorer chart writes into its probe element's `data-plot` attribute once it
 * has drawn (useRenderProbe in the renderer), for the browser tests and `saikoro bench pareto`:
 * the first grid's rectangle in pixels and the axis ranges it shows.
 */
export interface PlotProbe {
  x: number;
  y: number;
  width: number;
  height: number;
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}
