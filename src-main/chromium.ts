/**
 * The headless Chromium that the PDF report, the Pareto benchmark and the browser tests drive
 * through playwright-core: where Debian puts it, and the flags it is started with.
 */
import fs from 'node:fs';

/** Where Chromium is looked for when no path is given (Debian's package). */
export const SYSTEM_CHROMIUM = '/usr/bin/chromium';

/** Flags for a headless Chromium as root in a container, with no background traffic. */
export const CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** Whether `file` is an executable regular file. */
export function isExecutableFile(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}
