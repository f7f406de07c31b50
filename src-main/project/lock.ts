/**
 * Recovery of the lock that node-sqlite3-wasm leaves behind when a process dies inside a
 * transaction: its VFS locks FILE by creating the directory FILE.lock, so a kill -9 at the
 * wrong moment leaves that directory and every later open fails with "database is locked".
 *
 * Every Saikoro connection announces itself with an empty marker file
 * `FILE.open.<host>.<pid>` for as long as it is open. At open, a FILE.lock with no live
 * marker beside it (other than our own) belongs to a dead process and is removed; SQLite then
 * finds the hot journal and rolls the interrupted transaction back.
 *
 * Nothing else is deleted: a stale lock directory with something in it is kept aside under a
 * new name (keep-aside.ts) and reported; a file named like a marker that is not an empty file
 * is not a marker and is left alone; a FILE.lock that is not a directory is not a lock at all
 * (every open would wait for it in vain) and is refused at once with its name (NotALockError).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { keepAside } from './keep-aside.ts';

/** FILE.lock exists but is not a directory, so it is not SQLite's lock: nobody could ever take the lock. */
export class NotALockError extends Error {
  constructor(
    readonly file: string,
    readonly what: string,
  ) {
    super(`${path.basename(file)}.lock is ${what}, not a lock (SQLite locks the project by creating a directory of that name); move it away, then try again`);
    this.name = 'NotALockError';
  }
}

/** Throws NotALockError when FILE.lock exists and is not a directory. */
export function checkLockKind(file: string): void {
  let stat: fs.Stats | undefined;
  try {
    stat = fs.lstatSync(`${file}.lock`, { throwIfNoEntry: false });
  } catch {
    return;
  }
  if (!stat || stat.isDirectory()) return;
  throw new NotALockError(file, stat.isSymbolicLink() ? 'a symbolic link' : stat.isFile() ? 'a file' : 'not a directory');
}

function markerPrefix(file: string): string {
  return `${path.basename(file)}.open.`;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

interface Marker {
  file: string;
  host: string;
  pid: number;
}

function markers(file: string): Marker[] {
  const dir = path.dirname(file);
  const prefix = markerPrefix(file);
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const out: Marker[] = [];
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    // A marker is an empty regular file; anything else under such a name is not ours.
    try {
      const stat = fs.lstatSync(path.join(dir, name));
      if (!stat.isFile() || stat.size !== 0) continue;
    } catch {
      continue;
    }
    const rest = name.slice(prefix.length);
    const dot = rest.lastIndexOf('.');
    const pid = Number(rest.slice(dot + 1));
    if (dot < 0 || !Number.isInteger(pid)) continue;
    out.push({ file: path.join(dir, name), host: rest.slice(0, dot), pid });
  }
  return out;
}

/** Another live process on this host, or any process on another host (which we cannot check). */
function isLiveOther(marker: Marker): boolean {
  if (marker.host !== os.hostname()) return true;
  return marker.pid !== process.pid && processAlive(marker.pid);
}

/** Removes markers of dead local processes; returns whether another live process has the file open. */
function cleanMarkers(file: string): boolean {
  let liveOther = false;
  for (const marker of markers(file)) {
    if (isLiveOther(marker)) liveOther = true;
    else if (marker.pid !== process.pid || marker.host !== os.hostname()) fs.rmSync(marker.file, { force: true });
  }
  return liveOther;
}

/** Reports what recovery did beside the file (a sidecar kept aside). */
export type RecoveryNotice = (message: string) => void;

/**
 * Clears a stale lock directory: an empty one (what a killed writer leaves) is removed, one
 * with anything in it is kept aside and reported.
 */
function removeLockDir(file: string, notice: RecoveryNotice): void {
  try {
    fs.rmdirSync(`${file}.lock`);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOTEMPTY' || code === 'EEXIST') {
      const entries = fs.readdirSync(`${file}.lock`).length;
      const aside = keepAside(`${file}.lock`);
      notice(`${file}.lock: a lock directory left by a process that has ended, with ${entries} file(s) in it; kept aside as ${aside}`);
      return;
    }
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw e;
  }
}

/** The lock taken by withFileLock is our own, made a moment ago: it is empty. */
function releaseLockDir(file: string): void {
  try {
    fs.rmdirSync(`${file}.lock`);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
}

/**
 * Runs fn holding FILE.lock the way the VFS takes it (mkdir), so that no connection anywhere
 * is inside a transaction meanwhile. Returns false, without running fn, if the lock is taken.
 */
function withFileLock(file: string, fn: () => void): boolean {
  try {
    fs.mkdirSync(`${file}.lock`);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    // EEXIST: taken. EACCES / EROFS / EPERM: a read-only place, where nobody can have written.
    if (code === 'EEXIST' || code === 'EACCES' || code === 'EROFS' || code === 'EPERM') return false;
    throw e;
  }
  try {
    fn();
  } finally {
    releaseLockDir(file);
  }
  return true;
}

function exists(p: string): boolean {
  try {
    fs.lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

/**
 * Before opening: clears a lock left by a dead process (one with no live marker beside it),
 * then, holding the lock, runs `recover` (the hot-journal rollback). If a live process holds
 * the lock, recovery is skipped: any journal is that process's transaction in progress.
 * The lock is only taken when there is a journal to play back: an ordinary open takes no
 * lock of its own here (the store opens a file in a read-only place without calling this).
 */
export function recoverAtOpen(file: string, recover: () => void, notice: RecoveryNotice = () => {}): void {
  checkLockKind(file);
  const liveOther = cleanMarkers(file);
  if (!liveOther && exists(`${file}.lock`)) removeLockDir(file, notice);
  if (exists(`${file}-journal`)) withFileLock(file, recover);
}

/** Inode and mtime of FILE.lock, or null: the same value twice means the same lock holder. */
export function lockIdentity(file: string): string | null {
  try {
    const stat = fs.statSync(`${file}.lock`);
    return `${stat.ino}:${stat.mtimeMs}`;
  } catch {
    return null;
  }
}

/** Milliseconds one lock may be held before it is presumed to belong to a dead process. */
let stuckLockMs = 10_000;

/** Tests shorten the wait; returns the previous value. */
export function setStuckLockMs(ms: number): number {
  const previous = stuckLockMs;
  stuckLockMs = ms;
  return previous;
}

/**
 * For the busy retry: a lock held without interruption for 10 s belongs to a process
 * that died inside a transaction while others had the file open (our transactions last
 * milliseconds). It is removed and the journal rolled back, under our own lock.
 */
export function stuckLockBreaker(file: string, recover: () => void, notice: RecoveryNotice = () => {}): (waitedMs: number) => void {
  let seen: string | null = null;
  let since = 0;
  return (waitedMs) => {
    // A lock that is not a lock would be waited for in vain: say so at the first wait.
    checkLockKind(file);
    const identity = lockIdentity(file);
    if (identity === null || identity !== seen) {
      seen = identity;
      since = waitedMs;
      return;
    }
    if (waitedMs - since < stuckLockMs) return;
    if (lockIdentity(file) !== identity) return;
    removeLockDir(file, notice);
    withFileLock(file, recover);
    seen = null;
  };
}

/** The marker of this connection; call the returned function when the connection closes. */
export function announceOpen(file: string): () => void {
  const marker = path.join(path.dirname(file), `${markerPrefix(file)}${os.hostname()}.${process.pid}`);
  // Several connections of one process share the marker; count them.
  const count = (openCounts.get(marker) ?? 0) + 1;
  openCounts.set(marker, count);
  if (count === 1) {
    try {
      fs.writeFileSync(marker, '');
    } catch {
      // A read-only directory: nobody can write there, so nobody can leave a stale lock either.
    }
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = (openCounts.get(marker) ?? 1) - 1;
    if (left > 0) openCounts.set(marker, left);
    else {
      openCounts.delete(marker);
      fs.rmSync(marker, { force: true });
    }
  };
}

const openCounts = new Map<string, number>();
