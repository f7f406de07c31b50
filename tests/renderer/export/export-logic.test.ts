// The Export view's pure pieces: the indicators offered for an experiment (as the report's
// defaults), file sizes and Blobs as saved, a PDF's page count, the CSV reader against the
// strict one of the report tests, text lines, and the preview page forced into a colour scheme.
import { describe, expect, it } from 'vitest';
import {
  applicableMetrics,
  defaultMetrics,
  fileBlob,
  fileSize,
  pageInScheme,
  parseCsv,
  pdfPageCount,
  textLines,
} from '../../../src-renderer/views/export/export.ts';
import { defaultMetrics as reportDefaults } from '../../../src-main/report/build.ts';
import { renderCsv } from '../../../src-main/report/csv.ts';
import { parseCsv as strictCsv } from '../../main/report/csv-parse.ts';
import type { ExperimentSpec } from '../../../src-shared/experiments/spec.ts';

const spec = (tracks: string[]) =>
  ({
    name: 'x',
    instances: tracks.map((track, i) => ({ name: `i${i}`, track, n: 12 })),
    solvers: [{ name: 'random' }],
    seeds: [1],
    budget: { evaluations: 10 },
  }) as unknown as ExperimentSpec;

describe('indicators', () => {
  it('offers those that apply to some instance, with the defaults of saikoro report', () => {
    for (const tracks of [['so'], ['mo2'], ['so', 'mo3'], ['mo2', 'mo7']]) expect(defaultMetrics(spec(tracks))).toEqual(reportDefaults(spec(tracks)));
    expect(applicableMetrics(spec(['so']))).toEqual(['feasibility', 'best']);
    expect(applicableMetrics(spec(['mo2']))).toEqual(['hv', 'igd+', 'epsilon', 'spacing', 'feasibility']);
    expect(applicableMetrics(spec(['so', 'mo2']))).toEqual(['hv', 'igd+', 'epsilon', 'spacing', 'feasibility', 'best']);
  });
});

describe('files', () => {
  it('sizes and Blobs are the bytes saved: UTF-8 text, base64 decoded', async () => {
    const text = { filename: 'a.tex', mediaType: 'application/x-latex', encoding: 'utf8' as const, content: 'α ≤ β\n' };
    expect(fileSize(text)).toBe(new TextEncoder().encode(text.content).length);
    expect(await fileBlob(text).text()).toBe(text.content);
    expect(fileBlob(text).type).toBe('application/x-latex');
    for (const bytes of [[1], [1, 2], [1, 2, 3], [0, 255, 128, 7, 9]]) {
      const file = { filename: 'a.pdf', mediaType: 'application/pdf', encoding: 'base64' as const, content: Buffer.from(bytes).toString('base64') };
      expect(fileSize(file)).toBe(bytes.length);
      expect([...new Uint8Array(await fileBlob(file).arrayBuffer())]).toEqual(bytes);
    }
  });

  it('counts the pages of a PDF, and gives up when they cannot be seen', () => {
    const pdf = (body: string) => Buffer.from(body, 'latin1').toString('base64');
    expect(pdfPageCount(pdf('<< /Type /Pages /Count 3 >> << /Type /Page >> << /Type/Page /Parent 1 0 R >> <</Type /Page>>'))).toBe(3);
    expect(pdfPageCount(pdf('%PDF-1.5 compressed object streams only'))).toBeNull();
  });
});

describe('parseCsv', () => {
  it('reads what the report writes as the strict reader does', () => {
    const awkward = 'worker crashed, "out of memory" <at> 95% & more\nsecond line';
    const csv = renderCsv({
      metrics: ['hv'],
      runs: [
        {
          id: 'r1',
          instance: 'i',
          solver: 's,1',
          solverName: 'nsga2',
          seed: 1,
          status: 'failed',
          error: awkward,
          evaluations: null,
          seconds: 1.5,
          indicators: { hv: null },
          appVersion: null,
          finishedAt: null,
        },
        {
          id: 'r2',
          instance: 'i',
          solver: 's',
          solverName: 'nsga2',
          seed: 2,
          status: 'done',
          error: null,
          evaluations: 10,
          seconds: 0.25,
          indicators: { hv: 0.5 },
          appVersion: null,
          finishedAt: null,
        },
      ],
      solutions: [],
      setup: { instances: [] },
    } as never);
    expect(parseCsv(csv.runs)).toEqual(strictCsv(csv.runs));
    expect(parseCsv(csv.runs)[1]).toContain(awkward);
  });
});

describe('textLines', () => {
  it('splits on line ends; a final one ends the last line', () => {
    expect(textLines('a\nb\n')).toEqual(['a', 'b']);
    expect(textLines('a\r\nb')).toEqual(['a', 'b']);
    expect(textLines('')).toEqual(['']);
    expect(textLines('a\n\n')).toEqual(['a', '']);
  });
});

describe('pageInScheme', () => {
  const page = '<style>:root{--bg:#fff;color-scheme:light dark}\n@media (prefers-color-scheme:dark){:root{--bg:#111}}\n@media print{x{}}</style>';
  it('keeps the dark rules always or never, and nothing else', () => {
    expect(pageInScheme(page, 'light')).toBe('<style>:root{--bg:#fff;color-scheme:light}\n@media not all{:root{--bg:#111}}\n@media print{x{}}</style>');
    expect(pageInScheme(page, 'dark')).toBe('<style>:root{--bg:#fff;color-scheme:dark}\n@media all{:root{--bg:#111}}\n@media print{x{}}</style>');
  });
});
