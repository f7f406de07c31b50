// @vitest-environment happy-dom
// EChart.vue and useEChart: ECharts' events reach the component's listeners (a real click on a
// point, found by ECharts' own hit test), the chart is drawn in the registered theme of the
// page's colour scheme, and is drawn again in the other theme when the scheme changes, with
// its listeners still attached.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApp, h, nextTick, type App as VueApp } from 'vue';
import { getInstanceByDom, type ECharts } from 'echarts/core';
import EChart from '../../src-renderer/components/EChart.vue';
import { DARK_PALETTE, LIGHT_PALETTE } from '../../src-shared/charts/palette.ts';

const POINTS = [
  [1, 10],
  [2, 20],
  [3, 15],
];
const OPTION = {
  xAxis: { type: 'value', name: 'x', min: 0, max: 4 },
  yAxis: { type: 'value', name: 'y', min: 0, max: 25 },
  series: [{ type: 'scatter', symbolSize: 20, data: POINTS }],
};

let app: VueApp;
let clicks: { dataIndex: number; value: number[] }[];

function mount(props: Record<string, unknown> = {}) {
  document.body.innerHTML = '<div id="app"></div>';
  app = createApp({
    // Layout does not exist here: the chart's size comes from its style.
    render: () =>
      h(EChart, {
        option: OPTION,
        height: 300,
        label: 'points',
        style: 'width: 400px',
        onClick: (p: { dataIndex: number; value: number[] }) => clicks.push(p),
        ...props,
      }),
  });
  app.mount('#app');
}

const chart = (): ECharts => getInstanceByDom(document.querySelector<HTMLElement>('.echart')!)!;

/** A click as the browser would give it: down, up and click at the pixel of a data point. */
function clickAt(instance: ECharts, value: number[]) {
  const [zrX, zrY] = instance.convertToPixel({ seriesIndex: 0 }, value);
  const handler = instance.getZr().handler;
  for (const name of ['mousedown', 'mouseup', 'click'] as const) handler.dispatch(name, { zrX, zrY, type: name, stop() {}, preventDefault() {} });
}

/** The colour the chart draws the y axis label "20" in (the theme's muted colour). */
const labelColor = (instance: ECharts) => /fill="(#[0-9a-f]{6})">20<\/text>/.exec(instance.renderToSVGString())?.[1];

beforeEach(() => {
  clicks = [];
  delete document.documentElement.dataset.theme;
});
afterEach(() => {
  app.unmount();
  delete document.documentElement.dataset.theme;
});

describe('EChart', () => {
  it('forwards a click on a point with its data index and value; a click on empty space emits nothing', async () => {
    mount();
    await nextTick();
    clickAt(chart(), POINTS[1]);
    expect(clicks.map((c) => [c.dataIndex, c.value])).toEqual([[1, [2, 20]]]);
    clickAt(chart(), [3.8, 2]);
    expect(clicks).toHaveLength(1);
  });

  it('draws in the light theme by default and in the dark one when the page switches, listeners kept', async () => {
    mount();
    await nextTick();
    const light = chart();
    expect(labelColor(light)).toBe(LIGHT_PALETTE.muted);

    document.documentElement.dataset.theme = 'dark';
    await new Promise((r) => setTimeout(r, 0)); // the MutationObserver
    await nextTick();
    const dark = chart();
    expect(dark).not.toBe(light);
    expect(light.isDisposed()).toBe(true);
    expect(labelColor(dark)).toBe(DARK_PALETTE.muted);

    clickAt(dark, POINTS[2]);
    expect(clicks.map((c) => c.dataIndex)).toEqual([2]);
  });

  it('a theme prop overrides the page', async () => {
    document.documentElement.dataset.theme = 'dark';
    mount({ theme: 'light' });
    await nextTick();
    expect(labelColor(chart())).toBe(LIGHT_PALETTE.muted);
  });
});
