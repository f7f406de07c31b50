// @vitest-environment happy-dom
// The Export view against the real main side (API, solver host with worker processes, projects
// on a temporary workspace): a small experiment is run, then exported in every format. The
// preview shows the report (the page holds the experiment's name and compare's numbers; CSV
// files parse back into the stored runs; JSON and LaTeX as numbered lines; a PDF as the page it
// prints), the indicators and the baseline reach the report, Save downloads each file under its
// name with its content, and the main side's refusals are shown as it words them. The shell
// opens the view from the desktop menu's Export and from Ctrl+E, for the experiment on screen.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { nextTick, type Component } from 'vue';
import ExportView from '../../../src-renderer/views/export/ExportView.vue';
import App from '../../../src-renderer/App.vue';
import { routes } from '../../../src-renderer/routes.ts';
import { formatCell, formatValue } from '../../../src-main/report/format.ts';
import { realApp, type RealApp } from '../real-app.ts';
import { mountView, type Mounted } from '../project/mount.ts';
import { waitFor } from '../../main/processes.ts';
import { csvObjects, parseCsv } from '../../main/report/csv-parse.ts';
import { SMALL } from './fixtures.ts';

const IDLE = { name: 'idle', instances: [{ name: 'so-n12', track: 'so', n: 12 }], solvers: [{ name: 'random' }], seeds: [1], budget: { evaluations: 50 } };
/** What the stub printer returns: a real PDF file is checked in Chromium (tests/e2e/export.test.ts). */
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj << /Type /Pages /Count 2 >> endobj\n2 0 obj << /Type /Page >> endobj\n3 0 obj << /Type /Page >> endobj\n%%EOF\n',
  'latin1',
);

let env: RealApp;
let view: Mounted | null = null;
let printed: string[];
let downloads: { name: string; blob: Blob }[];

beforeAll(async () => {
  printed = [];
  env = realApp({
    parallelism: 2,
    printPdf: async (html) => {
      printed.push(html);
      return PDF;
    },
  });
});
afterAll(() => env.dispose());

beforeEach(() => {
  downloads = [];
  const blobs = new Map<string, Blob>();
  let n = 0;
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    const url = `blob:test/${n++}`;
    blobs.set(url, blob as Blob);
    return url;
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    downloads.push({ name: this.download, blob: blobs.get(this.href)! });
  });
});
function unmount() {
  view?.unmount();
  view = null;
}
afterEach(() => {
  unmount();
  vi.restoreAllMocks();
});

function mount(hash: string, root: Component = ExportView) {
  view = mountView(root, env.api, hash);
}

const q = <T extends HTMLElement = HTMLElement>(testid: string) => document.querySelector<T>(`[data-testid="${testid}"]`);
const text = (testid: string) => q(testid)?.textContent?.replace(/\s+/g, ' ').trim() ?? null;
const srcdoc = () => q('preview-page')?.getAttribute('srcdoc') ?? null;
/** The preview's summary once an export of `filename` is shown and nothing is pending. */
const shown = (filename: string) =>
  waitFor(`the preview of ${filename}`, () => !q('export-busy') && text('export-summary')?.startsWith(filename), { withinMs: 20_000 });
async function choose(format: string) {
  const radio = q<HTMLInputElement>(`format-${format}`)!;
  radio.checked = true;
  radio.dispatchEvent(new Event('change'));
  await nextTick();
}
async function save(testid = 'export-save') {
  q(testid)!.click();
  await nextTick();
}
/** The text lines the preview shows (all of them are drawn for a short file). */
const previewLines = () => [...document.querySelectorAll('[data-testid="preview-text"] .line .code')].map((l) => l.textContent);

describe('Export view', () => {
  it('says so when no project is open', async () => {
    mount('#/export');
    await waitFor('the message', () => q('export-no-project'));
    expect(text('export-no-project')).toContain('No project is open');
    expect(q('export-preview')).toBeNull();
  });

  describe('with a project', () => {
    beforeAll(async () => {
      await env.api.createProject('export.saikoro');
      await env.api.addExperiment(SMALL);
      await env.api.addExperiment(IDLE);
      await env.api.runExperiment('small');
      await waitFor('the experiment to finish', async () => (await env.api.getProject())!.experiments.find((e) => e.name === 'small')!.counts.done === 6, {
        withinMs: 60_000,
      });
    }, 90_000);

    it("previews the HTML report: the experiment and compare's numbers, and saves it", async () => {
      mount('#/export/small');
      await shown('small.html');
      expect(q<HTMLSelectElement>('export-experiment')!.value).toBe('small');
      const page = srcdoc()!;
      expect(page).toContain('<h1>small</h1>');
      expect(page).toContain('random against NSGA-II');
      const hv = await env.api.compareExperiment('small', { metric: 'hv' });
      for (const s of hv.instances[0].solvers)
        expect(page).toContain(`<span class="v">${formatCell({ median: s.summary!.median, iqr: s.summary!.iqr, mean: s.summary!.mean }, 'median')}</span>`);
      // Sandboxed, without its script (which could not run there).
      expect(q('preview-page')!.getAttribute('sandbox')).toBe('');
      expect(page).not.toContain('<script>');

      await save();
      expect(downloads.map((d) => d.name)).toEqual(['small.html']);
      expect(downloads[0].blob.type).toBe('text/html');
      const file = await downloads[0].blob.text();
      // The file keeps what the preview leaves out, and is what the API answers.
      expect(file).toContain('<script>');
      const answered = (await env.api.exportReport('small', { format: 'html' })).files[0].content;
      // Up to the date and ECharts' style class counters, which go on counting from one chart to the next.
      const undated = (html: string) => html.replace(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/g, 'DATE').replace(/-cls-\d+/g, '-cls-N');
      expect(undated(file)).toBe(undated(answered));
      expect(text('export-saved')).toContain("small.html went to the browser's downloads");
    });

    it('previews both CSV files as tables that parse back into the stored runs, and saves both', async () => {
      mount('#/export/small');
      await shown('small.html');
      await choose('csv');
      await shown('2 files');
      expect([...document.querySelectorAll('[role="tab"]')].map((t) => t.textContent?.split(' ')[0].trim())).toEqual(['small-runs.csv', 'small-solutions.csv']);
      const header = [...document.querySelectorAll('[data-testid="preview-table"] thead th')].map((th) => th.textContent?.trim()).slice(1);
      expect(header).toEqual(['run', 'instance', 'solver', 'solver_name', 'seed', 'status', 'hv', 'igd+', 'feasibility', 'evaluations', 'seconds', 'error']);
      expect(text('preview-count')).toBe('6 rows, 12 columns');

      await save();
      expect(downloads.map((d) => d.name)).toEqual(['small-runs.csv', 'small-solutions.csv']);
      const runs = csvObjects(await downloads[0].blob.text());
      const stored = await env.api.listExperimentRuns('small');
      expect(runs.map((r) => [r.run, r.solver, r.seed, r.status]).sort()).toEqual(stored.map((r) => [r.id, r.label, String(r.seed), r.status]).sort());
      for (const r of stored) expect(Number(runs.find((x) => x.run === r.id)!.hv)).toBe(r.hv);
      // The table shows the same cells as the file.
      const cells = [...document.querySelectorAll('[data-testid="preview-table"] tbody tr[aria-rowindex]')].map((tr) =>
        [...tr.querySelectorAll('td')].slice(1).map((td) => td.textContent),
      );
      expect(cells).toEqual(parseCsv(await downloads[0].blob.text()).slice(1));
      const solutions = csvObjects(await downloads[1].blob.text());
      expect(solutions.length).toBeGreaterThan(0);
      expect(solutions.every((s) => /^[1-6]{24}$/.test(s.sequence))).toBe(true);

      // The second tab, and one file alone.
      q('export-file-1')!.click();
      await nextTick();
      expect(text('preview-count')).toBe(`${solutions.length} rows, ${Object.keys(solutions[0]).length} columns`);
      downloads = [];
      await save('export-save-1');
      expect(downloads.map((d) => d.name)).toEqual(['small-solutions.csv']);
    });

    it('shows JSON and LaTeX with line numbers, and saves them', async () => {
      mount('#/export/small');
      await shown('small.html');
      await choose('json');
      await shown('small.json');
      expect(previewLines().slice(0, 3)).toEqual(['{', '  "format": "saikoro-report",', '  "version": 1,']);
      expect(document.querySelector('[data-testid="preview-text"] .line .ln')?.textContent).toBe('1');
      await save();
      const json = JSON.parse(await downloads[0].blob.text());
      expect(downloads[0].name).toBe('small.json');
      expect(json.experiment).toEqual({ name: 'small', description: 'random against NSGA-II' });
      expect(text('preview-count')).toBe(`${(await downloads[0].blob.text()).trimEnd().split('\n').length.toLocaleString('en-US')} lines`);

      await choose('latex');
      await shown('small.tex');
      expect(previewLines()).toContain('\\begin{document}');
      expect(previewLines()).toContain('\\toprule');
      downloads = [];
      await save();
      expect(downloads[0].name).toBe('small.tex');
      expect(await downloads[0].blob.text()).toMatch(/^\\documentclass\{article\}/);
    });

    it('previews a PDF as the light page it prints, and saves the printed bytes', async () => {
      mount('#/export/small');
      await shown('small.html');
      printed.length = 0;
      await choose('pdf');
      await shown('small.pdf');
      expect(text('export-summary')).toContain('2 pages, A4');
      expect(text('export-pdf-note')).toContain('printed by Chromium');
      // The page shown is the one printed, in its light colours.
      expect(printed).toHaveLength(1);
      expect(srcdoc()).toContain('<h1>small</h1>');
      expect(srcdoc()).toContain('@media not all{');
      expect(printed[0]).toContain('@media (prefers-color-scheme:dark){');
      await save();
      expect(downloads.map((d) => d.name)).toEqual(['small.pdf']);
      expect(downloads[0].blob.type).toBe('application/pdf');
      expect(Buffer.from(await downloads[0].blob.arrayBuffer()).equals(PDF)).toBe(true);
    });

    it('sends the chosen indicators and baseline to the report', async () => {
      mount('#/export/small');
      await shown('small.html');
      expect(srcdoc()).toContain('id="metric-hv"');
      expect(srcdoc()).toContain('baseline random');
      const hv = q<HTMLInputElement>('metric-hv')!;
      hv.checked = false;
      hv.dispatchEvent(new Event('change'));
      const baseline = q<HTMLSelectElement>('export-baseline')!;
      baseline.value = 'nsga2';
      baseline.dispatchEvent(new Event('change'));
      await waitFor('a report without hv', () => !q('export-busy') && srcdoc() && !srcdoc()!.includes('id="metric-hv"'), { withinMs: 20_000 });
      expect(srcdoc()).toContain('id="metric-igd_2b"');
      expect(srcdoc()).toContain('baseline nsga2');
      // None at all is refused here, before asking.
      for (const m of ['igd+', 'feasibility']) {
        const box = q<HTMLInputElement>(`metric-${m}`)!;
        box.checked = false;
        box.dispatchEvent(new Event('change'));
      }
      await nextTick();
      expect(text('export-no-metric')).toBe('Choose at least one indicator.');
      await waitFor('no preview', () => !q('export-preview'));
    });

    it("shows the main side's message for an experiment without finished runs", async () => {
      mount('#/export/idle');
      await waitFor('the error', () => q('export-error'), { withinMs: 20_000 });
      expect(text('export-error')).toMatch(/^experiment idle has no finished runs \(1 in the grid, 0 failed\)/);
      expect(q('export-error')!.querySelector('a')!.getAttribute('href')).toBe('#/monitor/idle');
      expect(q('export-preview')).toBeNull();
      // Choosing another experiment exports it.
      const select = q<HTMLSelectElement>('export-experiment')!;
      select.value = 'small';
      select.dispatchEvent(new Event('change'));
      await shown('small.html');
      expect(q('export-error')).toBeNull();
      expect(window.location.hash).toBe('#/export/small');
    });

    it('digit shortcuts still go to a view after a format button was clicked (the focused radio swallowed them)', async () => {
      mount('#/export/small', App);
      await shown('small.html');
      const radio = q<HTMLInputElement>('format-csv')!;
      radio.focus();
      await choose('csv');
      await shown('2 files');
      expect(document.activeElement).toBe(radio);
      radio.dispatchEvent(new KeyboardEvent('keydown', { key: '2', bubbles: true, cancelable: true }));
      await waitFor('the second view', () => window.location.hash === `#/${routes[1].id}`);
      // A text field still keeps its digits.
      window.location.hash = '#/dice';
      const input = await waitFor('the dice view', () => q<HTMLTextAreaElement>('sequence-input'));
      input.dispatchEvent(new KeyboardEvent('keydown', { key: '3', bubbles: true, cancelable: true }));
      await nextTick();
      expect(window.location.hash).toBe('#/dice');
    });

    it('opens from the desktop menu and from Ctrl+E, for the experiment on screen', async () => {
      mount('#/monitor/small', App);
      await waitFor('the shell', () => q('nav-export'));
      env.menu({ kind: 'export' });
      await waitFor('the export route', () => window.location.hash === '#/export/small');
      await shown('small.html');
      // From a view without an experiment: the Export view picks one itself.
      window.location.hash = '#/dice';
      await waitFor('the dice view', () => q('sequence-input'));
      window.dispatchEvent(new KeyboardEvent('keydown', { key: 'e', ctrlKey: true, bubbles: true, cancelable: true }));
      await waitFor('the export route again', () => window.location.hash === '#/export');
    });
  });
});
