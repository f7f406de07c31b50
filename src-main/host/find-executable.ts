/**
 * The executable a command's first word names, found as spawn finds it: a word with a slash is
 * a path from the working directory; another is looked for in each folder of a PATH. The
 * program gate (src-main/app/program-gate.ts) resolves what will run with it, and the spawn
 * (program-process.ts) a command the gate did not resolve (tests, benchmarks).
 */
import fs from 'node:fs';
import path from 'node:path';

function isExecutableFile(file: string): boolean {
  try {
    if (!fs.statSync(file).isFile()) return false;
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The executable `word` names, from `cwd` with this PATH (absolute; null: not found). */
export function findExecutable(word: string, cwd: string, pathVariable: string | undefined): string | null {
  if (word.includes('/') || (process.platform === 'win32' && word.includes('\\'))) {
    const full = path.resolve(cwd, word);
    return isExecutableFile(full) ? full : null;
  }
  for (const dir of (pathVariable ?? '').split(path.delimiter)) {
    if (dir === '') continue;
    const full = path.resolve(cwd, dir, word);
    if (isExecutableFile(full)) return full;
  }
  return null;
}
