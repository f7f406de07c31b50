/**
 * ECharts for the whole renderer, set up once: every chart type, component and renderer the
 * views draw with, and the light and dark themes (charts/theme.ts). Only useEChart and
 * useChartExport import it; option builders import nothing from ECharts but types. A view that
 * needs another chart type or component adds it here.
 */
import { init, registerTheme, use } from 'echarts/core';
import { BarChart, BoxplotChart, CustomChart, LineChart, ParallelChart, ScatterChart } from 'echarts/charts';
import {
  DataZoomComponent,
  GridComponent,
  LegendComponent,
  LegendScrollComponent,
  MarkAreaComponent,
  MarkLineComponent,
  ParallelComponent,
  TitleComponent,
  TooltipComponent,
} from 'echarts/components';
import { CanvasRenderer, SVGRenderer } from 'echarts/renderers';
import { DARK_PALETTE, LIGHT_PALETTE } from '../../src-shared/charts/palette.ts';
import { chartTheme, themeName } from './theme.ts';

use([
  BarChart,
  BoxplotChart,
  CustomChart,
  LineChart,
  ParallelChart,
  ScatterChart,
  DataZoomComponent,
  GridComponent,
  LegendComponent,
  LegendScrollComponent,
  MarkAreaComponent,
  MarkLineComponent,
  ParallelComponent,
  TitleComponent,
  TooltipComponent,
  CanvasRenderer,
  SVGRenderer,
]);
for (const palette of [LIGHT_PALETTE, DARK_PALETTE]) registerTheme(themeName(palette.name), chartTheme(palette));

export { init, themeName };
export type { ECharts, EChartsCoreOption } from 'echarts/core';
