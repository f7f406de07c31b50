// End to end (issue 10): experiment management in a browser, on `saikoro serve --workspace`
// started as a real process in a temporary workspace, driven in headless Chromium.
// - Create a project in the empty state, define an experiment in the editor (one instance, two
//   solvers, three seeds, a small budget), run it from the monitor and watch it reach 100%.
// - Reload mid-run: the monitor comes back with the session and its runs still going.
// - The comparison table shows the numbers of `saikoro compare --json` on the same file.
// - Stop the server mid-run (SIGTERM), start it again, open the project, Run: only the runs
//   that were not done execute; the done ones keep their results and times.
// - The real server refuses requests without its token, and a path out of the workspace is
//   refused in the page.
// SAIKORO_EXPERIMENT_SCREENSHOTS=DIR keeps a screenshot of each step.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Comparison } from '../../src-shared/experiments/compare.ts';
import WebSocket from 'ws';
import { createHttpApi, type HttpApi } from '../../src-renderer/api/http-client.ts';
import { requireChromium } from './chromium.ts';
import { buildRendererInTemp, collectPageErrors, launchChromium } from './browser.ts';
import { runCli } from '../main/cli/io.ts';
import { waitFor } from '../main/processes.ts';
import { serve as serveCheckout, stop, type Server } from './serve.ts';

const browserTool = requireChromium();
const SCREENSHOTS = process.env.SAIKORO_EXPERIMENT_SCREENSHOTS;
// Runs of about a second or two each here, so the session is seen while it goes.
const EVALUATIONS = 100_000;

interface Served extends Server {
  api: HttpApi;
  origin: string;
  token: string;
}

/** `saikoro serve` on a free port over the workspace, serving the renderer built once for this file, with an API client. */
async function serve(): Promise<Served> {
  const served = await serveCheckout(workspace, outDir);
  const parsed = new URL(served.url);
  const origin = parsed.origin;
  const token = parsed.searchParams.get('token')!;
  return {
    ...served,
    origin,
    token,
    api: createHttpApi(origin, { fetch: globalThis.fetch.bind(globalThis), WebSocket: WebSocket as unknown as typeof globalThis.WebSocket, token }),
  };
}

let outDir = '';
let workspace = '';
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];
let server: Served | null = null;

beforeAll(async () => {
  if (!browserTool.present) return;
  workspace = mkdtempSync(join(tmpdir(), 'saikoro-e2e-experiments-ws-'));
  if (SCREENSHOTS) mkdirSync(SCREENSHOTS, { recursive: true });
  outDir = await buildRendererInTemp('saikoro-e2e-experiments-');
  server = await serve();
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  // A socket cut when the server stops is expected; anything else is not.
  collectPageErrors(page, pageErrors, /WebSocket|ERR_CONNECTION_REFUSED|Failed to load resource/);
}, 240_000);

afterAll(async () => {
  await browser?.close();
  if (server && server.process.exitCode === null) await stop(server);
  for (const dir of [outDir, workspace]) if (dir) rmSync(dir, { recursive: true, force: true });
});

async function shot(name: string) {
  if (SCREENSHOTS) await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

const rowStates = () =>
  page.locator('[data-testid="monitor-runs"] tbody tr[data-state]').evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.state!));
const sessionStatus = (experiment: string) => page.getByTestId(`session-${experiment}`).getByTestId('session-status').textContent();

/** Evaluations of the first running row, read from the page. */
async function runningEvaluations(): Promise<number | null> {
  const row = page.locator('[data-testid="monitor-runs"] tbody tr[data-state="running"]').first();
  if ((await row.count()) === 0) return null;
  const text =
    (await row
      .getByTestId('run-evaluations')
      .textContent({ timeout: 1000 })
      .catch(() => null)) ?? '';
  const n = Number(text.replace(/[^0-9]/g, ''));
  return text && Number.isFinite(n) ? n : null;
}

browserTool.describe('experiments in a browser, on saikoro serve', () => {
  it('the real server wants its token; a path out of the workspace is refused in the page', async () => {
    const { origin } = server!;
    expect((await fetch(`${origin}/`)).status).toBe(401);
    expect((await fetch(`${origin}/api/getProject`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '[]' })).status).toBe(401);
    expect(await server!.api.getProject()).toBeNull();

    await page.goto(server!.url);
    // The token left the address bar (a cookie holds it now).
    await page.getByTestId('project-empty').waitFor();
    expect(page.url()).not.toContain('token=');
    await page.getByTestId('open-path').fill('../outside.saikoro');
    await page.getByTestId('open-path').press('Enter');
    await expect.poll(() => page.getByTestId('open-error').textContent()).toMatch(/outside|workspace/i);
    await shot('01-empty-state');
  });

  it('create a project, define an experiment in the editor, run it with a reload mid-run, and compare as the CLI does', async () => {
    await page.getByTestId('new-path').fill('flow.saikoro');
    await page.getByTestId('create').click();
    await page.getByTestId('project-info').waitFor();
    expect(await page.getByTestId('project-info').textContent()).toContain('flow.saikoro');

    // The editor: a new draft from the project home's key, filled in through the form.
    await page.keyboard.press('n');
    await page.waitForURL(/#\/experiment$/);
    const field = (name: string) => page.locator(`[data-field="${name}"]`);
    await field('solvers[0].params.strength').waitFor();
    await field('name').fill('flow');
    await page.getByTestId('instance-track-0').selectOption('mo2');
    await field('instances[0].n').fill('100');
    await page.getByTestId('solver-name-0').selectOption('nsga2');
    await page.getByTestId('add-solver').click();
    await page.getByTestId('solver-name-1').selectOption('random');
    await field('seeds.count').fill('3');
    await field('budget.evaluations').fill(String(EVALUATIONS));
    await expect.poll(() => page.getByTestId('run-count').textContent()).toBe('1 instance × 2 solvers × 3 seeds = 6 runs');
    expect((await page.getByTestId('problem-count').textContent())?.trim()).toBe('✓ ready to save');
    const draft = JSON.parse(await page.getByTestId('spec-json').inputValue());
    expect(draft).toMatchObject({
      name: 'flow',
      instances: [{ track: 'mo2', n: 100 }],
      solvers: [{ name: 'nsga2' }, { name: 'random' }],
      seeds: { count: 3, start: 1 },
      budget: { evaluations: EVALUATIONS },
    });
    await shot('02-editor');
    // Saved from the foot of the form (Ctrl+S in the last field): the confirmation is on screen
    // (it was at the top of the page, scrolled away), and the name is not called taken.
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await field('budget.evaluations').focus();
    await page.keyboard.press('Control+s');
    await page.getByTestId('saved').waitFor();
    const confirmation = (await page.getByTestId('saved').boundingBox())!;
    const viewport = page.viewportSize()!;
    expect(confirmation.y).toBeGreaterThanOrEqual(0);
    expect(confirmation.y + confirmation.height).toBeLessThanOrEqual(viewport.height);
    expect(await page.getByTestId('name-taken').count()).toBe(0);
    const stored = (await server!.api.getProject())!.experiments;
    expect(stored.map((e) => [e.name, e.counts.missing])).toEqual([['flow', 6]]);

    // The monitor: one run at a time, so the session is seen going.
    await page.goto(`${server!.origin}/#/monitor/flow`);
    await expect.poll(rowStates, { timeout: 30_000 }).toEqual(Array(6).fill('missing'));
    await page.getByTestId('monitor-jobs').selectOption('1');
    await page.getByTestId('monitor-run').click();
    await expect.poll(runningEvaluations, { timeout: 60_000 }).toBeGreaterThan(0);
    await shot('03-monitor-running');

    // Reload mid-run: the session and its running run come back, still going.
    const doneBefore = (await rowStates()).filter((s) => s === 'done').length;
    await page.reload();
    await expect.poll(() => sessionStatus('flow'), { timeout: 30_000 }).toBe('running');
    const seen = await waitFor('a running row after the reload', runningEvaluations, { withinMs: 60_000 });
    expect(doneBefore).toBeLessThan(6);
    await expect
      .poll(async () => ((await runningEvaluations()) ?? Infinity) > seen || (await rowStates()).filter((s) => s === 'done').length > doneBefore, {
        timeout: 60_000,
      })
      .toBe(true);
    await shot('04-monitor-after-reload');

    // To 100%: every row done, as the file says.
    await expect.poll(() => page.getByTestId('session-flow').getByTestId('session-percent').textContent(), { timeout: 180_000 }).toBe('100%');
    await expect.poll(rowStates, { timeout: 30_000 }).toEqual(Array(6).fill('done'));
    const rows = await server!.api.listExperimentRuns('flow');
    expect(rows.map((r) => r.status)).toEqual(Array(6).fill('done'));
    expect(rows.every((r) => r.evaluations === EVALUATIONS && r.hv !== null && r.hv > 0)).toBe(true);
    await shot('05-monitor-done');
    // At 1024 px the Result column shows the whole result line (it was cut: "HV 0.6478 · 2 o…").
    await page.setViewportSize({ width: 1024, height: 700 });
    const cut = await page.getByTestId('run-result').evaluateAll((spans) => spans.filter((s) => s.scrollWidth > s.clientWidth + 0.5).map((s) => s.textContent));
    expect(cut).toEqual([]);
    await shot('05-monitor-done-1024');
    await page.setViewportSize({ width: 1280, height: 800 });

    // The comparison table: the numbers `saikoro compare --json` gives on the same file.
    const cli = await runCli(['compare', join(workspace, 'flow.saikoro'), 'flow', '--metric', 'hv', '--json'], { cwd: workspace });
    expect(cli.code, cli.stderr).toBe(0);
    const expected = JSON.parse(cli.stdout) as Comparison;
    await page.goto(`${server!.origin}/#/compare/flow`);
    await page.getByTestId('stats-table').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('compare-metric').inputValue()).toBe('hv');
    const [instance] = expected.instances;
    const cells = page.locator(`[data-testid="stats-${instance.instance}"] td[data-solver]`);
    expect(await cells.evaluateAll((tds) => tds.map((td) => (td as HTMLElement).dataset.solver))).toEqual(instance.solvers.map((s) => s.label));
    const shown = await cells.evaluateAll((tds) =>
      tds.map((td) => ['stat-aggregate', 'stat-iqr'].map((id) => Number(td.querySelector<HTMLElement>(`[data-testid="${id}"]`)!.dataset.value))),
    );
    expect(shown).toEqual(instance.solvers.map((s) => [s.summary![expected.aggregate], s.summary!.iqr]));
    const pairs = page.locator(`[data-testid="pairs-${instance.instance}"] tbody tr`);
    const shownPairs = await pairs.evaluateAll((trs) =>
      trs.map((tr) => ['pair-p', 'pair-p-holm', 'pair-a12'].map((id) => Number(tr.querySelector<HTMLElement>(`[data-testid="${id}"]`)!.dataset.value))),
    );
    expect(shownPairs).toEqual(instance.pairs.map((p) => [p.p, p.pHolm, p.a12]));
    await shot('06-compare');
    // Its own waits (the session to 100%, up to 3 min) decide, not the 60 s default: on a loaded machine the whole test takes about that.
  }, 420_000);

  it('stop the server mid-run, start it again, resume: only the runs not done execute', async () => {
    // A second experiment, typed into the editor's JSON.
    await page.goto(`${server!.origin}/#/experiment`);
    const spec = {
      name: 'resume',
      instances: [{ name: 'mo2-n100', track: 'mo2', n: 100 }],
      solvers: [{ name: 'nsga2' }, { name: 'random' }],
      // Seeds the first experiment did not use: runs are keyed by their content, so flow's would count as done here.
      seeds: { count: 4, start: 11 },
      budget: { evaluations: EVALUATIONS },
    };
    await page.locator('[data-field="solvers[0].params.strength"]').waitFor();
    await page.getByTestId('spec-json').fill(JSON.stringify(spec, null, 2));
    await expect.poll(() => page.getByTestId('run-count').textContent()).toBe('1 instance × 2 solvers × 4 seeds = 8 runs');
    await page.getByTestId('save').click();
    await page.getByTestId('saved').waitFor();

    await page.goto(`${server!.origin}/#/monitor/resume`);
    await expect.poll(rowStates, { timeout: 30_000 }).toEqual(Array(8).fill('missing'));
    await page.getByTestId('monitor-jobs').selectOption('1');
    await page.getByTestId('monitor-run').click();
    // Some runs done, one going: stop the server there.
    await waitFor(
      'two runs done and one going',
      async () => {
        const rows = await server!.api.listExperimentRuns('resume');
        return rows.filter((r) => r.status === 'done').length >= 2 && rows.some((r) => r.status === 'running');
      },
      { withinMs: 120_000, intervalMs: 100 },
    );
    await stop(server!);

    // A new server, a new token; no project open until the page opens it from the workspace's files.
    server = await serve();
    expect(await server.api.getProject()).toBeNull();
    await page.goto(server.url);
    await page.getByTestId('open-flow.saikoro').click();
    await page.getByTestId('project-info').waitFor();
    const atRestart = await server.api.listExperimentRuns('resume');
    const done = atRestart.filter((r) => r.status === 'done');
    const notDone = atRestart.filter((r) => r.status !== 'done');
    expect(done.length).toBeGreaterThanOrEqual(2);
    expect(notDone.length).toBeGreaterThan(0);
    expect(notDone.every((r) => r.status === 'missing' || r.status === 'failed')).toBe(true);

    await page.goto(`${server.origin}/#/monitor/resume`);
    await expect.poll(async () => (await rowStates()).filter((s) => s === 'done').length, { timeout: 30_000 }).toBe(done.length);
    await shot('07-monitor-resume');
    await page.getByTestId('monitor-run').click();
    // The session says done once its last run is stored (100% is said with it; before the fix it
    // was said while the last run's result was still on its way, and the file read here had it running).
    await expect.poll(() => sessionStatus('resume'), { timeout: 180_000 }).toBe('done');
    expect(await page.getByTestId('session-resume').getByTestId('session-percent').textContent()).toBe('100%');
    const after = await server.api.listExperimentRuns('resume');
    expect(after.map((r) => r.status)).toEqual(Array(8).fill('done'));
    // The runs done before the stop were not run again: same result, same times.
    for (const r of done) {
      const now = after.find((a) => a.id === r.id)!;
      expect([now.startedAt, now.finishedAt, now.hv, now.frontSize]).toEqual([r.startedAt, r.finishedAt, r.hv, r.frontSize]);
    }
    // This server ran exactly the runs that were not done.
    const ran = await server.api.listRuns();
    expect(ran.length).toBe(notDone.length);
    await shot('08-monitor-resumed');
    expect(pageErrors).toEqual([]);
    // As above: the waits for the runs (2 min to the stop, 3 min to 100%) decide, not the 60 s default.
  }, 420_000);
});
