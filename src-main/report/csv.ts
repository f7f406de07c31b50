/**
 * The CSV report: two RFC 4180 files (CRLF line ends, a header row, fields quoted when they hold
 * a comma, a double quote, CR or LF, quotes doubled). Numbers are written in full precision
 * (JavaScript's shortest round-trip form), so they parse back to the stored values.
 *
 *   runs       run, instance, solver, solver_name, seed, status, <one column per indicator>,
 *              evaluations, seconds, error
 *   solutions  run, instance, solver, seed, kind, sequence, f1..fM, g<d> per constrained d,
 *              feasible, violation
 *
 * In `solutions`, f and g columns cover every instance of the experiment; a cell is empty where
 * the instance has no such objective or constrained d.
 *
 * Text cells that a spreadsheet would run as a formula (starting with =, +, -, @, tab or CR: a
 * failed run's error, a label) get a leading apostrophe; numbers are left alone
 * (src-shared/base/csv.ts).
 */
import path from 'node:path';
import { csvField, type CsvValue as Field } from '../../src-shared/base/csv.ts';
import type { ReportData } from './types.ts';

function csv(rows: Field[][]): string {
  return rows.map((r) => r.map(csvField).join(',') + '\r\n').join('');
}

export function renderCsv(data: ReportData): { runs: string; solutions: string } {
  const runs: Field[][] = [['run', 'instance', 'solver', 'solver_name', 'seed', 'status', ...data.metrics, 'evaluations', 'seconds', 'error']];
  for (const r of data.runs)
    runs.push([r.id, r.instance, r.solver, r.solverName, r.seed, r.status, ...data.metrics.map((m) => r.indicators[m]), r.evaluations, r.seconds, r.error]);

  const m = Math.max(0, ...data.solutions.map((s) => s.objectives.length));
  const blocks = [...new Set(data.solutions.flatMap((s) => s.constraintBlocks))].sort((a, b) => a - b);
  const solutions: Field[][] = [
    [
      'run',
      'instance',
      'solver',
      'seed',
      'kind',
      'sequence',
      ...Array.from({ length: m }, (_, i) => `f${i + 1}`),
      ...blocks.map((d) => `g${d}`),
      'feasible',
      'violation',
    ],
  ];
  for (const s of data.solutions) {
    const g = new Map(s.constraintBlocks.map((d, k) => [d, s.constraints[k]]));
    solutions.push([
      s.run,
      s.instance,
      s.solver,
      s.seed,
      s.kind,
      s.x,
      ...Array.from({ length: m }, (_, i) => s.objectives[i]),
      ...blocks.map((d) => g.get(d)),
      s.feasible,
      s.violation,
    ]);
  }
  return { runs: csv(runs), solutions: csv(solutions) };
}

/**
 * Where `--format csv --out PATH` writes its two files: PATH-runs.csv and PATH-solutions.csv,
 * with a trailing ".csv" of PATH dropped first (report.csv -> report-runs.csv); when PATH is a
 * directory (it exists as one, or ends with a slash), EXPERIMENT-runs.csv and
 * EXPERIMENT-solutions.csv inside it.
 */
export function csvPaths(out: string, experiment: string, isDirectory: boolean): { runs: string; solutions: string } {
  if (isDirectory || /[\\/]$/.test(out)) return { runs: path.join(out, `${experiment}-runs.csv`), solutions: path.join(out, `${experiment}-solutions.csv`) };
  const stem = out.replace(/\.csv$/i, '');
  return { runs: `${stem}-runs.csv`, solutions: `${stem}-solutions.csv` };
}
