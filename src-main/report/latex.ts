/**
 * The LaTeX report: one booktabs table per indicator (median (IQR) per solver and instance,
 * the best of each row in bold, +/−/= against the baseline as superscripts, the Friedman
 * ranks in the last row). The output is plain ASCII; it needs only \usepackage{booktabs}, or
 * nothing with `standalone` (then it is a whole article that pdflatex compiles as it is).
 */
import { formatValue, metricTitle } from './format.ts';
import type { MetricTable, ReportData, TableCell } from './types.ts';

const SPECIALS: Record<string, string> = {
  '\\': '\\textbackslash{}',
  '{': '\\{',
  '}': '\\}',
  $: '\\$',
  '&': '\\&',
  '#': '\\#',
  '%': '\\%',
  _: '\\_',
  '^': '\\textasciicircum{}',
  '~': '\\textasciitilde{}',
  '<': '\\textless{}',
  '>': '\\textgreater{}',
  '|': '\\textbar{}',
  '"': "''",
};

/** Text for LaTeX's text mode: every special character escaped, anything outside printable ASCII replaced by "?". */
export function escapeLatex(text: string): string {
  let out = '';
  for (const c of text) {
    if (c in SPECIALS) out += SPECIALS[c];
    else if (c >= ' ' && c <= '~') out += c;
    else if (c === '\n' || c === '\t') out += ' ';
    else out += '?';
  }
  return out;
}

/** A number as formatValue shows it, in LaTeX (exponents as \times 10^k, a real minus sign). */
export function latexValue(v: number | null): string {
  if (v === null || Number.isNaN(v)) return '--';
  if (!Number.isFinite(v)) return v > 0 ? '$\\infty$' : '$-\\infty$';
  const text = formatValue(v);
  const exp = /^(-?)([\d.]+)e([+-])(\d+)$/.exec(text);
  if (exp) return `$${exp[1]}${exp[2]}\\times 10^{${exp[3] === '-' ? '-' : ''}${exp[4]}}$`;
  return text.startsWith('-') ? `$-$${text.slice(1)}` : text;
}

const MARKS: Record<string, string> = { '+': '$^{+}$', '-': '$^{-}$', '=': '$^{=}$' };

function cellText(cell: TableCell, aggregate: 'median' | 'mean'): string {
  let text = aggregate === 'mean' ? latexValue(cell.mean) : cell.median === null ? '--' : `${latexValue(cell.median)} (${latexValue(cell.iqr)})`;
  if (cell.best) text = `\\textbf{${text}}`;
  return text + (cell.vsBaseline ? MARKS[cell.vsBaseline] : '');
}

const labelPart = (text: string) => text.replace(/[^A-Za-z0-9.+-]/g, '-');

function tableOf(table: MetricTable, data: ReportData): string {
  const solvers = table.rows[0]?.cells.map((c) => c.solver) ?? [];
  const stat = table.aggregate === 'mean' ? 'mean (share of runs that found a feasible solution)' : 'median (IQR)';
  const caption =
    `${escapeLatex(data.experiment.name)}: ${escapeLatex(metricTitle(table.metric))}, ${stat}, ${table.higherIsBetter ? 'higher' : 'lower'} is better. ` +
    `Bold: best of the row. $^{+}$/$^{-}$/$^{=}$: better, worse, or not significantly different from ${escapeLatex(data.baseline)} ` +
    `(Mann-Whitney U, Holm-corrected over the comparisons with ${escapeLatex(data.baseline)}, $\\alpha = ${data.significance}$).` +
    (table.friedman ? ' Last row: Friedman average ranks (1 = best).' : '') +
    (table.fewRuns ? ` ${escapeLatex(table.fewRuns)}` : '');
  const lines = [
    `% ${escapeLatex(data.experiment.name)}: ${escapeLatex(table.metric)} (Saikoro report; needs \\usepackage{booktabs})`,
    '\\begin{table}[htbp]',
    '\\centering',
    '\\small',
    `\\caption{${caption}}`,
    `\\label{tab:${labelPart(data.experiment.name)}-${labelPart(table.metric)}}`,
    `\\begin{tabular}{l${'r'.repeat(solvers.length)}}`,
    '\\toprule',
    `Instance & ${solvers.map(escapeLatex).join(' & ')} \\\\`,
    '\\midrule',
    ...table.rows.map((row) => `${escapeLatex(row.instance)} & ${row.cells.map((c) => cellText(c, table.aggregate)).join(' & ')} \\\\`),
  ];
  if (table.friedman) {
    const f = table.friedman;
    const bestRank = Math.min(...f.ranks.map((r) => r.averageRank));
    lines.push(
      '\\midrule',
      `Friedman rank & ${solvers
        .map((s) => {
          const r = f.ranks.find((x) => x.solver === s)!.averageRank;
          return r === bestRank ? `\\textbf{${latexValue(r)}}` : latexValue(r);
        })
        .join(' & ')} \\\\`,
    );
  }
  lines.push('\\bottomrule', '\\end{tabular}', '\\end{table}');
  return lines.join('\n');
}

export function renderLatex(data: ReportData, options: { standalone?: boolean } = {}): string {
  const tables = data.tables.map((t) => tableOf(t, data)).join('\n\n');
  if (!options.standalone) return tables + '\n';
  return ['\\documentclass{article}', '\\usepackage[T1]{fontenc}', '\\usepackage{booktabs}', '\\begin{document}', tables, '\\end{document}', ''].join('\n');
}
