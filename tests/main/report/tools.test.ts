// The report formats that outside programs read: LaTeX through pdflatex, the PDF through
// pdftotext, the HTML page in headless Chromium. Missing programs fail under CI and skip
// elsewhere (tests/e2e/tools.ts).
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Project } from '../../../src-main/project/store.ts';
import { buildReport } from '../../../src-main/report/build.ts';
import { formatCell } from '../../../src-main/report/format.ts';
import { escapeLatex, renderLatex } from '../../../src-main/report/latex.ts';
import { renderHtml } from '../../../src-main/report/html.ts';
import { renderPdf } from '../../../src-main/report/pdf.ts';
import type { ReportData } from '../../../src-main/report/types.ts';
import { CHROMIUM_ARGS, requireChromium } from '../../e2e/chromium.ts';
import { requireTool } from '../../e2e/tools.ts';
import { runCli } from '../cli/io.ts';
import { makeFixture, MO, SO, type Fixture } from './fixture.ts';

const pdflatex = requireTool('pdflatex', '/usr/bin/pdflatex', 'apt-get install texlive-latex-base texlive-latex-recommended');
const pdftotext = requireTool('pdftotext', '/usr/bin/pdftotext', 'apt-get install poppler-utils');
const chromiumTool = requireChromium();

let fx: Fixture;
const data: Record<string, ReportData> = {};
beforeAll(async () => {
  fx = await makeFixture('tools');
  const project = Project.open(fx.file, { readOnly: true });
  data[MO] = buildReport(project, MO);
  data[SO] = buildReport(project, SO);
  project.close();
});
afterAll(() => fx?.cleanup());

const cli = (args: string[]) => runCli(args, { cwd: fx.cwd });

/** Runs pdflatex twice (as for any document with floats) in the fixture directory; returns the PDF's text. */
function compile(stem: string): string {
  for (let pass = 0; pass < 2; pass++) {
    const r = spawnSync(pdflatex.path, ['-interaction=nonstopmode', '-halt-on-error', `${stem}.tex`], { cwd: fx.cwd, encoding: 'utf8' });
    expect(
      r.status,
      r.stdout
        .split('\n')
        .filter((l) => l.startsWith('!'))
        .join('\n') || r.stdout.slice(-2000),
    ).toBe(0);
  }
  const pdf = path.join(fx.cwd, `${stem}.pdf`);
  expect(fs.existsSync(pdf)).toBe(true);
  return pdftotext.present ? execFileSync(pdftotext.path, ['-layout', pdf, '-'], { encoding: 'utf8' }) : '';
}

pdflatex.describe('the LaTeX report', () => {
  it('compiles when a document with booktabs inputs the tables', async () => {
    const r = await cli(['report', 'p.saikoro', MO, '--format', 'latex', '--out', 'mo-tables.tex']);
    expect(r.code, r.stderr).toBe(0);
    fs.writeFileSync(path.join(fx.cwd, 'so-tables.tex'), renderLatex(data[SO]));
    fs.writeFileSync(
      path.join(fx.cwd, 'paper.tex'),
      ['\\documentclass{article}', '\\usepackage{booktabs}', '\\begin{document}', '\\input{mo-tables}', '\\input{so-tables}', '\\end{document}', ''].join('\n'),
    );
    const text = compile('paper');
    if (pdftotext.present) {
      // Without T1 fonts \_ is drawn as a rule, which pdftotext reads as a space.
      expect(text).toMatch(/nsga2[_ ]p20/);
      expect(text).toContain('Friedman rank');
      const cell = data[MO].tables[0].rows[0].cells[0];
      expect(text).toContain(formatCell(cell, 'median'));
    }
  });

  it('compiles standalone, with every special character escaped', async () => {
    const r = await cli(['report', 'p.saikoro', SO, '--format', 'latex', '--standalone', '--out', 'standalone.tex']);
    expect(r.code, r.stderr).toBe(0);
    compile('standalone');
    const specials = 'a_b&c%d#e$f{g}h~i^j\\k<l>m|n';
    fs.writeFileSync(
      path.join(fx.cwd, 'specials.tex'),
      `\\documentclass{article}\n\\usepackage[T1]{fontenc}\n\\begin{document}\n${escapeLatex(specials)}\n\\end{document}\n`,
    );
    const text = compile('specials');
    if (pdftotext.present) expect(text.replace(/\s/g, '')).toContain(specials);
  });
});

chromiumTool.describe('the PDF report', () => {
  it.skipIf(pdftotext.skip)('prints the HTML report; its text has the experiment name and the table numbers', async () => {
    pdftotext.check();
    const r = await cli(['report', 'p.saikoro', MO, '--format', 'pdf', '--out', 'mo.pdf', '--chromium', chromiumTool.path]);
    expect(r.code, r.stderr).toBe(0);
    const pdf = fs.readFileSync(path.join(fx.cwd, 'mo.pdf'));
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const text = execFileSync(pdftotext.path, [path.join(fx.cwd, 'mo.pdf'), '-'], { encoding: 'utf8' });
    expect(text).toContain(MO);
    for (const table of data[MO].tables) for (const row of table.rows) for (const cell of row.cells) expect(text).toContain(formatCell(cell, table.aggregate));
    // The default Chromium is found without --chromium.
    const again = await cli(['report', 'p.saikoro', SO, '--out', 'so.pdf']);
    expect(again.code, again.stderr).toBe(0);
    expect(execFileSync(pdftotext.path, [path.join(fx.cwd, 'so.pdf'), '-'], { encoding: 'utf8' })).toContain(SO);
  });
});

chromiumTool.describe("the PDF report's pages", () => {
  /** The report of the fixture with `count` failed runs whose reasons name them (row-0, row-1, ...), printed; the rows each page holds. */
  async function rowsPerPage(count: number): Promise<number[]> {
    const base = data[MO];
    const failed = Array.from({ length: count }, (_, i) => ({
      ...base.runs[0],
      id: `${String(i).padStart(12, '0')}f`,
      status: 'failed' as const,
      error: `failure row-${i}-end`,
    }));
    const html = renderHtml({ ...base, runs: [...base.runs.filter((r) => r.status !== 'failed'), ...failed] });
    const file = path.join(fx.cwd, `rows-${count}.pdf`);
    fs.writeFileSync(file, await renderPdf(html, { chromiumPath: chromiumTool.path }));
    // pdftotext ends every page with a form feed.
    const pages = execFileSync(pdftotext.path, [file, '-'], { encoding: 'utf8' }).split('\f');
    return pages.map((text) => (text.match(/row-\d+-end/g) ?? []).length).filter((n) => n > 0);
  }

  it.skipIf(pdftotext.skip)(
    'no page holds a single row of a table that runs over pages (a long table left one orphan row on a page of its own)',
    async () => {
      pdftotext.check();
      // A table over several pages, measured: the rows each of its pages holds as printed.
      const first = await rowsPerPage(70);
      expect(first.length, String(first)).toBeGreaterThanOrEqual(2);
      expect(first.reduce((a, b) => a + b, 0)).toBe(70);
      // As many rows as fill those pages but the last, and one more: the last row alone on a page unless the report keeps it with the one before.
      const full = first.slice(0, -1).reduce((a, b) => a + b, 0);
      const tail = await rowsPerPage(full + 1);
      expect(tail.reduce((a, b) => a + b, 0)).toBe(full + 1);
      expect(
        tail.filter((n) => n === 1),
        `rows per page: ${tail.join(', ')}`,
      ).toEqual([]);
      expect(
        first.filter((n) => n === 1),
        `rows per page: ${first.join(', ')}`,
      ).toEqual([]);
    },
    120_000,
  );
});

chromiumTool.describe('the HTML report in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: chromiumTool.path, headless: true, args: CHROMIUM_ARGS });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it.each(['light', 'dark'] as const)('loads nothing but itself, shows the %s charts and fits the page', async (scheme) => {
    const r = await cli(['report', 'p.saikoro', MO, '--out', 'mo.html']);
    expect(r.code, r.stderr).toBe(0);
    const file = path.join(fx.cwd, 'mo.html');
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const requests: string[] = [];
    const problems: string[] = [];
    page.on('request', (q) => requests.push(q.url()));
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text());
    });
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto(`file://${file}`);
    expect(requests).toEqual([`file://${file}`]);
    expect(problems).toEqual([]);
    const shown = await page.$$eval('.svg', (els) => els.map((el) => `${el.className}:${getComputedStyle(el).display}`));
    expect(shown.filter((s) => s.endsWith(':block')).every((s) => s.includes(scheme))).toBe(true);
    expect(shown.filter((s) => s.endsWith(':block'))).toHaveLength(shown.length / 2);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
    // Printing shows the light charts whatever the colour scheme.
    await page.emulateMedia({ media: 'print', colorScheme: scheme });
    expect(await page.$$eval('.svg.light', (els) => els.every((el) => getComputedStyle(el).display === 'block'))).toBe(true);
    // SAIKORO_REPORT_SCREENSHOTS=DIR keeps a screenshot of each section, to look at.
    const dir = process.env.SAIKORO_REPORT_SCREENSHOTS;
    if (dir) {
      await page.emulateMedia({ media: 'screen', colorScheme: scheme });
      fs.mkdirSync(dir, { recursive: true });
      for (const id of await page.$$eval('header[id], section[id]', (els) => els.map((el) => el.id)))
        await page.locator(`[id="${id}"]`).screenshot({ path: path.join(dir, `${scheme}-${id}.png`) });
    }
    await page.close();
  });
});
