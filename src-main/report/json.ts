/** The JSON report: ReportData as it is, described by docs/report.schema.json. */
import type { ReportData } from './types.ts';

/** Where the schema lives, relative to the repository root. */
export const REPORT_SCHEMA_FILE = 'docs/report.schema.json';

export function renderJson(data: ReportData): string {
  return JSON.stringify(data, null, 2) + '\n';
}
