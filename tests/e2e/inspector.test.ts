// End to end: the solution inspector in headless Chromium. Open a sequence, click a roll, pick
// a face from the picker: the objectives and the constraint statuses on screen equal what
// `saikoro eval` says for the edited sequence (the CLI run in-process); Ctrl+Z gives back the
// first numbers. Then the keyboard path (arrows, a digit) and the diff with the sequence before.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startAppServer, type AppServer } from '../../src-main/server/app-server.ts';
import { TRACK_OBJECTIVES } from '../../src-shared/problems/dice/config.ts';
import { formatNumber } from '../../src-renderer/logic/dice/labels.ts';
import { runCli } from '../main/cli/io.ts';
import { requireChromium } from './chromium.ts';
import { buildRendererInTemp, collectPageErrors, launchChromium } from './browser.ts';

const SAMPLE = '31552264665432613134314646226624645162511461153216';
// Roll 31 of the sample from 2 to 5: under M = 3 the d = 4 constraint fails (the rest hold).
const ROLL = 30;
const FACE = 5;
const EDITED = SAMPLE.slice(0, ROLL) + FACE + SAMPLE.slice(ROLL + 1);

const browserTool = requireChromium();

let outDir = '';
beforeAll(async () => {
  if (!browserTool.present) return;
  outDir = await buildRendererInTemp('saikoro-e2e-inspector-');
}, 180_000);
afterAll(() => {
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});

interface Shown {
  objectives: string[];
  statuses: string[];
  summary: string;
  feasibility: string;
}

/** What `saikoro eval` says for x under the M = 3 track, as the view would write it. */
async function evalCli(x: string): Promise<Shown> {
  const line = JSON.stringify({ id: 1, x, config: { objectives: TRACK_OBJECTIVES.mo3 } });
  const run = await runCli(['eval'], { stdin: `${line}\n` });
  expect(run.code).toBe(0);
  const result = JSON.parse(run.stdout.trim()) as { objectives: number[]; constraints: number[]; feasible: boolean };
  const satisfied = result.constraints.filter((g) => g <= 0).length;
  return {
    objectives: result.objectives.map((v) => formatNumber(v)),
    statuses: result.constraints.map((g) => (g <= 0 ? 'satisfied' : 'violated')),
    summary: `${satisfied} / ${result.constraints.length} satisfied`,
    feasibility: result.feasible ? 'feasible' : 'infeasible',
  };
}

async function shown(page: Page): Promise<Shown> {
  const text = async (id: string) => ((await page.getByTestId(id).textContent()) ?? '').replace(/\s+/g, ' ').trim();
  return {
    objectives: await Promise.all([0, 1, 2].map((m) => text(`objective-${m}`))),
    statuses: (await page.locator('[data-testid^="constraint-status-"]').allTextContents()).map((s) => s.trim()),
    summary: await text('constraints-summary'),
    feasibility: await text('feasibility'),
  };
}

browserTool.describe('the solution inspector in a browser', () => {
  let server: AppServer;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    server = await startAppServer({ port: 0, rendererDir: outDir, build: 'never', parallelism: 1 });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    collectPageErrors(page, pageErrors);
    await page.goto(`${server.url}#/dice`);
    await page.getByTestId('sequence-input').waitFor();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('a roll set with the picker gives the numbers of saikoro eval for the edited sequence; Ctrl+Z gives back the first ones', async () => {
    await page.getByTestId('track').selectOption('mo3');
    await page.getByTestId('sequence-input').fill(SAMPLE);
    const first = await evalCli(SAMPLE);
    await expect.poll(async () => (await shown(page)).objectives, { timeout: 10_000 }).toEqual(first.objectives);
    expect(await shown(page)).toEqual(first);

    await page.locator(`[data-testid="sequence-grid"] [data-i="${ROLL}"]`).click();
    await page.getByTestId('face-picker').waitFor();
    await page.getByTestId(`face-${FACE}`).click();
    const edited = await evalCli(EDITED);
    expect(edited.statuses[3]).toBe('violated'); // the edit matters to the constraints too
    await expect.poll(async () => (await shown(page)).objectives, { timeout: 5_000 }).toEqual(edited.objectives);
    expect(await shown(page)).toEqual(edited);
    expect(await page.getByTestId('sequence-input').inputValue()).toBe(EDITED);
    await page.screenshot({ path: join(tmpdir(), 'saikoro-e2e-inspector-edited.png') });

    // The focus is on the rolls (not a text field): Ctrl+Z is the view's undo.
    await page.keyboard.press('Control+z');
    await expect.poll(async () => (await shown(page)).objectives, { timeout: 5_000 }).toEqual(first.objectives);
    expect(await shown(page)).toEqual(first);
    expect(await page.getByTestId('sequence-input').inputValue()).toBe(SAMPLE);
  });

  it('the keyboard edits too (arrows, a digit), a picked feature shows its occurrences, and the edit can be compared with the sequence before', async () => {
    const grid = page.getByTestId('sequence-grid');
    await grid.focus();
    await page.keyboard.press('Control+Home');
    for (let i = 0; i < ROLL; i++) await page.keyboard.press('ArrowRight');
    await page.keyboard.press(String(FACE));
    // The digit set the roll; it did not switch to the fifth view.
    await expect.poll(() => page.getByTestId('sequence-input').inputValue()).toBe(EDITED);
    expect(page.url()).toContain('#/dice');
    expect(await shown(page)).toEqual(await evalCli(EDITED));

    await page.getByTestId('pick-F7').click();
    expect(await page.getByTestId('occurrence-count').textContent()).toBe('7');

    await page.keyboard.press('c');
    await page.getByTestId('compare-summary').waitFor();
    expect(((await page.getByTestId('compare-summary').textContent()) ?? '').replace(/\s+/g, ' ')).toContain(`1 of 50 rolls differ (at ${ROLL + 1})`);
    await page.getByTestId('compare-panel').screenshot({ path: join(tmpdir(), 'saikoro-e2e-inspector-diff.png') });
    expect(pageErrors).toEqual([]);
  });

  it('the face picker covers no roll of another row (it covered the next row), and a sequence pasted sets N to its length', async () => {
    // A fresh page: no comparison open, N = 50, the M = 3 track as before.
    await page.reload();
    await page.getByTestId('track').selectOption('mo3');
    await page.getByTestId('sequence-input').fill(SAMPLE);
    await expect.poll(async () => (await shown(page)).objectives, { timeout: 10_000 }).toEqual((await evalCli(SAMPLE)).objectives);
    const cells = page.locator('[data-testid="sequence-grid"] .line:not(.other) [data-i]');
    const boxes = () =>
      cells.evaluateAll(
        (els) =>
          els.map((e) => ({ i: Number((e as HTMLElement).dataset.i), ...JSON.parse(JSON.stringify(e.getBoundingClientRect())) })) as {
            i: number;
            x: number;
            y: number;
            width: number;
            height: number;
          }[],
      );
    const before = await boxes();
    const firstRow = before.filter((b) => Math.abs(b.y - before[0].y) < 1);
    expect(firstRow.length, 'the 50 rolls take more than one row').toBeLessThan(50);
    // A roll of the first row, and the picker under it.
    await page.locator('[data-testid="sequence-grid"] [data-i="3"]').click();
    const picker = (await page.getByTestId('face-picker').boundingBox())!;
    const overlap = (a: { x: number; y: number; width: number; height: number }) =>
      Math.min(a.x + a.width, picker.x + picker.width) - Math.max(a.x, picker.x) > 0 &&
      Math.min(a.y + a.height, picker.y + picker.height) - Math.max(a.y, picker.y) > 0;
    const open = await boxes();
    expect(open.filter(overlap).map((b) => b.i)).toEqual([]);
    // The next row is still in view, below the picker.
    const secondRow = open.filter((b) => b.i === firstRow.length)[0];
    expect(secondRow.y).toBeGreaterThanOrEqual(picker.y + picker.height);
    const view = (await page.getByTestId('sequence-grid').boundingBox())!;
    expect(secondRow.y + secondRow.height).toBeLessThanOrEqual(view.y + view.height);
    await page.getByTestId('sequence-grid').screenshot({ path: join(tmpdir(), 'saikoro-e2e-inspector-picker.png') });
    await page.keyboard.press('Escape');

    // A real paste (the clipboard, Ctrl+V) of a 60-roll sequence while N is 50.
    const sixty = SAMPLE + SAMPLE.slice(0, 10);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(server.url).origin });
    await page.evaluate((text) => navigator.clipboard.writeText(text), sixty);
    const input = page.getByTestId('sequence-input');
    await input.fill('');
    await input.focus();
    await page.keyboard.press('Control+v');
    await expect.poll(() => page.getByTestId('sequence-length').textContent(), { timeout: 10_000 }).toBe('60 rolls');
    await expect.poll(async () => (await shown(page)).objectives, { timeout: 10_000 }).toEqual((await evalCli(sixty)).objectives);
    expect(await page.getByTestId('adopt-length').count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });
});
