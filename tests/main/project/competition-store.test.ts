// The competition tables in the store: written and read back, every row checked on read and
// before write (a forged or damaged row names the column), an entrant's files by their hashes.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Project } from '../../../src-main/project/store.ts';
import { Database } from '../../../src-main/project/sqlite.ts';
import { buildSuite } from '../../../src-shared/competition/suite.ts';
import { competitionSpecs, storedProblems, type Competition, type Entrant } from '../../../src-shared/competition/competition.ts';
import { commitTo, secretMatches } from '../../../src-main/app/competition.ts';
import { fakeRun, tempDir } from './fixtures.ts';

let dir: string;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

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
const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const program: Entrant = {
  name: 'py',
  entry: {
    kind: 'program',
    command: ['python3', 'solver.py'],
    folder: {
      sha256: 'a'.repeat(64),
      files: 1,
      bytes: 5,
      entries: [
        { path: 'lib', kind: 'dir' },
        { path: 'solver.py', kind: 'file', bytes: 5, sha256: sha('print'), executable: false },
      ],
    },
    interpreter: { command: 'python3', path: '/usr/bin/python3', sha256: 'b'.repeat(64), version: 'Python 3.11.2' },
  },
  createdAt: '2026-12-01T00:00:01.000Z',
};
const files = [{ path: 'solver.py', mode: 0o644, sha256: sha('print'), content: new Uint8Array(Buffer.from('print')) }];

describe('the competition tables', () => {
  it('round-trips the competition, its entrants in order, their files and experiments; reveals once', () => {
    const file = path.join(dir, 'c.saikoro');
    const project = Project.create(file);
    expect(project.competition()).toBeNull();
    const c = competition();
    project.createCompetition(c);
    expect(project.competition()).toEqual(c);
    const builtIn: Entrant = { name: 'defaults', entry: { kind: 'builtin', solver: 'default' }, createdAt: '2026-12-01T00:00:00.500Z' };
    project.addEntrant(builtIn, [], competitionSpecs(c, [builtIn]));
    project.addEntrant(program, files, competitionSpecs(c, [builtIn, program]));
    expect(project.entrants()).toEqual([builtIn, program]);
    expect(project.entrantFiles('py')).toEqual(files);
    expect(project.entrantFiles('defaults')).toEqual([]);
    expect(project.experiments().map((e) => e.spec.solvers.map((s) => s.name))).toEqual([['barrier-ls', 'py']]);
    project.revealCompetition('store-secret', '2026-12-02T00:00:00.000Z');
    project.revealCompetition('other', '2026-12-03T00:00:00.000Z');
    expect(project.competition()).toMatchObject({ secret: 'store-secret', revealedAt: '2026-12-02T00:00:00.000Z' });
    project.close();
  });

  it('commits to the secret with a salt: only that secret matches, and two commitments differ', () => {
    const a = commitTo('store-secret');
    const b = commitTo('store-secret');
    expect(a.salt).not.toBe(b.salt);
    expect(a.sha256).not.toBe(b.sha256);
    expect(a.sha256).toBe(createHash('sha256').update(`saikoro-competition-commitment-1|${a.salt}|store-secret`).digest('hex'));
    expect(secretMatches(a, 'store-secret')).toBe(true);
    expect(secretMatches(a, 'store-secreT')).toBe(false);
  });

  it('refuses to make a competition of a project that holds runs, or twice; an entrant twice; a file whose bytes are not its hash', () => {
    const used = Project.create(path.join(dir, 'used.saikoro'));
    used.putRun(fakeRun(1));
    expect(() => used.createCompetition(competition())).toThrow(/holds experiments or runs; a competition needs a file of its own/);
    used.close();
    const project = Project.create(path.join(dir, 'c.saikoro'));
    expect(() => project.addEntrant(program, files, [])).toThrow(/is not a competition/);
    project.createCompetition(competition());
    expect(() => project.createCompetition(competition())).toThrow(/is a competition already/);
    expect(() => project.addEntrant(program, [{ ...files[0], content: new Uint8Array(Buffer.from('other')) }], [])).toThrow(
      /not storing entrant py's file solver.py: its sha256 is/,
    );
    project.addEntrant(program, files, []);
    expect(() => project.addEntrant(program, files, [])).toThrow(/an entrant named "py" has entered already/);
    project.close();
  });

  it('refuses damaged rows on read, naming what is wrong', () => {
    const file = path.join(dir, 'c.saikoro');
    const project = Project.create(file);
    project.createCompetition(competition());
    project.addEntrant(program, files, []);
    project.close();
    const edit = (sql: string, values: unknown[] = []) => {
      const db = new Database(file);
      db.run(sql, values as never);
      db.close();
    };
    /** What reading the file with `fn` throws (the project closed either way). */
    const reading = (fn: (p: Project) => unknown) => () => {
      const p = Project.open(file, { readOnly: true });
      try {
        fn(p);
      } finally {
        p.close();
      }
    };
    edit('UPDATE entrant_files SET content = ?', [new Uint8Array(Buffer.from('prinT'))]);
    expect(reading((p) => p.entrantFiles('py'))).toThrow(
      /corrupt Saikoro project \(entrant "py"'s file "solver.py": content: its sha256 is [0-9a-f]{64}, the row says/,
    );
    edit("UPDATE entrant_files SET content = ?, path = '../escape.py'", [new Uint8Array(Buffer.from('print'))]);
    expect(reading((p) => p.entrantFiles('py'))).toThrow(/path: must be a relative path inside the folder, got "..\/escape.py"/);
    edit('UPDATE entrants SET entry_json = \'{"kind": "shell"}\'');
    expect(reading((p) => p.entrants())).toThrow(/entry_json.kind: must be "builtin", "program" or "remote", got "shell"/);
    const db = new Database(file);
    const stored = JSON.parse((db.get('SELECT definition_json FROM competition') as { definition_json: string }).definition_json);
    stored.problems[1].id = 'so-n30-i7';
    db.run('UPDATE competition SET definition_json = ?', [JSON.stringify(stored)]);
    db.run("UPDATE competition SET commitment_json = '{}'");
    db.close();
    expect(reading((p) => p.competition())).toThrow(
      /corrupt Saikoro project \(the competition: definition_json.problems\[1\].id: is "so-n30-i7", expected so-n30-i2\)/,
    );
  });
});
