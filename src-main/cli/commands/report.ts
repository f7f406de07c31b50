import fs from 'node:fs';
import path from 'node:path';
import { InputError, parseCommandArgs, UsageError, visibleControls, writeLine, type Command } from '../command.ts';
import { reportHelp } from './report.help.ts';
import { METRICS } from '../../../src-shared/experiments/compare.ts';
import { isReportFormatName, REPORT_FORMAT_NAMES, REPORT_FORMATS, type ReportFormatName } from '../../../src-shared/projects/project-api.ts';
import { buildReport, ReportError } from '../../report/build.ts';
import { csvPaths, renderCsv } from '../../report/csv.ts';
import { renderHtml } from '../../report/html.ts';
import { renderJson } from '../../report/json.ts';
import { renderLatex } from '../../report/latex.ts';
import { WriteFilesError, writeFilesAtomically } from '../../report/write-files.ts';
import { refusalToWrite } from '../../report/output-target.ts';
import { ChromiumNotFoundError, findChromium, renderPdf } from '../../report/pdf.ts';
import { openProject } from './project.ts';

/** Every ending --out may have, and the format each chooses. */
const KNOWN_EXTENSIONS = REPORT_FORMAT_NAMES.flatMap((f) => REPORT_FORMATS[f].extensions as readonly string[]);

/** The format an --out file's ending chooses; undefined for no ending. A usage error for an ending no format has. */
function formatOfPath(file: string, format: ReportFormatName | undefined): ReportFormatName | undefined {
  const extension = path.extname(file).toLowerCase();
  if (extension === '') return undefined;
  const chosen = REPORT_FORMAT_NAMES.find((f) => (REPORT_FORMATS[f].extensions as readonly string[]).includes(extension));
  if (!chosen) throw new UsageError(`--out ${file}: a report cannot be a "${path.extname(file)}" file; the endings are ${KNOWN_EXTENSIONS.join(' ')}`);
  if (format !== undefined && chosen !== format)
    throw new UsageError(
      `--out ${file}: "${path.extname(file)}" is the ending of ${chosen}, not of --format ${format} (use ${REPORT_FORMATS[format].extensions.join(' or ')})`,
    );
  return chosen;
}

function isDirectory(file: string): boolean {
  try {
    return fs.statSync(file).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Refuses a target that may not be written (output-target.ts: a project, a FIFO or device, a
 * directory, a file Saikoro did not write without --force), or whose directory is missing or
 * not writable. Checked before the work and again just before the write.
 */
function checkWritable(target: string, shown: string, force: boolean): void {
  const refusal = refusalToWrite(target, { force });
  if (refusal)
    throw new InputError(
      `--out ${shown}: ${refusal}${refusal.startsWith('is a FIFO') || refusal.startsWith('is a socket') || refusal.startsWith('is a device') ? ' (without --out, html, json and latex go to stdout)' : ''}; nothing was written`,
    );
  const dir = path.dirname(target);
  if (!isDirectory(dir)) throw new InputError(`--out ${shown}: cannot write there: no directory ${path.dirname(shown)}`);
  try {
    fs.accessSync(dir, fs.constants.W_OK);
    if (fs.existsSync(target)) fs.accessSync(target, fs.constants.W_OK);
  } catch (e) {
    throw new InputError(`--out ${shown}: cannot write there (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
}

/** Writes every target whole or none (write-files.ts); a failure names the file and the reason. */
function write(targets: readonly { path: string; shown: string }[], contents: readonly (string | Buffer)[]): void {
  try {
    writeFilesAtomically(targets.map((t, i) => ({ path: t.path, content: contents[i] })));
  } catch (e) {
    if (!(e instanceof WriteFilesError)) throw e;
    const shown = targets[e.index].shown;
    if (e.code === 'ENOSPC') throw new InputError(`--out ${shown}: cannot write: the disk is full; nothing was written`);
    throw new InputError(`--out ${shown}: cannot write (${e.code ?? e.message}); nothing was written`);
  }
}

export const reportCommand: Command = {
  name: 'report',
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(argv, reportHelp);
    const [file, name, ...extra] = positionals;
    if (!file) throw new UsageError('missing FILE');
    if (!name) throw new UsageError('missing EXPERIMENT');
    if (extra.length) throw new UsageError(`unexpected argument "${extra[0]}"`);
    const out = values.out;
    if (out === '') throw new UsageError('--out: needs a path');
    if (values.format !== undefined && !isReportFormatName(values.format))
      throw new UsageError(`--format: must be one of ${REPORT_FORMAT_NAMES.join(', ')}, got "${values.format}"`);
    const asked = values.format as ReportFormatName | undefined;
    // A folder (for CSV's two files) has no ending to check.
    const outIsFolder = out !== undefined && (isDirectory(path.resolve(io.cwd, out)) || /[\\/]$/.test(out));
    const format: ReportFormatName = (out && !outIsFolder ? formatOfPath(out, asked) : undefined) ?? asked ?? 'html';
    const force = values.force === true;
    if (force && out === undefined) throw new UsageError('--force goes with --out');
    if ((format === 'csv' || format === 'pdf') && !out) throw new UsageError(`--format ${format} needs --out PATH`);
    if (values.standalone && format !== 'latex') throw new UsageError('--standalone is for --format latex');
    if (values.chromium !== undefined && format !== 'pdf') throw new UsageError('--chromium is for --format pdf');
    const metrics = (values.metric ?? [])
      .flatMap((m) => m.split(','))
      .map((m) => m.trim())
      .filter((m) => m !== '');
    for (const m of metrics)
      if (!(METRICS as readonly string[]).includes(m)) throw new UsageError(`--metric: must be one of ${METRICS.join(', ')}, got "${m}"`);

    let chromiumPath: string | undefined;
    if (format === 'pdf') {
      try {
        chromiumPath = findChromium(values.chromium === undefined ? undefined : path.resolve(io.cwd, values.chromium));
      } catch (e) {
        if (e instanceof ChromiumNotFoundError) throw new InputError(e.message.replace(path.resolve(io.cwd, values.chromium ?? ''), values.chromium ?? ''));
        throw e;
      }
    }
    // The targets, checked before the (possibly long) work.
    const resolved = out === undefined ? undefined : path.resolve(io.cwd, out);
    let targets: { path: string; shown: string }[] = [];
    if (out !== undefined && resolved !== undefined) {
      if (format === 'csv') {
        const dir = isDirectory(resolved);
        const shown = csvPaths(out, name, dir);
        const full = csvPaths(resolved, name, dir);
        targets = [
          { path: full.runs, shown: shown.runs },
          { path: full.solutions, shown: shown.solutions },
        ];
      } else targets = [{ path: resolved, shown: out }];
      for (const t of targets) checkWritable(t.path, t.shown, force);
    }

    const project = openProject(file, io, { readOnly: true });
    let data;
    try {
      data = buildReport(project, name, { metrics, baseline: values.baseline });
    } catch (e) {
      if (e instanceof ReportError) throw e.kind === 'usage' ? new UsageError(e.message) : new InputError(e.message);
      throw e;
    } finally {
      project.close();
    }

    let contents: (string | Buffer)[];
    if (format === 'csv') {
      const csv = renderCsv(data);
      contents = [csv.runs, csv.solutions];
    } else if (format === 'json') contents = [renderJson(data)];
    else if (format === 'latex') contents = [renderLatex(data, { standalone: values.standalone })];
    else if (format === 'html') contents = [renderHtml(data)];
    else {
      try {
        contents = [await renderPdf(renderHtml(data), { chromiumPath })];
      } catch (e) {
        if (e instanceof ChromiumNotFoundError) throw new InputError(e.message);
        throw e;
      }
    }

    if (!targets.length) {
      // As every line the CLI prints: no raw control character reaches a terminal (a JSON
      // report keeps its meaning: C1 characters become \u escapes).
      io.stdout.write(typeof contents[0] === 'string' ? visibleControls(contents[0]) : contents[0]);
      return 0;
    }
    // Checked again: the work may have taken a while, and the files may have changed meanwhile.
    for (const t of targets) checkWritable(t.path, t.shown, force);
    write(targets, contents);
    targets.forEach((t, i) => {
      writeLine(io.stderr, `report: wrote ${t.shown} (${format}, ${Buffer.byteLength(contents[i]).toLocaleString('en-US')} bytes)`);
    });
    return 0;
  },
};
