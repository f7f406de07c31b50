/**
 * What may be written over: the one rule for every file the user names for Saikoro to write
 * (`report --out`, `solve --out`, the app's exports), checked before the work and again just
 * before the write.
 *
 * - A Saikoro project is never replaced, whatever the flags: a report over `study.saikoro`
 *   would lose every run in it.
 * - A FIFO, a socket or a device is never replaced by a regular file (nor written into: a
 *   report goes to stdout when no --out is given).
 * - A directory is not a file to write.
 * - Any other existing file is replaced only when it is an output Saikoro wrote (a report in any
 *   format, or a `solve --out` result), recognised by its first bytes, or when the user says so
 *   (`--force`, or the app's save dialog, which asks before it replaces a file). A spec, a
 *   paper or a notes file named by mistake stays as it was.
 */
import fs from 'node:fs';
import { APPLICATION_ID } from '../project/schema.ts';

/** What sits at a path, as far as writing over it goes. */
export type TargetKind =
  | { kind: 'missing' }
  | { kind: 'directory' }
  /** A FIFO, socket or device: what fileKind names. */
  | { kind: 'special'; what: string }
  | { kind: 'project' }
  /** A file Saikoro wrote: which output it is. */
  | { kind: 'saikoro-output'; what: string }
  | { kind: 'other' };

/** How much of a file is read to recognise it: every marker sits in its first bytes. */
const HEAD_BYTES = 64 * 1024;

const SQLITE_MAGIC = 'SQLite format 3\0';

/**
 * The first bytes of each output Saikoro writes (src-main/report/*.ts, `solve --out`). An
 * experiment's name is 1-64 characters of letters, digits and . _ + -, so it needs no escaping
 * in any of them.
 */
const MARKERS: { what: string; test: (head: string) => boolean }[] = [
  // html.ts: <meta name="generator" content="saikoro 0.1.0"> and <title>NAME: Saikoro report</title>
  {
    what: 'an HTML report',
    test: (h) => /^<!doctype html>/i.test(h) && /<meta name="generator" content="saikoro [^"]*">/.test(h) && /<title>[^<]*: Saikoro report<\/title>/.test(h),
  },
  // json.ts: ReportData, whose first field is "format": "saikoro-report"
  { what: 'a JSON report', test: (h) => /^\{\s*"format":\s*"saikoro-report",/.test(h) },
  // csv.ts: the header rows of the runs and solutions files
  {
    what: 'a CSV report',
    test: (h) => h.startsWith('run,instance,solver,solver_name,seed,status,') || h.startsWith('run,instance,solver,seed,kind,sequence,'),
  },
  // latex.ts: every table starts with "% NAME: METRIC (Saikoro report; needs \usepackage{booktabs})"
  { what: 'a LaTeX report', test: (h) => /^% [A-Za-z0-9][\w.+-]*: .* \(Saikoro report; needs \\usepackage\{booktabs\}\)$/m.test(h) },
  // The HTML report printed by Chromium (pdf.ts) or Electron: Skia keeps the page's title.
  {
    what: 'a PDF report',
    test: (h) => h.startsWith('%PDF-') && /\/Title \([A-Za-z0-9][\w.+-]*: Saikoro report\)/.test(h) && h.includes('/Producer (Skia/PDF'),
  },
  // competition-render.ts: the standings page, the standings CSV, the ECDF CSV, the LaTeX table; competition.ts's JSON
  {
    what: 'an HTML competition report',
    test: (h) =>
      /^<!doctype html>/i.test(h) && /<meta name="generator" content="saikoro [^"]*">/.test(h) && /<title>[^<]*: competition standings<\/title>/.test(h),
  },
  { what: 'a CSV of competition standings', test: (h) => h.startsWith('rank,entrant,score,') },
  { what: 'a CSV of runtime ECDFs', test: (h) => h.startsWith('group,solver,evaluations,fraction,reached,pairs') },
  { what: 'a LaTeX competition report', test: (h) => /^% [^\n]*: standings \(Saikoro competition report; needs \\usepackage\{booktabs\}\)$/m.test(h) },
  { what: 'a JSON competition report', test: (h) => /^\{\s*"format":\s*"saikoro-competition",/.test(h) },
  // solve.ts --out: JSON.stringify(record, null, 2), whose first fields are solver and track
  { what: 'a result of saikoro solve', test: (h) => /^\{\n {2}"solver": "[^"\n]*",\n {2}"track": /.test(h) },
];

function specialKind(stat: fs.Stats): string {
  if (stat.isFIFO()) return 'a FIFO';
  if (stat.isSocket()) return 'a socket';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

/**
 * What is at `file` now (a symbolic link is followed: what it points to is what a write would
 * change for the user). Reads at most the first 64 kB, and nothing of anything but a regular
 * file (a FIFO is opened without waiting for a writer, and not read).
 */
export function targetKind(file: string): TargetKind {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
    if (code === 'EISDIR') return { kind: 'directory' };
    // A device or socket that cannot be opened, or a file that cannot be read: judged by its stat.
    let stat: fs.Stats | undefined;
    try {
      stat = fs.statSync(file);
    } catch {
      // Gone meanwhile, or a path that cannot be looked at: the write will say why it fails.
      return { kind: 'missing' };
    }
    if (stat.isDirectory()) return { kind: 'directory' };
    if (!stat.isFile()) return { kind: 'special', what: specialKind(stat) };
    // A file that cannot be read (no permission): not known to be Saikoro's.
    return { kind: 'other' };
  }
  try {
    const stat = fs.fstatSync(fd);
    if (stat.isDirectory()) return { kind: 'directory' };
    if (!stat.isFile()) return { kind: 'special', what: specialKind(stat) };
    const head = Buffer.alloc(Math.min(HEAD_BYTES, stat.size));
    let read = 0;
    while (read < head.length) {
      const n = fs.readSync(fd, head, read, head.length - read, read);
      if (n === 0) break;
      read += n;
    }
    const bytes = head.subarray(0, read);
    if (bytes.length >= 72 && bytes.toString('latin1', 0, 16) === SQLITE_MAGIC && bytes.readUInt32BE(68) === APPLICATION_ID) return { kind: 'project' };
    const text = bytes.toString('latin1');
    for (const m of MARKERS) if (m.test(text)) return { kind: 'saikoro-output', what: m.what };
    return { kind: 'other' };
  } catch {
    return { kind: 'other' };
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Why `file` may not be written, or null when it may: it does not exist, it is an output
 * Saikoro wrote, or it is another regular file and `force` is set. `shown` is the path as the
 * user wrote it. The reasons are sentences without the path's prefix: callers put "--out PATH: "
 * (or the dialog's wording) before them.
 */
export function refusalToWrite(file: string, options: { force?: boolean; forceHint?: string } = {}): string | null {
  const at = targetKind(file);
  switch (at.kind) {
    case 'missing':
    case 'saikoro-output':
      return null;
    case 'directory':
      return 'is a directory';
    case 'special':
      return `is ${at.what}, not a regular file: not replaced`;
    case 'project':
      return 'is a Saikoro project: a project is never replaced by an output (choose another name)';
    case 'other':
      return options.force ? null : `exists and is not a file Saikoro wrote: not replaced (${options.forceHint ?? '--force replaces it'})`;
  }
}
