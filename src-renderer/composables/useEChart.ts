import { markRaw, onScopeDispose, shallowRef, watch, type Ref, type ShallowRef } from 'vue';
import { init, themeName, type ECharts, type EChartsCoreOption } from '../charts/echarts.ts';
import type { ColorScheme } from '../../src-shared/charts/palette.ts';
import { useColorScheme } from './useColorScheme.ts';

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

/** An ECharts event's name ('click', 'mouseover', 'brushSelected', 'datazoom', ...) and its listener. */
export type EChartListeners = Readonly<Record<string, (params: unknown) => void>>;

export interface UseEChartOptions {
  /** The theme (charts/theme.ts) to draw in; by default the page's colour scheme. */
  theme?: Readonly<Ref<ColorScheme>>;
  /** ECharts events to forward, bound to every instance this composable creates. */
  on?: EChartListeners;
}

/**
 * Owns one ECharts instance for an element: created when the element appears, in the theme of
 * the current colour scheme, and created again when the scheme changes (ECharts applies a
 * theme at init); given every new option (replacing, not merging); resized with the element;
 * forwarding the events in `on`; disposed with the calling scope.
 * The instance is markRaw'd in a shallowRef: Vue must never proxy ECharts' internals.
 */
export function useEChart(
  el: Readonly<Ref<HTMLElement | null | undefined>>,
  option: Readonly<Ref<EChartsCoreOption | null>>,
  { theme = useColorScheme(), on = {} }: UseEChartOptions = {},
): { chart: Readonly<ShallowRef<ECharts | null>> } {
  const chart = shallowRef<ECharts | null>(null);
  let observer: ResizeObserver | null = null;

  function teardown() {
    observer?.disconnect();
    observer = null;
    chart.value?.dispose();
    chart.value = null;
  }

  watch(
    [() => el.value, () => theme.value],
    ([element, scheme]) => {
      teardown();
      if (!element) return;
      const instance = markRaw(init(element, themeName(scheme), { renderer: preferredRenderer() }));
      for (const [event, listener] of Object.entries(on)) instance.on(event, listener);
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
