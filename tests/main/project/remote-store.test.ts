// Schema 7: remote entrants' runs (runs.remote, part of the id), the entrants' tokens (their
// sha256 only) and remote runs' requests. A schema-6 file migrates with every run not remote;
// every row is checked on read and before write.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Project } from '../../../src-main/project/store.ts';
import { SCHEMA_VERSION } from '../../../src-main/project/schema.ts';
import { Database } from '../../../src-main/project/sqlite.ts';
import { buildSuite } from '../../../src-shared/competition/suite.ts';
import { competitionSpecs, storedProblems, type Competition, type Entrant } from '../../../src-shared/competition/competition.ts';
import { commitTo } from '../../../src-main/app/competition.ts';
import { runKeyOf } from '../../../src-main/project/project-records.ts';
import { runId } from '../../../src-shared/experiments/grid.ts';
import { dropSchema7, fakeRun, tempDir } from './fixtures.ts';

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

const definition = { tracks: ['so' as const], ns: [30], instances: 2, withPublic: false, evaluations: 100, seeds: 1 };
function competition(): Competition {
  return {
    definition,
    problems: storedProblems(buildSuite(definition, 'store-secret')),
    commitment: commitTo('store-secret'),
    secret: null,
    revealedAt: null,
    createdAt: '2026-12-01T00:00:00.000Z',
  };
}
const alice: Entrant = { name: 'alice', entry: { kind: 'remote' }, createdAt: '2026-12-01T00:00:01.000Z' };
const H = (c: string) => c.repeat(64);

function competitionFile(): Project {
  const project = Project.create(path.join(dir, 'c.saikoro'));
  const c = competition();
  project.createCompetition(c);
  project.addEntrant(alice, [], competitionSpecs(c, [alice]));
  return project;
}

describe('migration from schema 6: remote runs, tokens and requests', () => {
  it('adds runs.remote (0 for every run stored before) and the empty token and request tables', () => {
    expect(SCHEMA_VERSION).toBe(7);
    const file = path.join(dir, 'v6.saikoro');
    const project = Project.create(file);
    const runs = [fakeRun(1), { ...fakeRun(2), blind: true as const }];
    for (const r of runs) project.putRun(r);
    project.close();
    const db = new Database(file);
    dropSchema7(db);
    db.exec('PRAGMA user_version = 6');
    db.close();
    expect(tables(file)).not.toContain('entrant_tokens');

    expect(() => Project.open(file, { readOnly: true })).toThrow(/has project schema 6; open it once for writing/);
    const migrated = Project.open(file);
    expect(migrated.info().schemaVersion).toBe(7);
    expect(migrated.runs()).toEqual(runs);
    expect(migrated.runs().some((r) => 'remote' in r)).toBe(false);
    migrated.putRun({ ...fakeRun(3), remote: true, blind: undefined });
    expect(migrated.run(fakeRun(3).id)!.remote).toBe(true);
    migrated.close();
    expect(tables(file)).toEqual(expect.arrayContaining(['entrant_tokens', 'remote_requests']));
    const raw = new Database(file, { readOnly: true });
    expect(raw.all('SELECT id, remote FROM runs ORDER BY id')).toEqual([
      { id: fakeRun(1).id, remote: 0 },
      { id: fakeRun(2).id, remote: 0 },
      { id: fakeRun(3).id, remote: 1 },
    ]);
    raw.close();
  });

  it('a schema-6 file with a token table is refused as damaged, never migrated', () => {
    const file = path.join(dir, 'odd.saikoro');
    Project.create(file).close();
    const db = new Database(file);
    db.exec('DROP TABLE remote_requests; ALTER TABLE runs DROP COLUMN remote; PRAGMA user_version = 6');
    db.close();
    expect(() => Project.open(file)).toThrow(/table entrant_tokens is not part of project schema 6/);
  });

  it('refuses a remote value that is not 0 or 1, and a remote run with a program, naming the column', () => {
    const file = path.join(dir, 'bad.saikoro');
    const project = Project.create(file);
    project.putRun(fakeRun(1));
    project.close();
    const db = new Database(file);
    expect(() => db.run('UPDATE runs SET remote = 2')).toThrow(/CHECK constraint failed/);
    db.exec('PRAGMA ignore_check_constraints = ON');
    db.run('UPDATE runs SET remote = 2');
    db.close();
    const reopened = Project.open(file, { readOnly: true });
    expect(() => reopened.runs()).toThrow(/remote: must be 0 or 1, got 2/);
    reopened.close();
    const db2 = new Database(file);
    db2.run(`UPDATE runs SET remote = 1, program_json = '{"command":["python3","x.py"]}'`);
    db2.close();
    const again = Project.open(file, { readOnly: true });
    expect(() => again.runs()).toThrow(/remote: a remote entrant's run has no program/);
    again.close();
  });
});

describe('a remote run is its own run', () => {
  it('hashes remote into its id: the same run not remote is another run', () => {
    const run = { ...fakeRun(1), remote: true as const };
    const id = runId(runKeyOf(run));
    const { remote, ...plain } = run;
    void remote;
    expect(id).not.toBe(runId(runKeyOf(plain)));
    expect(runKeyOf(run).remote).toBe(true);
  });
});

describe('entrant tokens', () => {
  it('keeps only the hash; a new token revokes the one before; revoke revokes; unknown entrants are refused', () => {
    const project = competitionFile();
    project.addEntrantToken('alice', H('a'), '2026-12-01T01:00:00.000Z');
    expect(project.entrantToken(H('a'))).toEqual({ sha256: H('a'), entrant: 'alice', createdAt: '2026-12-01T01:00:00.000Z', revokedAt: null });
    project.addEntrantToken('alice', H('b'), '2026-12-01T02:00:00.000Z');
    expect(project.entrantToken(H('a'))!.revokedAt).toBe('2026-12-01T02:00:00.000Z');
    expect(project.entrantToken(H('b'))!.revokedAt).toBeNull();
    expect(project.revokeEntrantTokens('alice', '2026-12-01T03:00:00.000Z')).toBe(1);
    expect(project.revokeEntrantTokens('alice', '2026-12-01T04:00:00.000Z')).toBe(0);
    expect(project.entrantTokens().map((t) => [t.sha256[0], t.revokedAt])).toEqual([
      ['a', '2026-12-01T02:00:00.000Z'],
      ['b', '2026-12-01T03:00:00.000Z'],
    ]);
    expect(project.entrantToken(H('c'))).toBeUndefined();
    expect(() => project.addEntrantToken('bob', H('c'), '2026-12-01T05:00:00.000Z')).toThrow(/has no entrant named "bob"/);
    expect(() => project.addEntrantToken('alice', 'not-a-hash', '2026-12-01T05:00:00.000Z')).toThrow(/sha256: must be a sha256 hex digest/);
    // The same hash twice is refused by the table (a token is random: it never comes twice).
    expect(() => project.addEntrantToken('alice', H('b'), '2026-12-01T06:00:00.000Z')).toThrow();
    project.close();
  });

  it('refuses a damaged token row on read, naming it', () => {
    const project = competitionFile();
    project.addEntrantToken('alice', H('a'), '2026-12-01T01:00:00.000Z');
    project.close();
    const db = new Database(path.join(dir, 'c.saikoro'));
    db.run("UPDATE entrant_tokens SET sha256 = 'xyz'");
    db.close();
    const reopened = Project.open(path.join(dir, 'c.saikoro'), { readOnly: true });
    expect(() => reopened.entrantTokens()).toThrow(/corrupt Saikoro project \(an entrant token: sha256: must be a sha256 hex digest/);
    reopened.close();
  });
});

describe('remote requests', () => {
  const request = (seq: number, evaluations = 3) => ({
    runId: 'f'.repeat(32),
    seq,
    entrant: 'alice',
    evaluations,
    sequences: new Uint8Array([seq, 1, 2]),
    receivedAt: `2026-12-01T00:00:0${seq}.000Z`,
  });

  it('round-trips in order; storing one again changes nothing; counts per run', () => {
    const project = competitionFile();
    project.putRemoteRequests([request(0), request(1, 2)]);
    project.putRemoteRequests([request(1, 99), request(2, 1)]);
    expect(project.remoteRequests('f'.repeat(32))).toEqual([request(0), request(1, 2), request(2, 1)]);
    expect(project.remoteRequests('e'.repeat(32))).toEqual([]);
    expect([...project.remoteRunCounts()]).toEqual([['f'.repeat(32), { entrant: 'alice', requests: 3, evaluations: 6 }]]);
    expect(() => project.putRemoteRequests([{ ...request(3), seq: -1 }])).toThrow(/seq: must be a whole number from 0/);
    expect(() => project.putRemoteRequests([{ ...request(3), runId: 'x' }])).toThrow(/runId: must be a run id/);
    project.close();
  });

  it("a gap in a run's requests is corruption, named", () => {
    const project = competitionFile();
    project.putRemoteRequests([request(0), request(2)]);
    expect(() => project.remoteRequests('f'.repeat(32))).toThrow(/request 2: seq: is 2, expected 1/);
    project.close();
  });
});
