/**
 * The report page the desktop app prints to PDF, as a temporary file (no electron import, so
 * tests can check it; src-main/electron/main.ts loads the file in a hidden window).
 *
 * Not a data: URL: Chromium refuses URLs longer than 2 MB, and the report of a large
 * experiment is longer (6,000 runs give 6.8 MB of HTML). Each print writes its page to a
 * fresh folder of its own (mkdtemp, readable by the user only), hands the file's URL to the
 * printer, and removes the folder when the printer is done, whether it succeeded or not.
 * While a print goes on, its hidden window may load that file and data: URLs (the report's
 * images) and nothing else, and may navigate nowhere else. A print cut short by a crash
 * leaves its folder behind: the next start removes such folders (removeStale).
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The longest URL Chromium loads (url::kMaxURLChars, 2 MB). */
export const CHROMIUM_MAX_URL_LENGTH = 2 * 1024 * 1024;

const FOLDER_PREFIX = 'saikoro-print-';

export class PrintFiles {
  /** The files of the prints going on now. */
  private readonly active = new Set<string>();

  constructor(private readonly tmpRoot: string = os.tmpdir()) {}

  /** Writes `html` to a temporary file, runs `printer` on its URL, and removes the file after. */
  async print<T>(html: string, printer: (fileUrl: string) => Promise<T>): Promise<T> {
    const dir = await fs.mkdtemp(path.join(this.tmpRoot, FOLDER_PREFIX));
    const file = path.join(dir, 'report.html');
    try {
      await fs.writeFile(file, html, { encoding: 'utf8', mode: 0o600 });
      this.active.add(file);
      return await printer(pathToFileURL(file).href);
    } finally {
      this.active.delete(file);
      await fs.rm(dir, { recursive: true, force: true });
    }
  }

  /**
   * Removes print folders older than `maxAgeMs` that this user owns (left by a print the app
   * did not live to finish; a print takes seconds); answers how many.
   */
  async removeStale(maxAgeMs = 60 * 60 * 1000, now = Date.now()): Promise<number> {
    let names: string[];
    try {
      names = await fs.readdir(this.tmpRoot);
    } catch {
      return 0;
    }
    let removed = 0;
    for (const name of names) {
      if (!name.startsWith(FOLDER_PREFIX)) continue;
      const dir = path.join(this.tmpRoot, name);
      try {
        const stat = await fs.lstat(dir);
        if (!stat.isDirectory() || (process.getuid && stat.uid !== process.getuid()) || now - stat.mtimeMs < maxAgeMs) continue;
        await fs.rm(dir, { recursive: true, force: true });
        removed++;
      } catch {
        // gone meanwhile, or not ours to remove
      }
    }
    return removed;
  }

  /** Whether the print windows may load `url`: a page being printed, or a data: URL (an image of the report). */
  requestAllowed(url: string): boolean {
    return url.startsWith('data:') || this.isActiveFile(url);
  }

  /** Whether a print window may navigate to `url`: only to a page being printed, in its top frame (a report has no frames). */
  navigationAllowed(url: string | undefined, isMainFrame: boolean): boolean {
    return isMainFrame && url !== undefined && this.isActiveFile(url);
  }

  /** Whether a URL names the file of a print going on, however Chromium spells it (percent-encoding, localhost, a #fragment). */
  private isActiveFile(url: string): boolean {
    if (!url.startsWith('file:')) return false;
    try {
      const u = new URL(url);
      if (u.search !== '') return false;
      return this.active.has(fileURLToPath(u));
    } catch {
      return false;
    }
  }
}
