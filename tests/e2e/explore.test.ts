// End to end: the Pareto explorer in headless Chromium, on a project the real CLI made and ran.
// A rectangle brushed with the mouse selects exactly the stored points inside it (counted here
// from getExperimentResults, asked of the server directly); a click on a point opens it in the
// evaluator, whose numbers equal `saikoro eval` for that sequence; a synthetic front of 100,000
// points loads, draws and switches views with no page error.
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
import { formatNumber } from '../../src-renderer/views/dice/labels.ts';
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
            ? Math.abs(px[i] - test.near[0]) < test.within && Math.abs(px[i + 1] - test.near[1]) < test.within && Math.abs(px[i + 2] - test.near[2]) < test.within && px[i + 3] > test.minAlpha
            : px[i + 2] - px[i] > test.blueOverRed && px[i + 1] < test.greenBelow;
        if (pass) n++;
      }
      return n;
    },
    { src, test },
  );
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
  let stored: (SolutionRecord & { runId: string })[] = [];

  /** An API call made straight to the server (not through the page), with the server's token. */
  async function call<T>(name: string, ...args: unknown[]): Promise<T> {
    const url = new URL(server.url);
    const token = url.searchParams.get('token')!;
    const response = await fetch(`${url.origin}/api/${name}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(args) });
    const body = (await response.json()) as { ok: boolean; value: T; error?: { message: string } };
    if (!body.ok) throw new Error(body.error!.message);
    return body.value;
  }

  beforeAll(async () => {
    server = await startAppServer({ port: 0, rendererDir: outDir, build: 'never', workspace, parallelism: 1 });
    await call('openProject', 'study.saikoro');
    const results = await call<ExperimentRunResult[]>('getExperimentResults', 'fronts');
    // The stored points as the issue defines them: each done run's front (its best when the front is empty).
    stored = results.flatMap((r) => (r.result ? (r.result.front.length ? r.result.front : r.result.best ? [r.result.best] : []) : []).map((s) => ({ ...s, runId: r.id })));
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
    await page.evaluate(() => (window.location.hash = '#/explore/fronts'));
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
    const toData = (px: number, py: number) => [plot.x0 + ((px - plot.x) / plot.width) * (plot.x1 - plot.x0), plot.y0 + ((plot.y + plot.height - py) / plot.height) * (plot.y1 - plot.y0)];
    const toPixel = (f: number[]) => [plot.x + ((f[0] - plot.x0) / (plot.x1 - plot.x0)) * plot.width, plot.y + plot.height - ((f[1] - plot.y0) / (plot.y1 - plot.y0)) * plot.height];
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
    // chart, holding the selected points' squares in the accent colour (#3658c9 in light).
    const scatterPanel = page.getByTestId('explore-scatter');
    await scatterPanel.hover();
    await scatterPanel.getByTestId('chart-export').click();
    const [svgDownload] = await Promise.all([page.waitForEvent('download'), scatterPanel.getByTestId('chart-export-svg').click()]);
    const svgText = readFileSync((await svgDownload.path())!, 'utf8');
    expect(svgText.startsWith('<svg')).toBe(true);
    const layers = [...svgText.matchAll(/<image\b[^>]*href="(data:image\/png;base64,[^"]+)"/g)].map((m) => m[1]);
    expect(layers.length).toBe(1);
    const accentPixels = await countPixels(page, layers[0], { near: [0x36, 0x58, 0xc9], within: 16, minAlpha: 200 });
    // Every selected point is a square of side 7 (overlaps allowed): far more than a few pixels.
    expect(accentPixels).toBeGreaterThan(Math.min(expected.length, 10) * 20);
    await page.mouse.move(box.x + 5, box.y + 5);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('selection-count').getAttribute('data-count')).toBe('0');
  });

  it('a click on a point opens it in the evaluator, whose numbers are those of saikoro eval', async () => {
    const { plot, box } = await openExperiment();
    const toPixel = (f: number[]) => [plot.x + ((f[0] - plot.x0) / (plot.x1 - plot.x0)) * plot.width, plot.y + plot.height - ((f[1] - plot.y0) / (plot.y1 - plot.y0)) * plot.height];
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
    for (let m = 0; m < 2; m++) await expect.poll(() => page.getByTestId(`objective-${m}`).textContent(), { timeout: 10_000 }).toBe(formatNumber(evaluated.objectives[m]));
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
});
