// End to end: every view of a project the real CLI made and ran, in headless Chromium at 1024
// and 1440 px, light and dark: no text the page cuts with an ellipsis (issue 28: "anneali…" and
// "hill-cli…" in the run monitor's Solver column at 1024 px, "open a solution from the Pa…" on
// the evaluator's Undo). SAIKORO_VIEW_SCREENSHOTS=DIR keeps a screenshot of each view at each
// width and scheme, to look at.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { startAppServer, type AppServer } from '../../src-main/server/app-server.ts';
import { PROJECT_ROOT } from '../../src-main/server/renderer-dir.ts';
import { requireChromium } from './chromium.ts';
import { buildRendererInTemp, collectPageErrors, launchChromium } from './browser.ts';

const run = promisify(execFile);
const saikoro = (args: string[], cwd: string) => run(process.execPath, [join(PROJECT_ROOT, 'bin', 'saikoro.mjs'), ...args], { cwd, timeout: 180_000 });

// The single-objective solvers with the longest names, and a multi-objective experiment to explore.
const SO = {
  name: 'so-solvers',
  instances: [{ name: 'so-n60', track: 'so', n: 60 }],
  solvers: [{ name: 'annealing' }, { name: 'hill-climbing' }, { name: 'steepest' }, { name: 'barrier-ls' }],
  seeds: [1, 2],
  budget: { evaluations: 600, wholeBudget: true },
};
const MO = {
  name: 'mo-fronts',
  instances: [{ name: 'mo2-n40', track: 'mo2', n: 40 }],
  solvers: [{ name: 'barrier-mo' }, { name: 'nsga2', params: { populationSize: 20 } }, { name: 'random' }],
  seeds: [1, 2],
  budget: { evaluations: 1000 },
};
const SCREENSHOTS = process.env.SAIKORO_VIEW_SCREENSHOTS;

const browserTool = requireChromium();
let outDir = '';
let workspace = '';
beforeAll(async () => {
  if (!browserTool.present) return;
  workspace = mkdtempSync(join(tmpdir(), 'saikoro-e2e-views-ws-'));
  await saikoro(['project', 'new', 'study.saikoro'], workspace);
  for (const spec of [SO, MO]) {
    writeFileSync(join(workspace, `${spec.name}.json`), JSON.stringify(spec));
    await saikoro(['experiment', 'add', 'study.saikoro', '--spec', `${spec.name}.json`], workspace);
  }
  await saikoro(['experiment', 'run', 'study.saikoro', '--jobs', '2'], workspace);
  outDir = await buildRendererInTemp('saikoro-e2e-views-');
}, 300_000);
afterAll(() => {
  for (const dir of [outDir, workspace]) if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Every element the page shows with its text cut by an ellipsis: "tag.class: "text" (needs W px, has w)". */
function truncated(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>('body *')) {
      if (getComputedStyle(el).textOverflow !== 'ellipsis' || el.offsetParent === null) continue;
      if (el.scrollWidth > el.clientWidth + 1)
        out.push(
          `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}: "${(el.textContent ?? '').trim().slice(0, 60)}" (needs ${el.scrollWidth} px, has ${el.clientWidth})`,
        );
    }
    return out;
  });
}

browserTool.describe('the views at 1024 px and wider', () => {
  let server: AppServer;
  let browser: Browser;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    server = await startAppServer({ port: 0, rendererDir: outDir, build: 'never', workspace, parallelism: 1 });
    await server.projects.open('study.saikoro');
    browser = await launchChromium();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('no view cuts a text with an ellipsis (the monitor read "anneali…", "hill-cli…" at 1024 px)', async () => {
    if (SCREENSHOTS) mkdirSync(SCREENSHOTS, { recursive: true });
    const found: string[] = [];
    for (const width of [1024, 1440])
      for (const scheme of ['light', 'dark'] as const) {
        const page = await browser.newPage({ viewport: { width, height: 900 }, colorScheme: scheme });
        collectPageErrors(page, pageErrors);
        await page.goto(server.url);
        const views: [string, () => Promise<void>][] = [
          ['project', () => page.getByTestId('project-info').waitFor()],
          [
            `monitor/${SO.name}`,
            async () =>
              void (await expect.poll(() => page.locator('[data-testid="monitor-runs"] tbody tr[data-state="done"]').count(), { timeout: 20_000 }).toBe(8)),
          ],
          [
            `monitor/${MO.name}`,
            async () =>
              void (await expect.poll(() => page.locator('[data-testid="monitor-runs"] tbody tr[data-state="done"]').count(), { timeout: 20_000 }).toBe(6)),
          ],
          [`compare/${SO.name}`, () => page.getByTestId('stats-table').waitFor()],
          [`compare/${MO.name}`, () => page.getByTestId('stats-table').waitFor()],
          [`explore/${MO.name}`, () => page.getByTestId('explore-counts').waitFor()],
          [`export/${MO.name}`, () => page.locator('iframe').first().waitFor()],
          [`experiment/${SO.name}`, () => page.getByTestId('viewing').waitFor()],
          ['experiment', () => page.getByTestId('run-count').waitFor()],
          ['solve', () => page.locator('main').waitFor()],
        ];
        for (const [route, ready] of views) {
          await page.goto(`${server.url.split('?')[0]}#/${route}`);
          await ready();
          found.push(...(await truncated(page)).map((t) => `${route} at ${width} px (${scheme}): ${t}`));
          if (SCREENSHOTS) await page.screenshot({ path: join(SCREENSHOTS, `${route.replace(/\//g, '-')}-${width}-${scheme}.png`), fullPage: true });
        }
        // The evaluator after a solution opened from the explorer (its Undo names what it takes back).
        await page.goto(`${server.url.split('?')[0]}#/explore/${MO.name}`);
        await page.getByTestId('explore-counts').waitFor();
        const scatter = page.getByTestId('explore-scatter');
        await expect.poll(() => scatter.getAttribute('data-rendered'), { timeout: 20_000 }).toBe('1');
        const plot = JSON.parse((await scatter.getAttribute('data-plot'))!) as { x: number; y: number; width: number; height: number };
        const box = (await scatter.locator('.echart').boundingBox())!;
        await page.mouse.move(box.x + plot.x + 1, box.y + plot.y + 1);
        await page.mouse.down();
        await page.mouse.move(box.x + plot.x + plot.width / 2, box.y + plot.y + plot.height / 2, { steps: 3 });
        await page.mouse.move(box.x + plot.x + plot.width - 1, box.y + plot.y + plot.height - 1, { steps: 3 });
        await page.mouse.up();
        await page.locator('[data-testid="explore-selection"] tbody button', { hasText: 'open' }).first().click();
        await page.getByTestId('solution-origin').waitFor();
        expect(await page.getByTestId('undo').getAttribute('title')).toBe('Undo open from the explorer');
        found.push(...(await truncated(page)).map((t) => `dice at ${width} px (${scheme}): ${t}`));
        if (SCREENSHOTS) await page.screenshot({ path: join(SCREENSHOTS, `dice-opened-${width}-${scheme}.png`), fullPage: true });
        await page.close();
      }
    expect(found).toEqual([]);
    expect(pageErrors).toEqual([]);
  }, 600_000);
});
