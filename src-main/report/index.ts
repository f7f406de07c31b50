/**
 * Reports of an experiment (docs/report.md): buildReport reads a project into ReportData, and
 * one renderer per format turns that into a file. The CLI (`saikoro report`) and the app call
 * these; the app prints renderHtml's page with Electron's printToPDF instead of renderPdf.
 * The list of formats is REPORT_FORMATS (src-shared/projects/project-api.ts), which the
 * renderer's Export view shares.
 */
export { buildReport, defaultMetrics, ReportError, runsHash, type ReportOptions } from './build.ts';
export { renderHtml, escapeHtml } from './html.ts';
export { renderCsv, csvPaths } from './csv.ts';
export { renderJson, REPORT_SCHEMA_FILE } from './json.ts';
export { renderLatex, escapeLatex } from './latex.ts';
export { renderPdf, findChromium, ChromiumNotFoundError, SYSTEM_CHROMIUM, type PdfOptions } from './pdf.ts';
export { formatValue } from './format.ts';
export { REPORT_VERSION, SIGNIFICANCE, type ReportData } from './types.ts';
