// End to end: the Export view and chart export in headless Chromium, on the web server with a
// freshly built renderer and a project whose experiment ran on the real solver host. The HTML
// preview renders in its sandboxed frame under the app's CSP; Save downloads the HTML page and
// the PDF, whose text (pdftotext) has the experiment's name and compare's numbers; a chart's
// menu gives a PNG at twice its size and an SVG that parses as XML.
// SAIKORO_EXPORT_SCREENSHOTS=DIR keeps screenshots of each format's preview and of a chart's
// export menu, light and dark, at 1280×800 and 1024×700, to look at.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startAppServer, type AppServer } from '../../src-main/server/app-server.ts';
import { formatCell } from '../../src-main/report/format.ts';
import { requireChromium } from './chromium.ts';
import { buildRendererInTemp, collectPageErrors, launchChromium } from './browser.ts';
import { requireTool } from './tools.ts';
import { waitFor } from '../main/processes.ts';
import { SMALL } from '../renderer/export/fixtures.ts';

const browserTool = requireChromium();
const pdftotext = requireTool('pdftotext', '/usr/bin/pdftotext', 'apt-get install poppler-utils');
const SCREENSHOTS = process.env.SAIKORO_EXPORT_SCREENSHOTS;
const SAMPLE = '31552264665432613134314646226624645162511461153216';

let outDir = '';
let workspace = '';
let server: AppServer;
let browser: Browser;
beforeAll(async () => {
  if (!browserTool.present) return;
  workspace = mkdtempSync(join(tmpdir(), 'saikoro-e2e-export-ws-'));
  outDir = await buildRendererInTemp('saikoro-e2e-export-');
  server = await startAppServer({ port: 0, rendererDir: outDir, build: 'never', parallelism: 2, workspace });
  await server.projects.create('e2e.saikoro');
  await server.projects.addExperiment(SMALL);
  server.projects.runExperiment('small');
  await waitFor('the experiment to finish', () => server.projects.summary()!.experiments[0].counts.done === 6, { withinMs: 60_000 });
  browser = await launchChromium();
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
  for (const dir of [outDir, workspace]) if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A page of the app in a colour scheme, with every page error and console error collected. */
async function open(scheme: 'light' | 'dark', viewport = { width: 1280, height: 800 }): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport, colorScheme: scheme, acceptDownloads: true });
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  await page.goto(server.url);
  await page.getByTestId('nav-export').waitFor();
  return { context, page, errors };
}

/** The preview of `filename`, with nothing pending. */
async function shown(page: Page, filename: string) {
  await expect
    .poll(
      async () => (await page.getByTestId('export-busy').count()) === 0 && ((await page.getByTestId('export-summary').textContent()) ?? '').includes(filename),
      { timeout: 30_000 },
    )
    .toBe(true);
}

/** The top-left pixel of a PNG (8-bit RGB or RGBA): whatever the row's filter, its first pixel is stored as is. */
function firstPixel(png: Buffer): number[] {
  let colourType = 0;
  const data: Buffer[] = [];
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    const body = png.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') colourType = body[9];
    if (type === 'IDAT') data.push(body);
    at += 12 + length;
  }
  return [...inflateSync(Buffer.concat(data)).subarray(1, 1 + (colourType === 6 ? 4 : 3))];
}

async function download(page: Page, click: () => Promise<void>): Promise<{ name: string; bytes: Buffer }> {
  const [d] = await Promise.all([page.waitForEvent('download'), click()]);
  return { name: d.suggestedFilename(), bytes: readFileSync((await d.path())!) };
}

browserTool.describe('export in a browser', () => {
  it('previews the HTML report in its sandboxed frame and saves it', async () => {
    const { context, page, errors } = await open('light');
    await page.getByTestId('nav-export').click();
    await shown(page, 'small.html');
    const frame = page.frameLocator('[data-testid="preview-page"]');
    await expect.poll(() => frame.locator('h1').textContent()).toBe('small');
    // The page's charts are drawn in the frame.
    expect(await frame.locator('figure.chart svg').count()).toBeGreaterThan(4);
    const saved = await download(page, () => page.getByTestId('export-save').click());
    expect(saved.name).toBe('small.html');
    const html = saved.bytes.toString('utf8');
    expect(html).toContain('<h1>small</h1>');
    expect(html).toContain('data-hook="attainment-surfaces"');
    expect(errors).toEqual([]);
    await context.close();
  });

  pdftotext.describe('with pdftotext', () => {
    it('saves the PDF printed by Chromium; its text has the experiment and its numbers', async () => {
      const { context, page, errors } = await open('dark');
      await page.getByTestId('nav-export').click();
      await shown(page, 'small.html');
      await page.getByTestId('format-pdf').check();
      await shown(page, 'small.pdf');
      expect(await page.getByTestId('export-summary').textContent()).toMatch(/\d+ pages?, A4/);
      const saved = await download(page, () => page.getByTestId('export-save').click());
      expect(saved.name).toBe('small.pdf');
      expect(saved.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      const dir = mkdtempSync(join(tmpdir(), 'saikoro-e2e-pdf-'));
      try {
        const file = join(dir, 'small.pdf');
        writeFileSync(file, saved.bytes);
        const text = execFileSync(pdftotext.path, ['-layout', file, '-'], { encoding: 'utf8' });
        expect(text).toContain('small');
        expect(text).toContain('random against NSGA-II');
        const hv = server.projects.compare('small', { metric: 'hv' });
        expect(text).toContain(
          formatCell({ median: hv.instances[0].solvers[0].summary!.median, iqr: hv.instances[0].solvers[0].summary!.iqr, mean: null }, 'median'),
        );
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
      expect(errors).toEqual([]);
      await context.close();
    });
  });

  it('exports a chart as a PNG at twice its size and as an SVG that parses as XML', async () => {
    const { context, page, errors } = await open('light');
    await page.getByTestId('nav-dice').click();
    await page.getByTestId('sequence-input').fill(SAMPLE);
    await expect.poll(() => page.getByTestId('objective-0').textContent(), { timeout: 10_000 }).toBe('76.8');
    const frame = page.locator('.echart-frame').first();
    const chart = frame.locator('.echart');
    const label = await chart.getAttribute('aria-label');
    const slug = label!.toLowerCase().replace(/[^a-z0-9]+/g, '-');
    const box = (await chart.boundingBox())!;

    // Hidden until the chart is hovered or the button focused; then the keyboard works it.
    const toggle = frame.getByTestId('chart-export');
    expect(await toggle.evaluate((b) => getComputedStyle(b).opacity)).toBe('0');
    await toggle.focus();
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('chart-export-png');
    const png = await download(page, () => page.keyboard.press('Enter'));
    expect(png.name).toBe(`${slug}.png`);
    expect(png.bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect([png.bytes.readUInt32BE(16), png.bytes.readUInt32BE(20)]).toEqual([Math.round(box.width) * 2, Math.round(box.height) * 2]);
    // On the theme's surface (light: white), not transparent.
    expect(firstPixel(png.bytes)).toEqual([255, 255, 255, 255]);

    await frame.hover();
    await toggle.click();
    const svg = await download(page, () => frame.getByTestId('chart-export-svg').click());
    expect(svg.name).toBe(`${slug}.svg`);
    const text = svg.bytes.toString('utf8');
    expect(text.startsWith('<svg')).toBe(true);
    const parsed = await page.evaluate((source) => {
      const doc = new DOMParser().parseFromString(source, 'image/svg+xml');
      return {
        error: doc.querySelector('parsererror')?.textContent ?? null,
        root: doc.documentElement.nodeName,
        texts: [...doc.querySelectorAll('text')].map((t) => t.textContent),
      };
    }, text);
    expect(parsed.error).toBeNull();
    expect(parsed.root).toBe('svg');
    // The feature chart's labels, F1..F15.
    expect(parsed.texts).toEqual(expect.arrayContaining(['F1', 'F7', 'F15']));
    expect(errors).toEqual([]);
    await context.close();
  });

  // Always run: every format previews in both themes at both sizes with no page error; the
  // screenshots go to SAIKORO_EXPORT_SCREENSHOTS when set (else a temporary folder).
  it('every preview and a chart menu, light and dark, at two sizes, with no page error', async () => {
    const shots = SCREENSHOTS ?? join(outDir, 'screenshots');
    mkdirSync(shots, { recursive: true });
    for (const viewport of [
      { width: 1280, height: 800 },
      { width: 1024, height: 700 },
    ])
      for (const scheme of ['light', 'dark'] as const) {
        const { context, page, errors } = await open(scheme, viewport);
        await page.getByTestId('nav-export').click();
        await shown(page, 'small.html');
        for (const [format, name] of [
          ['html', 'small.html'],
          ['pdf', 'small.pdf'],
          ['csv', '2 files'],
          ['json', 'small.json'],
          ['latex', 'small.tex'],
        ]) {
          await page.getByTestId(`format-${format}`).check();
          await shown(page, name);
          await page.waitForTimeout(300);
          await page.screenshot({ path: join(shots, `export-${format}-${scheme}-${viewport.width}.png`) });
        }
        await page.getByTestId('nav-dice').click();
        await page.getByTestId('sequence-input').fill(SAMPLE);
        await expect.poll(() => page.getByTestId('objective-0').textContent(), { timeout: 10_000 }).toBe('76.8');
        const frame = page.locator('.echart-frame').first();
        await frame.hover();
        await frame.getByTestId('chart-export').click();
        await frame.getByTestId('chart-export-svg').waitFor();
        const box = (await frame.boundingBox())!;
        await page.screenshot({
          path: join(shots, `chart-menu-${scheme}-${viewport.width}.png`),
          clip: { x: box.x + box.width - 480, y: Math.max(0, box.y - 40), width: 500, height: 240 },
        });
        expect(errors).toEqual([]);
        await context.close();
      }
  }, 180_000);
});
