/**
 * The log of a competition server (docs/competition.md, "Running it as a service"): every
 * request of a remote run that was evaluated is appended here, in one write, before its answer
 * is sent; the server folds the log into the competition file (Project.putRemoteRequests)
 * every few seconds and at its end, then empties it. A server killed with -9 loses nothing of
 * what it answered: the next start folds what the log still holds (a record stored twice is
 * stored once: the file's requests are keyed by run and seq) and drops a torn last record,
 * whose answer was never sent.
 *
 * Why not the file itself: a transaction of the project file costs 5-30 ms here (the SQLite
 * VFS's lock directory and fsyncs), an append about 0.06 ms; at 200 requests a second only the
 * log keeps up. It guards against the server process dying (kill -9, a crash), like the file's
 * own journal; against the machine losing power it would need an fsync per request (about 4 ms
 * here), which it does not do.
 *
 * Beside FILE: `FILE-remote` (the log) and `FILE-remote.lock` (which server holds it: its pid
 * and host). One server per competition file: a second one is refused while the first lives.
 *
 * A record: u32 length of the payload, u32 CRC-32 of the payload (little endian), the payload:
 * u16 length of a JSON header {r: run id, s: seq, e: entrant, v: evaluations, t: time}, the
 * header, then the request's valid sequences packed three faces a byte.
 */
import fs from 'node:fs';
import os from 'node:os';
import zlib from 'node:zlib';
import type { RemoteRequestRecord } from './project-records.ts';

export class RemoteLogError extends Error {
  override name = 'RemoteLogError';
}

export function remoteLogPath(file: string): string {
  return `${file}-remote`;
}

export function remoteLockPath(file: string): string {
  return `${file}-remote.lock`;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Who holds a competition file's server lock, or null (none, or a dead process of this host). */
export function remoteLockHolder(file: string): { pid: number; host: string; startedAt: string } | null {
  let text: string;
  try {
    text = fs.readFileSync(remoteLockPath(file), 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
  let holder: { pid?: unknown; host?: unknown; startedAt?: unknown };
  try {
    holder = JSON.parse(text);
  } catch {
    holder = {};
  }
  if (typeof holder.pid !== 'number' || typeof holder.host !== 'string') return { pid: 0, host: '?', startedAt: '?' };
  if (holder.host === os.hostname() && !processAlive(holder.pid)) return null;
  return { pid: holder.pid, host: holder.host, startedAt: String(holder.startedAt) };
}

/** Takes the server lock of `file`, or RemoteLogError naming the server that holds it. */
function takeLock(file: string): () => void {
  const lock = remoteLockPath(file);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lock, JSON.stringify({ pid: process.pid, host: os.hostname(), startedAt: new Date().toISOString() }), { flag: 'wx' });
      return () => fs.rmSync(lock, { force: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST')
        throw new RemoteLogError(`${lock}: cannot create the server's lock (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
    const holder = remoteLockHolder(file);
    if (holder !== null) {
      const who = holder.pid === 0 ? 'an unreadable lock' : `process ${holder.pid} on ${holder.host}, since ${holder.startedAt}`;
      throw new RemoteLogError(
        `${file}: another competition server serves this file (${who}); stop it first${holder.host !== os.hostname() || holder.pid === 0 ? `, or remove ${lock} if it is gone` : ''}`,
      );
    }
    // The holder died (kill -9): its lock is stale.
    fs.rmSync(lock, { force: true });
  }
  throw new RemoteLogError(`${file}: another competition server took the lock at the same moment`);
}

const HEAD = 8;

function encode(record: RemoteRequestRecord): Buffer {
  const header = JSON.stringify({ r: record.runId, s: record.seq, e: record.entrant, v: record.evaluations, t: record.receivedAt });
  const headerLength = Buffer.byteLength(header);
  const length = 2 + headerLength + record.sequences.length;
  // One buffer, written in place: the record's 28 kB of sequences (a batch of 100 at N = 840) are copied once.
  const out = Buffer.allocUnsafe(HEAD + length);
  out.writeUInt32LE(length, 0);
  out.writeUInt16LE(headerLength, HEAD);
  out.write(header, HEAD + 2, 'utf8');
  out.set(record.sequences, HEAD + 2 + headerLength);
  out.writeUInt32LE(zlib.crc32(out.subarray(HEAD)), 4);
  return out;
}

/** The records of a log's bytes, and where its whole records end (a torn or damaged tail is not read). */
export function decodeRemoteLog(bytes: Buffer): { records: RemoteRequestRecord[]; end: number } {
  const records: RemoteRequestRecord[] = [];
  let at = 0;
  while (at + HEAD <= bytes.length) {
    const length = bytes.readUInt32LE(at);
    if (at + HEAD + length > bytes.length || length < 2) break;
    const payload = bytes.subarray(at + HEAD, at + HEAD + length);
    if (zlib.crc32(payload) !== bytes.readUInt32LE(at + 4)) break;
    const headerLength = payload.readUInt16LE(0);
    if (2 + headerLength > length) break;
    let header: { r: string; s: number; e: string; v: number; t: string };
    try {
      header = JSON.parse(payload.subarray(2, 2 + headerLength).toString('utf8'));
    } catch {
      break;
    }
    records.push({
      runId: header.r,
      seq: header.s,
      entrant: header.e,
      evaluations: header.v,
      receivedAt: header.t,
      sequences: new Uint8Array(payload.subarray(2 + headerLength)),
    });
    at += HEAD + length;
  }
  return { records, end: at };
}

/** The open log of a server: appends, and empties once folded. */
export class RemoteLog {
  private constructor(
    readonly path: string,
    private fd: number,
    private readonly release: () => void,
    /** The records a dead server left, to fold before anything else. */
    readonly leftOver: RemoteRequestRecord[],
    /** Bytes of a torn last record that were dropped (its answer was never sent). */
    readonly droppedBytes: number,
  ) {}

  /** Takes the server lock of `file` and opens its log, reading what a dead server left in it. */
  static open(file: string): RemoteLog {
    const release = takeLock(file);
    try {
      const logPath = remoteLogPath(file);
      const fd = fs.openSync(logPath, fs.constants.O_RDWR | fs.constants.O_CREAT | fs.constants.O_APPEND, 0o600);
      const bytes = fs.readFileSync(logPath);
      const { records, end } = decodeRemoteLog(bytes);
      if (end < bytes.length) fs.ftruncateSync(fd, end);
      return new RemoteLog(logPath, fd, release, records, bytes.length - end);
    } catch (e) {
      release();
      throw e;
    }
  }

  /** Appends one record in one write: when this returns, a kill of this process cannot lose it. */
  append(record: RemoteRequestRecord): void {
    const buffer = encode(record);
    let written = 0;
    while (written < buffer.length) written += fs.writeSync(this.fd, buffer, written, buffer.length - written);
  }

  /** Empties the log (everything in it is folded into the competition file). */
  clear(): void {
    fs.ftruncateSync(this.fd, 0);
  }

  /** Closes the log, removes it when empty, and releases the lock. */
  close(): void {
    if (this.fd < 0) return;
    const empty = fs.fstatSync(this.fd).size === 0;
    fs.closeSync(this.fd);
    this.fd = -1;
    if (empty) fs.rmSync(this.path, { force: true });
    this.release();
  }
}
