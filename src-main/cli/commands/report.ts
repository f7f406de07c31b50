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
import { ChromiumNotFoundError, findChromium, renderPdf } from '../../report/pdf.ts';
import { openProject } from './project.ts';


/** The format an --out file's ending chooses. */
function formatOfPath(file: string): ReportFormatName | undefined {
  const extension = path.extname(file).toLowerCase();
  return REPORT_FORMAT_NAMES.find((f) => (REPORT_FORMATS[f].extensions as readonly string[]).includes(extension));
}

function isDirectory(file: string): boolean {
  try {
    return fs.statSync(file).isDirectory();
  } catch {
    return false;
  }
}

/** Refuses, before any work, a target whose directory is missing or not writable, or that is a directory. */
function checkWritable(target: string, shown: string): void {
  if (isDirectory(target)) throw new InputError(`--out ${shown}: is a directory`);
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
    let format: ReportFormatName;
    if (values.format !== undefined) {
      if (!isReportFormatName(values.format)) throw new UsageError(`--format: must be one of ${REPORT_FORMAT_NAMES.join(', ')}, got "${values.format}"`);
      format = values.format;
    } else format = (out && formatOfPath(out)) || 'html';
    if ((format === 'csv' || format === 'pdf') && !out) throw new UsageError(`--format ${format} needs --out PATH`);
    if (values.standalone && format !== 'latex') throw new UsageError('--standalone is for --format latex');
    if (values.chromium !== undefined && format !== 'pdf') throw new UsageError('--chromium is for --format pdf');
    const metrics = (values.metric ?? []).flatMap((m) => m.split(',')).map((m) => m.trim()).filter((m) => m !== '');
    for (const m of metrics) if (!(METRICS as readonly string[]).includes(m)) throw new UsageError(`--metric: must be one of ${METRICS.join(', ')}, got "${m}"`);

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
      for (const t of targets) checkWritable(t.path, t.shown);
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
    write(targets, contents);
    targets.forEach((t, i) => {
      writeLine(io.stderr, `report: wrote ${t.shown} (${format}, ${Buffer.byteLength(contents[i]).toLocaleString('en-US')} bytes)`);
    });
    return 0;
  },
};
