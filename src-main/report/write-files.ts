/**
 * Writes report files whole or not at all. Each file goes to a temporary name beside its target
 * (`.NAME.<pid>.tmp`, so the rename stays on one file system) and is flushed to disk; only when
 * every file is written are they renamed into place. A write that fails (a full disk) removes
 * the temporary files: no empty or cut-short report is left behind, and a report already at a
 * target is kept as it was.
 */
import fs from 'node:fs';
import path from 'node:path';

/** A failed write: which file (index into the list) and the error code. */
export class WriteFilesError extends Error {
  constructor(
    readonly index: number,
    readonly code: string | undefined,
    message: string,
  ) {
    super(message);
    this.name = 'WriteFilesError';
  }
}

function temporaryName(target: string): string {
  return path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.tmp`);
}

function writeWhole(file: string, content: string | Buffer): void {
  const bytes = typeof content === 'string' ? Buffer.from(content) : content;
  const fd = fs.openSync(file, 'wx');
  try {
    for (let at = 0; at < bytes.length; ) at += fs.writeSync(fd, bytes, at, bytes.length - at);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

export function writeFilesAtomically(files: readonly { path: string; content: string | Buffer }[]): void {
  const temporary: string[] = [];
  const removeTemporary = () => {
    for (const t of temporary) fs.rmSync(t, { force: true });
  };
  files.forEach((f, i) => {
    const tmp = temporaryName(f.path);
    try {
      // A temporary file left by a killed earlier run of this pid is not ours to keep.
      fs.rmSync(tmp, { force: true });
      temporary.push(tmp);
      writeWhole(tmp, f.content);
    } catch (e) {
      removeTemporary();
      throw new WriteFilesError(i, (e as NodeJS.ErrnoException).code, (e as Error).message);
    }
  });
  files.forEach((f, i) => {
    try {
      fs.renameSync(temporary[i], f.path);
    } catch (e) {
      for (const t of temporary.slice(i)) fs.rmSync(t, { force: true });
      throw new WriteFilesError(i, (e as NodeJS.ErrnoException).code, (e as Error).message);
    }
  });
}
