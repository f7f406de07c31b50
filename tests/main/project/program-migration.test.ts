// Schema 4 -> 5: runs gain the program column (solver programs, docs/external-solvers.md).
// A schema-4 file opens migrated: its runs keep their ids and records, with no program.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Project } from '../../../src-main/project/store.ts';
import { SCHEMA_VERSION } from '../../../src-main/project/schema.ts';
import { Database } from '../../../src-main/project/sqlite.ts';
import { dropSchema6, fakeRun, tempDir } from './fixtures.ts';

let dir: string;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('migration from schema 4: the program column', () => {
  it('adds the column; runs stored before have no program and keep everything else', () => {
    expect(SCHEMA_VERSION).toBe(7);
    const file = path.join(dir, 'v4.saikoro');
    const project = Project.create(file);
    const runs = [fakeRun(1), fakeRun(2, { status: 'failed' })];
    for (const r of runs) project.putRun(r);
    project.close();
    const db = new Database(file);
    dropSchema6(db);
    db.exec('ALTER TABLE runs DROP COLUMN program_json');
    db.exec('PRAGMA user_version = 4');
    db.close();

    expect(() => Project.open(file, { readOnly: true })).toThrow(/has project schema 4; open it once for writing/);
    const migrated = Project.open(file);
    expect(migrated.info().schemaVersion).toBe(SCHEMA_VERSION);
    expect(migrated.runs()).toEqual(runs);
    const program = { command: ['python3', 'my_ga.py'], hashes: { 'my_ga.py': 'c'.repeat(64) } };
    migrated.putRun({ ...fakeRun(3), program });
    expect(migrated.run(fakeRun(3).id)!.program).toEqual(program);
    migrated.close();
  });

  it('refuses a stored program that is not one, naming the column', () => {
    const file = path.join(dir, 'bad.saikoro');
    const project = Project.create(file);
    project.putRun(fakeRun(1));
    project.close();
    const db = new Database(file);
    db.run('UPDATE runs SET program_json = ?', ['{"command": []}']);
    db.close();
    const reopened = Project.open(file, { readOnly: true });
    expect(() => reopened.runs()).toThrow(/program_json: command: must be a non-empty list of strings/);
    reopened.close();
  });
});
