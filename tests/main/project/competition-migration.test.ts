// Schema 5 -> 6: runs gain the blind column, and the competition's tables appear (empty).
// A schema-5 file opens migrated: its runs keep their ids and records, none of them blind.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Project } from '../../../src-main/project/store.ts';
import { SCHEMA_VERSION } from '../../../src-main/project/schema.ts';
import { Database } from '../../../src-main/project/sqlite.ts';
import { dropSchema6, dropSchema7, fakeRun, tempDir } from './fixtures.ts';

let dir: string;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

function tables(file: string): string[] {
  const db = new Database(file, { readOnly: true });
  try {
    return (db.all("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") as { name: string }[]).map((r) => r.name);
  } finally {
    db.close();
  }
}

describe('migration from schema 5: blind runs and the competition tables', () => {
  it('adds the blind column (0 for every run stored before) and the empty competition tables', () => {
    expect(SCHEMA_VERSION).toBe(7);
    const file = path.join(dir, 'v5.saikoro');
    const project = Project.create(file);
    const runs = [fakeRun(1), fakeRun(2, { status: 'failed' })];
    for (const r of runs) project.putRun(r);
    project.close();
    const db = new Database(file);
    dropSchema6(db);
    db.exec('PRAGMA user_version = 5');
    db.close();
    expect(tables(file)).not.toContain('competition');

    expect(() => Project.open(file, { readOnly: true })).toThrow(/has project schema 5; open it once for writing/);
    const migrated = Project.open(file);
    expect(migrated.info().schemaVersion).toBe(SCHEMA_VERSION);
    expect(migrated.runs()).toEqual(runs);
    expect(migrated.runs().some((r) => 'blind' in r)).toBe(false);
    migrated.putRun({ ...fakeRun(3), blind: true });
    expect(migrated.run(fakeRun(3).id)!.blind).toBe(true);
    migrated.close();
    expect(tables(file)).toEqual(expect.arrayContaining(['competition', 'entrants', 'entrant_files']));
    const raw = new Database(file, { readOnly: true });
    expect(raw.all('SELECT id, blind FROM runs ORDER BY id')).toEqual([
      { id: fakeRun(1).id, blind: 0 },
      { id: fakeRun(2).id, blind: 0 },
      { id: fakeRun(3).id, blind: 1 },
    ]);
    expect(raw.all('SELECT count(*) AS n FROM competition')).toEqual([{ n: 0 }]);
    raw.close();
  });

  it('refuses a blind value that is not 0 or 1, naming the column', () => {
    const file = path.join(dir, 'bad.saikoro');
    const project = Project.create(file);
    project.putRun(fakeRun(1));
    project.close();
    // The column's CHECK refuses 2 on write; a file edited without the check (or damaged) is refused on read.
    const db = new Database(file);
    expect(() => db.run('UPDATE runs SET blind = 2')).toThrow(/CHECK constraint failed/);
    db.exec('PRAGMA ignore_check_constraints = ON');
    db.run('UPDATE runs SET blind = 2');
    db.close();
    const reopened = Project.open(file, { readOnly: true });
    expect(() => reopened.runs()).toThrow(/blind: must be 0 or 1, got 2/);
    reopened.close();
  });

  it('a schema-5 file with a competition table is refused as damaged, never migrated', () => {
    const file = path.join(dir, 'odd.saikoro');
    Project.create(file).close();
    const db = new Database(file);
    dropSchema7(db);
    db.exec('DROP TABLE entrant_files; DROP TABLE entrants; ALTER TABLE runs DROP COLUMN blind; PRAGMA user_version = 5');
    db.close();
    expect(() => Project.open(file)).toThrow(/table competition is not part of project schema 5/);
  });
});
