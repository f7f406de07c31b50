// End to end (issue 26): the Competition view in headless Chromium against `saikoro serve`
// started as a real process. A small competition file made and entered with the CLI (built-in
// entrants only) is opened in the page; the view lists its entrants and its problems by id (the
// hidden instances' bands nowhere on the page); Run starts it, Cancel (x) stops it with runs
// left, Run again finishes it; the standings table then shows the numbers of `saikoro
// competition standings --json` on the same file, and an ECDF chart per track and the suite.
// SAIKORO_COMPETITION_SCREENSHOTS=DIR keeps screenshots (1280 and 1024 px, light and dark).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { requireChromium } from './chromium.ts';
import { buildRendererInTemp, collectPageErrors, launchChromium } from './browser.ts';
import { runCli } from '../main/cli/io.ts';
import { serve, stop, type Server } from './serve.ts';
import { Project } from '../../src-main/project/store.ts';
import type { CompetitionStandings } from '../../src-shared/api.ts';
import type { StoredProblem } from '../../src-shared/competition/competition.ts';

const browserTool = requireChromium();
const SCREENSHOTS = process.env.SAIKORO_COMPETITION_SCREENSHOTS;

let outDir = '';
let workspace = '';
let browser: Browser;
let page: Page;
let server: Server | null = null;
let hidden: StoredProblem[] = [];
const pageErrors: string[] = [];
const cli = (...argv: string[]) => runCli(argv, { cwd: workspace });

beforeAll(async () => {
  if (!browserTool.present) return;
  workspace = mkdtempSync(join(tmpdir(), 'saikoro-e2e-competition-ws-'));
  if (SCREENSHOTS) mkdirSync(SCREENSHOTS, { recursive: true });
  // Runs long enough (a few hundred ms each, one at a time) that Cancel comes before the end.
  const made = await cli(
    'competition',
    'new',
    'c.saikoro',
    '--tracks',
    'so,mo2',
    '--n',
    '48',
    '--instances',
    '2',
    '--budget',
    '4000',
    '--seeds',
    '2',
    '--secret',
    'e2e-competition-secret',
  );
  expect(made.code, made.stderr).toBe(0);
  for (const [name, solver] of [
    ['defaults', 'default'],
    ['rnd', 'random'],
  ])
    expect((await cli('competition', 'enter', 'c.saikoro', '--name', name, '--solver', solver)).code).toBe(0);
  const project = Project.open(join(workspace, 'c.saikoro'), { readOnly: true });
  hidden = project.competition()!.problems.filter((p) => p.hidden);
  project.close();
  outDir = await buildRendererInTemp('saikoro-e2e-competition-');
  server = await serve(workspace, outDir);
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  collectPageErrors(page, pageErrors);
}, 240_000);

afterAll(async () => {
  await browser?.close();
  if (server && server.process.exitCode === null) await stop(server);
  for (const dir of [outDir, workspace]) if (dir) rmSync(dir, { recursive: true, force: true });
});

async function shot(name: string) {
  if (!SCREENSHOTS) return;
  for (const width of [1280, 1024])
    for (const scheme of ['light', 'dark'] as const) {
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: join(SCREENSHOTS, `${name}-${width}-${scheme}.png`), fullPage: true });
    }
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });
}

const totals = () => page.getByTestId('competition-totals').textContent();

browserTool.describe('the Competition view, on saikoro serve', () => {
  it('opens a competition file, runs it from the view with a cancel between, and shows the standings of the CLI', async () => {
    await page.goto(server!.url);
    await page.getByTestId('project-empty').waitFor();
    await page.getByTestId('open-path').fill('c.saikoro');
    await page.getByTestId('open-path').press('Enter');
    await page.getByTestId('project-info').waitFor();
    // The project home says what the file is and links to the view.
    expect(await page.getByTestId('project-competition').textContent()).toContain('A competition file');
    // Its tracks do not run from the project home.
    expect(await page.getByTestId('run-so').isDisabled()).toBe(true);
    await shot('00-project');
    await page.getByTestId('project-competition').getByRole('link', { name: 'Competition view' }).click();
    await page.waitForURL(/#\/competition$/);
    await page.getByTestId('competition-summary').waitFor();

    // Entrants, problems by id (the hidden ones marked), nothing run yet.
    expect(await page.getByTestId('entrant-defaults').textContent()).toContain('built-in, blind');
    expect(await page.getByTestId('entrant-rnd').textContent()).toContain('random');
    expect(await page.getByTestId('progress-defaults-so').textContent()).toContain('0/4 done');
    expect(await totals()).toBe('0/16 done · 16 left');
    expect(await page.locator('[data-testid^="problem-"]').evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.testid))).toEqual([
      'problem-so-n48-i1',
      'problem-so-n48-i2',
      'problem-mo2-n48-i1',
      'problem-mo2-n48-i2',
    ]);
    expect(await page.getByTestId('problem-so-n48-i1').textContent()).toContain('hidden');
    expect(await page.getByTestId('competition-run').textContent()).toContain('Run 16 runs left');
    await shot('01-before');

    // Run, one job at a time; Cancel (x) once the first run is stored: runs are left.
    await page.getByTestId('competition-jobs').selectOption('1');
    await page.getByTestId('competition-run').click();
    await page.getByTestId('competition-cancel').waitFor();
    await page.getByTestId('competition-session-so').waitFor();
    await expect.poll(totals, { timeout: 60_000 }).toMatch(/^[1-9]\d*\/16 done/);
    await shot('02-running');
    await page.locator('body').press('x');
    await page.getByTestId('competition-run').waitFor({ timeout: 60_000 });
    await expect.poll(() => page.getByTestId('competition-session-mo2').getByTestId('session-status').textContent(), { timeout: 30_000 }).toBe('cancelled');
    const left = Number(/(\d+) left/.exec((await totals()) ?? '')?.[1]);
    expect(left).toBeGreaterThan(0);
    expect(await page.getByTestId('competition-run').textContent()).toContain(`Run ${left} runs left`);
    // The standings follow (computed again once the stored runs changed).
    await expect.poll(() => page.getByTestId('standings-incomplete').textContent(), { timeout: 30_000 }).toContain(`${left} runs not run yet`);

    // Run again (Ctrl+Enter): every run left, to the end.
    await page.locator('body').press('Control+Enter');
    await expect.poll(totals, { timeout: 180_000 }).toBe('16/16 done');
    await expect.poll(() => page.getByTestId('standings-incomplete').count(), { timeout: 60_000 }).toBe(0);
    await expect.poll(() => page.locator('[data-testid="standings-table"] tbody tr').count()).toBe(2);

    // The standings of the CLI on the same file, number for number.
    const printed = await cli('competition', 'standings', 'c.saikoro', '--json');
    expect(printed.code, printed.stderr).toBe(0);
    const report = JSON.parse(printed.stdout) as CompetitionStandings;
    expect(report.complete).toBe(true);
    const shown = await page
      .locator('[data-testid="standings-table"] tbody tr')
      .evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].map((td) => (td.textContent ?? '').trim())));
    expect(shown).toEqual(
      report.standings.map((s) => [
        Number.isInteger(s.rank) ? String(s.rank) : s.rank.toFixed(1),
        s.entrant,
        s.score.toFixed(3),
        s.tracks.so.toFixed(3),
        s.tracks.mo2.toFixed(3),
      ]),
    );
    // Each entrant's rank per problem, as the report has it.
    for (const s of report.standings) {
      const cells = await page.getByTestId('problem-so-n48-i1').locator('td.num').allTextContents();
      expect(cells.map((c) => c.trim())).toContain(
        Number.isInteger(s.problems['so-n48-i1'].rank) ? String(s.problems['so-n48-i1'].rank) : s.problems['so-n48-i1'].rank.toFixed(1),
      );
    }

    // An ECDF chart per track and for the suite, drawn.
    for (const group of ['so', 'mo2', 'suite']) await page.getByTestId(`ecdf-${group}`).locator('canvas, svg').first().waitFor();
    await page.getByTestId('competition-standings').scrollIntoViewIfNeeded();
    await shot('03-standings');
    await page.getByTestId('ecdf-suite').scrollIntoViewIfNeeded();
    await shot('04-ecdfs');

    // The page never shows a hidden instance's bands or weights.
    const text = await page.locator('body').innerText();
    for (const p of hidden) for (const list of [p.bands.alpha, p.bands.beta, p.bands.gamma]) expect(text).not.toContain(list.join(', '));
    expect(pageErrors).toEqual([]);
  }, 400_000);
});
