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
 * Refusal: before SQLite opens a file, its 100-byte header is read. A file that is not SQLite,
 * is another application's database, or has a newer schema is refused with a message and never
 * opened for writing. A Saikoro file is then opened read-only and checked with
 * PRAGMA quick_check; only if that passes is it opened for writing (and migrated if older).
 * A journal left by a killed writer is rolled back first (journal.ts explains why the store
 * does this itself).
 */
import fs from 'node:fs';
import os from 'node:os';
import type { DiceConfig } from '../../src-shared/problems/dice/config.ts';
import type { BudgetSpec, ExperimentSpec } from '../../src-shared/experiments/spec.ts';
import type { ParamValue, SolverResult } from '../../src-shared/solvers/types.ts';
import { canonicalJson } from '../../src-shared/experiments/canonical-json.ts';
import { sha256Hex } from '../../src-shared/experiments/sha256.ts';
import type { NqueensResult, NqueensRunRequest } from '../../src-shared/problems/nqueens/run-kind.ts';
import { appVersion } from './app-version.ts';
import { rollbackHotJournal } from './journal.ts';
import { announceOpen, recoverAtOpen, stuckLockBreaker } from './lock.ts';
import { APPLICATION_ID, CURRENT_SCHEMA, MIGRATIONS, SCHEMA_VERSION } from './schema.ts';
import { Database, withBusyRetry } from './sqlite.ts';

/** A project file that cannot be used; the message names the file and the reason. */
export class ProjectError extends Error {
  constructor(message: string) {
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

interface Header {
  applicationId: number;
  userVersion: number;
}

/** Classifies a file from its header alone; throws ProjectError for anything not ours. */
export function readHeader(file: string): Header {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new ProjectError(`${file}: no such file (create one with: saikoro project new ${file})`);
    if (code === 'EISDIR') throw new ProjectError(`${file}: is a directory, not a project file`);
    if (code === 'EACCES') throw new ProjectError(`${file}: permission denied`);
    throw new ProjectError(`${file}: cannot open (${(e as Error).message})`);
  }
  try {
    const stat = fs.fstatSync(fd);
    if (stat.isDirectory()) throw new ProjectError(`${file}: is a directory, not a project file`);
    const header = Buffer.alloc(100);
    const read = fs.readSync(fd, header, 0, 100, 0);
    if (read === 0) throw new ProjectError(`${file}: empty file, not a Saikoro project`);
    if (read < 16 || header.toString('latin1', 0, 16) !== SQLITE_MAGIC) throw new ProjectError(`${file}: not a Saikoro project (not an SQLite database)`);
    if (read < 100) throw new ProjectError(`${file}: corrupt Saikoro project (truncated header, ${stat.size} bytes)`);
    const userVersion = header.readInt32BE(60);
    const applicationId = header.readUInt32BE(68);
    if (applicationId !== APPLICATION_ID) {
      const id = applicationId === 0 ? 'no application id' : `application id 0x${applicationId.toString(16).padStart(8, '0')}`;
      throw new ProjectError(`${file}: an SQLite database but not a Saikoro project (${id})`);
    }
    if (userVersion > SCHEMA_VERSION)
      throw new ProjectError(`${file}: written by a newer Saikoro (project schema ${userVersion}; this version reads up to ${SCHEMA_VERSION}). Update Saikoro to open it.`);
    if (userVersion < 1) throw new ProjectError(`${file}: corrupt Saikoro project (schema version ${userVersion})`);
    return { applicationId, userVersion };
  } finally {
    fs.closeSync(fd);
  }
}

/** Called only while holding the file's lock, so any journal present is a dead writer's. */
function rollbackIfHot(file: string): void {
  rollbackHotJournal(file);
}

function sqliteMessage(file: string, e: unknown): ProjectError {
  const message = e instanceof Error ? e.message : String(e);
  if (/malformed|not a database|corrupt/i.test(message)) return new ProjectError(`${file}: corrupt Saikoro project (${message})`);
  if (/locked/i.test(message)) return new ProjectError(`${file}: in use by another process for too long (${message})`);
  return new ProjectError(`${file}: cannot be read (${message})`);
}

function configure(db: Database): void {
  db.exec('PRAGMA journal_mode = DELETE; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;');
}

function quickCheck(file: string, db: Database): void {
  const rows = withBusyRetry(() => db.all('PRAGMA quick_check'), undefined, stuckLockBreaker(file, () => rollbackIfHot(file))) as Row[];
  const problems = rows.map((r) => String(Object.values(r)[0])).filter((v) => v !== 'ok');
  if (problems.length) throw new ProjectError(`${file}: corrupt Saikoro project (integrity check: ${problems.slice(0, 3).join('; ')})`);
}

export interface OpenOptions {
  /** Open for reading only: no migration, no writes (an older schema is refused). */
  readOnly?: boolean;
}

export class Project {
  private closed = false;

  private readonly onWait: (waitedMs: number) => void;

  private constructor(
    readonly path: string,
    private readonly db: Database,
    readonly readOnly: boolean,
    private readonly release: () => void,
  ) {
    this.onWait = stuckLockBreaker(path, () => rollbackIfHot(path));
  }

  /** Creates a new, empty project; refuses to overwrite an existing file. */
  static create(file: string): Project {
    if (fs.existsSync(file)) throw new ProjectError(`${file}: already exists; not overwriting it`);
    let db: Database;
    try {
      fs.closeSync(fs.openSync(file, 'wx'));
      db = new Database(file);
    } catch (e) {
      fs.rmSync(file, { force: true });
      throw new ProjectError(`${file}: cannot create (${(e as Error).message})`);
    }
    const release = announceOpen(file);
    try {
      configure(db);
      db.exec('BEGIN');
      db.exec(CURRENT_SCHEMA);
      db.run('INSERT INTO meta (key, value) VALUES (?, ?), (?, ?)', ['created_at', new Date().toISOString(), 'created_by', appVersion()]);
      db.exec(`PRAGMA application_id = ${APPLICATION_ID}; PRAGMA user_version = ${SCHEMA_VERSION};`);
      db.exec('COMMIT');
    } catch (e) {
      db.close();
      release();
      fs.rmSync(file, { force: true });
      throw new ProjectError(`${file}: cannot create (${(e as Error).message})`);
    }
    return new Project(file, db, false, release);
  }

  /** Opens an existing project after checking it; see the module comment. */
  static open(file: string, options: OpenOptions = {}): Project {
    const header = readHeader(file);
    if (options.readOnly && header.userVersion < SCHEMA_VERSION)
      throw new ProjectError(`${file}: has project schema ${header.userVersion}; open it once for writing (e.g. saikoro project info ${file}) to migrate it to ${SCHEMA_VERSION}`);
    // See journal.ts and lock.ts: SQLite on this VFS would neither clear a dead process's
    // lock nor roll its interrupted transaction back.
    try {
      recoverAtOpen(file, () => rollbackIfHot(file));
    } catch (e) {
      throw new ProjectError(`${file}: could not roll back an interrupted transaction (${(e as Error).message}); the file was left as it is`);
    }
    // The header may have been restored to an older state: check it again.
    readHeader(file);
    const release = announceOpen(file);
    try {
      const check = new Database(file, { readOnly: true });
      try {
        quickCheck(file, check);
      } catch (e) {
        throw e instanceof ProjectError ? e : sqliteMessage(file, e);
      } finally {
        check.close();
      }
      let db: Database;
      try {
        db = new Database(file, { fileMustExist: true, readOnly: Boolean(options.readOnly) });
      } catch (e) {
        throw sqliteMessage(file, e);
      }
      try {
        if (!options.readOnly) configure(db);
        else db.exec('PRAGMA foreign_keys = ON;');
        quickCheck(file, db);
        const version = Number((withBusyRetry(() => db.get('PRAGMA user_version'), undefined, stuckLockBreaker(file, () => rollbackIfHot(file))) as Row).user_version);
        if (version < SCHEMA_VERSION) migrate(file, db, version);
      } catch (e) {
        db.close();
        throw e instanceof ProjectError ? e : sqliteMessage(file, e);
      }
      return new Project(file, db, Boolean(options.readOnly), release);
    } catch (e) {
      release();
      throw e;
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.db.close();
    this.release();
  }

  private write<T>(fn: () => T): T {
    if (this.readOnly) throw new ProjectError(`${this.path}: opened read-only`);
    return withBusyRetry(
      () => {
        this.db.exec('BEGIN IMMEDIATE');
        try {
          const out = fn();
          this.db.exec('COMMIT');
          return out;
        } catch (e) {
          if (this.db.inTransaction) this.db.exec('ROLLBACK');
          throw e;
        }
      },
      undefined,
      this.onWait,
    );
  }

  private all(sql: string, values?: Parameters<Database['all']>[1]): Row[] {
    return withBusyRetry(() => this.db.all(sql, values), undefined, this.onWait) as Row[];
  }

  info(): ProjectInfo {
    const meta = new Map(this.all('SELECT key, value FROM meta').map((r) => [String(r.key), String(r.value)]));
    const counts = this.all("SELECT (SELECT count(*) FROM experiments) AS e, (SELECT count(*) FROM runs WHERE status = 'done') AS d, (SELECT count(*) FROM runs WHERE status = 'failed') AS f, (SELECT count(*) FROM notes) AS n, (SELECT count(*) FROM lab_runs WHERE status = 'done') AS ld, (SELECT count(*) FROM lab_runs WHERE status = 'failed') AS lf")[0];
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
        throw new ProjectError(`${this.path}: an experiment named "${spec.name}" already exists with a different spec; choose another name`);
      }
      this.db.run('INSERT INTO experiments (name, spec_json, created_at) VALUES (?, ?, ?)', [spec.name, json, new Date().toISOString()]);
      return 'added';
    });
  }

  experiments(): ExperimentRecord[] {
    return this.all('SELECT name, spec_json, created_at FROM experiments ORDER BY created_at, name').map((r) => ({
      name: String(r.name),
      spec: JSON.parse(String(r.spec_json)) as ExperimentSpec,
      createdAt: String(r.created_at),
    }));
  }

  experiment(name: string): ExperimentRecord | undefined {
    return this.experiments().find((e) => e.name === name);
  }

  /**
   * Stores one finished run in its own transaction. A finished ('done') run is never
   * replaced; a failed one is replaced by a later attempt. Returns whether anything changed.
   */
  putRun(run: RunRecord): boolean {
    return this.write(() => {
      const existing = this.db.get('SELECT status FROM runs WHERE id = ?', run.id) as Row | null;
      if (existing?.status === 'done') return false;
      if (existing) this.db.run('DELETE FROM runs WHERE id = ?', run.id);
      this.db.run(
        `INSERT INTO runs (id, instance, label, config_json, solver, params_json, seed, budget_json, status, error,
           app_version, host, started_at, finished_at, elapsed_ms, evaluations)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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
        ],
      );
      if (run.result) this.db.run('INSERT INTO results (run_id, result_json) VALUES (?, ?)', [run.id, JSON.stringify(run.result)]);
      return true;
    });
  }

  /** Status of every stored run, by id (cheap: no results are read). */
  runStatuses(): Map<string, 'done' | 'failed'> {
    return new Map(this.all('SELECT id, status FROM runs').map((r) => [String(r.id), r.status as 'done' | 'failed']));
  }

  /** The stored runs with these ids (all runs when ids is omitted), results included. */
  runs(ids?: readonly string[]): RunRecord[] {
    const select = `SELECT runs.*, results.result_json FROM runs LEFT JOIN results ON results.run_id = runs.id`;
    const rows = ids ? this.all(`${select} WHERE runs.id IN (SELECT value FROM json_each(?)) ORDER BY runs.id`, JSON.stringify(ids)) : this.all(`${select} ORDER BY runs.id`);
    return rows.map(toRunRecord);
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
    const rows = kind === undefined ? this.all('SELECT * FROM lab_runs ORDER BY finished_at, id') : this.all('SELECT * FROM lab_runs WHERE kind = ? ORDER BY finished_at, id', kind);
    return rows.map((r) => ({
      id: String(r.id),
      kind: String(r.kind) as LabRunRecord['kind'],
      request: JSON.parse(String(r.request_json)) as LabRunRequest,
      status: r.status as 'done' | 'failed',
      error: r.error === null ? null : String(r.error),
      result: r.result_json === null ? null : (JSON.parse(String(r.result_json)) as NqueensResult),
      appVersion: String(r.app_version),
      host: String(r.host),
      startedAt: String(r.started_at),
      finishedAt: String(r.finished_at),
      elapsedMs: Number(r.elapsed_ms),
    }));
  }

  addNote(text: string, experiment: string | null = null): number {
    if (text.trim() === '') throw new ProjectError('a note needs some text');
    return this.write(() => Number(this.db.run('INSERT INTO notes (experiment, text, created_at) VALUES (?, ?, ?)', [experiment, text, new Date().toISOString()]).lastInsertRowid));
  }

  notes(experiment?: string): NoteRecord[] {
    const rows = experiment === undefined ? this.all('SELECT * FROM notes ORDER BY id') : this.all('SELECT * FROM notes WHERE experiment = ? ORDER BY id', experiment);
    return rows.map((r) => ({ id: Number(r.id), experiment: r.experiment === null ? null : String(r.experiment), text: String(r.text), createdAt: String(r.created_at) }));
  }
}

function toRunRecord(r: Row): RunRecord {
  return {
    id: String(r.id),
    instance: String(r.instance),
    label: String(r.label),
    config: JSON.parse(String(r.config_json)) as DiceConfig,
    solver: String(r.solver),
    params: JSON.parse(String(r.params_json)) as Record<string, ParamValue>,
    seed: Number(r.seed),
    budget: JSON.parse(String(r.budget_json)) as BudgetSpec,
    status: r.status as 'done' | 'failed',
    error: r.error === null ? null : String(r.error),
    result: r.result_json === null || r.result_json === undefined ? null : (JSON.parse(String(r.result_json)) as SolverResult),
    appVersion: String(r.app_version),
    host: String(r.host),
    startedAt: String(r.started_at),
    finishedAt: String(r.finished_at),
    elapsedMs: Number(r.elapsed_ms),
    evaluations: r.evaluations === null ? null : Number(r.evaluations),
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
        if (!step) throw new ProjectError(`${file}: no migration from project schema ${version}`);
        db.exec(step);
        version++;
        db.exec(`PRAGMA user_version = ${version}`);
      }
      db.run('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)', [`migrated_from_${from}`, `${new Date().toISOString()} by ${appVersion()}`]);
      db.exec('COMMIT');
    } catch (e) {
      if (db.inTransaction) db.exec('ROLLBACK');
      throw e;
    }
  });
}

/** This machine's name, stored with each run. */
export function hostName(): string {
  return os.hostname();
}
