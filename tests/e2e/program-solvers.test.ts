// End to end (issue 18): a program as the solver, in a browser on `saikoro serve`, driven in
// headless Chromium. Without --allow-commands the server refuses it, and the page shows the
// refusal, naming the option, at the command line (Solve view and experiment editor) under the
// warning that it runs a program; with --allow-commands the Solve view runs
// examples/solvers/random_search.mjs to the end.
// SAIKORO_PROGRAM_SCREENSHOTS=DIR keeps a screenshot of each step.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { requireChromium } from './chromium.ts';
import { buildRendererInTemp, collectPageErrors, launchChromium } from './browser.ts';
import { serve as serveCheckout, stop } from './serve.ts';
import { formatCommand } from '../../src-shared/solvers/program/protocol.ts';

const browserTool = requireChromium();
const ROOT = resolve(import.meta.dirname, '../..');
const SCREENSHOTS = process.env.SAIKORO_PROGRAM_SCREENSHOTS;
const COMMAND = formatCommand([process.execPath, join(ROOT, 'examples/solvers/random_search.mjs'), '--batch', '50']);

let outDir = '';
let workspace = '';
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

/** `saikoro serve` over the workspace (with `extra` options). */
const serve = (extra: string[]) => serveCheckout(workspace, outDir, extra);

async function shot(name: string) {
  if (SCREENSHOTS) await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

beforeAll(async () => {
  if (!browserTool.present) return;
  workspace = mkdtempSync(join(tmpdir(), 'saikoro-e2e-programs-ws-'));
  if (SCREENSHOTS) mkdirSync(SCREENSHOTS, { recursive: true });
  outDir = await buildRendererInTemp('saikoro-e2e-programs-');
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  collectPageErrors(page, pageErrors, /WebSocket|ERR_CONNECTION_REFUSED|Failed to load resource/);
}, 240_000);

afterAll(async () => {
  await browser?.close();
  for (const dir of [outDir, workspace]) if (dir) rmSync(dir, { recursive: true, force: true });
});

browserTool.describe('a program as the solver, in a browser on saikoro serve', () => {
  it('without --allow-commands: refused at the command line, naming the option, in Solve and in the editor', async () => {
    const server = await serve([]);
    try {
      await page.goto(server.url);
      await page.getByTestId('project-empty').waitFor();
      await page.getByTestId('new-path').fill('programs.saikoro');
      await page.getByTestId('create').click();
      await page.getByTestId('project-info').waitFor();

      await page.goto(`${new URL(server.url).origin}/#/solve`);
      await page.getByTestId('solve-solver').selectOption(':program');
      await page.getByTestId('program-warning').waitFor();
      // Keyboard only: the command line, then Ctrl+Enter starts.
      await page.getByTestId('solve-command').fill(COMMAND);
      await page.getByTestId('solve-command').press('Control+Enter');
      const refusal = page.getByTestId('solve-error-program.command');
      await refusal.waitFor();
      expect(await refusal.textContent()).toMatch(
        /^Starting this run: the solver random_search \(.*\) is a program, and this server does not run programs; start `saikoro serve` with --allow-commands to allow it$/,
      );
      expect(await page.getByTestId('solve-command').getAttribute('aria-invalid')).toBe('true');
      expect((await page.getByTestId('solve-status').textContent())?.trim()).toBe('Not started');
      await shot('01-solve-refused');

      await page.goto(`${new URL(server.url).origin}/#/experiment`);
      await page.locator('[data-field="solvers[0].params.strength"]').waitFor();
      await page.locator('[data-field="name"]').fill('with-program');
      await page.getByTestId('add-program').click();
      const command = page.locator('[data-field="solvers[1].command"]');
      await expect.poll(() => command.evaluate((el) => el === document.activeElement)).toBe(true);
      await command.fill(COMMAND);
      await page.keyboard.press('Control+s');
      await expect
        .poll(() => page.locator('[data-error-for="solvers[1].command"]').textContent())
        .toMatch(
          /^Adding experiment "with-program": the solver my-solver \(.*\) is a program, and this server does not run programs; start `saikoro serve` with --allow-commands to allow it$/,
        );
      await shot('02-editor-refused');
    } finally {
      await stop(server);
    }
  });

  it('with --allow-commands: the Solve view runs the program to the end', async () => {
    const server = await serve(['--allow-commands']);
    try {
      await page.goto(server.url);
      await page.goto(`${new URL(server.url).origin}/#/solve`);
      await page.getByTestId('solve-solver').selectOption(':program');
      await page.getByTestId('solve-command').fill(COMMAND);
      await page.getByTestId('solve-program-name').fill('node-random');
      // Its own folder: the sandbox shows a program a copy of it (the checkout is too big for one).
      await page.getByTestId('solve-program-cwd').fill(join(ROOT, 'examples/solvers'));
      await page.getByTestId('solve-evaluations').fill('2000');
      await page.getByTestId('solve-start').click();
      await expect.poll(async () => (await page.getByTestId('solve-status').textContent())?.trim(), { timeout: 60_000 }).toBe('Done');
      expect(await page.getByTestId('solve-run-params').textContent()).toContain('node-random');
      await page.getByTestId('solve-best').waitFor();
      await shot('03-solve-done');
      expect(pageErrors).toEqual([]);
    } finally {
      await stop(server);
    }
  });
});
