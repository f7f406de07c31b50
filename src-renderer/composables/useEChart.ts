import { markRaw, onScopeDispose, shallowRef, watch, type Ref, type ShallowRef } from 'vue';
import { use, init, type ECharts, type EChartsCoreOption } from 'echarts/core';
import { BarChart, CustomChart, LineChart, ScatterChart } from 'echarts/charts';
import { GridComponent, LegendComponent, MarkLineComponent, TitleComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer, SVGRenderer } from 'echarts/renderers';

use([BarChart, CustomChart, LineChart, ScatterChart, GridComponent, LegendComponent, MarkLineComponent, TitleComponent, TooltipComponent, CanvasRenderer, SVGRenderer]);

let canvasSupport: boolean | undefined;
/** Canvas where the page can draw on one; SVG otherwise (e.g. DOM emulations in tests). */
function preferredRenderer(): 'canvas' | 'svg' {
  canvasSupport ??= (() => {
    try {
      return document.createElement('canvas').getContext('2d') !== null;
    } catch {
      return false;
    }
  })();
  return canvasSupport ? 'canvas' : 'svg';
}

/**
 * Owns one ECharts instance for an element: created when the element appears, given every new
 * option (replacing, not merging), resized with the element, disposed with the calling scope.
 * The instance is markRaw'd in a shallowRef: Vue must never proxy ECharts' internals.
 */
export function useEChart(el: Readonly<Ref<HTMLElement | null | undefined>>, option: Readonly<Ref<EChartsCoreOption | null>>): { chart: Readonly<ShallowRef<ECharts | null>> } {
  const chart = shallowRef<ECharts | null>(null);
  let observer: ResizeObserver | null = null;

  function teardown() {
    observer?.disconnect();
    observer = null;
    chart.value?.dispose();
    chart.value = null;
  }

  watch(
    () => el.value,
    (element) => {
      teardown();
      if (!element) return;
      const instance = markRaw(init(element, undefined, { renderer: preferredRenderer() }));
      chart.value = instance;
      if (option.value) instance.setOption(option.value, { notMerge: true });
      observer = new ResizeObserver(() => instance.resize());
      observer.observe(element);
    },
    { immediate: true, flush: 'post' },
  );

  watch(
    () => option.value,
    (next) => {
      if (chart.value && next) chart.value.setOption(next, { notMerge: true });
      else chart.value?.clear();
    },
  );

  onScopeDispose(teardown);
  return { chart };
}
