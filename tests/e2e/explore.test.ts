// End to end: the Pareto explorer in headless Chromium, on a project the real CLI made and ran.
// A rectangle brushed with the mouse selects exactly the stored points inside it (counted here
// from getExperimentResults, asked of the server directly); a click on a point opens it in the
// evaluator, whose numbers equal `saikoro eval` for that sequence; a synthetic front of 100,000
// points loads, draws and switches views with no page error, its points found under the mouse
// and exported. Issue 20's explorer bugs, each checked as a user meets it: the zoom survives
// Select and Pan, a solver hidden in the legend unticks its checkbox, an M = 2 selection shows
// in the attainment chart (in its solver's colour), and no two texts of a chart overlap (every
// view, zoomed and panned, at 1024 px and wider). Issue 28: a selection across solvers keeps each
// point's solver colour in the scatter, the matrix and parallel coordinates.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { startAppServer, type AppServer } from '../../src-main/server/app-server.ts';
import { PROJECT_ROOT } from '../../src-main/server/renderer-dir.ts';
import type { ExperimentRunResult } from '../../src-shared/api.ts';
import type { SolutionRecord } from '../../src-shared/solvers/types.ts';
import { trackConfig } from '../../src-shared/problems/dice/config.ts';
import { formatNumber } from '../../src-renderer/logic/dice/labels.ts';
import type { PlotProbe as Plot } from '../../src-shared/charts/plot-probe.ts';
import { requireChromium } from './chromium.ts';
import { buildRendererInTemp, collectPageErrors, launchChromium } from './browser.ts';

const run = promisify(execFile);
const saikoro = (args: string[], cwd: string, input?: string) => {
  const child = run(process.execPath, [join(PROJECT_ROOT, 'bin', 'saikoro.mjs'), ...args], { cwd, timeout: 120_000 });
  if (input !== undefined) {
    child.child.stdin!.end(input);
  }
  return child;
};

// Two solvers, three seeds, N = 200: fronts of several points each, none at (0, 0).
const SPEC = {
  name: 'fronts',
  instances: [{ name: 'mo2-n200', track: 'mo2', n: 200 }],
  solvers: [{ name: 'nsga2', params: { populationSize: 20 } }, { name: 'random' }],
  seeds: [1, 2, 3],
  budget: { evaluations: 1500 },
};

/** Which pixels countPixels counts: near an RGB colour (and opaque enough), or blue well above red with little green. */
type PixelTest = { near: [number, number, number]; within: number; minAlpha: number } | { blueOverRed: number; greenBelow: number };

/** The pixels of an image (a data: URL) that pass `test`, decoded and counted in the page. */
function countPixels(page: Page, src: string, test: PixelTest): Promise<number> {
  return page.evaluate(
    async ({ src, test }) => {
      const img = new Image();
      img.src = src;
      await img.decode();
      const canvas = document.createElement('canvas');
      canvas.width = img.width;
      canvas.height = img.height;
      const ctx = canvas.getContext('2d')!;
      ctx.drawImage(img, 0, 0);
      const px = ctx.getImageData(0, 0, img.width, img.height).data;
      let n = 0;
      for (let i = 0; i < px.length; i += 4) {
        const pass =
          'near' in test
            ? Math.abs(px[i] - test.near[0]) < test.within &&
              Math.abs(px[i + 1] - test.near[1]) < test.within &&
              Math.abs(px[i + 2] - test.near[2]) < test.within &&
              px[i + 3] > test.minAlpha
            : px[i + 2] - px[i] > test.blueOverRed && px[i + 1] < test.greenBelow;
        if (pass) n++;
      }
      return n;
    },
    { src, test },
  );
}

/** A chart's texts as the browser lays them out: the SVG export put into the page, each <text>'s box (chart pixels). */
async function svgTexts(page: Page, svg: string): Promise<{ text: string; x: number; y: number; width: number; height: number; order: number }[]> {
  return page.evaluate((markup) => {
    const holder = document.createElement('div');
    holder.style.cssText = 'position:absolute;left:0;top:0;visibility:hidden';
    holder.innerHTML = markup;
    document.body.append(holder);
    try {
      const all = [...holder.querySelectorAll('*')];
      const origin = holder.querySelector('svg')!.getBoundingClientRect();
      return [...holder.querySelectorAll('text')]
        .filter((t) => (t.textContent ?? '').trim() !== '')
        .map((t) => {
          // The box on screen: rotated names (a vertical axis's) included.
          const b = t.getBoundingClientRect();
          return { text: t.textContent!.trim(), x: b.x - origin.x, y: b.y - origin.y, width: b.width, height: b.height, order: all.indexOf(t) };
        });
    } finally {
      holder.remove();
    }
  }, svg);
}

/** Pairs of texts whose boxes overlap by more than a pixel each way. */
function overlaps(texts: { text: string; x: number; y: number; width: number; height: number }[]): string[] {
  const out: string[] = [];
  for (let a = 0; a < texts.length; a++)
    for (let b = a + 1; b < texts.length; b++) {
      const p = texts[a];
      const q = texts[b];
      const w = Math.min(p.x + p.width, q.x + q.width) - Math.max(p.x, q.x);
      const h = Math.min(p.y + p.height, q.y + q.height) - Math.max(p.y, q.y);
      if (w > 1 && h > 1) out.push(`"${p.text}" over "${q.text}"`);
    }
  return out;
}

/** The SVG a chart panel's export menu saves. */
async function exportSvg(page: Page, testid: string): Promise<string> {
  const panel = page.getByTestId(testid);
  await panel.hover();
  await panel.getByTestId('chart-export').click();
  const [download] = await Promise.all([page.waitForEvent('download'), panel.getByTestId('chart-export-svg').click()]);
  return readFileSync((await download.path())!, 'utf8');
}

const browserTool = requireChromium();
let outDir = '';
let workspace = '';
beforeAll(async () => {
  if (!browserTool.present) return;
  workspace = mkdtempSync(join(tmpdir(), 'saikoro-e2e-explore-ws-'));
  writeFileSync(join(workspace, 'spec.json'), JSON.stringify(SPEC));
  await saikoro(['project', 'new', 'study.saikoro'], workspace);
  await saikoro(['experiment', 'add', 'study.saikoro', '--spec', 'spec.json'], workspace);
  await saikoro(['experiment', 'run', 'study.saikoro', '--jobs', '2'], workspace);
  outDir = await buildRendererInTemp('saikoro-e2e-explore-');
}, 240_000);
afterAll(() => {
  for (const dir of [outDir, workspace]) if (dir) rmSync(dir, { recursive: true, force: true });
});

browserTool.describe('Pareto explorer in a browser', () => {
  let server: AppServer;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];
  let stored: (SolutionRecord & { runId: string; label: string })[] = [];
  let results: ExperimentRunResult[] = [];

  /** An API call made straight to the server (not through the page), with the server's token. */
  async function call<T>(name: string, ...args: unknown[]): Promise<T> {
    const url = new URL(server.url);
    const token = url.searchParams.get('token')!;
    const response = await fetch(`${url.origin}/api/${name}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(args),
    });
    const body = (await response.json()) as { ok: boolean; value: T; error?: { message: string } };
    if (!body.ok) throw new Error(body.error!.message);
    return body.value;
  }

  beforeAll(async () => {
    server = await startAppServer({ port: 0, rendererDir: outDir, build: 'never', workspace, parallelism: 1 });
    await call('openProject', 'study.saikoro');
    results = await call<ExperimentRunResult[]>('getExperimentResults', 'fronts');
    // The stored points as the issue defines them: each done run's front (its best when the front is empty).
    stored = results.flatMap((r) =>
      (r.result ? (r.result.front.length ? r.result.front : r.result.best ? [r.result.best] : []) : []).map((s) => ({ ...s, runId: r.id, label: r.label })),
    );
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1440, height: 1000 }, acceptDownloads: true });
    collectPageErrors(page, pageErrors);
    await page.goto(server.url);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function openExperiment(): Promise<{ plot: Plot; box: { x: number; y: number } }> {
    // A fresh page each time: what a test before did (zoom, mode, legend) is gone.
    await page.goto(`${server.url.split('#')[0]}#/explore/fronts`);
    const scatter = page.getByTestId('explore-scatter');
    await expect.poll(() => scatter.getAttribute('data-rendered'), { timeout: 20_000 }).toBe('1');
    await scatter.scrollIntoViewIfNeeded();
    const plot = JSON.parse((await scatter.getAttribute('data-plot'))!) as Plot;
    const box = (await scatter.locator('.echart').boundingBox())!;
    return { plot, box };
  }

  it('shows every stored point of the experiment', async () => {
    await openExperiment();
    expect(stored.length).toBeGreaterThan(10);
    expect(await page.getByTestId('explore-counts').textContent()).toContain(`${stored.length} of ${stored.length} solutions shown`);
  });

  it('a rectangle brushed with the mouse selects exactly the stored points inside it', async () => {
    const { plot, box } = await openExperiment();
    const toData = (px: number, py: number) => [
      plot.x0 + ((px - plot.x) / plot.width) * (plot.x1 - plot.x0),
      plot.y0 + ((plot.y + plot.height - py) / plot.height) * (plot.y1 - plot.y0),
    ];
    const toPixel = (f: number[]) => [
      plot.x + ((f[0] - plot.x0) / (plot.x1 - plot.x0)) * plot.width,
      plot.y + plot.height - ((f[1] - plot.y0) / (plot.y1 - plot.y0)) * plot.height,
    ];
    // A rectangle around the middle half of the points, its edges moved off any point by at
    // least a pixel, so the count does not hang on rounding.
    const px = stored.map((s) => toPixel(s.objectives));
    const xs = px.map((p) => p[0]).sort((a, b) => a - b);
    const ys = px.map((p) => p[1]).sort((a, b) => a - b);
    const clear = (v: number, all: number[]) => {
      let e = Math.round(v);
      while (all.some((a) => Math.abs(a - e) < 1.5)) e += 1;
      return e;
    };
    const left = clear(xs[Math.floor(xs.length * 0.25)] - 0.5, xs);
    const right = clear(xs[Math.floor(xs.length * 0.85)] + 0.5, xs);
    const top = clear(ys[Math.floor(ys.length * 0.1)] - 0.5, ys);
    const bottom = clear(ys[Math.floor(ys.length * 0.9)] + 0.5, ys);
    const [x0, y1] = toData(left, top);
    const [x1, y0] = toData(right, bottom);
    const expected = stored.filter((s) => s.objectives[0] >= x0 && s.objectives[0] <= x1 && s.objectives[1] >= y0 && s.objectives[1] <= y1);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(stored.length);

    await page.mouse.move(box.x + left, box.y + top);
    await page.mouse.down();
    await page.mouse.move(box.x + (left + right) / 2, box.y + (top + bottom) / 2, { steps: 4 });
    await page.mouse.move(box.x + right, box.y + bottom, { steps: 4 });
    await page.mouse.up();
    await expect.poll(() => page.getByTestId('selection-count').getAttribute('data-count'), { timeout: 10_000 }).toBe(String(expected.length));
    // The list shows them (virtual rows: the first screenful).
    await page.getByTestId('explore-selection').scrollIntoViewIfNeeded();
    const rows = page.locator('[data-testid="explore-selection"] tbody tr:not([aria-hidden])');
    expect(await rows.count()).toBe(Math.min(expected.length, await rows.count()));
    const firstX = await rows.first().locator('code').textContent();
    expect(expected.some((s) => (s.x.length > 32 ? s.x.slice(0, 32) + '…' : s.x) === firstX)).toBe(true);
    await page.screenshot({ path: join(tmpdir(), 'saikoro-e2e-explore-brush.png') });

    // The SVG export (the chart's menu) carries the selection too: one image over the vector
    // chart, holding each selected point in its series' colour (the light theme's: nsga2
    // #0072b2, random #d55e00, infeasible points #dc2626), never one colour for all.
    const scatterPanel = page.getByTestId('explore-scatter');
    await scatterPanel.hover();
    await scatterPanel.getByTestId('chart-export').click();
    const [svgDownload] = await Promise.all([page.waitForEvent('download'), scatterPanel.getByTestId('chart-export-svg').click()]);
    const svgText = readFileSync((await svgDownload.path())!, 'utf8');
    expect(svgText.startsWith('<svg')).toBe(true);
    const layers = [...svgText.matchAll(/<image\b[^>]*href="(data:image\/png;base64,[^"]+)"/g)].map((m) => m[1]);
    expect(layers.length).toBe(1);
    const seriesOf = (s: (typeof stored)[number]) => (s.feasible ? s.label : 'infeasible');
    const colours: Record<string, [number, number, number]> = { nsga2: [0x00, 0x72, 0xb2], random: [0xd5, 0x5e, 0x00], infeasible: [0xdc, 0x26, 0x26] };
    for (const [series, rgb] of Object.entries(colours)) {
      const selectedOf = expected.filter((s) => seriesOf(s) === series).length;
      const pixels = await countPixels(page, layers[0], { near: rgb, within: 16, minAlpha: 200 });
      // Every selected point is a disc of side 7 (overlaps allowed): far more than a few pixels; none of a series with none selected.
      if (selectedOf) expect(pixels, series).toBeGreaterThan(Math.min(selectedOf, 10) * 20);
      else expect(pixels, series).toBe(0);
    }
    expect(new Set(expected.map(seriesOf)).size, 'the rectangle takes points of two series').toBeGreaterThanOrEqual(2);

    await page.mouse.move(box.x + 5, box.y + 5);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('selection-count').getAttribute('data-count')).toBe('0');
  });

  it('a click on a point opens it in the evaluator, whose numbers are those of saikoro eval', async () => {
    const { plot, box } = await openExperiment();
    const toPixel = (f: number[]) => [
      plot.x + ((f[0] - plot.x0) / (plot.x1 - plot.x0)) * plot.width,
      plot.y + plot.height - ((f[1] - plot.y0) / (plot.y1 - plot.y0)) * plot.height,
    ];
    // A point no other point's marker covers.
    const target = stored.find((s) => {
      const [x, y] = toPixel(s.objectives);
      return stored.every((o) => o === s || Math.hypot(...toPixel(o.objectives).map((v, k) => v - [x, y][k])) > 10);
    })!;
    expect(target).toBeDefined();
    const [x, y] = toPixel(target.objectives);
    await page.mouse.move(box.x + x, box.y + y);
    await expect.poll(() => page.locator('.explore-tooltip').first().textContent(), { timeout: 5000 }).toContain(formatNumber(target.objectives[0]));
    await page.mouse.click(box.x + x, box.y + y);
    await expect.poll(() => page.evaluate(() => window.location.hash)).toBe('#/dice');

    // The instance's config as saikoro eval takes it (N is the length of x).
    const { n: _n, ...config } = trackConfig('mo2', 200);
    const { stdout } = await saikoro(['eval'], workspace, JSON.stringify({ x: target.x, config }) + '\n');
    const evaluated = JSON.parse(stdout) as { objectives: number[]; constraints: number[]; feasible: boolean };
    for (let m = 0; m < 2; m++)
      await expect.poll(() => page.getByTestId(`objective-${m}`).textContent(), { timeout: 10_000 }).toBe(formatNumber(evaluated.objectives[m]));
    expect(evaluated.objectives).toEqual(target.objectives);
    const satisfied = evaluated.constraints.filter((g) => g <= 0).length;
    expect((await page.getByTestId('constraints-summary').textContent())?.trim()).toBe(`${satisfied} / 12 satisfied`);
    expect((await page.getByTestId('feasibility').textContent())?.trim()).toBe(evaluated.feasible ? 'feasible' : 'infeasible');
    expect(await page.getByTestId('sequence-input').inputValue()).toBe(target.x);
    await page.screenshot({ path: join(tmpdir(), 'saikoro-e2e-explore-opened.png') });
  });

  it('a synthetic front of 100,000 points draws in every view with no page error', async () => {
    await page.evaluate(() => (window.location.hash = '#/explore/synthetic/100000?m=3&seed=1'));
    const scatter = page.getByTestId('explore-scatter');
    await expect.poll(() => page.getByTestId('explore-counts').textContent(), { timeout: 30_000 }).toContain('100,000 of 100,000 solutions shown');
    await expect.poll(async () => Number(await scatter.getAttribute('data-rendered')), { timeout: 30_000 }).toBeGreaterThanOrEqual(1);
    for (const tab of ['parallel', '3d', 'matrix']) {
      await page.getByTestId(`explore-tab-${tab}`).click();
      const panel = page.getByTestId(tab === '3d' ? 'explore-3d' : `explore-${tab}`);
      await expect.poll(() => panel.getAttribute('data-rendered'), { timeout: 30_000 }).not.toBeNull();
    }
    // An axis change redraws the scatter with the new option.
    const given = Number(await scatter.getAttribute('data-option'));
    await page.getByTestId('explore-x').selectOption('2');
    await expect.poll(async () => Number(await scatter.getAttribute('data-rendered')), { timeout: 30_000 }).toBe(given + 1);
    await page.screenshot({ path: join(tmpdir(), 'saikoro-e2e-explore-100k.png') });

    // The points are on the view's layer: the mouse over them finds one and shows its values.
    const plot = JSON.parse((await scatter.getAttribute('data-plot'))!) as Plot;
    const box = (await scatter.locator('.echart').boundingBox())!;
    await page.mouse.move(box.x + plot.x + plot.width * 0.45, box.y + plot.y + plot.height * 0.5);
    await page.mouse.move(box.x + plot.x + plot.width * 0.5, box.y + plot.y + plot.height * 0.5, { steps: 3 });
    await expect.poll(() => page.locator('.explore-tooltip').first().textContent(), { timeout: 5000 }).toMatch(/#\d+.*f1: .*f2: .*f3: /);
    await page.mouse.move(box.x + 2, box.y + 2);
    // The SVG export holds them too: one image of the point layer, in the first solver's blue.
    const svg = await exportSvg(page, 'explore-scatter');
    const layers = [...svg.matchAll(/<image\b[^>]*href="(data:image\/png;base64,[^"]+)"/g)].map((m) => m[1]);
    expect(layers.length).toBe(1);
    expect(await countPixels(page, layers[0], { blueOverRed: 100, greenBelow: 170 })).toBeGreaterThan(2000);

    // The PNG export (the chart's menu) holds the points: count the pixels of the first
    // solver's blue (#0072b2, alone or stacked at 0.75 on white; nothing else drawn is that blue).
    await scatter.hover();
    await scatter.getByTestId('chart-export').click();
    const [download] = await Promise.all([page.waitForEvent('download'), scatter.getByTestId('chart-export-png').click()]);
    const png = readFileSync((await download.path())!).toString('base64');
    const coloured = await countPixels(page, `data:image/png;base64,${png}`, { blueOverRed: 100, greenBelow: 170 });
    expect(coloured).toBeGreaterThan(5000);
    expect(pageErrors).toEqual([]);
  }, 120_000);
  it('a zoom survives switching between Select and Pan', async () => {
    const { plot, box } = await openExperiment();
    const scatter = page.getByTestId('explore-scatter');
    await page.mouse.move(box.x + plot.x + plot.width / 2, box.y + plot.y + plot.height / 2);
    for (let k = 0; k < 3; k++) await page.mouse.wheel(0, -200);
    await expect
      .poll(
        async () => (JSON.parse((await scatter.getAttribute('data-plot'))!) as Plot).x1 - (JSON.parse((await scatter.getAttribute('data-plot'))!) as Plot).x0,
        { timeout: 10_000 },
      )
      .toBeLessThan((plot.x1 - plot.x0) * 0.9);
    await page.waitForTimeout(300);
    const zoomed = JSON.parse((await scatter.getAttribute('data-plot'))!) as Plot;
    for (const mode of ['pan', 'select']) {
      const given = Number(await scatter.getAttribute('data-option'));
      await page.getByTestId(`explore-mode-${mode}`).click();
      await expect.poll(async () => Number(await scatter.getAttribute('data-rendered'))).toBe(given + 1);
      const now = JSON.parse((await scatter.getAttribute('data-plot'))!) as Plot;
      for (const k of ['x0', 'x1', 'y0', 'y1'] as const) expect(now[k]).toBeCloseTo(zoomed[k], 6);
    }
  });

  it('a solver hidden in the legend unticks its checkbox and leaves the count; ticking it shows it again', async () => {
    const { box } = await openExperiment();
    const nsga2 = new Set(stored.filter((s) => results.find((r) => r.id === s.runId)?.label === 'nsga2'));
    expect(nsga2.size).toBeGreaterThan(0);
    const legend = (await svgTexts(page, await exportSvg(page, 'explore-scatter'))).find((t) => t.text === 'nsga2')!;
    await page.mouse.click(box.x + legend.x + legend.width / 2, box.y + legend.y + legend.height / 2);
    const checkbox = page.getByTestId('explore-solver-nsga2');
    await expect.poll(() => checkbox.isChecked()).toBe(false);
    expect(await page.getByTestId('explore-counts').textContent()).toContain(`${stored.length - nsga2.size} of ${stored.length} solutions shown`);
    await checkbox.check();
    await expect.poll(() => page.getByTestId('explore-counts').textContent()).toContain(`${stored.length} of ${stored.length} solutions shown`);
    expect(await checkbox.isChecked()).toBe(true);
  });

  it("an M = 2 selection is drawn in the attainment chart over its solver's points", async () => {
    await openExperiment();
    await page.getByTestId('explore-tab-attainment').click();
    const solver = await page.getByTestId('attainment-solver').inputValue();
    // The attainment view puts the scatter above it, at the full width: its plot as it is now.
    const scatter = page.getByTestId('explore-scatter');
    await page.waitForTimeout(500);
    await scatter.scrollIntoViewIfNeeded();
    const plot = JSON.parse((await scatter.getAttribute('data-plot'))!) as Plot;
    const box = (await scatter.locator('.echart').boundingBox())!;
    // A rectangle over the whole plot, every stored point: from the top right corner (the axes'
    // padded ends, where no point lies) to beyond the bottom left one (the brush stops at the
    // plot's edges, where points at 0 lie).
    await page.mouse.move(box.x + plot.x + plot.width - 1, box.y + plot.y + 1);
    await page.mouse.down();
    await page.mouse.move(box.x + plot.x + plot.width / 2, box.y + plot.y + plot.height / 2, { steps: 4 });
    await page.mouse.move(box.x + plot.x - 20, box.y + plot.y + plot.height + 20, { steps: 4 });
    await page.mouse.up();
    await expect.poll(() => page.getByTestId('selection-count').getAttribute('data-count'), { timeout: 10_000 }).toBe(String(stored.length));
    const own = stored.filter((s) => s.feasible && results.find((r) => r.id === s.runId)?.label === solver).length;
    expect(own).toBeGreaterThan(0);
    await expect.poll(() => page.getByTestId('attainment-selected').getAttribute('data-count')).toBe(String(own));
    // The chart shows them: its SVG export carries the selection's layer, the points in the
    // solver's own colour as it draws its points (the light theme's: nsga2 #0072b2, random
    // #d55e00), no longer the accent (#3658c9).
    const svg = await exportSvg(page, 'explore-attainment');
    const layers = [...svg.matchAll(/<image\b[^>]*href="(data:image\/png;base64,[^"]+)"/g)].map((m) => m[1]);
    expect(layers.length).toBe(1);
    const colours: Record<string, [number, number, number]> = { nsga2: [0x00, 0x72, 0xb2], random: [0xd5, 0x5e, 0x00] };
    expect(await countPixels(page, layers[0], { near: colours[solver], within: 16, minAlpha: 200 })).toBeGreaterThan(Math.min(own, 10) * 20);
    expect(await countPixels(page, layers[0], { near: [0x36, 0x58, 0xc9], within: 16, minAlpha: 200 })).toBe(0);
    await page.keyboard.press('Escape');
  });

  it("a selection across solvers keeps each point's solver colour in the scatter, the matrix and parallel coordinates (it took the accent, close to the first solver's blue)", async () => {
    // A synthetic M = 3 front of four solvers (nsga2, nsga3, moead-ls, random: the light theme's
    // #0072b2, #d55e00, #009e73, #cc79a7), few enough points that the charts draw them as shapes
    // and the only image of an export is the selection's layer.
    const colours: Record<string, [number, number, number]> = {
      nsga2: [0x00, 0x72, 0xb2],
      nsga3: [0xd5, 0x5e, 0x00],
      'moead-ls': [0x00, 0x9e, 0x73],
      random: [0xcc, 0x79, 0xa7],
    };
    const accent: [number, number, number] = [0x36, 0x58, 0xc9];
    await page.goto(`${server.url.split('#')[0]}#/explore/synthetic/1500?m=3&seed=2`);
    await expect.poll(() => page.getByTestId('explore-counts').textContent(), { timeout: 30_000 }).toContain('1,500 of 1,500 solutions shown');
    const scatter = page.getByTestId('explore-scatter');
    await expect.poll(() => scatter.getAttribute('data-rendered'), { timeout: 20_000 }).not.toBeNull();
    const matrix = page.getByTestId('explore-matrix');
    await expect.poll(() => matrix.getAttribute('data-rendered'), { timeout: 30_000 }).not.toBeNull();
    await scatter.scrollIntoViewIfNeeded();
    const plot = JSON.parse((await scatter.getAttribute('data-plot'))!) as Plot;
    const box = (await scatter.locator('.echart').boundingBox())!;
    // Every point: from the top right corner of the plot to beyond its bottom left one.
    await page.mouse.move(box.x + plot.x + plot.width - 1, box.y + plot.y + 1);
    await page.mouse.down();
    await page.mouse.move(box.x + plot.x + plot.width / 2, box.y + plot.y + plot.height / 2, { steps: 4 });
    await page.mouse.move(box.x + plot.x - 20, box.y + plot.y + plot.height + 20, { steps: 4 });
    await page.mouse.up();
    await expect.poll(() => page.getByTestId('selection-count').getAttribute('data-count'), { timeout: 10_000 }).toBe('1500');
    await page.mouse.move(box.x + 2, box.y + 2);
    await page.screenshot({ path: join(tmpdir(), 'saikoro-e2e-explore-selection-colours.png'), fullPage: true });

    for (const testid of ['explore-scatter', 'explore-matrix']) {
      const svg = await exportSvg(page, testid);
      const layers = [...svg.matchAll(/<image\b[^>]*href="(data:image\/png;base64,[^"]+)"/g)].map((m) => m[1]);
      expect(layers.length, testid).toBe(1);
      // About 375 points each, as discs of 7 (5 in the matrix's panels) ringed in the text colour.
      for (const [solver, rgb] of Object.entries(colours))
        expect(await countPixels(page, layers[0], { near: rgb, within: 16, minAlpha: 200 }), `${testid}: ${solver}`).toBeGreaterThan(1000);
      // The accent only in the brush's dashed rectangle (the scatter's, around its plot), in no point.
      const rectangle = testid === 'explore-scatter' ? 2 * (plot.width + plot.height) : 0;
      expect(await countPixels(page, layers[0], { near: accent, within: 16, minAlpha: 200 }), `${testid}: the accent`).toBeLessThanOrEqual(rectangle);
    }

    // Parallel coordinates: the selected lines (2 px wide, the others 1) in their solvers' colours, one per selected point.
    await page.getByTestId('explore-tab-parallel').click();
    const parallel = page.getByTestId('explore-parallel');
    await expect.poll(() => parallel.getAttribute('data-rendered'), { timeout: 30_000 }).not.toBeNull();
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(tmpdir(), 'saikoro-e2e-explore-selection-parallel.png'), fullPage: true });
    const svg = await exportSvg(page, 'explore-parallel');
    // ECharts' SVG draws a line as a <polyline> (its legend's icons are <path>s).
    const wide = [...svg.matchAll(/<polyline\b[^>]*>/g)].map((m) => m[0]).filter((tag) => /stroke-width="2"/.test(tag));
    expect(wide.length).toBe(1500);
    const strokes = new Map<string, number>();
    for (const tag of wide) {
      const stroke = /stroke="([^"]+)"/.exec(tag)?.[1] ?? 'none';
      strokes.set(stroke, (strokes.get(stroke) ?? 0) + 1);
    }
    const hex = ([r, g, b]: number[]) => `#${[r, g, b].map((v) => v.toString(16).padStart(2, '0')).join('')}`;
    const linesOf = (rgb: [number, number, number]) => strokes.get(hex(rgb)) ?? 0;
    for (const [solver, rgb] of Object.entries(colours)) expect(linesOf(rgb), `parallel: ${solver} in ${JSON.stringify([...strokes])}`).toBeGreaterThan(300);
    expect(linesOf(accent), 'parallel: the accent').toBe(0);
    await page.keyboard.press('Escape');
  }, 120_000);

  it('no two texts of a chart overlap: every view, zoomed and panned, at 1024 px and wider', async () => {
    for (const width of [1024, 1600]) {
      const narrow = await browser.newPage({ viewport: { width, height: 900 }, acceptDownloads: true });
      collectPageErrors(narrow, pageErrors);
      try {
        const at = async (hash: string) => {
          await narrow.goto(server.url.split('#')[0] + hash);
          await expect.poll(() => narrow.getByTestId('explore-scatter').getAttribute('data-rendered'), { timeout: 30_000 }).not.toBeNull();
        };
        const check = async (testid: string, what: string) => {
          const texts = await svgTexts(narrow, await exportSvg(narrow, testid));
          expect(texts.length, what).toBeGreaterThan(5);
          expect(overlaps(texts), `${what} at ${width} px: ${JSON.stringify(texts)}`).toEqual([]);
          return texts;
        };
        await at('#/explore/synthetic/20000?m=5&seed=3');
        await check('explore-scatter', 'M = 5 scatter');
        await expect.poll(() => narrow.getByTestId('explore-matrix').getAttribute('data-rendered'), { timeout: 30_000 }).not.toBeNull();
        await check('explore-matrix', 'M = 5 matrix');
        await narrow.getByTestId('explore-tab-parallel').click();
        await expect.poll(() => narrow.getByTestId('explore-parallel').getAttribute('data-rendered'), { timeout: 30_000 }).not.toBeNull();
        await check('explore-parallel', 'parallel coordinates');

        await at('#/explore/synthetic/20000?m=3&seed=3');
        await narrow.getByTestId('explore-tab-3d').click();
        await expect.poll(() => narrow.getByTestId('explore-3d').getAttribute('data-rendered'), { timeout: 30_000 }).not.toBeNull();
        await check('explore-3d', '3-D view');
        // Zoomed in with the wheel, then panned: the axes end on odd values.
        const scatter = narrow.getByTestId('explore-scatter');
        await scatter.scrollIntoViewIfNeeded();
        const plot = JSON.parse((await scatter.getAttribute('data-plot'))!) as Plot;
        const box = (await scatter.locator('.echart').boundingBox())!;
        await narrow.mouse.move(box.x + plot.x + plot.width * 0.4, box.y + plot.y + plot.height * 0.5);
        for (let k = 0; k < 4; k++) await narrow.mouse.wheel(0, -150);
        await narrow.getByTestId('explore-mode-pan').click();
        await narrow.mouse.move(box.x + plot.x + plot.width * 0.5, box.y + plot.y + plot.height * 0.5);
        await narrow.mouse.down();
        await narrow.mouse.move(box.x + plot.x + plot.width * 0.5 + 37, box.y + plot.y + plot.height * 0.5 - 23, { steps: 5 });
        await narrow.mouse.up();
        await narrow.waitForTimeout(300);
        const panned = await check('explore-scatter', 'panned scatter');
        // Only round ticks are labelled: no odd end such as "186" beside "200".
        const zoomed = JSON.parse((await scatter.getAttribute('data-plot'))!) as Plot;
        expect(zoomed.x1 - zoomed.x0).toBeLessThan(plot.x1 - plot.x0);
        for (const end of [zoomed.x0, zoomed.x1, zoomed.y0, zoomed.y1]) expect(panned.map((t) => t.text)).not.toContain(formatNumber(end));
        await narrow.screenshot({ path: join(tmpdir(), `saikoro-e2e-explore-panned-${width}.png`) });
      } finally {
        await narrow.close();
      }
    }
    expect(pageErrors).toEqual([]);
  }, 240_000);
});
