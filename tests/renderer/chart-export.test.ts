// @vitest-environment happy-dom
// Chart export (useChartExport, and the menu EChart.vue puts on every chart): the SVG is the
// chart as shown, drawn again by ECharts' SVG renderer on the theme's surface (its data labels,
// its legend, a series hidden in the legend left out); downloads are named from the label; the
// menu works from the keyboard. happy-dom has no canvas, so charts here draw as SVG and PNG is
// offered as unavailable; the PNG itself (a data:image/png at twice the size) is checked in
// Chromium (tests/e2e/export.test.ts).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createApp, h, nextTick, ref, type App as VueApp } from 'vue';
import { getInstanceByDom, type ECharts } from 'echarts/core';
import EChart from '../../src-renderer/components/EChart.vue';
import { chartFileName, chartSvg, optionSvg } from '../../src-renderer/composables/useChartExport.ts';
import { addChartOverlay, chartOverlays } from '../../src-renderer/composables/chartOverlays.ts';
import { DARK_PALETTE, LIGHT_PALETTE } from '../../src-shared/charts/palette.ts';

const OPTION = {
  legend: {},
  xAxis: { type: 'category', data: ['alpha', 'beta', 'gamma'] },
  yAxis: { type: 'value' },
  series: [
    { type: 'bar', name: 'Series A', data: [123.25, 456.5, 789.75], label: { show: true } },
    { type: 'bar', name: 'Series B', data: [31.5, 62.5, 93.5], label: { show: true } },
  ],
};

let app: VueApp;
let saved: { name: string; blob: Blob }[];
let urls: Map<string, Blob>;

function mount(props: Record<string, unknown> = {}) {
  document.body.innerHTML = '<div id="app"></div>';
  app = createApp({ render: () => h(EChart, { option: OPTION, height: 300, label: 'Bars per group (α = 0.05)', style: 'width: 500px', ...props }) });
  app.mount('#app');
}
const chart = (): ECharts => getInstanceByDom(document.querySelector<HTMLElement>('.echart')!)!;
const q = <T extends HTMLElement>(testid: string) => document.querySelector<T>(`[data-testid="${testid}"]`);
/** The text of every <text> element in an SVG document. */
const texts = (svg: string) => [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);

beforeEach(() => {
  saved = [];
  urls = new Map();
  let n = 0;
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    const url = `blob:test/${n++}`;
    urls.set(url, blob as Blob);
    return url;
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ name: this.download, blob: urls.get(this.href)! });
  });
  delete document.documentElement.dataset.theme;
});
afterEach(() => {
  app?.unmount();
  vi.restoreAllMocks();
  delete document.documentElement.dataset.theme;
});

describe('chartFileName', () => {
  it('makes a lower-case slug of the label with the extension', () => {
    expect(chartFileName('Feature values against their bands', 'png')).toBe('feature-values-against-their-bands.png');
    expect(chartFileName('Chi-square of each block length (d = 2..6)', 'svg')).toBe('chi-square-of-each-block-length-d-2-6.svg');
    expect(chartFileName('Überblick: Fronts', 'svg')).toBe('uberblick-fronts.svg');
    expect(chartFileName('—', 'png')).toBe('chart.png');
    expect(chartFileName('x'.repeat(200), 'png')).toBe(`${'x'.repeat(80)}.png`);
  });
});

describe('optionSvg', () => {
  it('draws an option as a standalone SVG document of the given size on the theme surface', () => {
    const svg = optionSvg(OPTION, { width: 420, height: 260, scheme: 'dark' });
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg).toContain('xmlns="http://www.w3.org/2000/svg"');
    expect(svg).toMatch(/width="420" height="260"/);
    // Every attribute is whole (ECharts writes the theme's quoted font names into style="..."),
    // so the file parses as XML.
    expect(svg).not.toMatch(/="[^"]*"(?![\s/>])/);
    expect(svg).toContain(`font-family:Inter, 'Segoe UI'`);
    expect(svg).toContain(`fill="${DARK_PALETTE.surface}"`);
    expect(texts(svg)).toEqual(expect.arrayContaining(['123.25', '456.5', '789.75', '31.5', '62.5', '93.5', 'Series A', 'Series B', 'alpha', 'gamma']));
  });
});

describe('EChart export', () => {
  it('saves the chart as shown as SVG, named from the label, in the light theme', async () => {
    mount();
    await nextTick();
    q<HTMLButtonElement>('chart-export')!.click();
    await nextTick();
    q<HTMLButtonElement>('chart-export-svg')!.click();
    expect(saved.map((s) => s.name)).toEqual(['bars-per-group-0-05.svg']);
    expect(saved[0].blob.type).toBe('image/svg+xml');
    const svg = await saved[0].blob.text();
    expect(svg).toMatch(/^<svg[^>]*width="500" height="300"/);
    expect(svg).toContain(`fill="${LIGHT_PALETTE.surface}"`);
    expect(texts(svg)).toEqual(expect.arrayContaining(['123.25', '456.5', '789.75', '93.5', 'Series A', 'Series B']));
    // The menu closed and focus went back to its button.
    expect(q('chart-export-svg')).toBeNull();
    expect(document.activeElement).toBe(q('chart-export'));
  });

  it('leaves out a series hidden in the legend, and follows the dark theme', async () => {
    document.documentElement.dataset.theme = 'dark';
    mount();
    await nextTick();
    chart().dispatchAction({ type: 'legendUnSelect', name: 'Series B' });
    const svg = chartSvg(chart(), 'dark');
    expect(svg).toContain(`fill="${DARK_PALETTE.surface}"`);
    expect(texts(svg)).toEqual(expect.arrayContaining(['123.25', '789.75']));
    expect(texts(svg)).not.toContain('93.5');
    // The live chart keeps its state: exporting drew a separate instance.
    expect(chart().isDisposed()).toBeFalsy();
    expect(texts(chart().renderToSVGString())).not.toContain('93.5');
  });

  it('puts the layers a view paints over the chart into the SVG, as images over the whole chart', async () => {
    mount();
    await nextTick();
    // A 1x1 PNG stands in for a layer (happy-dom has no canvas to paint one).
    const PIXEL = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
    const images = (svg: string) => [...svg.matchAll(/<image\b[^>]*>/g)].map((m) => m[0]);
    expect(images(chartSvg(chart(), 'light'))).toEqual([]);
    const remove = addChartOverlay(chart(), () => PIXEL);
    const empty = addChartOverlay(chart(), () => null);
    expect(chartOverlays(chart())).toEqual([PIXEL]);
    const svg = chartSvg(chart(), 'light');
    const [image, ...more] = images(svg);
    expect(more).toEqual([]);
    expect(image).toContain(`href="${PIXEL}"`);
    expect(image).toMatch(/width="500"/);
    expect(image).toMatch(/height="300"/);
    // Over the chart: after (so drawn above) every bar label.
    expect(svg.indexOf(image)).toBeGreaterThan(svg.lastIndexOf('789.75'));
    // A well-formed element (name="value" attributes only); the chart below stays vector.
    expect(image).toMatch(/^<image(\s[\w:-]+="[^"]*")+\s*\/?>$/);
    expect(texts(svg)).toEqual(expect.arrayContaining(['123.25', 'Series A']));
    remove();
    empty();
    expect(chartOverlays(chart())).toEqual([]);
    expect(images(chartSvg(chart(), 'light'))).toEqual([]);
  });

  it('uses the filename prop when given', async () => {
    mount({ filename: 'front nsga2 seed 3' });
    await nextTick();
    q<HTMLButtonElement>('chart-export')!.click();
    await nextTick();
    q<HTMLButtonElement>('chart-export-svg')!.click();
    expect(saved.map((s) => s.name)).toEqual(['front-nsga2-seed-3.svg']);
  });

  it('offers PNG only where the chart draws on a canvas (here it cannot)', async () => {
    mount();
    await nextTick();
    q<HTMLButtonElement>('chart-export')!.click();
    await nextTick();
    const png = q<HTMLButtonElement>('chart-export-png')!;
    expect(png.disabled).toBe(true);
    expect(png.title).toMatch(/canvas/);
  });

  it('is reachable by keyboard: arrows open and move, Escape closes back to the button', async () => {
    mount();
    await nextTick();
    const toggle = q<HTMLButtonElement>('chart-export')!;
    expect(toggle.getAttribute('aria-label')).toBe('Export chart: Bars per group (α = 0.05)');
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    toggle.focus();
    toggle.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowDown', bubbles: true }));
    await nextTick();
    await nextTick();
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    // PNG is disabled here, so the first item that takes focus is SVG.
    expect(document.activeElement).toBe(q('chart-export-svg'));
    document.activeElement!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    await nextTick();
    expect(q('chart-export-svg')).toBeNull();
    expect(document.activeElement).toBe(toggle);
    expect(saved).toEqual([]);
  });

  it('exports a chart whose option changed since it was created', async () => {
    const option = ref<Record<string, unknown>>(OPTION);
    document.body.innerHTML = '<div id="app"></div>';
    app = createApp({ render: () => h(EChart, { option: option.value, height: 200, label: 'live', style: 'width: 300px' }) });
    app.mount('#app');
    await nextTick();
    option.value = { ...OPTION, series: [{ type: 'bar', name: 'Later', data: [4242.5, 1, 2], label: { show: true } }] };
    await nextTick();
    await nextTick();
    const svg = chartSvg(chart(), 'light');
    expect(texts(svg)).toContain('4242.5');
    expect(texts(svg)).not.toContain('123.25');
  });
});
