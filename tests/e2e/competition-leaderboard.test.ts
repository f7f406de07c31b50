// End to end (issue 29): the live leaderboard of saikoro serve --competition in headless
// Chromium. Four entrants on two tracks: two built-in ones run by competition run, a remote
// entrant that played every run and one still playing. The public page shows the standings (the
// server's own numbers), each problem's ranks, one ECDF chart per track drawn as SVG with a line
// per entrant, and no script; an entrant's token adds its own runs; the page reloads itself.
// SAIKORO_COMPETITION_SCREENSHOTS=DIR keeps the screenshots.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { requireChromium } from './chromium.ts';
import { collectPageErrors, launchChromium } from './browser.ts';
import { startAppServer, type AppServer } from '../../src-main/server/app-server.ts';
import { runCli } from '../main/cli/io.ts';
import { runScoreText } from '../../src-main/report/competition-render.ts';
import { playRandomSearch, Socket, wsUrl, type Hello } from '../main/competition/remote-helpers.ts';

const browserTool = requireChromium();
const SCREENSHOTS = process.env.SAIKORO_COMPETITION_SCREENSHOTS;
const ORGANISER = 'organiser-token-of-the-leaderboard-test';

let cwd = '';
let app: AppServer;
let browser: Browser;
let page: Page;
const tokens: Record<string, string> = {};
const pageErrors: string[] = [];

async function shot(name: string) {
  if (SCREENSHOTS) await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

beforeAll(async () => {
  if (!browserTool.present) return;
  if (SCREENSHOTS) fs.mkdirSync(SCREENSHOTS, { recursive: true });
  cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-e2e-leaderboard-'));
  fs.mkdirSync(path.join(cwd, 'renderer'));
  fs.writeFileSync(path.join(cwd, 'renderer', 'index.html'), '<!doctype html><title>renderer</title>');
  const cli = (...argv: string[]) => runCli(argv, { cwd });
  expect(
    (
      await cli(
        'competition',
        'new',
        'c.saikoro',
        '--tracks',
        'so,mo2',
        '--n',
        '120',
        '--instances',
        '2',
        '--budget',
        '1500',
        '--seeds',
        '2',
        '--secret',
        'leaderboard-secret',
      )
    ).code,
  ).toBe(0);
  for (const name of ['alice', 'bob']) {
    expect((await cli('competition', 'enter', 'c.saikoro', '--name', name, '--remote')).code).toBe(0);
    tokens[name] = (await cli('competition', 'token', 'c.saikoro', '--entrant', name)).stdout.trim();
  }
  expect((await cli('competition', 'enter', 'c.saikoro', '--name', 'defaults', '--solver', 'default')).code).toBe(0);
  expect((await cli('competition', 'enter', 'c.saikoro', '--name', 'rnd', '--solver', 'random')).code).toBe(0);
  const ran = await cli('competition', 'run', 'c.saikoro', '--jobs', '2');
  expect(ran.code, ran.stderr).toBe(0);
  app = await startAppServer({
    port: 0,
    rendererDir: path.join(cwd, 'renderer'),
    build: 'never',
    workspace: cwd,
    token: ORGANISER,
    parallelism: 1,
    competition: { file: path.join(cwd, 'c.saikoro'), publicLeaderboard: true },
  });
  // alice plays everything; bob half of one run, and stays connected.
  for (const problem of ['so-n120-i1', 'so-n120-i2', 'mo2-n120-i1', 'mo2-n120-i2'])
    for (let seed = 0; seed < 2; seed++) await playRandomSearch(app.origin, tokens.alice, problem);
  await playRandomSearch(app.origin, tokens.bob, 'so-n120-i1', { stopAfter: 7 });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  collectPageErrors(page, pageErrors);
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
  if (cwd) fs.rmSync(cwd, { recursive: true, force: true });
});

browserTool.describe('the live leaderboard in a browser', () => {
  it("shows the server's standings, each problem's ranks and an ECDF per track, without a token and without a script", async () => {
    const response = await page.goto(`${app.origin}competition`);
    expect(response!.status()).toBe(200);
    expect(response!.headers()['content-security-policy']).toContain("default-src 'none'");
    // The standings are competition standings' report (score, then one column per track), then each entrant's progress.
    const { report, progress: progressList } = app.competition!.standings();
    const rows = await page
      .locator('#standings tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent!.trim())));
    expect(rows.map((r) => [r[1], r[2], r[3], r[4]])).toEqual(
      report.standings.map((s) => [s.entrant, s.score.toFixed(3), s.tracks.so.toFixed(3), s.tracks.mo2.toFixed(3)]),
    );
    const progress = new Map(progressList.map((p) => [p.entrant, p]));
    expect(rows.map((r) => [r[1], r[5], r[6], r[7]])).toEqual(
      report.standings.map((s) => [
        s.entrant,
        String(progress.get(s.entrant)!.done),
        String(progress.get(s.entrant)!.live),
        String(progress.get(s.entrant)!.missing),
      ]),
    );
    expect(progress.get('bob')).toMatchObject({ done: 0, live: 1, missing: 7, evaluations: 700 });
    expect(report.runs.live).toBe(1);
    expect(await page.locator('#problems tbody tr').count()).toBe(4);
    // One chart per track and one over the suite, a line per entrant, drawn on the server.
    const charts = page.locator('figure svg');
    expect(await charts.count()).toBe(3);
    for (const group of ['so', 'mo2', 'suite']) expect(await page.locator('figure', { hasText: `Runtime ECDF: ${group}` }).count()).toBe(1);
    for (const name of ['alice', 'bob', 'defaults', 'rnd'])
      expect(await page.locator('figure').first().getByText(name, { exact: true }).count()).toBeGreaterThan(0);
    expect(await page.locator('script').count()).toBe(0);
    expect(await page.locator('meta[http-equiv="refresh"]').getAttribute('content')).toBe('10');
    expect(await page.locator('#own').count()).toBe(0);
    await shot('01-leaderboard-public');
    expect(pageErrors).toEqual([]);
  });

  it("with an entrant's token, adds its own runs: evaluations used and left, the best so far", async () => {
    await page.goto(`${app.origin}competition?token=${tokens.bob}`);
    const own = await page
      .locator('#own tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].slice(0, 5).map((td) => td.textContent!.trim())));
    expect(own[0]).toEqual(['so-n120-i1', '1', 'playing', '700', '800']);
    expect(own.slice(1).every((r) => r[2] === 'new' && r[3] === '0' && r[4] === '1,500')).toBe(true);
    // The best so far is the run's score as it stands, written as the standings write a score.
    const best = app.competition!.entrantView('bob').problems[0].runs[0].best;
    expect(best?.kind).toBe('so');
    expect(await page.locator('#own tbody tr').first().locator('td').last().textContent()).toBe(runScoreText(best));
    await shot('02-leaderboard-entrant');
    // The page follows the run: bob plays on, and the next load shows it.
    const socket = new Socket(wsUrl(app.origin, 'so-n120-i1'), { Authorization: `Bearer ${tokens.bob}` });
    expect(await socket.opened).toBe(true);
    const hello = (await socket.next<Hello>())!;
    expect(hello.remaining).toBe(800);
    await socket.close();
    await playRandomSearch(app.origin, tokens.bob, 'so-n120-i1');
    await page.reload();
    expect(await page.locator('#own tbody tr').first().locator('td').nth(2).textContent()).toBe('done');
    expect(pageErrors).toEqual([]);
  });
});
