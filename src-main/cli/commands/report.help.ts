import type { CommandHelp } from '../command.ts';
import { REPORT_FORMAT_NAMES, REPORT_FORMATS } from '../../../src-shared/projects/project-api.ts';

/** `saikoro report --help`, and the options it parses (see CommandHelp). */
export const reportHelp = {
  usage: [
    `Usage: saikoro report FILE EXPERIMENT [--format ${REPORT_FORMAT_NAMES.join('|')}] [--out PATH [--force]]`,
    '                      [--metric M[,M...]] [--baseline SOLVER] [--chromium PATH] [--standalone]',
    '',
    'Writes a report of an experiment (saikoro help reports):',
    '  html   one self-contained page: setup, results tables (median (IQR), +/-/= against the',
    '         baseline, A12, Friedman ranks), SVG charts, the best sequences, the failed runs',
    '  csv    two files, runs and solutions (RFC 4180); needs --out: PATH-runs.csv and',
    '         PATH-solutions.csv (a trailing .csv of PATH dropped), or EXPERIMENT-runs.csv and',
    '         EXPERIMENT-solutions.csv inside PATH when PATH is a directory',
    '  json   everything the tables and charts are made from (docs/report.schema.json)',
    '  latex  the results tables with booktabs (--standalone: a whole document)',
    '  pdf    the HTML report printed by Chromium; needs --out',
    '',
    'Options:',
    `  --format F       default: from the extension of --out (${REPORT_FORMAT_NAMES.map((f) => REPORT_FORMATS[f].extensions[0]).join(' ')}), else html`,
    '  --out PATH       where to write; html, json and latex go to stdout without it. Its ending',
    `                   must be one of the formats' (${REPORT_FORMAT_NAMES.flatMap((f) => REPORT_FORMATS[f].extensions).join(' ')}). An existing file`,
    '                   is replaced only when it is a report Saikoro wrote; a project, a FIFO or a',
    '                   device never is',
    '  --force          replace an existing file at --out that is not a report Saikoro wrote',
    '  --metric M       indicators, as for saikoro compare: hv, igd+, epsilon, spacing, feasibility, best;',
    '                   repeat it or separate with commas (default: best, hv, igd+, feasibility,',
    '                   those that apply to some instance)',
    "  --baseline S     solver label the +/-/= marks compare against (default: the spec's first)",
    '  --chromium PATH  the Chromium that prints the PDF (default: /usr/bin/chromium)',
    '  --standalone     latex: a whole document instead of the tables alone',
  ].join('\n'),
  options: {
    format: { type: 'string' },
    out: { type: 'string' },
    metric: { type: 'string', multiple: true },
    baseline: { type: 'string' },
    chromium: { type: 'string' },
    standalone: { type: 'boolean' },
    force: { type: 'boolean' },
  },
  positionals: true,
} satisfies CommandHelp;
