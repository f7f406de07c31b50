// The README's screenshot (docs/images/first-study.png): the Pareto explorer on the study that
// `saikoro init` makes, after `saikoro experiment run`, in headless Chromium against
// `saikoro serve` of this checkout, as a newcomer following the README would see it.
//
//   npx tsx scripts/readme-screenshot.ts [OUT.png]      (default docs/images/first-study.png)
//
// The study's runs take about a minute on two cores.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, SYSTEM_CHROMIUM } from '../src-main/chromium.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const CLI = path.join(ROOT, 'bin', 'saikoro.mjs');
const out = path.resolve(process.argv[2] ?? path.join(ROOT, 'docs', 'images', 'first-study.png'));
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-screenshot-'));
const study = path.join(work, 'study');
const saikoro = (...args: string[]) =>
  execFileSync(process.execPath, [CLI, ...args], { cwd: fs.existsSync(study) ? study : work, stdio: ['ignore', 'inherit', 'inherit'] });

saikoro('init', 'study');
saikoro('experiment', 'run', 'study.saikoro');
const server = spawn(process.execPath, [CLI, 'serve', '--port', '0'], { cwd: study, stdio: ['ignore', 'ignore', 'pipe'] });
try {
  const url = await new Promise<string>((resolve, reject) => {
    let text = '';
    server.stderr!.on('data', (d) => {
      text += String(d);
      const found = /on (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(text)?.[1];
      if (found) resolve(found);
    });
    server.on('exit', (code) => reject(new Error(`saikoro serve ended (${code}): ${text}`)));
  });
  const browser = await chromium.launch({ executablePath: SYSTEM_CHROMIUM, headless: true, args: [...CHROMIUM_ARGS] });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, colorScheme: 'light' });
    // The project opened as the Project view opens it (the same API call), then the explorer.
    const { origin, searchParams } = new URL(url);
    const opened = await fetch(`${origin}/api/openProject`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${searchParams.get('token')}` },
      body: JSON.stringify(['study.saikoro']),
    });
    if (!((await opened.json()) as { ok: boolean }).ok) throw new Error('openProject failed');
    await page.goto(url);
    await page.goto(`${url.split('#')[0]}#/explore/first`);
    const scatter = page.getByTestId('explore-scatter');
    await scatter.waitFor({ timeout: 30_000 }).catch(async (e) => {
      await page.screenshot({ path: out.replace(/\.png$/, '.failed.png') });
      throw e;
    });
    await page.waitForFunction(() => document.querySelector('[data-testid="explore-scatter"]')?.getAttribute('data-rendered') === '1', undefined, {
      timeout: 30_000,
    });
    await page.waitForTimeout(500);
    fs.mkdirSync(path.dirname(out), { recursive: true });
    // The window down to the bottom of the scatter plot: the controls, the legend and the fronts
    // (the view scrolls inside the window, so the window is made tall enough).
    const box = (await scatter.boundingBox())!;
    await page.setViewportSize({ width: 1280, height: Math.ceil(box.y + box.height + 16) });
    await page.waitForTimeout(500);
    await page.screenshot({ path: out });
    console.log(`wrote ${path.relative(process.cwd(), out)}`);
  } finally {
    await browser.close();
  }
} finally {
  server.kill('SIGTERM');
  fs.rmSync(work, { recursive: true, force: true });
}
