/**
 * How the store fails: a ProjectError naming the file and the reason in words, never a Node
 * message that repeats a 300-character path, nor an SQLite or JSON stack trace. A write that
 * fails for lack of space is reported as "disk full", with what is stored kept.
 */
import fs from 'node:fs';
import path from 'node:path';

/** A project file that cannot be used; the message names the file and the reason. */
export class ProjectError extends Error {
  constructor(
    message: string,
    /** The file, as the store was given it (absolute when the CLI opened it). */
    readonly file?: string,
  ) {
    super(message);
    this.name = 'ProjectError';
  }
}

export function errnoCode(e: unknown): string | undefined {
  return (e as NodeJS.ErrnoException | null)?.code;
}

/** Error codes in words (Node's own messages repeat the path, which may be 300 characters). */
export const CODE_WORDS: Record<string, string> = {
  ENOENT: 'no such file or folder',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'read-only file system',
  ENOSPC: 'the disk is full',
  ENAMETOOLONG: 'file name too long',
  ENOTDIR: 'a part of the path is not a directory',
  ELOOP: 'too many levels of symbolic links',
  EISDIR: 'is a directory',
};

/** Why a file could not be opened, in words, from the error code (Node's message repeats the path). */
export function openFailure(file: string, e: unknown): ProjectError {
  const code = errnoCode(e);
  const reason =
    code === 'ENOENT'
      ? `no such file (create one with: saikoro project new ${file})`
      : code === 'EISDIR'
        ? 'is a directory, not a project file'
        : code === 'EACCES' || code === 'EPERM'
          ? 'permission denied'
          : code === 'ENAMETOOLONG'
            ? 'file name too long'
            : code === 'ELOOP'
              ? 'too many levels of symbolic links'
              : code === 'ENOTDIR'
                ? 'a part of the path is not a directory'
                : code === 'ENXIO'
                  ? 'not a regular file (a socket or device), not a project file'
                  : `cannot open (${code ?? (e as Error).message})`;
  return new ProjectError(`${file}: ${reason}`, file);
}

export function isSqliteError(e: unknown): e is Error {
  return e instanceof Error && e.name === 'SQLite3Error';
}

export function sqliteMessage(file: string, e: unknown): ProjectError {
  const message = e instanceof Error ? e.message : String(e);
  if (/malformed|not a database|corrupt|no such table|no such column/i.test(message))
    return new ProjectError(`${file}: corrupt Saikoro project (${message})`, file);
  if (/locked/i.test(message)) return new ProjectError(`${file}: in use by another process for too long (${message})`, file);
  return new ProjectError(`${file}: cannot be read (${message})`, file);
}

/** Free bytes for unprivileged users on the file system holding `file`, or null. */
function freeBytes(file: string): number | null {
  try {
    const s = fs.statfsSync(path.dirname(file));
    return s.bavail * s.bsize;
  } catch {
    return null;
  }
}

/** A failed write: SQLite only says "disk I/O error" when the disk is full (the VFS hides ENOSPC). */
export function writeFailure(file: string, e: unknown): ProjectError {
  const message = e instanceof Error ? e.message : String(e);
  const free = freeBytes(file);
  if (/full/i.test(message) || (/I\/O error/i.test(message) && free !== null && free < 1024 * 1024))
    return new ProjectError(`${file}: could not write: the disk is full${free === null ? '' : ` (${free} bytes free)`}; nothing already stored was lost`, file);
  if (/I\/O error/i.test(message))
    return new ProjectError(`${file}: could not write (${message}); the disk may be full or failing; nothing already stored was lost`, file);
  return sqliteMessage(file, e);
}
