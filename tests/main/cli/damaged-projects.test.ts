// Damaged and hostile project files through the CLI (in-process, main(argv, io)): every one is a
// clear message naming the file with exit status 1 (or an ordinary answer, exit 0), never a
// stack trace, and the file is left exactly as it was (bytes and mtime).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database } from '../../../src-main/project/sqlite.ts';
import { Random } from '../../../src-shared/random.ts';
import { runCli, type CliRun } from './io.ts';
import { SCHEMA_VERSION } from '../../../src-main/project/schema.ts';
import { projectCopies, sql, type ProjectCopies } from '../../helpers/project-copies.ts';

const spec = {
  name: 'small',
  instances: [
    { name: 'so-n12', track: 'so', n: 12 },
    { name: 'mo2-n12', track: 'mo2', n: 12 },
  ],
  solvers: [{ name: 'random' }],
  seeds: { count: 2 },
  budget: { evaluations: 60 },
};
const moSpec = { ...spec, name: 'mo', instances: [spec.instances[1]], solvers: [{ name: 'random' }, { name: 'nsga2', params: { populationSize: 10 } }] };

/** A small real project: two instances (SO and MO) x two solvers x 2 seeds, every run done, and a note. */
let fx: ProjectCopies;
beforeAll(async () => {
  fx = await projectCopies('saikoro-damaged-', { 'spec.json': spec, 'mo.json': moSpec }, [['project', 'note', 'original.saikoro', 'a note']]);
}, 120_000);
afterAll(() => fx?.cleanup());
/** A fresh copy of the original project in its own folder; returns the folder and the name. */
const copy = (name?: string) => fx.copy(name);

interface Snapshot {
  digest: string;
  mtimeMs: number;
  sidecars: string[];
}

function snapshot(file: string): Snapshot {
  const base = path.basename(file);
  return {
    digest: createHash('sha256').update(fs.readFileSync(file)).digest('hex'),
    mtimeMs: fs.statSync(file).mtimeMs,
    sidecars: fs.readdirSync(path.dirname(file)).filter((n) => n !== base && n.startsWith(base)),
  };
}

/** Exit 1, one line naming the file and saying what is wrong, no stack trace, nothing on stdout. */
function refused(run: CliRun, name: string, what: RegExp): void {
  expect(run.code, run.stderr).toBe(1);
  expect(run.stderr).toContain(name);
  expect(run.stderr).toMatch(what);
  expect(run.stderr).not.toMatch(/\n\s+at |SyntaxError|SQLite3Error|TypeError|RangeError/);
}

const commands = (name: string): string[][] => [
  ['project', 'info', name],
  ['experiment', 'status', name],
  ['compare', name, 'mo', '--metric', 'hv'],
  ['compare', name, 'small', '--metric', 'feasibility'],
  ['experiment', 'verify', name, '--sample', '1'],
];

describe('damaged project files are refused, unmodified', () => {
  it.each([
    [
      "a spec that is not JSON (UPDATE experiments SET spec_json='{not json')",
      "UPDATE experiments SET spec_json = '{not json'",
      /corrupt Saikoro project \(experiment "(small|mo)": spec_json: not valid JSON/,
    ],
    [
      'a spec that is JSON but no longer a spec',
      `UPDATE experiments SET spec_json = '{"name": "mo"}' WHERE name = 'mo'`,
      /corrupt Saikoro project \(experiment "mo": spec_json\.instances: must be a non-empty list\)/,
    ],
    ['DROP TABLE lab_runs', 'DROP TABLE lab_runs', /corrupt Saikoro project \(table lab_runs is missing\)/],
    ['DROP TABLE meta', 'DROP TABLE meta', /corrupt Saikoro project \(table meta is missing\)/],
    [
      'a result that is {}',
      "UPDATE results SET result_json = '{}' WHERE run_id = (SELECT min(run_id) FROM results)",
      /corrupt Saikoro project \(run [0-9a-f]{32}: result_json\.solver: must be text/,
    ],
    [
      'a result with objectives missing from a front',
      `UPDATE results SET result_json = json_set(result_json, '$.front[0].objectives', json('[1]')) WHERE run_id IN (SELECT id FROM runs WHERE solver = 'nsga2')`,
      /result_json\.front\[0\]\.objectives: has 1 objectives, expected 2 \(the run's config\)/,
    ],
    [
      'a run with a status SQLite never allowed',
      "PRAGMA ignore_check_constraints = ON; UPDATE runs SET status = 'dxne' WHERE id = (SELECT min(id) FROM runs)",
      /corrupt Saikoro project \(run [0-9a-f]{32}: status: must be "done" or "failed", got "dxne"\)/,
    ],
  ])('%s', async (_, statements, message) => {
    const { cwd, file } = copy();
    sql(file, statements);
    const before = snapshot(file);
    let refusals = 0;
    for (const argv of commands('f.saikoro')) {
      const r = await runCli(argv, { cwd });
      expect([0, 1], `${argv.join(' ')}: ${r.stderr}`).toContain(r.code);
      if (r.code === 1) {
        refused(r, 'f.saikoro', /f\.saikoro: /);
        if (message.test(r.stderr)) refusals++;
      }
    }
    expect(refusals, 'at least one command names the damage').toBeGreaterThan(0);
    expect(snapshot(file)).toEqual(before);
  });

  it('a file whose runs index lost a row (integrity_check, not quick_check, notices)', async () => {
    const { cwd, file } = copy();
    // A second index-backed table holding the same rowids and run ids, except that the last id
    // is another; then the two indexes swap b-trees. Both b-trees stay well-formed and hold as
    // many entries as their tables, so quick_check passes, but the runs table's primary-key
    // index now lacks the row of that run (a lookup by its id misses it).
    sql(
      file,
      `CREATE TABLE twin (id TEXT PRIMARY KEY);
       INSERT INTO twin (rowid, id) SELECT rowid, CASE WHEN id = (SELECT max(id) FROM runs) THEN 'not-a-run' ELSE id END FROM runs;`,
    );
    const db = new Database(file);
    const roots = Object.fromEntries(
      (
        db.all("SELECT name, rootpage FROM sqlite_master WHERE name IN ('sqlite_autoindex_runs_1', 'sqlite_autoindex_twin_1')") as {
          name: string;
          rootpage: number;
        }[]
      ).map((r) => [r.name, r.rootpage]),
    );
    db.exec(`PRAGMA writable_schema = ON;
      UPDATE sqlite_master SET rootpage = ${roots.sqlite_autoindex_twin_1} WHERE name = 'sqlite_autoindex_runs_1';
      UPDATE sqlite_master SET rootpage = ${roots.sqlite_autoindex_runs_1} WHERE name = 'sqlite_autoindex_twin_1';
      PRAGMA writable_schema = OFF;`);
    db.close();
    const check = new Database(file, { readOnly: true });
    expect(check.all('PRAGMA quick_check')).toEqual([{ quick_check: 'ok' }]);
    expect(JSON.stringify(check.all('PRAGMA integrity_check'))).toMatch(/missing from index sqlite_autoindex_runs_1/);
    check.close();
    const before = snapshot(file);
    for (const argv of commands('f.saikoro'))
      refused(await runCli(argv, { cwd }), 'f.saikoro', /f\.saikoro: corrupt Saikoro project \(integrity check: .*missing from index sqlite_autoindex_runs_1/);
    expect(snapshot(file)).toEqual(before);
  });

  it('a schema version lowered in the header: every command names the damage, none points to a migration', async () => {
    // The header says schema 4; the tables are schema 5's. A read-only command used to answer
    // "open it once for writing (e.g. saikoro project info)", and project info then refused.
    const { cwd, file } = copy();
    const header = fs.readFileSync(file);
    expect(header.readInt32BE(60)).toBe(SCHEMA_VERSION);
    const fd = fs.openSync(file, 'r+');
    const version = Buffer.alloc(4);
    version.writeInt32BE(SCHEMA_VERSION - 1);
    fs.writeSync(fd, version, 0, 4, 60);
    fs.closeSync(fd);
    const before = snapshot(file);
    for (const argv of commands('f.saikoro')) {
      const r = await runCli(argv, { cwd });
      refused(
        r,
        'f.saikoro',
        new RegExp(`f\\.saikoro: corrupt Saikoro project \\(table \\w+ has column \\w+, which project schema ${SCHEMA_VERSION - 1} does not have\\)`),
      );
      expect(r.stderr).not.toContain('project info');
    }
    expect(snapshot(file)).toEqual(before);
  });

  it('a shard cut short by one byte, given to merge', async () => {
    const { cwd, file } = copy('shard.saikoro');
    fs.truncateSync(file, fs.statSync(file).size - 1);
    expect((await runCli(['project', 'new', 'p.saikoro'], { cwd })).code).toBe(0);
    const project = path.join(cwd, 'p.saikoro');
    const [beforeShard, beforeProject] = [snapshot(file), snapshot(project)];
    const r = await runCli(['merge', 'p.saikoro', 'shard.saikoro'], { cwd });
    refused(
      r,
      'shard.saikoro',
      /^saikoro merge: shard\.saikoro: corrupt Saikoro project \(\d+ bytes is not a whole number of \d+-byte pages: the file was cut short or added to\)\n$/,
    );
    expect(snapshot(file)).toEqual(beforeShard);
    expect(snapshot(project)).toEqual(beforeProject);
  });
});

describe('merge checks every run it imports', () => {
  async function shardWith(statements: string): Promise<{ cwd: string; shard: string; project: string }> {
    const { cwd, file } = copy('shard.saikoro');
    if (statements) sql(file, statements);
    expect((await runCli(['project', 'new', 'p.saikoro'], { cwd })).code).toBe(0);
    return { cwd, shard: file, project: path.join(cwd, 'p.saikoro') };
  }

  it('refuses a run whose result is {} and says which and why; the others are merged and compare works', async () => {
    const { cwd } = await shardWith("UPDATE results SET result_json = '{}' WHERE run_id = (SELECT id FROM runs WHERE solver = 'nsga2' ORDER BY id LIMIT 1)");
    const r = await runCli(['merge', 'p.saikoro', 'shard.saikoro'], { cwd });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^shard\.saikoro: refused run ([0-9a-f]{32}) \(mo2-n12 nsga2 seed \d\): result_json\.solver: must be text, got undefined\n/);
    expect(r.stderr).toContain('saikoro merge: 1 run(s) refused; the other runs were merged');
    const id = /refused run ([0-9a-f]{32})/.exec(r.stderr)![1];
    // 6 distinct runs (small and mo share mo2-n12 random), one refused.
    expect(r.stdout).toContain('shard.saikoro: 5 run(s) added, 0 already present, 2 experiment(s) added, 1 refused (see stderr)');
    // Which runs are still missing after the merge: the refused one, by name and id.
    expect(r.stdout).toContain('small: all 4 runs done');
    expect(r.stdout).toContain(`mo: 3/4 runs done; still to run: 1 missing (saikoro experiment run p.saikoro mo):\n  missing mo2-n12 nsga2 seed `);
    expect(r.stdout).toContain(`(${id})`);
    // The bad data never reached the project: compare and verify work (they crashed before).
    expect((await runCli(['compare', 'p.saikoro', 'mo', '--metric', 'hv'], { cwd })).code).toBe(0);
    expect((await runCli(['experiment', 'verify', 'p.saikoro', '--all'], { cwd })).code).toBe(0);
    // --json says the same.
    const again = await runCli(['merge', 'p.saikoro', 'shard.saikoro', '--json'], { cwd });
    const json = JSON.parse(again.stdout);
    expect(json.files[0]).toMatchObject({
      file: 'shard.saikoro',
      runsAdded: 0,
      runsSkipped: 5,
      refused: [{ id, instance: 'mo2-n12', label: 'nsga2', reason: 'result_json.solver: must be text, got undefined' }],
    });
    expect(json.experiments.find((e: { name: string }) => e.name === 'mo')).toMatchObject({
      total: 4,
      done: 3,
      failed: 0,
      missing: 1,
      notDone: [{ id, instance: 'mo2-n12', label: 'nsga2', status: 'missing' }],
    });
  });

  it('refuses a run whose stored content no longer hashes to its id, and one that is in no experiment', async () => {
    const { cwd } = await shardWith(
      `UPDATE runs SET seed = 99 WHERE id = (SELECT min(id) FROM runs WHERE solver = 'random');
       CREATE TEMP TABLE copied AS SELECT * FROM runs WHERE id = (SELECT max(id) FROM runs);
       UPDATE copied SET id = 'ffffffffffffffffffffffffffffffff';
       INSERT INTO runs SELECT * FROM copied;
       INSERT INTO results SELECT 'ffffffffffffffffffffffffffffffff', result_json FROM results WHERE run_id = (SELECT max(run_id) FROM results WHERE run_id <> 'ffffffffffffffffffffffffffffffff');`,
    );
    const r = await runCli(['merge', 'p.saikoro', 'shard.saikoro'], { cwd });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /refused run [0-9a-f]{32} \(\S+ random seed \d\): its config, solver, parameters, seed and budget hash to [0-9a-f]{32}, not to its id \(they were changed\)/,
    );
    expect(r.stderr).toMatch(/refused run ffffffffffffffffffffffffffffffff \(\S+ \S+ seed \d\): its config, solver, parameters, seed and budget hash to/);
    expect(r.stdout).toContain('2 refused (see stderr)');
  });

  it('reports the runs still missing when shards are missing', async () => {
    const { cwd } = await shardWith("DELETE FROM runs WHERE instance = 'so-n12'");
    const r = await runCli(['merge', 'p.saikoro', 'shard.saikoro'], { cwd });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /small: 2\/4 runs done; still to run: 2 missing \(saikoro experiment run p\.saikoro small\):\n {2}missing so-n12 random seed 1 \([0-9a-f]{32}\)\n {2}missing so-n12 random seed 2 \([0-9a-f]{32}\)\n/,
    );
    expect(r.stdout).toContain('mo: all 4 runs done');
  });
});

describe('random damage (seeded byte flips and truncations)', () => {
  // Each copy gets 1-8 flipped bytes (anywhere past the first 100, or in the header now and
  // then), or is cut to a random length. project info, experiment status, compare and merge
  // run on each, in-process: exit 0 or 1, never a thrown exception or a stack trace, a message
  // naming the file on exit 1, and the damaged file unchanged.
  const COPIES = 60;
  it(`${COPIES} damaged copies`, async () => {
    const random = Random.fromSeed(13);
    const bytes = fs.readFileSync(fx.original);
    const outcomes = { ok: 0, refused: 0 };
    for (let c = 0; c < COPIES; c++) {
      const { cwd, file } = copy('d.saikoro');
      const damaged = Buffer.from(bytes);
      let what: string;
      if (random.chance(0.2)) {
        const length = random.int(1, damaged.length - 1);
        fs.writeFileSync(file, damaged.subarray(0, length));
        what = `cut to ${length} bytes`;
      } else {
        const flips = random.int(1, 8);
        const at: number[] = [];
        for (let k = 0; k < flips; k++) {
          const offset = random.chance(0.1) ? random.int(0, 99) : random.int(100, damaged.length - 1);
          damaged[offset] ^= 1 << random.int(0, 7);
          at.push(offset);
        }
        fs.writeFileSync(file, damaged);
        what = `bits flipped at ${at.join(', ')}`;
      }
      expect((await runCli(['project', 'new', 'target.saikoro'], { cwd })).code).toBe(0);
      const before = snapshot(file);
      for (const argv of [...commands('d.saikoro').slice(0, 4), ['merge', 'target.saikoro', 'd.saikoro']]) {
        let r: CliRun;
        try {
          r = await runCli(argv, { cwd });
        } catch (e) {
          throw new Error(`copy ${c} (${what}): saikoro ${argv.join(' ')} threw ${(e as Error).stack}`);
        }
        const context = `copy ${c} (${what}): saikoro ${argv.join(' ')}: ${r.stderr}`;
        expect([0, 1], context).toContain(r.code);
        expect(r.stderr, context).not.toMatch(/\n\s+at |SyntaxError|SQLite3Error|TypeError|RangeError/);
        if (r.code === 1) {
          expect(r.stderr, context).toContain('d.saikoro');
          outcomes.refused++;
        } else outcomes.ok++;
      }
      expect(snapshot(file), `copy ${c} (${what}) was modified`).toEqual(before);
    }
    // Most damage is noticed; flips inside free space or a number's digits are not (nor need be).
    expect(outcomes.refused).toBeGreaterThan(outcomes.ok / 4);
  }, 300_000);
});
