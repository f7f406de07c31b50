import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProjectError } from '../../../src-main/project/errors.ts';
import { Project } from '../../../src-main/project/store.ts';
import { APPLICATION_ID, SCHEMA_VERSION } from '../../../src-main/project/schema.ts';
import { Database } from '../../../src-main/project/sqlite.ts';
import { fakeRun, fileDigest, tempDir } from './fixtures.ts';

let dir: string;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const spec = {
  name: 'demo',
  instances: [{ name: 'so-n20', track: 'so' as const, n: 20 }],
  solvers: [{ name: 'random' }],
  seeds: { count: 2 },
  budget: { evaluations: 100 },
};

/** Leftovers of a connection: lock directory, journal, open markers. */
function sidecars(file: string): string[] {
  return fs.readdirSync(path.dirname(file)).filter((n) => n !== path.basename(file) && n.startsWith(path.basename(file)));
}

describe('project file', () => {
  it('is created with the application id, schema version and metadata, and reopens', () => {
    const file = path.join(dir, 'p.saikoro');
    const project = Project.create(file);
    project.close();
    const header = fs.readFileSync(file).subarray(0, 100);
    expect(header.readUInt32BE(68)).toBe(APPLICATION_ID);
    expect(header.readInt32BE(60)).toBe(SCHEMA_VERSION);
    const again = Project.open(file);
    const info = again.info();
    expect(info).toMatchObject({ schemaVersion: SCHEMA_VERSION, experiments: 0, runs: { done: 0, failed: 0 }, notes: 0 });
    expect(info.createdBy).toMatch(/^saikoro \d+\.\d+\.\d+/);
    again.close();
    expect(sidecars(file)).toEqual([]);
  });

  it('refuses to create over an existing file', () => {
    const file = path.join(dir, 'p.saikoro');
    fs.writeFileSync(file, 'keep me');
    expect(() => Project.create(file)).toThrow(/already exists/);
    expect(fs.readFileSync(file, 'utf8')).toBe('keep me');
  });

  it('stores experiments: the same spec twice is a no-op, a different one under the name is refused', () => {
    const project = Project.create(path.join(dir, 'p.saikoro'));
    expect(project.addExperiment(spec)).toBe('added');
    expect(project.addExperiment(structuredClone(spec))).toBe('unchanged');
    expect(() => project.addExperiment({ ...spec, seeds: { count: 3 } })).toThrow(/already exists with a different spec/);
    expect(project.experiment('demo')?.spec).toEqual(spec);
    project.close();
  });

  it('round-trips runs; a done run is never replaced, a failed one is', () => {
    const file = path.join(dir, 'p.saikoro');
    const project = Project.create(file);
    const failed = fakeRun(1, { status: 'failed' });
    expect(project.putRun(failed)).toBe(true);
    expect(project.run(failed.id)).toEqual(failed);
    const done = fakeRun(1);
    expect(project.putRun(done)).toBe(true);
    expect(project.putRun(fakeRun(1, { status: 'failed' }))).toBe(false);
    project.putRun(fakeRun(2));
    project.close();
    const again = Project.open(file, { readOnly: true });
    expect(again.run(done.id)).toEqual(done);
    expect(again.runs().map((r) => r.id)).toEqual(['run-000001', 'run-000002']);
    expect(again.runs(['run-000002', 'nope']).map((r) => r.seed)).toEqual([2]);
    expect(again.runStatuses()).toEqual(
      new Map([
        ['run-000001', 'done'],
        ['run-000002', 'done'],
      ]),
    );
    expect(() => again.putRun(fakeRun(3))).toThrow(/read-only/);
    again.close();
  });

  it('keeps notes', () => {
    const project = Project.create(path.join(dir, 'p.saikoro'));
    project.addNote('first look', 'demo');
    project.addNote('general');
    expect(project.notes().map((n) => [n.experiment, n.text])).toEqual([
      ['demo', 'first look'],
      [null, 'general'],
    ]);
    expect(project.notes('demo')).toHaveLength(1);
    expect(() => project.addNote('  ')).toThrow(/needs some text/);
    project.close();
  });
});

describe('files it refuses, unmodified', () => {
  function refuses(file: string, message: RegExp): void {
    const before = fs.existsSync(file) && fs.statSync(file).isFile() ? fileDigest(file) : null;
    expect(() => Project.open(file)).toThrow(ProjectError);
    expect(() => Project.open(file)).toThrow(message);
    if (before) expect(fileDigest(file)).toBe(before);
    expect(sidecars(file)).toEqual([]);
  }

  it('a missing file, a directory and an empty file', () => {
    refuses(path.join(dir, 'missing.saikoro'), /no such file \(create one with: saikoro project new/);
    fs.mkdirSync(path.join(dir, 'folder'));
    refuses(path.join(dir, 'folder'), /is a directory/);
    fs.writeFileSync(path.join(dir, 'empty.saikoro'), '');
    refuses(path.join(dir, 'empty.saikoro'), /empty file/);
  });

  it('a text file and a foreign SQLite database', () => {
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'hello\n'.repeat(100));
    refuses(path.join(dir, 'notes.txt'), /not a Saikoro project \(not an SQLite database\)/);
    const foreign = path.join(dir, 'foreign.db');
    const db = new Database(foreign);
    db.exec('CREATE TABLE t (x); INSERT INTO t VALUES (1);');
    db.close();
    refuses(foreign, /an SQLite database but not a Saikoro project \(no application id\)/);
    const other = new Database(foreign);
    other.exec('PRAGMA application_id = 1234;');
    other.close();
    refuses(foreign, /not a Saikoro project \(application id 0x000004d2\)/);
  });

  it('a project from a newer schema', () => {
    const file = path.join(dir, 'new.saikoro');
    Project.create(file).close();
    const db = new Database(file);
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    refuses(file, new RegExp(`written by a newer Saikoro \\(project schema ${SCHEMA_VERSION + 1}; this version reads up to ${SCHEMA_VERSION}\\)`));
  });

  it('a corrupt project (damaged b-tree page) and a truncated one', () => {
    const file = path.join(dir, 'bad.saikoro');
    const project = Project.create(file);
    for (let i = 0; i < 30; i++) project.putRun(fakeRun(i, { resultBytes: 3000 }));
    project.close();
    const bytes = fs.readFileSync(file);
    const pageSize = bytes.readUInt16BE(16);
    // Scribble over the middle of the file, past the header page.
    bytes.fill(0xa5, pageSize * 3, pageSize * 3 + pageSize * 2);
    fs.writeFileSync(file, bytes);
    refuses(file, /corrupt Saikoro project/);
    fs.writeFileSync(file, bytes.subarray(0, 60));
    refuses(file, /corrupt Saikoro project \(truncated header/);
  });
});

describe('migration', () => {
  // A version-1 file as Saikoro before notes wrote it: results inside the runs table.
  function writeV1(file: string): void {
    const db = new Database(file);
    db.exec(`
      PRAGMA application_id = ${APPLICATION_ID};
      PRAGMA user_version = 1;
      CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE experiments (name TEXT PRIMARY KEY, spec_json TEXT NOT NULL, created_at TEXT NOT NULL);
      CREATE TABLE runs (
        id TEXT PRIMARY KEY, instance TEXT NOT NULL, label TEXT NOT NULL, config_json TEXT NOT NULL,
        solver TEXT NOT NULL, params_json TEXT NOT NULL, seed INTEGER NOT NULL, budget_json TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('done', 'failed')), error TEXT,
        started_at TEXT NOT NULL, finished_at TEXT NOT NULL, elapsed_ms REAL NOT NULL,
        result_json TEXT
      );
      INSERT INTO meta VALUES ('created_at', '2026-01-01T00:00:00.000Z'), ('created_by', 'saikoro 0.0.9');
    `);
    db.run('INSERT INTO experiments VALUES (?, ?, ?)', ['demo', JSON.stringify(spec), '2026-01-01T00:00:00.000Z']);
    const run = fakeRun(7);
    db.run('INSERT INTO runs VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)', [
      run.id,
      run.instance,
      run.label,
      JSON.stringify(run.config),
      run.solver,
      JSON.stringify(run.params),
      run.seed,
      JSON.stringify(run.budget),
      'done',
      null,
      run.startedAt,
      run.finishedAt,
      run.elapsedMs,
      JSON.stringify(run.result),
    ]);
    db.run('INSERT INTO runs VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)', [
      'failed-one',
      'x',
      'random',
      JSON.stringify(run.config),
      'random',
      '{}',
      1,
      JSON.stringify(run.budget),
      'failed',
      'boom',
      run.startedAt,
      run.finishedAt,
      5,
      null,
    ]);
    db.close();
  }

  it('migrates a version-1 file to the current schema, keeping every run and result', () => {
    const file = path.join(dir, 'old.saikoro');
    writeV1(file);
    expect(() => Project.open(file, { readOnly: true })).toThrow(/has project schema 1; open it once for writing/);
    const project = Project.open(file);
    const info = project.info();
    expect(info.schemaVersion).toBe(SCHEMA_VERSION);
    expect(info.runs).toEqual({ done: 1, failed: 1 });
    expect(info.createdBy).toBe('saikoro 0.0.9');
    const run = project.run('run-000007')!;
    expect(run.result).toEqual(fakeRun(7).result);
    expect(run.appVersion).toBe('unknown (schema 1)');
    expect(run.evaluations).toBe(1000);
    expect(project.run('failed-one')).toMatchObject({ status: 'failed', error: 'boom', result: null, evaluations: null });
    project.addNote('notes work after migrating');
    // Its runs used their whole budget (before the stopping policy): the migrated spec says so.
    expect(project.experiment('demo')?.spec).toEqual({ ...spec, budget: { ...spec.budget, wholeBudget: true } });
    project.close();
    expect(fs.readFileSync(file).readInt32BE(60)).toBe(SCHEMA_VERSION);
    // Opening again finds nothing to do.
    Project.open(file).close();
  });
});
