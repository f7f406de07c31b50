/**
 * The project store: one `*.saikoro` file (SQLite as the application file format) holding
 * experiments, runs, their results and notes, and lab runs (single N-Queens runs stored from the
 * CLI). `Project` is the repository: the rest of the app reads and writes a project only
 * through it, and only the store's modules know SQL. Its parts: what a project holds
 * (project-records.ts), how it fails (errors.ts), the checks a file passes before it is used
 * (file-checks.ts), migration (migration.ts), the schema (schema.ts), the checks of every row
 * read (records.ts), and recovery from a dead writer (lock.ts, journal.ts).
 *
 * Durability: rollback journal (journal_mode=DELETE; the wasm VFS has no shared memory, so no
 * WAL) with synchronous=FULL. Every run is written in its own transaction the moment it ends;
 * nothing ever rewrites the whole file. A kill at any moment leaves either the old or the new
 * state: the next open rolls back the hot journal (after clearing the dead process's lock, see
 * lock.ts and journal.ts).
 *
 * Refusal: a file is checked before it is opened for writing (file-checks.ts), and every row is
 * checked as it is read (records.ts): JSON that is not JSON, a spec that is no longer valid, a
 * result whose objective count is not its config's. Whatever goes wrong, the caller gets a
 * ProjectError naming the file and what is wrong (errors.ts), and a refused file is never
 * written to.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { ExperimentSpec } from '../../src-shared/experiments/spec.ts';
import { canonicalJson } from '../../src-shared/experiments/canonical-json.ts';
import type { NqueensResult } from '../../src-shared/runtime/kinds/index.ts';
import { appVersion } from './app-version.ts';
import { CODE_WORDS, errnoCode, isSqliteError, ProjectError, sqliteMessage, writeFailure } from './errors.ts';
import { hasHotJournal, integrityCheck, MAX_FILE_NAME_BYTES, privateLink, readHeader, schemaCheck, writability } from './file-checks.ts';
import { rollbackHotJournal } from './journal.ts';
import { announceOpen, NotALockError, recoverAtOpen, stuckLockBreaker, type RecoveryNotice } from './lock.ts';
import { migrate } from './migration.ts';
import {
  labRunId,
  type EntrantFile,
  type EntrantTokenRecord,
  type ExperimentRecord,
  type LabRunRecord,
  type LabRunRequest,
  type NoteRecord,
  type ProjectInfo,
  type RemoteRequestRecord,
  type RunRecord,
} from './project-records.ts';
import * as check from './records.ts';
import * as competitionCheck from './competition-records.ts';
import type { Competition, Entrant } from '../../src-shared/competition/competition.ts';
import { hiddenInstanceNames } from '../../src-shared/competition/hidden.ts';
import { RecordError } from './records.ts';
import { APPLICATION_ID, CURRENT_SCHEMA, SCHEMA_VERSION } from './schema.ts';
import { Database, withBusyRetry, type Row } from './sqlite.ts';

/** Called only while holding the file's lock, so any journal present is a dead writer's. */
function rollbackIfHot(file: string, notice: RecoveryNotice): void {
  const kept = rollbackHotJournal(file)?.keptAside;
  if (kept) notice(`${file}-journal: ${kept.reason}; kept aside as ${kept.as}`);
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
      throw new ProjectError(
        `${path.join(path.dirname(file), `${name.slice(0, 40)}...${name.slice(-20)}`)}: file name too long (${Buffer.byteLength(name)} bytes; at most ${MAX_FILE_NAME_BYTES}, so that the files SQLite keeps beside it fit)`,
        file,
      );
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
      if (isSqliteError(e) && /I\/O error|full/i.test(e.message))
        throw new ProjectError(writeFailure(file, e).message.replace('could not write', 'cannot create'), file);
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
        throw new ProjectError(
          `${file}: could not roll back an interrupted transaction (${errnoCode(e) ?? (e as Error).message}); the file was left as it is`,
          file,
        );
      }
      // The header may have been restored to an older state: check it again.
      readHeader(file);
      release = announceOpen(file);
    } else {
      if (hasHotJournal(file))
        throw new ProjectError(
          `${file}: has an interrupted transaction (${path.basename(file)}-journal) that cannot be rolled back in a read-only folder; copy both files to a writable folder and open it there`,
          file,
        );
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
        // The tables must be those of the version in the header before a migration is offered:
        // a version number lowered by damage is corruption, not an older file.
        schemaCheck(file, checked, header.userVersion, retry);
        if (header.userVersion < SCHEMA_VERSION && readOnly) {
          if (asked)
            throw new ProjectError(
              `${file}: has project schema ${header.userVersion}; open it once for writing (e.g. saikoro project info ${file}) to migrate it to ${SCHEMA_VERSION}`,
              file,
            );
          throw new ProjectError(
            `${file}: has project schema ${header.userVersion} and cannot be migrated to ${SCHEMA_VERSION} here: ${readOnlyReason}. Copy it somewhere writable and open it there.`,
            file,
          );
        }
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

  /**
   * Checks the file as a fresh open would: its header, PRAGMA integrity_check and the tables of
   * its schema, through a new read-only connection (no page this one holds can hide a change).
   * For after work during which something else could write to it: a solver program that runs
   * without the sandbox has the person's permissions. Throws ProjectError ("corrupt Saikoro
   * project (...)") naming the file.
   */
  checkOnDisk(): void {
    const retry = <T>(fn: () => T): T => withBusyRetry(fn, undefined, this.onWait);
    const header = readHeader(this.path);
    let db: Database;
    try {
      db = new Database(this.dbPath, { fileMustExist: true, readOnly: true });
    } catch (e) {
      throw sqliteMessage(this.path, e);
    }
    try {
      integrityCheck(this.path, db, retry);
      schemaCheck(this.path, db, header.userVersion, retry);
    } catch (e) {
      throw this.failure(e, false);
    } finally {
      db.close();
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
           app_version, host, started_at, finished_at, elapsed_ms, evaluations, program_json, blind, remote)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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
          run.blind ? 1 : 0,
          run.remote ? 1 : 0,
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
      const rows = ids
        ? this.all(`${select} WHERE runs.id IN (SELECT value FROM json_each(?)) ORDER BY runs.id`, JSON.stringify(ids))
        : this.all(`${select} ORDER BY runs.id`);
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
    if (record.kind !== record.request.kind)
      throw new ProjectError(`lab run ${record.id}: kind ${record.kind} does not match its request (${record.request.kind})`);
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
      const rows =
        kind === undefined
          ? this.all('SELECT * FROM lab_runs ORDER BY finished_at, id')
          : this.all('SELECT * FROM lab_runs WHERE kind = ? ORDER BY finished_at, id', kind);
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
            elapsedMs: check.duration('elapsed_ms', r.elapsed_ms),
          };
        } catch (e) {
          return this.corrupt(`lab run ${id}`, e);
        }
      });
    });
  }

  /** The competition this file holds (docs/competition.md), or null for a project that is not one. */
  competition(): Competition | null {
    return this.read(() => {
      const row = this.all('SELECT * FROM competition WHERE id = 1')[0];
      if (!row) return null;
      try {
        const { definition, problems } = competitionCheck.definitionColumn('definition_json', competitionCheck.jsonOf('definition_json', row.definition_json));
        return {
          definition,
          problems,
          commitment: competitionCheck.commitmentColumn('commitment_json', competitionCheck.jsonOf('commitment_json', row.commitment_json)),
          secret: check.textOrNull('secret', row.secret),
          revealedAt: check.textOrNull('revealed_at', row.revealed_at),
          createdAt: check.text('created_at', row.created_at),
        };
      } catch (e) {
        return this.corrupt('the competition', e);
      }
    });
  }

  /** Makes this project a competition file; only an empty project (no experiments, runs or competition) can be one. */
  createCompetition(competition: Competition): void {
    competitionCheck.definitionColumn('definition', { definition: competition.definition, problems: competition.problems });
    competitionCheck.commitmentColumn('commitment', competition.commitment);
    this.write(() => {
      const counts = this.all('SELECT (SELECT count(*) FROM competition) AS c, (SELECT count(*) FROM experiments) AS e, (SELECT count(*) FROM runs) AS r')[0];
      if (Number(counts.c)) throw new ProjectError(`${this.path}: is a competition already`, this.path);
      if (Number(counts.e) || Number(counts.r))
        throw new ProjectError(`${this.path}: holds experiments or runs; a competition needs a file of its own`, this.path);
      this.db.run('INSERT INTO competition (id, definition_json, commitment_json, secret, revealed_at, created_at) VALUES (1, ?, ?, NULL, NULL, ?)', [
        canonicalJson({ definition: competition.definition, problems: competition.problems }),
        canonicalJson(competition.commitment),
        competition.createdAt,
      ]);
    });
  }

  /** The entrants of the competition, in the order they entered. */
  entrants(): Entrant[] {
    return this.read(() =>
      this.all('SELECT name, entry_json, created_at FROM entrants ORDER BY rowid').map((r) => {
        try {
          return {
            name: competitionCheck.entrantName('name', r.name),
            entry: competitionCheck.entryColumn('entry_json', competitionCheck.jsonOf('entry_json', r.entry_json)),
            createdAt: check.text('created_at', r.created_at),
          };
        } catch (e) {
          return this.corrupt(`entrant ${JSON.stringify(String(r.name))}`, e);
        }
      }),
    );
  }

  /** The archived files of a program entrant, by path (folders and links are in its entry). */
  entrantFiles(name: string): EntrantFile[] {
    return this.read(() =>
      this.all('SELECT path, mode, sha256, content FROM entrant_files WHERE entrant = ? ORDER BY path', name).map((r) => {
        try {
          const file = check.text('path', r.path);
          if (!competitionCheck.safeRelative(file)) throw new RecordError('path', `must be a relative path inside the folder, got ${JSON.stringify(file)}`);
          const mode = check.safeInteger('mode', r.mode);
          if (mode !== 0o644 && mode !== 0o755) throw new RecordError('mode', `must be 644 or 755 (octal), got ${mode.toString(8)}`);
          if (!(r.content instanceof Uint8Array)) throw new RecordError('content', "must be the file's bytes");
          const sha256 = check.text('sha256', r.sha256);
          const actual = createHash('sha256').update(r.content).digest('hex');
          if (actual !== sha256) throw new RecordError('content', `its sha256 is ${actual}, the row says ${sha256}`);
          return { path: file, mode, sha256, content: r.content };
        } catch (e) {
          return this.corrupt(`entrant ${JSON.stringify(name)}'s file ${JSON.stringify(String(r.path))}`, e);
        }
      }),
    );
  }

  /**
   * Enters an entrant in one transaction: its row, its archived files, and the competition's
   * experiments as they now are (`experiments`: added, or their stored spec replaced; the caller
   * derives them, competitionSpecs, so every earlier run keeps its id). Refuses a name taken.
   */
  addEntrant(entrant: Entrant, files: readonly EntrantFile[], experiments: readonly ExperimentSpec[]): void {
    competitionCheck.entrantName('name', entrant.name);
    competitionCheck.entryColumn('entry', entrant.entry);
    this.write(() => {
      if (!this.all('SELECT 1 FROM competition WHERE id = 1').length)
        throw new ProjectError(`${this.path}: is not a competition (make one with saikoro competition new)`, this.path);
      if (this.all('SELECT 1 FROM entrants WHERE name = ?', entrant.name).length)
        throw new ProjectError(`${this.path}: an entrant named "${entrant.name}" has entered already; choose another name`, this.path);
      this.db.run('INSERT INTO entrants (name, entry_json, created_at) VALUES (?, ?, ?)', [entrant.name, canonicalJson(entrant.entry), entrant.createdAt]);
      for (const f of files) {
        const actual = createHash('sha256').update(f.content).digest('hex');
        if (actual !== f.sha256)
          throw new ProjectError(`${this.path}: not storing entrant ${entrant.name}'s file ${f.path}: its sha256 is ${actual}, not ${f.sha256}`, this.path);
      }
      for (const f of files)
        this.db.run('INSERT INTO entrant_files (entrant, path, mode, sha256, content) VALUES (?, ?, ?, ?, ?)', [
          entrant.name,
          f.path,
          f.mode,
          f.sha256,
          f.content,
        ]);
      for (const spec of experiments) {
        const json = canonicalJson(spec);
        if (this.all('SELECT 1 FROM experiments WHERE name = ?', spec.name).length)
          this.db.run('UPDATE experiments SET spec_json = ? WHERE name = ?', [json, spec.name]);
        else this.db.run('INSERT INTO experiments (name, spec_json, created_at) VALUES (?, ?, ?)', [spec.name, json, entrant.createdAt]);
      }
    });
  }

  /**
   * The instances whose bands, weights and normalisation nothing may show (docs/competition.md):
   * those an experiment marks hidden, unless this file's competition has been revealed. A file
   * with no competition (a shard's results file) keeps them hidden: only the competition's own
   * file can be revealed.
   */
  hiddenInstances(): Set<string> {
    if (this.competition()?.secret) return new Set();
    return hiddenInstanceNames(this.experiments().map((e) => e.spec));
  }

  /** Stores the revealed secret (checked against the commitment by the caller) and when. */
  revealCompetition(secret: string, at: string): void {
    this.write(() => {
      const row = this.all('SELECT secret FROM competition WHERE id = 1')[0];
      if (!row) throw new ProjectError(`${this.path}: is not a competition`, this.path);
      if (row.secret !== null && row.secret !== undefined) return;
      this.db.run('UPDATE competition SET secret = ?, revealed_at = ? WHERE id = 1', [secret, at]);
    });
  }

  /**
   * Stores a new token of a remote entrant (its sha256 only) and revokes the entrant's earlier
   * ones, in one transaction: an entrant has one valid token at a time.
   */
  addEntrantToken(entrant: string, sha256: string, createdAt: string): void {
    competitionCheck.tokenHash('sha256', sha256);
    this.write(() => {
      if (!this.all('SELECT 1 FROM entrants WHERE name = ?', entrant).length)
        throw new ProjectError(`${this.path}: has no entrant named "${entrant}"`, this.path);
      this.db.run('UPDATE entrant_tokens SET revoked_at = ? WHERE entrant = ? AND revoked_at IS NULL', [createdAt, entrant]);
      this.db.run('INSERT INTO entrant_tokens (sha256, entrant, created_at, revoked_at) VALUES (?, ?, ?, NULL)', [sha256, entrant, createdAt]);
    });
  }

  /** Revokes every valid token of the entrant; returns how many were valid. */
  revokeEntrantTokens(entrant: string, at: string): number {
    return this.write(() => Number(this.db.run('UPDATE entrant_tokens SET revoked_at = ? WHERE entrant = ? AND revoked_at IS NULL', [at, entrant]).changes));
  }

  /** The token whose sha256 this is, valid or revoked, or undefined. */
  entrantToken(sha256: string): EntrantTokenRecord | undefined {
    return this.entrantTokens(sha256)[0];
  }

  /** The entrants' tokens (one by its sha256, or all), oldest first. */
  entrantTokens(sha256?: string): EntrantTokenRecord[] {
    return this.read(() =>
      (sha256 === undefined
        ? this.all('SELECT * FROM entrant_tokens ORDER BY created_at, rowid')
        : this.all('SELECT * FROM entrant_tokens WHERE sha256 = ?', sha256)
      ).map((r) => {
        try {
          return {
            sha256: competitionCheck.tokenHash('sha256', r.sha256),
            entrant: competitionCheck.entrantName('entrant', r.entrant),
            createdAt: check.text('created_at', r.created_at),
            revokedAt: check.textOrNull('revoked_at', r.revoked_at),
          };
        } catch (e) {
          return this.corrupt('an entrant token', e);
        }
      }),
    );
  }

  /**
   * Stores requests of remote runs in one transaction; a request stored already (same run and
   * seq) is left as it is, so the server's log can be folded in again after a crash.
   */
  putRemoteRequests(records: readonly RemoteRequestRecord[]): void {
    for (const r of records) competitionCheck.remoteRequest('remote request', r);
    if (records.length === 0) return;
    this.write(() => {
      for (const r of records)
        this.db.run('INSERT OR IGNORE INTO remote_requests (run_id, seq, entrant, evaluations, sequences, received_at) VALUES (?, ?, ?, ?, ?, ?)', [
          r.runId,
          r.seq,
          r.entrant,
          r.evaluations,
          r.sequences,
          r.receivedAt,
        ]);
    });
  }

  /** The stored requests of one remote run, in order (seq 0, 1, ...; a gap is corruption). */
  remoteRequests(runId: string): RemoteRequestRecord[] {
    return this.read(() =>
      this.all('SELECT * FROM remote_requests WHERE run_id = ? ORDER BY seq', runId).map((r, i) => {
        try {
          const record: RemoteRequestRecord = {
            runId: check.text('run_id', r.run_id),
            seq: check.safeInteger('seq', r.seq),
            entrant: competitionCheck.entrantName('entrant', r.entrant),
            evaluations: check.count('evaluations', r.evaluations),
            sequences: r.sequences instanceof Uint8Array ? r.sequences : new Uint8Array(0),
            receivedAt: check.text('received_at', r.received_at),
          };
          if (!(r.sequences instanceof Uint8Array)) throw new RecordError('sequences', 'must be bytes');
          if (record.seq !== i) throw new RecordError('seq', `is ${record.seq}, expected ${i} (requests ${i}..${record.seq - 1} are missing)`);
          return record;
        } catch (e) {
          return this.corrupt(`remote run ${runId}'s request ${String(r.seq)}`, e);
        }
      }),
    );
  }

  /** Per remote run with stored requests: how many requests and evaluations, and its entrant. */
  remoteRunCounts(): Map<string, { entrant: string; requests: number; evaluations: number }> {
    return this.read(
      () =>
        new Map(
          this.all(
            'SELECT run_id, entrant, count(*) AS requests, sum(evaluations) AS evaluations FROM remote_requests GROUP BY run_id, entrant ORDER BY run_id',
          ).map((r) => [String(r.run_id), { entrant: String(r.entrant), requests: Number(r.requests), evaluations: Number(r.evaluations) }]),
        ),
    );
  }

  addNote(text: string, experiment: string | null = null): number {
    if (text.trim() === '') throw new ProjectError('a note needs some text');
    return this.write(() =>
      Number(this.db.run('INSERT INTO notes (experiment, text, created_at) VALUES (?, ?, ?)', [experiment, text, new Date().toISOString()]).lastInsertRowid),
    );
  }

  notes(experiment?: string): NoteRecord[] {
    return this.read(() => {
      const rows =
        experiment === undefined ? this.all('SELECT * FROM notes ORDER BY id') : this.all('SELECT * FROM notes WHERE experiment = ? ORDER BY id', experiment);
      return rows.map((r) => {
        try {
          return {
            id: Number(r.id),
            experiment: check.textOrNull('experiment', r.experiment),
            text: check.text('text', r.text),
            createdAt: check.text('created_at', r.created_at),
          };
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

function toRunRecord(r: Row): RunRecord {
  const config = check.config('config_json', check.jsonColumn('config_json', r.config_json));
  const statusValue = check.status('status', r.status);
  const result =
    r.result_json === null || r.result_json === undefined ? null : check.solverResult('result_json', check.jsonColumn('result_json', r.result_json), config);
  if (statusValue === 'done' && result === null) throw new RecordError('result_json', 'is missing for a done run');
  // SQLite hands an integer beyond 2^53 back as a BigInt: seed refuses it by name.
  const seed = check.seed('seed', r.seed);
  const evaluations = r.evaluations === null ? null : check.count('evaluations', r.evaluations);
  if (result !== null && evaluations !== result.evaluations)
    throw new RecordError('evaluations', `the row says ${evaluations}, its result ${result.evaluations}`);
  const program =
    r.program_json === null || r.program_json === undefined ? null : check.program('program_json', check.jsonColumn('program_json', r.program_json));
  if (program !== null && check.flag('remote', r.remote)) throw new RecordError('remote', "a remote entrant's run has no program (program_json must be NULL)");
  // Results stored before the cwd was kept relative (issue 28) hold it absolute: where the
  // project's folder was then, resolved with the entry's cwd. Read as the entry's cwd, so a
  // copied or moved folder still verifies.
  if (result?.program && typeof result.program.cwd === 'string' && path.isAbsolute(result.program.cwd) && program && !path.isAbsolute(program.cwd ?? '.'))
    result.program = { ...result.program, cwd: program.cwd ?? null };
  return {
    id: check.text('id', r.id),
    instance: check.text('instance', r.instance),
    label: check.text('label', r.label),
    config,
    solver: check.text('solver', r.solver),
    params: check.params('params_json', check.jsonColumn('params_json', r.params_json)),
    seed,
    budget: check.budget('budget_json', check.jsonColumn('budget_json', r.budget_json)),
    program,
    ...(check.flag('blind', r.blind) ? { blind: true as const } : {}),
    ...(check.flag('remote', r.remote) ? { remote: true as const } : {}),
    status: statusValue,
    error: check.textOrNull('error', r.error),
    result,
    appVersion: check.text('app_version', r.app_version),
    host: check.text('host', r.host),
    startedAt: check.text('started_at', r.started_at),
    finishedAt: check.text('finished_at', r.finished_at),
    elapsedMs: check.duration('elapsed_ms', r.elapsed_ms),
    evaluations,
  };
}
