/**
 * The Export view's pure pieces: the formats and indicators it offers for an experiment, the
 * files of an exported report as Blobs, and what the preview shows of them (a CSV file as rows,
 * a text file as numbered lines, a PDF's page count). No DOM but Blob and atob.
 */
import { METRICS, type MetricName } from '../../../src-shared/experiments/compare.ts';
import { instanceConfig, solverLabel, type ExperimentSpec } from '../../../src-shared/experiments/spec.ts';
import type { ExportedReport, ReportFormatName } from '../../../src-shared/api.ts';
import { REPORT_FORMAT_NAMES, REPORT_FORMATS } from '../../../src-shared/projects/project-api.ts';
import { base64Bytes } from '../../composables/download.ts';

export type ReportFile = ExportedReport['files'][number];

export interface FormatChoice {
  id: ReportFormatName;
  label: string;
  /** One line on what the format gives. */
  note: string;
}

/** The formats of `saikoro report` (REPORT_FORMATS, the one list), in its order. */
export const FORMATS: readonly FormatChoice[] = REPORT_FORMAT_NAMES.map((id) => ({ id, label: REPORT_FORMATS[id].label, note: REPORT_FORMATS[id].note }));

export const METRIC_NAMES: Record<MetricName, string> = {
  best: 'Best objective',
  hv: 'Hypervolume',
  'igd+': 'IGD+',
  epsilon: 'Additive ε',
  spacing: 'Spacing',
  feasibility: 'Feasibility',
};

/** The report's default indicators, in table order (src-main/report/build.ts). */
const DEFAULT_ORDER: readonly MetricName[] = ['best', 'hv', 'igd+', 'feasibility'];

const applies = (metric: MetricName, objectives: number) => (metric === 'best' ? objectives === 1 : metric === 'feasibility' ? true : objectives >= 2);

/** The indicators that apply to some instance of the experiment, in compare's order. */
export function applicableMetrics(spec: ExperimentSpec): MetricName[] {
  const counts = spec.instances.map((i) => instanceConfig(i).objectives.length);
  return METRICS.filter((m) => counts.some((k) => applies(m, k)));
}

/** What the report shows when no indicator is chosen (as `saikoro report` without --metric). */
export function defaultMetrics(spec: ExperimentSpec): MetricName[] {
  const applicable = applicableMetrics(spec);
  return DEFAULT_ORDER.filter((m) => applicable.includes(m));
}

/** Solver labels, the first being the default baseline. */
export const solverLabels = (spec: ExperimentSpec): string[] => spec.solvers.map(solverLabel);

/** A file of the report as a Blob of its media type (PDF bytes from base64, the rest UTF-8 text). */
export function fileBlob(file: ReportFile): Blob {
  return new Blob([file.encoding === 'base64' ? base64Bytes(file.content) : file.content], { type: file.mediaType });
}

/** The file's size in bytes, as saved. */
export function fileSize(file: ReportFile): number {
  if (file.encoding === 'base64') {
    const padding = file.content.endsWith('==') ? 2 : file.content.endsWith('=') ? 1 : 0;
    return (file.content.length / 4) * 3 - padding;
  }
  return new TextEncoder().encode(file.content).length;
}

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(bytes < 10 * 1024 ? 1 : 0)} kB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** The number of pages of a PDF (its page objects), or null when they cannot be counted (e.g. compressed object streams). */
export function pdfPageCount(base64: string): number | null {
  const text = atob(base64);
  const pages = text.match(/\/Type\s*\/Page(?![a-zA-Z])/g)?.length ?? 0;
  return pages > 0 ? pages : null;
}

/** RFC 4180 records: quoted fields may hold commas, doubled quotes and line breaks; records end with CRLF (or LF). */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      record.push(field);
      records.push(record);
      record = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || record.length) {
    record.push(field);
    records.push(record);
  }
  return records;
}

/** Lines of a text file (a final line break ends the last line, it does not start another). */
export function textLines(text: string): string[] {
  const lines = text.split(/\r?\n/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * The report page in one colour scheme whatever the system's: the page picks its dark colours
 * with `@media (prefers-color-scheme: dark)`, which a frame cannot be told; rewritten to always
 * (dark) or never (light) apply. For the preview only (a PDF prints the light page).
 */
export function pageInScheme(html: string, scheme: 'light' | 'dark'): string {
  return html
    .replace(/@media\s*\(\s*prefers-color-scheme\s*:\s*dark\s*\)/g, scheme === 'dark' ? '@media all' : '@media not all')
    .replace(/color-scheme\s*:\s*light dark/g, `color-scheme:${scheme}`);
}
