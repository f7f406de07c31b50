/**
 * Recovery of the lock that node-sqlite3-wasm leaves behind when a process dies inside a
 * transaction: its VFS locks FILE by creating the directory FILE.lock, so a kill -9 at the
 * wrong moment leaves that directory and every later open fails with "database is locked".
 *
 * Every Saikoro connection announces itself with an empty marker file
 * `FILE.open.<host>.<pid>` for as long as it is open. At open, a FILE.lock with no live
 * marker beside it (other than our own) belongs to a dead process and is removed; SQLite then
 * finds the hot journal and rolls the interrupted transaction back.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

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

/**
 * Removes markers of dead local processes and, if nobody else has the file open, a stale lock.
 * Returns whether another live process has the file open.
 */
export function recoverStaleLock(file: string): boolean {
  let liveOther = false;
  for (const marker of markers(file)) {
    if (isLiveOther(marker)) liveOther = true;
    else if (marker.pid !== process.pid || marker.host !== os.hostname()) fs.rmSync(marker.file, { force: true });
  }
  if (liveOther) return true;
  const lockDir = `${file}.lock`;
  try {
    if (fs.statSync(lockDir).isDirectory()) fs.rmdirSync(lockDir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  return false;
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
