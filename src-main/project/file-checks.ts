/**
 * The checks a file passes before the store uses it. Before SQLite opens a file, it is checked
 * with plain file I/O (readHeader): a regular file (a FIFO, a device or /proc/self/mem is
 * refused without reading it), with an SQLite header, Saikoro's application id, a schema this
 * version reads, and a size that is a whole number of pages. A Saikoro file is then opened
 * read-only and checked with PRAGMA integrity_check (which, unlike quick_check, also finds an
 * index that disagrees with its table) and against the tables and columns of its schema
 * version (schemaCheck); only if that passes is it opened for writing (and migrated if older).
 *
 * Read-only places: in a folder that cannot be written (a read-only file system, or no
 * permission), the file is opened read-only through a symbolic link in a private temporary
 * folder (privateLink), so the binding's lock directory lives there; nothing is written beside
 * the file.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { errnoCode, openFailure, ProjectError } from './errors.ts';
import { KEPT_SUFFIX_BYTES } from './keep-aside.ts';
import { APPLICATION_ID, CURRENT_SCHEMA, SCHEMA_V1, SCHEMA_V2, SCHEMA_V4, SCHEMA_V5, SCHEMA_V6, SCHEMA_VERSION } from './schema.ts';
import { Database, type Row } from './sqlite.ts';

const SQLITE_MAGIC = 'SQLite format 3\0';

/**
 * Longest file name (in bytes) a project may have: SQLite and the store put files beside it
 * whose names add up to `.open.<host>.<pid>` (or `-journal.kept-<time>`) to it, and a name longer than the file system's
 * 255 bytes fails at the first write.
 */
export const MAX_FILE_NAME_BYTES = 255 - Math.max('-journal'.length + KEPT_SUFFIX_BYTES, `.open.${os.hostname()}.${2 ** 22}`.length);

export interface Header {
  applicationId: number;
  userVersion: number;
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
      throw new ProjectError(
        `${file}: written by a newer Saikoro (project schema ${userVersion}; this version reads up to ${SCHEMA_VERSION}). Update Saikoro to open it.`,
        file,
      );
    if (userVersion < 1) throw new ProjectError(`${file}: corrupt Saikoro project (schema version ${userVersion})`, file);
    // SQLite writes whole pages: any other size is a file cut short (or padded) by something else.
    const rawPageSize = header.readUInt16BE(16);
    const pageSize = rawPageSize === 1 ? 65536 : rawPageSize;
    if (pageSize < 512 || (pageSize & (pageSize - 1)) !== 0)
      throw new ProjectError(`${file}: corrupt Saikoro project (page size ${rawPageSize} in the header)`, file);
    if (stat.size % pageSize !== 0)
      throw new ProjectError(
        `${file}: corrupt Saikoro project (${stat.size} bytes is not a whole number of ${pageSize}-byte pages: the file was cut short or added to)`,
        file,
      );
    const pages = header.readUInt32BE(28);
    const headerValid = pages > 0 && header.readUInt32BE(92) === header.readUInt32BE(24);
    if (headerValid && pages * pageSize > stat.size)
      throw new ProjectError(
        `${file}: corrupt Saikoro project (the header counts ${pages} pages, the file holds ${stat.size / pageSize}: it was cut short)`,
        file,
      );
    return { applicationId, userVersion };
  } finally {
    try {
      fs.closeSync(fd);
    } catch {
      // nothing was written through it
    }
  }
}

/** Whether a journal with content is beside the file (an interrupted transaction). */
export function hasHotJournal(file: string): boolean {
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

/** Where a file lives, for writing: can its folder and the file itself be written? */
export function writability(file: string): { folder: boolean; file: boolean } {
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
export function privateLink(file: string): { path: string; dispose: () => void } {
  let folder: string;
  try {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-read-'));
    fs.symlinkSync(path.resolve(file), path.join(folder, path.basename(file)));
  } catch (e) {
    throw new ProjectError(
      `${file}: is in a read-only folder, and no temporary folder to read it from could be made (${errnoCode(e) ?? (e as Error).message})`,
      file,
    );
  }
  return { path: path.join(folder, path.basename(file)), dispose: () => fs.rmSync(folder, { recursive: true, force: true }) };
}

/** The tables and columns each schema version has (from the schema text itself). */
export const SCHEMA_TEXT: Record<number, string> = { 1: SCHEMA_V1, 2: SCHEMA_V2, 3: SCHEMA_V4, 4: SCHEMA_V4, 5: SCHEMA_V5, 6: SCHEMA_V6, 7: CURRENT_SCHEMA };
const expectedColumns = new Map<number, Map<string, string[]>>();

/**
 * The table names of a schema version, read from its text (each `CREATE TABLE name`): a file's
 * check needs the columns of its own version only (schemaColumns, from SQLite itself), and of
 * the other versions only which tables they have, so it builds one in-memory database, not one
 * per version (six more at every open cost a command that opens a project a fifth of its
 * start-up). tests/main/project/schema-check.test.ts checks these names against SQLite's.
 */
export function schemaTables(version: number): string[] {
  return [...SCHEMA_TEXT[version].matchAll(/\bCREATE\s+TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?"?(\w+)"?/gi)].map((m) => m[1]);
}

export function schemaColumns(version: number): Map<string, string[]> {
  let tables = expectedColumns.get(version);
  if (!tables) {
    const db = new Database(':memory:');
    try {
      db.exec(SCHEMA_TEXT[version]);
      tables = new Map();
      for (const { name } of db.all("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") as { name: string }[])
        tables.set(
          name,
          (db.all(`PRAGMA table_info(${name})`) as { name: string }[]).map((c) => c.name),
        );
    } finally {
      db.close();
    }
    expectedColumns.set(version, tables);
  }
  return tables;
}

/**
 * PRAGMA integrity_check: b-tree structure, free list, and every index against its table (a row
 * missing from the runs index passes quick_check, and lookups by id then miss the run).
 */
export function integrityCheck(file: string, db: Database, retry: <T>(fn: () => T) => T): void {
  const rows = retry(() => db.all('PRAGMA integrity_check(20)')) as Row[];
  const problems = rows.map((r) => String(Object.values(r)[0])).filter((v) => v !== 'ok');
  if (problems.length)
    throw new ProjectError(`${file}: corrupt Saikoro project (integrity check: ${problems.slice(0, 3).join('; ')}${problems.length > 3 ? '; ...' : ''})`, file);
}

/**
 * The tables of the file's schema version, with exactly their columns (DROP TABLE meta was not
 * noticed until a query failed). Saikoro tables of another version are refused too, so a file
 * whose version number was damaged is never "migrated". Tables Saikoro never had are ignored.
 */
export function schemaCheck(file: string, db: Database, version: number, retry: <T>(fn: () => T) => T): void {
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
    for (const table of schemaTables(v))
      if (!expected.has(table) && present.has(table)) throw corrupt(`table ${table} is not part of project schema ${version}, the version in its header`);
}

/**
 * Whether a file carries Saikoro's mark (an SQLite header with Saikoro's application id),
 * whatever its schema or state: a solver program is never shown one (src-main/app/program-gate.ts).
 */
export function carriesProjectMark(file: string): boolean {
  let fd: number | null = null;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
    if (!fs.fstatSync(fd).isFile()) return false;
    const header = Buffer.alloc(72);
    if (fs.readSync(fd, header, 0, 72, 0) < 72) return false;
    return header.toString('latin1', 0, 16) === SQLITE_MAGIC && header.readUInt32BE(68) === APPLICATION_ID;
  } catch {
    return false;
  } finally {
    if (fd !== null) fs.closeSync(fd);
  }
}

/** Whether `file` is the project file `project` or one it keeps beside it (its journal, lock, kept-aside copies). */
export function isProjectOrBeside(file: string, project: string): boolean {
  const f = path.resolve(file);
  const p = path.resolve(project);
  return f === p || f.startsWith(`${p}-`) || f.startsWith(`${p}.`);
}
