// Values a damaged or forged project file holds (issue 21): every value read is checked on read,
// so a bad row is a clear message naming the run, never a stack trace; and merge re-evaluates
// every imported run's best and front, so a run whose stored numbers contradict its own
// sequences is refused with its id and reason, and nothing of it is written.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database } from '../../../src-main/project/sqlite.ts';
import { evaluateDice } from '../../../src-shared/problems/dice/evaluate.ts';
import { trackConfig } from '../../../src-shared/problems/dice/config.ts';
import { runCli, type CliRun } from './io.ts';
import { projectCopies, sql, type ProjectCopies } from '../../helpers/project-copies.ts';

const so = { name: 'so', instances: [{ name: 'so-n12', track: 'so', n: 12 }], solvers: [{ name: 'random' }], seeds: { count: 2 }, budget: { evaluations: 60 } };
const mo = {
  name: 'mo',
  instances: [{ name: 'mo2-n12', track: 'mo2', n: 12 }],
  solvers: [{ name: 'random' }, { name: 'nsga2', params: { populationSize: 10 } }],
  seeds: { count: 2 },
  budget: { evaluations: 60 },
};

let fx: ProjectCopies;
beforeAll(async () => {
  fx = await projectCopies('saikoro-forged-', { 'so.json': so, 'mo.json': mo });
}, 120_000);
afterAll(() => fx?.cleanup());
const copy = (name?: string) => fx.copy(name);

function query<T>(file: string, select: string): T[] {
  const db = new Database(file, { readOnly: true });
  try {
    return db.all(select) as T[];
  } finally {
    db.close();
  }
}

/** The id of the first run (by id) matching a WHERE clause. */
function runOf(file: string, where: string): string {
  return query<{ id: string }>(file, `SELECT min(id) AS id FROM runs WHERE ${where}`)[0].id;
}

const NO_TRACE = /\n\s+at |SyntaxError|SQLite3Error|TypeError|RangeError|cannot be stored in JSON|serialize a BigInt/;

/** Exit 1, the file and the run named with the reason, no stack trace. */
function refusedNaming(r: CliRun, id: string, reason: RegExp): void {
  expect(r.code, r.stderr).toBe(1);
  expect(r.stderr).not.toMatch(NO_TRACE);
  expect(r.stderr).toContain('f.saikoro');
  expect(r.stderr).toContain(id);
  expect(r.stderr).toMatch(reason);
}

describe('a damaged value is a clear message naming the run', () => {
  it('a seed stored as 2^63 - 1 (SQLite hands it back as a BigInt)', async () => {
    const { cwd, file } = copy();
    const id = runOf(file, "instance = 'mo2-n12'");
    sql(file, `UPDATE runs SET seed = 9223372036854775807 WHERE id = '${id}'`);
    const reason = /seed: must be an integer from 0 to 2\^53 - 1, got 9223372036854775807/;
    for (const argv of [
      ['compare', 'f.saikoro', 'mo', '--metric', 'hv'],
      ['experiment', 'verify', 'f.saikoro', '--all'],
      ['report', 'f.saikoro', 'mo', '--format', 'json', '--out', 'r.json'],
    ])
      refusedNaming(await runCli(argv, { cwd }), id, reason);
    // merge can go on: the run is refused, the others are merged.
    expect((await runCli(['project', 'new', 'p.saikoro'], { cwd })).code).toBe(0);
    const r = await runCli(['merge', 'p.saikoro', 'f.saikoro'], { cwd });
    refusedNaming(r, id, reason);
    expect(r.stdout).toContain('1 refused (see stderr)');
  });

  it('a seed of -1 and an elapsed time of -5 ms: out of their ranges, named on every read', async () => {
    for (const [column, value, reason] of [
      ['seed', '-1', /seed: must be an integer from 0 to 2\^53 - 1, got -1/],
      ['elapsed_ms', '-5', /elapsed_ms: must be at least 0, got -5/],
    ] as const) {
      const { cwd, file } = copy();
      const id = runOf(file, "instance = 'mo2-n12'");
      sql(file, `UPDATE runs SET ${column} = ${value} WHERE id = '${id}'`);
      for (const argv of [
        ['compare', 'f.saikoro', 'mo', '--metric', 'hv'],
        ['experiment', 'verify', 'f.saikoro', '--all'],
        ['report', 'f.saikoro', 'mo', '--format', 'json', '--out', 'r.json'],
      ])
        refusedNaming(await runCli(argv, { cwd }), id, reason);
      expect(fs.existsSync(path.join(cwd, 'r.json'))).toBe(false);
    }
  });

  it("a result's seed of -1 and a time of -5 s", async () => {
    for (const [key, reason] of [
      ['seed', /result_json\.seed: must be an integer from 0 to 2\^53 - 1, got -1/],
      ['seconds', /result_json\.seconds: must be at least 0, got -5/],
    ] as const) {
      const { cwd, file } = copy();
      const id = runOf(file, "instance = 'mo2-n12'");
      sql(file, `UPDATE results SET result_json = json_set(result_json, '$.${key}', ${key === 'seed' ? -1 : -5}) WHERE run_id = '${id}'`);
      refusedNaming(await runCli(['compare', 'f.saikoro', 'mo', '--metric', 'hv'], { cwd }), id, reason);
    }
  });

  it('a result whose bestFoundAt key is misspelt', async () => {
    const { cwd, file } = copy();
    const id = runOf(file, "solver = 'random'");
    sql(file, `UPDATE results SET result_json = replace(result_json, '"bestFoundAt"', '"bestFoundAx"') WHERE run_id = '${id}'`);
    refusedNaming(await runCli(['experiment', 'verify', 'f.saikoro', '--all'], { cwd }), id, /result_json\.bestFoundAt: is missing/);
  });

  it('a front holding [1e308, -1e308]', async () => {
    const { cwd, file } = copy();
    const id = runOf(file, "solver = 'nsga2'");
    sql(file, `UPDATE results SET result_json = json_set(result_json, '$.front[0].objectives', json('[1e308,-1e308]')) WHERE run_id = '${id}'`);
    const reason = /result_json\.front\[0\]\.objectives\[\d\]: /;
    for (const argv of [
      ['compare', 'f.saikoro', 'mo', '--metric', 'igd+'],
      ['report', 'f.saikoro', 'mo', '--format', 'csv', '--out', 'r.csv'],
      ['report', 'f.saikoro', 'mo', '--format', 'json', '--out', 'r.json'],
    ])
      refusedNaming(await runCli(argv, { cwd }), id, reason);
    expect(fs.readdirSync(cwd).filter((n) => n.startsWith('r'))).toEqual([]);
  });

  it('counts out of range: negative evaluations, a best found after the last evaluation', async () => {
    const { cwd, file } = copy();
    const a = runOf(file, "solver = 'random' AND instance = 'so-n12'");
    const b = runOf(file, "solver = 'nsga2'");
    sql(file, `UPDATE results SET result_json = json_set(result_json, '$.evaluations', -1) WHERE run_id = '${a}'`);
    refusedNaming(
      await runCli(['compare', 'f.saikoro', 'so', '--metric', 'best'], { cwd }),
      a,
      /result_json\.evaluations: must be a count \(an integer of at least 0\), got -1/,
    );
    sql(file, `UPDATE results SET result_json = json_set(result_json, '$.evaluations', 60) WHERE run_id = '${a}'`);
    sql(file, `UPDATE results SET result_json = json_set(result_json, '$.firstFeasibleAt', 61) WHERE run_id = '${b}'`);
    refusedNaming(
      await runCli(['compare', 'f.saikoro', 'mo', '--metric', 'hv'], { cwd }),
      b,
      /result_json\.firstFeasibleAt: is 61, after the run's last evaluation \(60\)/,
    );
  });
});

describe('merge re-evaluates what it imports', () => {
  async function mergeForged(statements: (file: string) => string): Promise<{ r: CliRun; cwd: string; project: string }> {
    const { cwd, file } = copy();
    sql(file, statements(file));
    expect((await runCli(['project', 'new', 'p.saikoro'], { cwd })).code).toBe(0);
    const r = await runCli(['merge', 'p.saikoro', 'f.saikoro'], { cwd });
    return { r, cwd, project: path.join(cwd, 'p.saikoro') };
  }

  /** The forged run is refused with its id and reason and absent from the project; the rest merged. */
  async function refusedAndAbsent(forge: (file: string) => { id: string; sql: string }, reason: RegExp): Promise<void> {
    let id = '';
    const { r, project } = await mergeForged((file) => {
      const forged = forge(file);
      id = forged.id;
      return forged.sql;
    });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).not.toMatch(NO_TRACE);
    expect(r.stderr).toMatch(new RegExp(`^f\\.saikoro: refused run ${id} \\([^)]*\\): ${reason.source}`, 'm'));
    expect(r.stdout).toContain('5 run(s) added, 0 already present, 2 experiment(s) added, 1 refused (see stderr)');
    const stored = query<{ id: string }>(project, 'SELECT id FROM runs UNION ALL SELECT run_id FROM results').map((row) => row.id);
    expect(stored).not.toContain(id);
    expect(stored.length).toBe(10);
  }

  it('a best objective of 0 for a sequence whose real f is not 0', async () => {
    await refusedAndAbsent((file) => {
      const id = runOf(file, "instance = 'so-n12'");
      const best = JSON.parse(query<{ b: string }>(file, `SELECT json_extract(result_json, '$.best') AS b FROM results WHERE run_id = '${id}'`)[0].b) as {
        x: string;
      };
      // The oracle: the evaluator's own f of the stored sequence, which the forgery contradicts.
      expect(evaluateDice(best.x, trackConfig('so', 12)).objectives[0]).toBeGreaterThan(0);
      return { id, sql: `UPDATE results SET result_json = json_set(result_json, '$.best.objectives', json('[0]')) WHERE run_id = '${id}'` };
    }, /result\.best\.objectives\[0\]: stored 0, the sequence evaluates to \d+/);
  });

  it('a best sequence replaced by 666...6', async () => {
    await refusedAndAbsent((file) => {
      const id = runOf(file, "instance = 'so-n12'");
      return { id, sql: `UPDATE results SET result_json = json_set(result_json, '$.best.x', '666666666666') WHERE run_id = '${id}'` };
    }, /result\.best\.objectives\[0\]: stored \d+, the sequence evaluates to 485/);
  });

  it('a front point of [-5, -7] (it would lift the normalised HV above its maximum)', async () => {
    await refusedAndAbsent((file) => {
      const id = runOf(file, "solver = 'nsga2'");
      return { id, sql: `UPDATE results SET result_json = json_set(result_json, '$.front[0].objectives', json('[-5,-7]')) WHERE run_id = '${id}'` };
    }, /result_json\.front\[0\]\.objectives\[0\]: must be at least 0, got -5/);
  });

  it('a front point whose objectives are another real point of the same front', async () => {
    await refusedAndAbsent((file) => {
      const id = query<{ run_id: string }>(
        file,
        "SELECT run_id FROM results WHERE json_array_length(result_json, '$.front') >= 2 AND run_id IN (SELECT id FROM runs WHERE instance = 'mo2-n12') ORDER BY run_id LIMIT 1",
      )[0].run_id;
      return {
        id,
        sql: `UPDATE results SET result_json = json_set(result_json, '$.front[0].objectives', json_extract(result_json, '$.front[1].objectives')) WHERE run_id = '${id}'`,
      };
    }, /result\.front\[0\]\.objectives\[\d\]: stored \d+, the sequence evaluates to \d+/);
  });

  it('evaluations: -1 (in the row and in the result)', async () => {
    await refusedAndAbsent((file) => {
      const id = runOf(file, "solver = 'random' AND instance = 'so-n12'");
      return {
        id,
        sql: `UPDATE runs SET evaluations = -1 WHERE id = '${id}'; UPDATE results SET result_json = json_set(result_json, '$.evaluations', -1) WHERE run_id = '${id}'`,
      };
    }, /(result_json\.)?evaluations: must be a count \(an integer of at least 0\), got -1/);
  });

  it('more evaluations than the budget allows', async () => {
    await refusedAndAbsent((file) => {
      const id = runOf(file, "solver = 'random' AND instance = 'so-n12'");
      return {
        id,
        sql: `UPDATE runs SET evaluations = 61 WHERE id = '${id}'; UPDATE results SET result_json = json_set(result_json, '$.evaluations', 61) WHERE run_id = '${id}'`,
      };
    }, /result\.evaluations: 61 is more than the budget of 60/);
  });

  it("a row whose evaluation count is not its result's", async () => {
    await refusedAndAbsent((file) => {
      const id = runOf(file, "solver = 'random' AND instance = 'so-n12'");
      return { id, sql: `UPDATE runs SET evaluations = 59 WHERE id = '${id}'` };
    }, /evaluations: the row says 59, its result 60/);
  });

  it('an honest file merges with exit 0 (every run re-evaluated and accepted)', async () => {
    const { r } = await mergeForged(() => 'SELECT 1');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('6 run(s) added, 0 already present, 2 experiment(s) added');
  });
});
