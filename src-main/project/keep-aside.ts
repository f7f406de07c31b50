/**
 * Keeping a file aside instead of deleting it: recovery at open (journal.ts, lock.ts) renames
 * a sidecar it cannot use (a journal that is not one, a stale lock directory with something in
 * it) to NAME.kept-<UTC time>, so nothing that was beside a project is ever lost to recovery.
 */
import fs from 'node:fs';
import path from 'node:path';

/** What the kept-aside name adds to a sidecar's name at most (".kept-YYYYMMDDTHHMMSSZ-99"). */
export const KEPT_SUFFIX_BYTES = '.kept-'.length + 'YYYYMMDDTHHMMSSZ'.length + '-99'.length;

/** Renames `file` (a file or a directory) to a free NAME.kept-<time>; returns the new base name. */
export function keepAside(file: string, now = new Date()): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  for (let k = 1; k < 100; k++) {
    const aside = `${file}.kept-${stamp}${k === 1 ? '' : `-${k}`}`;
    // Not renameSync alone: it would replace an existing file, or an empty directory.
    if (fs.existsSync(aside)) continue;
    fs.renameSync(file, aside);
    return path.basename(aside);
  }
  throw new Error(`${file}: no free name to keep it aside under`);
}
