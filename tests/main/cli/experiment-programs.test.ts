// Experiments with solver programs (docs/external-solvers.md) through the CLI: the spec stores
// the command with the sha256 of its script, the runs go through worker processes like the
// built-in solvers' (a failing program fails only its own runs), status / compare / verify /
// shards and merge work with them, and a changed script is refused before anything runs.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Project } from '../../../src-main/project/store.ts';
import { evaluateDice } from '../../../src-shared/problems/dice/evaluate.ts';
import { runCli } from './io.ts';
import { sql } from '../../helpers/project-copies.ts';
import { Database } from '../../../src-main/project/sqlite.ts';

const FAKE = path.join(import.meta.dirname, '../../fixtures/external/fake-solver.mjs');
let cwd: string;
/** The CLI's environment: approvals (experiment add's) kept in a configuration folder of the test's own. */
let env: NodeJS.ProcessEnv;
beforeEach(() => {
  cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-cli-programs-'));
  env = { XDG_CONFIG_HOME: fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-cli-config-')) };
  fs.mkdirSync(path.join(cwd, 'solvers'));
  fs.copyFileSync(FAKE, path.join(cwd, 'solvers', 'fake.mjs'));
});
afterEach(() => {
  fs.rmSync(cwd, { recursive: true, force: true });
  fs.rmSync(env.XDG_CONFIG_HOME!, { recursive: true, force: true });
});

const sha256 = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');

const spec = {
  name: 'mine',
  instances: [{ name: 'mo2-n30', track: 'mo2', n: 30, normalisation: { ideal: [0, 0], nadir: [40, 40] } }],
  solvers: [{ name: 'random' }, { name: 'fake-search', command: [process.execPath, 'solvers/fake.mjs', 'random', '10'] }],
  seeds: { count: 2 },
  budget: { evaluations: 120 },
};

async function setUp(s: object = spec): Promise<void> {
  fs.writeFileSync(path.join(cwd, 'spec.json'), JSON.stringify(s));
  expect((await runCli(['project', 'new', 'p.saikoro'], { cwd, env })).code).toBe(0);
  const added = await runCli(['experiment', 'add', 'p.saikoro', '--spec', 'spec.json'], { cwd, env });
  expect(added.stderr).toBe('');
  expect(added.code).toBe(0);
}

function sqlRows<T>(file: string, select: string): T[] {
  const db = new Database(file, { readOnly: true });
  try {
    return db.all(select) as T[];
  } finally {
    db.close();
  }
}

const open = (name = 'p.saikoro') => Project.open(path.join(cwd, name), { readOnly: true });

describe('experiments with a solver program', () => {
  it('stores the command with its script hash, runs it in workers, and status, compare and verify work', async () => {
    await setUp();
    const stored = open();
    const entry = stored.experiment('mine')!.spec.solvers[1];
    expect(entry).toEqual({ name: 'fake-search', command: spec.solvers[1].command, hashes: { 'solvers/fake.mjs': sha256(FAKE) } });
    stored.close();

    const ran = await runCli(['experiment', 'run', 'p.saikoro', '--jobs', '2'], { cwd, env });
    expect(ran.stderr).not.toContain('FAILED');
    expect(ran.code).toBe(0);
    const project = open();
    const runs = project.runs().filter((r) => r.solver === 'fake-search');
    expect(runs).toHaveLength(2);
    for (const r of runs) {
      expect(r.status).toBe('done');
      expect(r.program).toEqual({ command: spec.solvers[1].command, hashes: { 'solvers/fake.mjs': sha256(FAKE) } });
      expect(r.result!.evaluations).toBe(120);
      // The cwd as the entry gives it (none: the project's folder), not where the folder is now.
      expect(r.result!.program).toMatchObject({ command: spec.solvers[1].command, cwd: null, exit: { code: 0, how: 'exited' } });
      // The front is the evaluator's, whatever the program claims.
      for (const s of r.result!.front) expect(s.objectives).toEqual(evaluateDice(s.x, r.config).objectives);
    }
    project.close();

    const status = await runCli(['experiment', 'status', 'p.saikoro', '--json'], { cwd, env });
    expect(JSON.parse(status.stdout)[0]).toMatchObject({ total: 4, done: 4, failed: 0 });
    const compared = await runCli(['compare', 'p.saikoro', 'mine', '--metric', 'hv', '--json'], { cwd, env });
    expect(compared.code).toBe(0);
    expect(JSON.parse(compared.stdout).instances[0].solvers.map((s: { label: string }) => s.label)).toEqual(['random', 'fake-search']);
    // The fake program draws from the seed it is sent: re-running reproduces its runs.
    const verified = await runCli(['experiment', 'verify', 'p.saikoro', '--all'], { cwd, env });
    expect(verified.stdout).toBe('4 runs re-run: all reproduce exactly\n');
    expect(verified.code).toBe(0);

    // Reports say what ran: the command and the script's hash.
    expect((await runCli(['report', 'p.saikoro', 'mine', '--format', 'json', '--out', 'r.json'], { cwd, env })).code).toBe(0);
    const report = JSON.parse(fs.readFileSync(path.join(cwd, 'r.json'), 'utf8'));
    const solvers = report.setup?.solvers ?? report.data?.setup?.solvers;
    expect(solvers[1]).toMatchObject({
      label: 'fake-search',
      params: [],
      program: { command: spec.solvers[1].command, cwd: null, blind: false, hashes: { 'solvers/fake.mjs': sha256(FAKE) } },
    });
    expect(solvers[0].program).toBeUndefined();
    expect((await runCli(['report', 'p.saikoro', 'mine', '--out', 'r.html'], { cwd, env })).code).toBe(0);
    const html = fs.readFileSync(path.join(cwd, 'r.html'), 'utf8');
    expect(html).toContain(`sha256 of solvers/fake.mjs: <code>${sha256(FAKE)}</code>`);
    expect(html).toContain('solvers/fake.mjs random 10</code>');
  });

  it('a program that breaks the protocol fails its runs with the reason; the other runs are done', async () => {
    await setUp({ ...spec, solvers: [{ name: 'random' }, { name: 'chatty', command: [process.execPath, 'solvers/fake.mjs', 'notjson'] }] });
    const ran = await runCli(['experiment', 'run', 'p.saikoro', '--jobs', '2'], { cwd, env });
    expect(ran.code).toBe(1);
    expect(ran.stderr).toContain(`FAILED mo2-n30 chatty seed 1 in`);
    expect(ran.stderr).toContain(`: the program's line 2 is not JSON: "generation 1: best 12.5"`);
    const project = open();
    expect(
      project
        .runs()
        .map((r) => `${r.solver}:${r.status}`)
        .sort(),
    ).toEqual(['chatty:failed', 'chatty:failed', 'random:done', 'random:done']);
    project.close();
  });

  it('add refuses a program whose script or executable is not there, naming the path it looked for, and stores nothing', async () => {
    expect((await runCli(['project', 'new', 'p.saikoro'], { cwd })).code).toBe(0);
    for (const [command, message] of [
      [
        [process.execPath, 'solvers/missing.mjs', 'random'],
        `spec.json: the solver fake-search (solvers[1])'s script "solvers/missing.mjs" is not a file (looked for ${path.join(cwd, 'solvers', 'missing.mjs')})`,
      ],
      [
        ['python3', 'examples/solvers/deap_ga.py'],
        `spec.json: the solver fake-search (solvers[1])'s script "examples/solvers/deap_ga.py" is not a file (looked for ${path.join(cwd, 'examples', 'solvers', 'deap_ga.py')})`,
      ],
      [
        ['no-such-interpreter-xyz', 'solvers/fake.mjs'],
        `spec.json: the solver fake-search (solvers[1])'s program "no-such-interpreter-xyz" was not found on the PATH Saikoro runs with`,
      ],
      [
        ['./solvers/nothing-here'],
        `spec.json: the solver fake-search (solvers[1])'s program "./solvers/nothing-here" is not an executable file (looked for ${path.join(cwd, 'solvers', 'nothing-here')})`,
      ],
    ] as const) {
      fs.writeFileSync(path.join(cwd, 'spec.json'), JSON.stringify({ ...spec, solvers: [spec.solvers[0], { name: 'fake-search', command }] }));
      const added = await runCli(['experiment', 'add', 'p.saikoro', '--spec', 'spec.json'], { cwd, env: { PATH: process.env.PATH } });
      expect([added.code, added.stdout]).toEqual([1, '']);
      expect(added.stderr).toContain(`saikoro experiment: ${message}`);
    }
    const project = open();
    expect(project.experiments()).toEqual([]);
    project.close();
    // Arguments that are not scripts need not be files: an option's value, a module's name.
    fs.writeFileSync(
      path.join(cwd, 'spec.json'),
      JSON.stringify({
        ...spec,
        solvers: [spec.solvers[0], { name: 'fake-search', command: [process.execPath, 'solvers/fake.mjs', 'random', '10', 'not-a-file'] }],
      }),
    );
    expect((await runCli(['experiment', 'add', 'p.saikoro', '--spec', 'spec.json'], { cwd })).code).toBe(0);
  });

  it('refuses to run a program whose script changed since the experiment was added', async () => {
    await setUp();
    fs.appendFileSync(path.join(cwd, 'solvers', 'fake.mjs'), '\n// changed\n');
    const ran = await runCli(['experiment', 'run', 'p.saikoro'], { cwd, env });
    expect(ran.code).toBe(1);
    expect(ran.stderr).toMatch(
      /experiment "mine", solver fake-search \(solvers\[1\]\): solvers\/fake\.mjs has changed since the experiment was added \(sha256 [0-9a-f]{12}\.\.\. then, [0-9a-f]{12}\.\.\. now\)/,
    );
    const project = open();
    expect(project.runs()).toHaveLength(0);
    project.close();
  });

  it("verify reproduces after the project folder is moved: a program's cwd is stored as its entry gives it", async () => {
    const inSolvers = { ...spec, solvers: [{ name: 'fake-search', command: [process.execPath, 'fake.mjs', 'random', '10'], cwd: 'solvers' }] };
    await setUp(inSolvers);
    expect((await runCli(['experiment', 'run', 'p.saikoro'], { cwd, env })).code).toBe(0);
    let project = open();
    expect(project.runs().map((r) => r.result!.program!.cwd)).toEqual(['solvers', 'solvers']);
    project.close();
    // The folder moves (a copy to another machine, a renamed folder): the runs still reproduce.
    const moved = `${cwd}-moved`;
    fs.renameSync(cwd, moved);
    cwd = moved;
    // Moved, it is another project to the approvals: --yes (approvals: experiment-approvals.test.ts).
    const verified = await runCli(['experiment', 'verify', 'p.saikoro', '--all', '--yes'], { cwd, env });
    expect(verified.stderr).not.toContain('MISMATCH');
    expect(verified.stdout).toBe('2 runs re-run: all reproduce exactly\n');
    // A result an older version stored holds the absolute folder of the time: read as the entry's cwd.
    sql(path.join(cwd, 'p.saikoro'), `UPDATE results SET result_json = json_set(result_json, '$.program.cwd', '/where/it/was/solvers')`);
    project = open();
    expect(project.runs().map((r) => r.result!.program!.cwd)).toEqual(['solvers', 'solvers']);
    project.close();
    expect((await runCli(['experiment', 'verify', 'p.saikoro', '--all', '--yes'], { cwd, env })).stdout).toBe('2 runs re-run: all reproduce exactly\n');
  });

  it("merge refuses a run whose result claims another program than the run's", async () => {
    await setUp();
    expect((await runCli(['experiment', 'run', 'p.saikoro', '--shard', '1/1', '--out', 's.saikoro'], { cwd, env })).code).toBe(0);
    const shard = path.join(cwd, 's.saikoro');
    const forgeries: [string, RegExp][] = [
      [
        `json_set(result_json, '$.program.command', json('["/bin/sh", "-c", "id"]'))`,
        /its result's program\.command is \["\/bin\/sh","-c","id"\], the run's is \[/,
      ],
      [
        `json_set(result_json, '$.program.hashes', json('{"solvers/fake.mjs": "${'0'.repeat(64)}"}'))`,
        /its result's program\.hashes is \{"solvers\/fake\.mjs":"0{64}"\}, the run's is \{"solvers\/fake\.mjs":"[0-9a-f]{64}"\}/,
      ],
      [`json_set(result_json, '$.program.blind', json('true'))`, /its result's program\.blind is true, the run's is false/],
      [`json_set(result_json, '$.program.cwd', 'elsewhere')`, /its result's program\.cwd is "elsewhere", the run's is null/],
      [`json_remove(result_json, '$.program')`, /its result does not say which program ran \(result\.program is missing\)/],
    ];
    for (const [forged, reason] of forgeries) {
      fs.copyFileSync(shard, path.join(cwd, 'f.saikoro'));
      const id = sqlRows<{ id: string }>(path.join(cwd, 'f.saikoro'), 'SELECT min(id) AS id FROM runs WHERE program_json IS NOT NULL')[0].id;
      sql(path.join(cwd, 'f.saikoro'), `UPDATE results SET result_json = ${forged} WHERE run_id = '${id}'`);
      const target = `t${forgeries.findIndex((f) => f[0] === forged)}.saikoro`;
      expect((await runCli(['project', 'new', target], { cwd, env })).code).toBe(0);
      const merged = await runCli(['merge', target, 'f.saikoro'], { cwd, env });
      expect(merged.code, merged.stderr).toBe(1);
      expect(merged.stderr).toMatch(new RegExp(`^f\\.saikoro: refused run ${id} \\(mo2-n30 fake-search seed \\d\\): ${reason.source}`, 'm'));
      const project = open(target);
      expect(project.runs().map((r) => r.id)).not.toContain(id);
      expect(project.runs()).toHaveLength(3);
      project.close();
      fs.rmSync(path.join(cwd, target));
    }
    // A built-in solver's run whose result claims a program.
    fs.copyFileSync(shard, path.join(cwd, 'f.saikoro'));
    const builtIn = sqlRows<{ id: string }>(path.join(cwd, 'f.saikoro'), 'SELECT min(id) AS id FROM runs WHERE program_json IS NULL')[0].id;
    sql(
      path.join(cwd, 'f.saikoro'),
      `UPDATE results SET result_json = json_set(result_json, '$.program', json('{"command": ["id"], "cwd": null, "blind": false, "hashes": null, "exit": null}')) WHERE run_id = '${builtIn}'`,
    );
    expect((await runCli(['project', 'new', 'b.saikoro'], { cwd, env })).code).toBe(0);
    const merged = await runCli(['merge', 'b.saikoro', 'f.saikoro'], { cwd, env });
    expect(merged.stderr).toContain(`refused run ${builtIn} (mo2-n30 random seed `);
    expect(merged.stderr).toContain(`its result says a program ran (id), but the run is the built-in solver random's`);
  });

  it('verify names the experiment and solver of a changed script, and still checks the other runs', async () => {
    await setUp();
    expect((await runCli(['experiment', 'run', 'p.saikoro'], { cwd, env })).code).toBe(0);
    fs.appendFileSync(path.join(cwd, 'solvers', 'fake.mjs'), '\n// changed\n');
    const verified = await runCli(['experiment', 'verify', 'p.saikoro', '--all'], { cwd, env });
    expect(verified.code).toBe(1);
    const lines = verified.stderr.split('\n').filter((l) => /^(ok|MISMATCH)/.test(l));
    expect(lines.filter((l) => /^ok +mo2-n30 random seed /.test(l))).toHaveLength(2);
    const mismatches = lines.filter((l) => l.startsWith('MISMATCH'));
    expect(mismatches).toHaveLength(2);
    for (const l of mismatches)
      expect(l).toMatch(
        /^MISMATCH mo2-n30 fake-search seed \d \([0-9a-f]{12}\): not re-run: experiment "mine", solver fake-search \(solvers\[1\]\): solvers\/fake\.mjs has changed since the experiment was added/,
      );
    expect(verified.stdout).toBe('2 of 4 runs did not reproduce\n');
  });

  it('runs in shards that merge back, program runs included', async () => {
    await setUp();
    for (const k of [1, 2]) {
      const r = await runCli(['experiment', 'run', 'p.saikoro', '--shard', `${k}/2`, '--out', `s${k}.saikoro`], { cwd, env });
      expect(r.code, r.stderr).toBe(0);
    }
    const merged = await runCli(['merge', 'p.saikoro', 's1.saikoro', 's2.saikoro', '--json'], { cwd, env });
    expect(merged.code).toBe(0);
    const project = open();
    expect(project.runs().filter((r) => r.status === 'done')).toHaveLength(4);
    expect(project.runs().filter((r) => r.program !== null)).toHaveLength(2);
    project.close();
  });
  it('a program that damages the project during the run: experiment run fails naming the damage, not exit 0 with a file the next open refuses', async () => {
    // Without the sandbox (SAIKORO_BWRAP=none) a program can write where the person can. This one
    // zeroes the project's last page at its start (from its folder: the file is never its
    // argument), then solves as the fake solver does.
    fs.writeFileSync(
      path.join(cwd, 'solvers', 'damage.mjs'),
      [
        "import fs from 'node:fs';",
        "const file = new URL('../p.saikoro', import.meta.url);",
        'const size = fs.statSync(file).size;',
        "const fd = fs.openSync(file, 'r+');",
        'fs.writeSync(fd, Buffer.alloc(4096, 0), 0, 4096, size - 4096);',
        'fs.closeSync(fd);',
        "process.argv = [process.argv[0], process.argv[1], 'random', '10'];",
        "await import('./fake.mjs');",
      ].join('\n'),
    );
    await setUp({
      ...spec,
      instances: [{ name: 'so-n30', track: 'so', n: 30 }],
      solvers: [{ name: 'damage', command: [process.execPath, 'damage.mjs'], cwd: 'solvers' }],
      seeds: { count: 1 },
    });
    // The sandbox is looked for in the process's environment (the CLI runs in this process here).
    const bwrap = process.env.SAIKORO_BWRAP;
    process.env.SAIKORO_BWRAP = 'none';
    let r: Awaited<ReturnType<typeof runCli>>;
    try {
      r = await runCli(['experiment', 'run', 'p.saikoro', 'mine'], { cwd, env });
    } finally {
      if (bwrap === undefined) delete process.env.SAIKORO_BWRAP;
      else process.env.SAIKORO_BWRAP = bwrap;
    }
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^saikoro experiment: p\.saikoro: corrupt Saikoro project \(integrity check: [^]*\); found after the runs of a solver program, which can write to the project where it runs without the sandbox \(its runs were stored as they ended, but the file is damaged\)\n$/m,
    );
    // The next open refuses the file as the run said.
    const info = await runCli(['project', 'info', 'p.saikoro'], { cwd, env });
    expect(info.code).toBe(1);
    expect(info.stderr).toMatch(/p\.saikoro: corrupt Saikoro project \(integrity check/);
  });
  it('verify says a re-run that fails failed (with its reason), though the failed run keeps what it evaluated', async () => {
    // The program solves the first time and breaks the protocol after its first batch when a
    // file beside the project says so (written after the run).
    fs.writeFileSync(
      path.join(cwd, 'solvers', 'flaky.mjs'),
      [
        "import fs from 'node:fs';",
        "const broken = fs.existsSync(new URL('../broken', import.meta.url));",
        "process.argv = [process.argv[0], process.argv[1], ...(broken ? ['notjson'] : ['random', '10'])];",
        "await import('./fake.mjs');",
      ].join('\n'),
    );
    await setUp({
      ...spec,
      instances: [{ name: 'so-n30', track: 'so', n: 30 }],
      solvers: [{ name: 'flaky', command: [process.execPath, 'flaky.mjs'], cwd: 'solvers' }],
      seeds: { count: 1 },
    });
    const bwrap = process.env.SAIKORO_BWRAP;
    process.env.SAIKORO_BWRAP = 'none';
    try {
      expect((await runCli(['experiment', 'run', 'p.saikoro', 'mine'], { cwd, env })).code).toBe(0);
      fs.writeFileSync(path.join(cwd, 'broken'), '');
      const verified = await runCli(['experiment', 'verify', 'p.saikoro', '--all'], { cwd, env });
      expect(verified.code).toBe(1);
      expect(verified.stderr).toContain(`re-run failed: the program's line 2 is not JSON: "generation 1: best 12.5"`);
    } finally {
      if (bwrap === undefined) delete process.env.SAIKORO_BWRAP;
      else process.env.SAIKORO_BWRAP = bwrap;
    }
  });
});
