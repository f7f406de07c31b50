/**
 * The project store: one `*.saikoro` file (SQLite as the application file format) holding
 * experiments, runs, their results and notes, and lab runs (single N-Queens runs stored from the
 * CLI). This module is the only one that knows SQL.
 *
 * Durability: rollback journal (journal_mode=DELETE; the wasm VFS has no shared memory, so no
 * WAL) with synchronous=FULL. Every run is written in its own transaction the moment it ends;
 * nothing ever rewrites the whole file. A kill at any moment leaves either the old or the new
 * state: the next open rolls back the hot journal (after clearing the dead process's lock, see
 * lock.ts and journal.ts).
 *
 * Refusal: before SQLite opens a file, it is checked with plain file I/O: a regular file (a
 * FIFO, a device or /proc/self/mem is refused without reading it), with an SQLite header,
 * Saikoro's application id, a schema this version reads, and a size that is a whole number of
 * pages. A Saikoro file is then opened read-only and checked with PRAGMA integrity_check (which,
 * unlike quick_check, also finds an index that disagrees with its table) and against the
 * tables and columns of its schema version; only if that passes is it opened for writing (and
 * migrated if older). Every row is checked as it is read (records.ts): JSON that is not JSON,
 * a spec that is no longer valid, a result whose objective count is not its config's. Whatever
 * goes wrong, the caller gets a ProjectError naming the file and what is wrong, never a
 * SQLite or JSON stack trace, and a refused file is never written to.
 *
 * Read-only places: in a folder that cannot be written (a read-only file system, or no
 * permission), the file is opened read-only through a symbolic link in a private temporary
 * folder, so the binding's lock directory lives there; nothing is written beside the file.
 * A write that fails for lack of space is reported as "disk full" with the data kept.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DiceConfig } from '../../src-shared/problems/dice/config.ts';
import type { BudgetSpec, ExperimentSpec } from '../../src-shared/experiments/spec.ts';
import type { ParamValue, SolverResult } from '../../src-shared/solvers/types.ts';
import { canonicalJson } from '../../src-shared/experiments/canonical-json.ts';
import { sha256Hex } from '../../src-shared/experiments/sha256.ts';
import type { NqueensResult, NqueensRunRequest } from '../../src-shared/runtime/kinds/index.ts';
import type { RunProgram } from '../../src-shared/experiments/grid.ts';
import { appVersion } from './app-version.ts';
import { rollbackHotJournal } from './journal.ts';
import { KEPT_SUFFIX_BYTES } from './keep-aside.ts';
import { announceOpen, NotALockError, recoverAtOpen, stuckLockBreaker, type RecoveryNotice } from './lock.ts';
import * as check from './records.ts';
import { RecordError } from './records.ts';
import { APPLICATION_ID, CURRENT_SCHEMA, MIGRATIONS, SCHEMA_V1, SCHEMA_V2, SCHEMA_V4, SCHEMA_VERSION } from './schema.ts';
import { Database, withBusyRetry } from './sqlite.ts';

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

export interface RunRecord {
  id: string;
  instance: string;
  label: string;
  config: DiceConfig;
  solver: string;
  params: Record<string, ParamValue>;
  seed: number;
  budget: BudgetSpec;
  /** A solver program's run: the program as its spec entry stored it (part of the run id); else null. */
  program: RunProgram | null;
  status: 'done' | 'failed';
  error: string | null;
  /** The solver's result (null for a failed run). */
  result: SolverResult | null;
  appVersion: string;
  host: string;
  /** ISO 8601 times. */
  startedAt: string;
  finishedAt: string;
  elapsedMs: number;
  evaluations: number | null;
}

/** What identifies a lab run: the request without its delivery options (snapshots, memory). */
export interface LabRunRequest {
  kind: 'nqueens';
  method: NqueensRunRequest['method'];
  n: number;
  params: NqueensRunRequest['params'];
  seed: number;
  limits: NonNullable<NqueensRunRequest['limits']>;
}

/** A single run outside any experiment (an N-Queens run from `saikoro nqueens --project`). */
export interface LabRunRecord {
  /** labRunId(request): equal requests share one row. */
  id: string;
  kind: LabRunRequest['kind'];
  request: LabRunRequest;
  status: 'done' | 'failed';
  error: string | null;
  /** The run's result (null for a failed run). */
  result: NqueensResult | null;
  appVersion: string;
  host: string;
  /** ISO 8601 times. */
  startedAt: string;
  finishedAt: string;
  elapsedMs: number;
}

const LAB_RUN_ID_VERSION = 1;

/** The identifying part of a host request (kind, method, n, params, seed, limits). */
export function labRunRequest(request: NqueensRunRequest): LabRunRequest {
  const { kind, method, n, params, seed } = request;
  return { kind, method, n, params, seed, limits: { ...(request.limits ?? {}) } };
}

/** Content hash of the request: SHA-256 of its canonical JSON, 32 hex digits (as runId). */
export function labRunId(request: LabRunRequest | NqueensRunRequest): string {
  const { kind, method, n, params, seed, limits } = labRunRequest(request as NqueensRunRequest);
  return sha256Hex(canonicalJson({ v: LAB_RUN_ID_VERSION, kind, method, n, params, seed, limits })).slice(0, 32);
}

export interface ExperimentRecord {
  name: string;
  spec: ExperimentSpec;
  createdAt: string;
}

export interface NoteRecord {
  id: number;
  experiment: string | null;
  text: string;
  createdAt: string;
}

export interface ProjectInfo {
  path: string;
  schemaVersion: number;
  createdAt: string | null;
  createdBy: string | null;
  sizeBytes: number;
  experiments: number;
  runs: { done: number; failed: number };
  notes: number;
  labRuns: { done: number; failed: number };
}

type Row = Record<string, unknown>;

const SQLITE_MAGIC = 'SQLite format 3\0';

/**
 * Longest file name (in bytes) a project may have: SQLite and the store put files beside it
 * whose names add up to `.open.<host>.<pid>` (or `-journal.kept-<time>`) to it, and a name longer than the file system's
 * 255 bytes fails at the first write.
 */
export const MAX_FILE_NAME_BYTES = 255 - Math.max('-journal'.length + KEPT_SUFFIX_BYTES, `.open.${os.hostname()}.${2 ** 22}`.length);

interface Header {
  applicationId: number;
  userVersion: number;
}

function errnoCode(e: unknown): string | undefined {
  return (e as NodeJS.ErrnoException | null)?.code;
}

/** Error codes in words (Node's own messages repeat the path, which may be 300 characters). */
const CODE_WORDS: Record<string, string> = {
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
function openFailure(file: string, e: unknown): ProjectError {
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

function fileKind(stat: fs.Stats): string {
  if (stat.isFIFO()) return 'a FIFO';
  if (stat.isSocket()) return 'a socket';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

/** Classifies a file from its header alone; throws ProjectError for anything not ours. */
export function readHeader(file: string): Header {
  let fd: number;
  try {
    // O_NONBLOCK: opening a FIFO must not wait for a writer (it is refused below).
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  } catch (e) {
    throw openFailure(file, e);
  }
  try {
    const stat = fs.fstatSync(fd);
    if (stat.isDirectory()) throw new ProjectError(`${file}: is a directory, not a project file`, file);
    if (!stat.isFile()) throw new ProjectError(`${file}: ${fileKind(stat)}, not a project file`, file);
    if (stat.size === 0) throw new ProjectError(`${file}: empty file, not a Saikoro project`, file);
    const header = Buffer.alloc(100);
    let read: number;
    try {
      read = fs.readSync(fd, header, 0, 100, 0);
    } catch (e) {
      throw new ProjectError(`${file}: cannot be read (${errnoCode(e) ?? (e as Error).message})`, file);
    }
    if (read === 0) throw new ProjectError(`${file}: empty file, not a Saikoro project`, file);
    if (read < 16 || header.toString('latin1', 0, 16) !== SQLITE_MAGIC) throw new ProjectError(`${file}: not a Saikoro project (not an SQLite database)`, file);
    if (read < 100) throw new ProjectError(`${file}: corrupt Saikoro project (truncated header, ${stat.size} bytes)`, file);
    const userVersion = header.readInt32BE(60);
    const applicationId = header.readUInt32BE(68);
    if (applicationId !== APPLICATION_ID) {
      const id = applicationId === 0 ? 'no application id' : `application id 0x${applicationId.toString(16).padStart(8, '0')}`;
      throw new ProjectError(`${file}: an SQLite database but not a Saikoro project (${id})`, file);
    }
    if (userVersion > SCHEMA_VERSION)
      throw new ProjectError(`${file}: written by a newer Saikoro (project schema ${userVersion}; this version reads up to ${SCHEMA_VERSION}). Update Saikoro to open it.`, file);
    if (userVersion < 1) throw new ProjectError(`${file}: corrupt Saikoro project (schema version ${userVersion})`, file);
    // SQLite writes whole pages: any other size is a file cut short (or padded) by something else.
    const rawPageSize = header.readUInt16BE(16);
    const pageSize = rawPageSize === 1 ? 65536 : rawPageSize;
    if (pageSize < 512 || (pageSize & (pageSize - 1)) !== 0) throw new ProjectError(`${file}: corrupt Saikoro project (page size ${rawPageSize} in the header)`, file);
    if (stat.size % pageSize !== 0)
      throw new ProjectError(`${file}: corrupt Saikoro project (${stat.size} bytes is not a whole number of ${pageSize}-byte pages: the file was cut short or added to)`, file);
    const pages = header.readUInt32BE(28);
    const headerValid = pages > 0 && header.readUInt32BE(92) === header.readUInt32BE(24);
    if (headerValid && pages * pageSize > stat.size)
      throw new ProjectError(`${file}: corrupt Saikoro project (the header counts ${pages} pages, the file holds ${stat.size / pageSize}: it was cut short)`, file);
    return { applicationId, userVersion };
  } finally {
    try {
      fs.closeSync(fd);
    } catch {
      // nothing was written through it
    }
  }
}

/** Called only while holding the file's lock, so any journal present is a dead writer's. */
function rollbackIfHot(file: string, notice: RecoveryNotice): void {
  const kept = rollbackHotJournal(file)?.keptAside;
  if (kept) notice(`${file}-journal: ${kept.reason}; kept aside as ${kept.as}`);
}

/** Whether a journal with content is beside the file (an interrupted transaction). */
function hasHotJournal(file: string): boolean {
  try {
    const journal = fs.statSync(`${file}-journal`);
    if (journal.size === 0) return false;
    const fd = fs.openSync(`${file}-journal`, 'r');
    try {
      const head = Buffer.alloc(8);
      fs.readSync(fd, head, 0, 8, 0);
      // A journal whose header was never written changed nothing in the file (journal.ts).
      return head.equals(Buffer.from([0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7]));
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return false;
  }
}

function isSqliteError(e: unknown): e is Error {
  return e instanceof Error && e.name === 'SQLite3Error';
}

function sqliteMessage(file: string, e: unknown): ProjectError {
  const message = e instanceof Error ? e.message : String(e);
  if (/malformed|not a database|corrupt|no such table|no such column/i.test(message)) return new ProjectError(`${file}: corrupt Saikoro project (${message})`, file);
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
function writeFailure(file: string, e: unknown): ProjectError {
  const message = e instanceof Error ? e.message : String(e);
  const free = freeBytes(file);
  if (/full/i.test(message) || (/I\/O error/i.test(message) && free !== null && free < 1024 * 1024))
    return new ProjectError(`${file}: could not write: the disk is full${free === null ? '' : ` (${free} bytes free)`}; nothing already stored was lost`, file);
  if (/I\/O error/i.test(message)) return new ProjectError(`${file}: could not write (${message}); the disk may be full or failing; nothing already stored was lost`, file);
  return sqliteMessage(file, e);
}

/** The tables and columns each schema version has (from the schema text itself). */
const SCHEMA_TEXT: Record<number, string> = { 1: SCHEMA_V1, 2: SCHEMA_V2, 3: SCHEMA_V4, 4: SCHEMA_V4, 5: CURRENT_SCHEMA };
const expectedColumns = new Map<number, Map<string, string[]>>();

function schemaColumns(version: number): Map<string, string[]> {
  let tables = expectedColumns.get(version);
  if (!tables) {
    const db = new Database(':memory:');
    try {
      db.exec(SCHEMA_TEXT[version]);
      tables = new Map();
      for (const { name } of db.all("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") as { name: string }[])
        tables.set(name, (db.all(`PRAGMA table_info(${name})`) as { name: string }[]).map((c) => c.name));
    } finally {
      db.close();
    }
    expectedColumns.set(version, tables);
  }
  return tables;
}

export interface OpenOptions {
  /** Open for reading only: no migration, no writes (an older schema is refused). */
  readOnly?: boolean;
  /**
   * Told what recovery did beside the file, in a sentence naming the file: a journal or a
   * stale lock directory it kept aside under a new name (at open, or when a stuck lock is
   * broken later). Nothing is reported for an ordinary recovery.
   */
  onRecovery?: RecoveryNotice;
}

/** Where a file lives, for writing: can its folder and the file itself be written? */
function writability(file: string): { folder: boolean; file: boolean } {
  const can = (p: string) => {
    try {
      fs.accessSync(p, fs.constants.W_OK);
      return true;
    } catch {
      return false;
    }
  };
  return { folder: can(path.dirname(path.resolve(file))), file: can(file) };
}

/**
 * A symbolic link to the file in a private temporary folder. SQLite reaches the file through
 * it, and the binding puts its lock directory beside the link instead of beside the file.
 * The binding resolves paths without following links, so nothing is ever written in the
 * file's own (read-only) folder.
 */
function privateLink(file: string): { path: string; dispose: () => void } {
  let folder: string;
  try {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-read-'));
    fs.symlinkSync(path.resolve(file), path.join(folder, path.basename(file)));
  } catch (e) {
    throw new ProjectError(`${file}: is in a read-only folder, and no temporary folder to read it from could be made (${errnoCode(e) ?? (e as Error).message})`, file);
  }
  return { path: path.join(folder, path.basename(file)), dispose: () => fs.rmSync(folder, { recursive: true, force: true }) };
}

export class Project {
  private closed = false;

  private readonly onWait: (waitedMs: number) => void;

  private constructor(
    readonly path: string,
    private readonly db: Database,
    readonly readOnly: boolean,
    private readonly release: () => void,
    /** The path SQLite has the file open under (a private link in a read-only place). */
    private readonly dbPath: string = path,
    /** Why a read-only project is read-only, when the caller did not ask for it. */
    private readonly readOnlyReason: string | null = null,
    notice: RecoveryNotice = () => {},
  ) {
    this.onWait = dbPath === path ? stuckLockBreaker(path, () => rollbackIfHot(path, notice), notice) : () => {};
  }

  /** Creates a new, empty project; refuses to overwrite an existing file (or a link, even a dangling one). */
  static create(file: string): Project {
    const name = path.basename(file);
    if (Buffer.byteLength(name) > MAX_FILE_NAME_BYTES)
      throw new ProjectError(`${path.join(path.dirname(file), `${name.slice(0, 40)}...${name.slice(-20)}`)}: file name too long (${Buffer.byteLength(name)} bytes; at most ${MAX_FILE_NAME_BYTES}, so that the files SQLite keeps beside it fit)`, file);
    let existing: fs.Stats | undefined;
    try {
      existing = fs.lstatSync(file, { throwIfNoEntry: false });
    } catch (e) {
      throw new ProjectError(`${file}: cannot create (${errnoCode(e) ?? (e as Error).message})`, file);
    }
    if (existing) throw new ProjectError(`${file}: already exists${existing.isSymbolicLink() ? ' (a symbolic link)' : ''}; not overwriting it`, file);
    let created = false;
    let db: Database | undefined;
    let release = () => {};
    try {
      fs.closeSync(fs.openSync(file, 'wx'));
      created = true;
      db = new Database(file);
      release = announceOpen(file);
      configure(db);
      db.exec('BEGIN');
      db.exec(CURRENT_SCHEMA);
      db.run('INSERT INTO meta (key, value) VALUES (?, ?), (?, ?)', ['created_at', new Date().toISOString(), 'created_by', appVersion()]);
      db.exec(`PRAGMA application_id = ${APPLICATION_ID}; PRAGMA user_version = ${SCHEMA_VERSION};`);
      db.exec('COMMIT');
    } catch (e) {
      try {
        db?.close();
      } catch {
        // closing a connection whose file failed
      }
      release();
      // Only what this call created is removed: never a file or link that was there.
      if (created) {
        fs.rmSync(file, { force: true });
        fs.rmSync(`${file}-journal`, { force: true });
      }
      const code = errnoCode(e);
      if (code === 'EEXIST') throw new ProjectError(`${file}: already exists; not overwriting it`, file);
      if (code) throw new ProjectError(`${file}: cannot create (${CODE_WORDS[code] ?? code})`, file);
      if (isSqliteError(e) && /I\/O error|full/i.test(e.message)) throw new ProjectError(writeFailure(file, e).message.replace('could not write', 'cannot create'), file);
      throw new ProjectError(`${file}: cannot create (${(e as Error).message})`, file);
    }
    return new Project(file, db, false, release);
  }

  /** Opens an existing project after checking it; see the module comment. */
  static open(file: string, options: OpenOptions = {}): Project {
    const header = readHeader(file);
    const place = writability(file);
    const asked = Boolean(options.readOnly);
    const readOnlyReason = !place.folder ? 'its folder cannot be written' : !place.file ? 'the file cannot be written' : null;
    const readOnly = asked || readOnlyReason !== null;
    if (header.userVersion < SCHEMA_VERSION && readOnly) {
      if (asked) throw new ProjectError(`${file}: has project schema ${header.userVersion}; open it once for writing (e.g. saikoro project info ${file}) to migrate it to ${SCHEMA_VERSION}`, file);
      throw new ProjectError(`${file}: has project schema ${header.userVersion} and cannot be migrated to ${SCHEMA_VERSION} here: ${readOnlyReason}. Copy it somewhere writable and open it there.`, file);
    }
    let release: () => void;
    let dbPath = file;
    const notice = options.onRecovery ?? (() => {});
    if (place.folder) {
      // See journal.ts and lock.ts: SQLite on this VFS would neither clear a dead process's
      // lock nor roll its interrupted transaction back.
      try {
        recoverAtOpen(file, () => rollbackIfHot(file, notice), notice);
      } catch (e) {
        if (e instanceof NotALockError) throw new ProjectError(`${file}: ${e.message}`, file);
        throw new ProjectError(`${file}: could not roll back an interrupted transaction (${errnoCode(e) ?? (e as Error).message}); the file was left as it is`, file);
      }
      // The header may have been restored to an older state: check it again.
      readHeader(file);
      release = announceOpen(file);
    } else {
      if (hasHotJournal(file))
        throw new ProjectError(`${file}: has an interrupted transaction (${path.basename(file)}-journal) that cannot be rolled back in a read-only folder; copy both files to a writable folder and open it there`, file);
      const link = privateLink(file);
      dbPath = link.path;
      release = link.dispose;
    }
    const onWait = dbPath === file ? stuckLockBreaker(file, () => rollbackIfHot(file, notice), notice) : undefined;
    const retry = <T>(fn: () => T): T => withBusyRetry(fn, undefined, onWait);
    try {
      let checked: Database;
      try {
        checked = new Database(dbPath, { fileMustExist: true, readOnly: true });
      } catch (e) {
        throw sqliteMessage(file, e);
      }
      let keep = false;
      try {
        integrityCheck(file, checked, retry);
        schemaCheck(file, checked, header.userVersion, retry);
        if (readOnly) {
          retry(() => checked.exec('PRAGMA foreign_keys = ON;'));
          keep = true;
          return new Project(file, checked, true, release, dbPath, asked ? null : readOnlyReason, notice);
        }
      } catch (e) {
        if (e instanceof NotALockError) throw new ProjectError(`${file}: ${e.message}`, file);
        throw e instanceof ProjectError ? e : sqliteMessage(file, e);
      } finally {
        if (!keep) checked.close();
      }
      let db: Database;
      try {
        db = new Database(file, { fileMustExist: true });
      } catch (e) {
        throw sqliteMessage(file, e);
      }
      try {
        // Every step takes the lock, so every step waits for another process's transaction.
        retry(() => configure(db));
        const version = Number((retry(() => db.get('PRAGMA user_version')) as Row).user_version);
        if (version < SCHEMA_VERSION) migrate(file, db, version);
      } catch (e) {
        db.close();
        if (e instanceof ProjectError) throw e;
        if (e instanceof NotALockError) throw new ProjectError(`${file}: ${e.message}`, file);
        throw isSqliteError(e) && /I\/O error|full/i.test(e.message) ? writeFailure(file, e) : sqliteMessage(file, e);
      }
      return new Project(file, db, false, release, file, null, notice);
    } catch (e) {
      release();
      throw e;
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      this.db.close();
    } finally {
      this.release();
    }
  }

  /** Any failure of the store as a ProjectError naming the file; programming errors pass through. */
  private failure(e: unknown, writing: boolean): unknown {
    if (e instanceof ProjectError) return e;
    if (e instanceof NotALockError) return new ProjectError(`${this.path}: ${e.message}`, this.path);
    if (e instanceof RecordError) return new ProjectError(`${this.path}: corrupt Saikoro project (${e.message})`, this.path);
    if (isSqliteError(e)) return writing ? writeFailure(this.path, e) : sqliteMessage(this.path, e);
    return e;
  }

  /** Why nothing can be written to this project (it was opened read-only), or null; for a check before long work. */
  writeRefusal(): string | null {
    return this.readOnly ? `opened read-only${this.readOnlyReason ? ` (${this.readOnlyReason})` : ''}` : null;
  }

  private write<T>(fn: () => T): T {
    const refusal = this.writeRefusal();
    if (refusal) throw new ProjectError(`${this.path}: ${refusal}`, this.path);
    try {
      return withBusyRetry(
        () => {
          this.db.exec('BEGIN IMMEDIATE');
          try {
            const out = fn();
            this.db.exec('COMMIT');
            return out;
          } catch (e) {
            try {
              if (this.db.inTransaction) this.db.exec('ROLLBACK');
            } catch {
              // The rollback failed too (a full disk): the journal stays, and the next open
              // plays it back. The original error is the one to report.
            }
            throw e;
          }
        },
        undefined,
        this.onWait,
      );
    } catch (e) {
      throw this.failure(e, true);
    }
  }

  /** Reads rows and turns them into records; any failure is a ProjectError naming the file. */
  private read<T>(fn: () => T): T {
    try {
      return fn();
    } catch (e) {
      throw this.failure(e, false);
    }
  }

  private all(sql: string, values?: Parameters<Database['all']>[1]): Row[] {
    return withBusyRetry(() => this.db.all(sql, values), undefined, this.onWait) as Row[];
  }

  /** A row that breaks a rule: which row, then the field. */
  private corrupt(row: string, e: unknown): never {
    if (e instanceof RecordError) throw new ProjectError(`${this.path}: corrupt Saikoro project (${row}: ${e.message})`, this.path);
    throw e;
  }

  info(): ProjectInfo {
    return this.read(() => {
      const meta = new Map(this.all('SELECT key, value FROM meta').map((r) => [String(r.key), String(r.value)]));
      const counts = this.all(
        "SELECT (SELECT count(*) FROM experiments) AS e, (SELECT count(*) FROM runs WHERE status = 'done') AS d, (SELECT count(*) FROM runs WHERE status = 'failed') AS f, (SELECT count(*) FROM notes) AS n, (SELECT count(*) FROM lab_runs WHERE status = 'done') AS ld, (SELECT count(*) FROM lab_runs WHERE status = 'failed') AS lf",
      )[0];
      return {
        path: this.path,
        schemaVersion: Number(this.all('PRAGMA user_version')[0].user_version),
        createdAt: meta.get('created_at') ?? null,
        createdBy: meta.get('created_by') ?? null,
        sizeBytes: fs.statSync(this.path).size,
        experiments: Number(counts.e),
        runs: { done: Number(counts.d), failed: Number(counts.f) },
        notes: Number(counts.n),
        labRuns: { done: Number(counts.ld), failed: Number(counts.lf) },
      };
    });
  }

  /**
   * Adds an experiment. Adding the same spec again is a no-op ('unchanged'); a different spec
   * under an existing name is refused, since its finished runs would no longer match it.
   */
  addExperiment(spec: ExperimentSpec): 'added' | 'unchanged' {
    const json = canonicalJson(spec);
    return this.write(() => {
      const existing = this.db.get('SELECT spec_json FROM experiments WHERE name = ?', spec.name) as Row | null;
      if (existing) {
        if (existing.spec_json === json) return 'unchanged';
        throw new ProjectError(`${this.path}: an experiment named "${spec.name}" already exists with a different spec; choose another name`, this.path);
      }
      this.db.run('INSERT INTO experiments (name, spec_json, created_at) VALUES (?, ?, ?)', [spec.name, json, new Date().toISOString()]);
      return 'added';
    });
  }

  experiments(): ExperimentRecord[] {
    return this.read(() =>
      this.all('SELECT name, spec_json, created_at FROM experiments ORDER BY created_at, name').map((r) => {
        const name = String(r.name);
        try {
          const spec = check.spec('spec_json', check.jsonColumn('spec_json', r.spec_json));
          if (spec.name !== name) throw new RecordError('spec_json.name', `is ${JSON.stringify(spec.name)}, not the row's name`);
          return { name, spec, createdAt: check.text('created_at', r.created_at) };
        } catch (e) {
          return this.corrupt(`experiment ${JSON.stringify(name)}`, e);
        }
      }),
    );
  }

  experiment(name: string): ExperimentRecord | undefined {
    return this.experiments().find((e) => e.name === name);
  }

  /**
   * Stores one finished run in its own transaction. A finished ('done') run is never
   * replaced; a failed one is replaced by a later attempt. Returns whether anything changed.
   */
  putRun(run: RunRecord): boolean {
    // What could not be read back is not written: the same checks as reading (records.ts).
    try {
      check.solverResultOf(run);
    } catch (e) {
      if (e instanceof RecordError) throw new ProjectError(`${this.path}: not storing run ${run.id}: ${e.message}`, this.path);
      throw e;
    }
    return this.write(() => {
      const existing = this.db.get('SELECT status FROM runs WHERE id = ?', run.id) as Row | null;
      if (existing?.status === 'done') return false;
      if (existing) this.db.run('DELETE FROM runs WHERE id = ?', run.id);
      this.db.run(
        `INSERT INTO runs (id, instance, label, config_json, solver, params_json, seed, budget_json, status, error,
           app_version, host, started_at, finished_at, elapsed_ms, evaluations, program_json)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          run.id,
          run.instance,
          run.label,
          canonicalJson(run.config),
          run.solver,
          canonicalJson(run.params),
          run.seed,
          canonicalJson(run.budget),
          run.status,
          run.error,
          run.appVersion,
          run.host,
          run.startedAt,
          run.finishedAt,
          run.elapsedMs,
          run.evaluations,
          run.program ? canonicalJson(run.program) : null,
        ],
      );
      if (run.result) this.db.run('INSERT INTO results (run_id, result_json) VALUES (?, ?)', [run.id, JSON.stringify(run.result)]);
      return true;
    });
  }

  /** Status of every stored run, by id (cheap: no results are read). */
  runStatuses(): Map<string, 'done' | 'failed'> {
    return this.read(
      () =>
        new Map(
          this.all('SELECT id, status FROM runs').map((r) => {
            const id = String(r.id);
            try {
              return [id, check.status('status', r.status)];
            } catch (e) {
              return this.corrupt(`run ${id}`, e);
            }
          }),
        ),
    );
  }

  /** The stored runs with these ids (all runs when ids is omitted), results included. */
  runs(ids?: readonly string[]): RunRecord[] {
    return this.runRows(ids).map((row) => {
      if (row.record) return row.record;
      throw new ProjectError(`${this.path}: corrupt Saikoro project (run ${row.id}: ${row.problem})`, this.path);
    });
  }

  /**
   * Like runs(), but a row that breaks a rule is returned with the problem instead of ending the
   * read: merge skips such runs and reports them.
   */
  runRows(ids?: readonly string[]): { id: string; record: RunRecord | null; problem: string | null }[] {
    return this.read(() => {
      const select = `SELECT runs.*, results.result_json FROM runs LEFT JOIN results ON results.run_id = runs.id`;
      const rows = ids ? this.all(`${select} WHERE runs.id IN (SELECT value FROM json_each(?)) ORDER BY runs.id`, JSON.stringify(ids)) : this.all(`${select} ORDER BY runs.id`);
      return rows.map((r) => {
        const id = String(r.id);
        try {
          return { id, record: toRunRecord(r), problem: null };
        } catch (e) {
          if (e instanceof RecordError) return { id, record: null, problem: e.message };
          throw e;
        }
      });
    });
  }

  run(id: string): RunRecord | undefined {
    return this.runs([id])[0];
  }

  /**
   * Stores one finished lab run in its own transaction, like putRun: a 'done' run is never
   * replaced (returns false), a failed one is replaced by a later attempt. The id must be
   * labRunId(record.request).
   */
  putLabRun(record: LabRunRecord): boolean {
    const expected = labRunId(record.request);
    if (record.id !== expected) throw new ProjectError(`lab run id ${record.id} does not match its request (expected ${expected})`);
    if (record.kind !== record.request.kind) throw new ProjectError(`lab run ${record.id}: kind ${record.kind} does not match its request (${record.request.kind})`);
    // What could not be read back is not written (the same checks as labRuns()).
    try {
      check.labRequest('request', record.request);
      if (record.result !== null) check.labResult('result', record.result, record.request.n);
    } catch (e) {
      if (e instanceof RecordError) throw new ProjectError(`${this.path}: not storing lab run ${record.id}: ${e.message}`, this.path);
      throw e;
    }
    return this.write(() => {
      const existing = this.db.get('SELECT status FROM lab_runs WHERE id = ?', record.id) as Row | null;
      if (existing?.status === 'done') return false;
      if (existing) this.db.run('DELETE FROM lab_runs WHERE id = ?', record.id);
      this.db.run(
        `INSERT INTO lab_runs (id, kind, request_json, status, error, result_json, app_version, host, started_at, finished_at, elapsed_ms)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          record.id,
          record.kind,
          canonicalJson(record.request),
          record.status,
          record.error,
          record.result === null ? null : JSON.stringify(record.result),
          record.appVersion,
          record.host,
          record.startedAt,
          record.finishedAt,
          record.elapsedMs,
        ],
      );
      return true;
    });
  }

  /** The stored lab runs (of one kind, if given), oldest first. */
  labRuns(kind?: string): LabRunRecord[] {
    return this.read(() => {
      const rows = kind === undefined ? this.all('SELECT * FROM lab_runs ORDER BY finished_at, id') : this.all('SELECT * FROM lab_runs WHERE kind = ? ORDER BY finished_at, id', kind);
      return rows.map((r) => {
        const id = String(r.id);
        try {
          const request = check.labRequest('request_json', check.jsonColumn('request_json', r.request_json));
          const result = r.result_json === null ? null : check.jsonColumn('result_json', r.result_json);
          if (result !== null) check.labResult('result_json', result, request.n);
          return {
            id,
            kind: check.text('kind', r.kind) as LabRunRecord['kind'],
            request: request as LabRunRequest,
            status: check.status('status', r.status),
            error: check.textOrNull('error', r.error),
            result: result as NqueensResult | null,
            appVersion: check.text('app_version', r.app_version),
            host: check.text('host', r.host),
            startedAt: check.text('started_at', r.started_at),
            finishedAt: check.text('finished_at', r.finished_at),
            elapsedMs: check.finite('elapsed_ms', r.elapsed_ms),
          };
        } catch (e) {
          return this.corrupt(`lab run ${id}`, e);
        }
      });
    });
  }

  addNote(text: string, experiment: string | null = null): number {
    if (text.trim() === '') throw new ProjectError('a note needs some text');
    return this.write(() => Number(this.db.run('INSERT INTO notes (experiment, text, created_at) VALUES (?, ?, ?)', [experiment, text, new Date().toISOString()]).lastInsertRowid));
  }

  notes(experiment?: string): NoteRecord[] {
    return this.read(() => {
      const rows = experiment === undefined ? this.all('SELECT * FROM notes ORDER BY id') : this.all('SELECT * FROM notes WHERE experiment = ? ORDER BY id', experiment);
      return rows.map((r) => {
        try {
          return { id: Number(r.id), experiment: check.textOrNull('experiment', r.experiment), text: check.text('text', r.text), createdAt: check.text('created_at', r.created_at) };
        } catch (e) {
          return this.corrupt(`note ${String(r.id)}`, e);
        }
      });
    });
  }
}

function configure(db: Database): void {
  db.exec('PRAGMA journal_mode = DELETE; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;');
}

/**
 * PRAGMA integrity_check: b-tree structure, free list, and every index against its table (a row
 * missing from the runs index passes quick_check, and lookups by id then miss the run).
 */
function integrityCheck(file: string, db: Database, retry: <T>(fn: () => T) => T): void {
  const rows = retry(() => db.all('PRAGMA integrity_check(20)')) as Row[];
  const problems = rows.map((r) => String(Object.values(r)[0])).filter((v) => v !== 'ok');
  if (problems.length) throw new ProjectError(`${file}: corrupt Saikoro project (integrity check: ${problems.slice(0, 3).join('; ')}${problems.length > 3 ? '; ...' : ''})`, file);
}

/**
 * The tables of the file's schema version, with exactly their columns (DROP TABLE meta was not
 * noticed until a query failed). Saikoro tables of another version are refused too, so a file
 * whose version number was damaged is never "migrated". Tables Saikoro never had are ignored.
 */
function schemaCheck(file: string, db: Database, version: number, retry: <T>(fn: () => T) => T): void {
  const present = new Set((retry(() => db.all("SELECT name FROM sqlite_master WHERE type = 'table'")) as Row[]).map((r) => String(r.name)));
  const expected = schemaColumns(version);
  const corrupt = (what: string) => new ProjectError(`${file}: corrupt Saikoro project (${what})`, file);
  for (const [table, columns] of expected) {
    if (!present.has(table)) throw corrupt(`table ${table} is missing`);
    const have = (retry(() => db.all(`PRAGMA table_info(${table})`)) as Row[]).map((c) => String(c.name));
    const missing = columns.filter((c) => !have.includes(c));
    if (missing.length) throw corrupt(`table ${table} has no column ${missing.join(', ')}`);
    const extra = have.filter((c) => !columns.includes(c));
    if (extra.length) throw corrupt(`table ${table} has column ${extra.join(', ')}, which project schema ${version} does not have`);
  }
  for (const v of Object.keys(SCHEMA_TEXT).map(Number))
    for (const table of schemaColumns(v).keys())
      if (!expected.has(table) && present.has(table)) throw corrupt(`table ${table} is not part of project schema ${version}, the version in its header`);
}

function toRunRecord(r: Row): RunRecord {
  const config = check.config('config_json', check.jsonColumn('config_json', r.config_json));
  const statusValue = check.status('status', r.status);
  const result = r.result_json === null || r.result_json === undefined ? null : check.solverResult('result_json', check.jsonColumn('result_json', r.result_json), config);
  if (statusValue === 'done' && result === null) throw new RecordError('result_json', 'is missing for a done run');
  // SQLite hands an integer beyond 2^53 back as a BigInt: safeInteger refuses it by name.
  const seed = check.safeInteger('seed', r.seed);
  const evaluations = r.evaluations === null ? null : check.count('evaluations', r.evaluations);
  if (result !== null && evaluations !== result.evaluations) throw new RecordError('evaluations', `the row says ${evaluations}, its result ${result.evaluations}`);
  return {
    id: check.text('id', r.id),
    instance: check.text('instance', r.instance),
    label: check.text('label', r.label),
    config,
    solver: check.text('solver', r.solver),
    params: check.params('params_json', check.jsonColumn('params_json', r.params_json)),
    seed,
    budget: check.budget('budget_json', check.jsonColumn('budget_json', r.budget_json)),
    program: r.program_json === null || r.program_json === undefined ? null : check.program('program_json', check.jsonColumn('program_json', r.program_json)),
    status: statusValue,
    error: check.textOrNull('error', r.error),
    result,
    appVersion: check.text('app_version', r.app_version),
    host: check.text('host', r.host),
    startedAt: check.text('started_at', r.started_at),
    finishedAt: check.text('finished_at', r.finished_at),
    elapsedMs: check.finite('elapsed_ms', r.elapsed_ms),
    evaluations,
  };
}

function migrate(file: string, db: Database, from: number): void {
  withBusyRetry(() => {
    db.exec('BEGIN IMMEDIATE');
    try {
      // Re-read inside the transaction: another process may have migrated meanwhile.
      let version = Number((db.get('PRAGMA user_version') as Row).user_version);
      while (version < SCHEMA_VERSION) {
        const step = MIGRATIONS[version];
        if (!step) throw new ProjectError(`${file}: no migration from project schema ${version}`, file);
        if (typeof step === 'string') db.exec(step);
        else step({ exec: (sql) => db.exec(sql), all: (sql) => db.all(sql), run: (sql, values) => void db.run(sql, values as never) });
        version++;
        db.exec(`PRAGMA user_version = ${version}`);
      }
      db.run('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)', [`migrated_from_${from}`, `${new Date().toISOString()} by ${appVersion()}`]);
      db.exec('COMMIT');
    } catch (e) {
      try {
        if (db.inTransaction) db.exec('ROLLBACK');
      } catch {
        // the next open plays the journal back
      }
      throw e;
    }
  });
}

/** This machine's name, stored with each run. */
export function hostName(): string {
  return os.hostname();
}
