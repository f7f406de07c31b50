import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createInterface } from 'node:readline';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Project } from '../../../src-main/project/store.ts';
import { Database } from '../../../src-main/project/sqlite.ts';
import { reproducible } from '../../../src-main/app/experiment-verify.ts';
import { runCli } from './io.ts';

let cwd: string;
beforeEach(() => {
  cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-cli-experiment-'));
});
afterEach(() => {
  fs.rmSync(cwd, { recursive: true, force: true });
});

const spec = {
  name: 'small',
  instances: [
    { name: 'so-n12', track: 'so', n: 12 },
    { name: 'so-n16', track: 'so', n: 16 },
  ],
  solvers: [{ name: 'random' }, { name: 'hill-climbing' }],
  seeds: { count: 2 },
  budget: { evaluations: 150 },
};

function writeJson(name: string, value: unknown): void {
  fs.writeFileSync(path.join(cwd, name), typeof value === 'string' ? value : JSON.stringify(value));
}

async function setUp(): Promise<void> {
  writeJson('spec.json', spec);
  await runCli(['project', 'new', 'p.saikoro'], { cwd });
  const added = await runCli(['experiment', 'add', 'p.saikoro', '--spec', 'spec.json'], { cwd });
  expect(added).toMatchObject({ code: 0, stdout: 'added experiment small: 8 runs (2 instance(s) x 2 solver(s) x 2 seed(s))\n' });
}

const open = (name: string) => Project.open(path.join(cwd, name), { readOnly: true });

describe('saikoro experiment add', () => {
  it('is idempotent and refuses a different spec under the same name', async () => {
    await setUp();
    expect((await runCli(['experiment', 'add', 'p.saikoro', '--spec', 'spec.json'], { cwd })).stdout).toContain('already in p.saikoro with this spec');
    writeJson('other.json', { ...spec, seeds: [5] });
    const clash = await runCli(['experiment', 'add', 'p.saikoro', '--spec', 'other.json'], { cwd });
    expect(clash.code).toBe(1);
    expect(clash.stderr).toContain('p.saikoro: an experiment named "small" already exists with a different spec');
  });

  it.each([
    ['missing.json', null, 'missing.json: no such file'],
    ['bad.json', '{"name": ', 'bad.json: not valid JSON'],
    ['field.json', { ...spec, budget: { evaluations: -1 } }, 'field.json: budget.evaluations: must be at least 1, got -1'],
    ['solver.json', { ...spec, solvers: [{ name: 'simplex' }] }, 'solver.json: solvers[0].name: unknown solver "simplex" (known: random,'],
    [
      'param.json',
      { ...spec, solvers: [{ name: 'random', params: { batch: 'many' } }] },
      'param.json: solvers[0].params.batch: solver random: parameter batch must be an integer',
    ],
    ['kind.json', { ...spec, solvers: [{ name: 'nsga2' }] }, 'kind.json: solvers[0].name: solver nsga2 is multi-objective; instance so-n12 has one objective'],
    // Only the solver's setup at this M can tell: refused at add, not by every run.
    [
      'setup.json',
      { ...spec, instances: [{ name: 'mo7-n50', track: 'mo7', n: 50 }], solvers: [{ name: 'nsga3', params: { divisions: 30 } }] },
      'setup.json: solvers[0].params.divisions: solver nsga3: parameter divisions gives 1947792 reference directions at M = 7; at most 100000 (instance mo7-n50)',
    ],
  ])('refuses %s with exit 1 and a message naming the problem', async (file, content, message) => {
    await runCli(['project', 'new', 'p.saikoro'], { cwd });
    if (content !== null) writeJson(file, content);
    const r = await runCli(['experiment', 'add', 'p.saikoro', '--spec', file], { cwd });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(message);
    expect(open('p.saikoro').experiments()).toEqual([]);
  });

  it('gives usage errors and names a missing project', async () => {
    expect((await runCli(['experiment', 'add', 'p.saikoro'], { cwd })).stderr).toContain('missing --spec');
    expect((await runCli(['experiment', 'launch', 'p.saikoro'], { cwd })).code).toBe(2);
    const missing = await runCli(['experiment', 'status', 'nope.saikoro'], { cwd });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('nope.saikoro: no such file');
  });
});

describe('saikoro experiment run / status / verify', () => {
  it('runs every run, then only missing or failed ones', async () => {
    await setUp();
    const first = await runCli(['experiment', 'run', 'p.saikoro', '--inline'], { cwd });
    expect(first.code).toBe(0);
    expect(first.stdout).toBe('small: 8 runs: 0 already done, 8 done now, 0 failed, 0 not run\n');
    expect(first.stderr).toMatch(/\[small 8\/8\] done {3}so-n16 hill-climbing seed 2 in \S+; ETA/);
    const status = await runCli(['experiment', 'status', 'p.saikoro'], { cwd });
    expect(status.stdout).toContain('small: 8/8 done, 0 failed, 0 missing');
    expect(status.stdout).toMatch(/so-n12 +random +2\/2 done/);

    // Turn one run into a failure: the next run retries that one only.
    const project = Project.open(path.join(cwd, 'p.saikoro'));
    const victim = project.runs()[3];
    const db = new Database(path.join(cwd, 'p.saikoro'));
    db.run("UPDATE runs SET status = 'failed', error = 'crashed' WHERE id = ?", victim.id);
    db.run('DELETE FROM results WHERE run_id = ?', victim.id);
    db.close();
    project.close();
    expect((await runCli(['experiment', 'status', 'p.saikoro'], { cwd })).stdout).toContain('7/8 done, 1 failed');
    const again = await runCli(['experiment', 'run', 'p.saikoro', '--inline'], { cwd });
    expect(again.stdout).toBe('small: 8 runs: 7 already done, 1 done now, 0 failed, 0 not run\n');
    const rerun = open('p.saikoro').run(victim.id)!;
    expect(rerun.status).toBe('done');
    expect(reproducible(rerun.result!)).toEqual(reproducible(victim.result!));
  });

  it('stores everything needed to reproduce a run, and verify re-runs it exactly', async () => {
    await setUp();
    await runCli(['experiment', 'run', 'p.saikoro', '--inline'], { cwd });
    const run = open('p.saikoro')
      .runs()
      .find((r) => r.solver === 'hill-climbing')!;
    expect(run).toMatchObject({ status: 'done', budget: { evaluations: 150 }, evaluations: 150, appVersion: expect.stringMatching(/^saikoro \d/) });
    expect(run.config.n).toBeGreaterThan(0);
    expect(Object.keys(run.params).length).toBeGreaterThan(0);
    expect(run.elapsedMs).toBeGreaterThanOrEqual(0);
    expect(Date.parse(run.finishedAt)).toBeGreaterThanOrEqual(Date.parse(run.startedAt));
    const ok = await runCli(['experiment', 'verify', 'p.saikoro', '--all'], { cwd });
    expect(ok).toMatchObject({ code: 0, stdout: '8 runs re-run: all reproduce exactly\n' });

    // Tamper with one stored result: verify must notice and say where.
    const db = new Database(path.join(cwd, 'p.saikoro'));
    const stored = JSON.parse(String((db.get('SELECT result_json FROM results WHERE run_id = ?', run.id) as { result_json: string }).result_json));
    stored.best.objectives[0] += 1;
    db.run('UPDATE results SET result_json = ? WHERE run_id = ?', [JSON.stringify(stored), run.id]);
    db.close();
    const bad = await runCli(['experiment', 'verify', 'p.saikoro', '--all'], { cwd });
    expect(bad.code).toBe(1);
    expect(bad.stdout).toBe('1 of 8 runs did not reproduce\n');
    expect(bad.stderr).toMatch(/MISMATCH so-n\d+ hill-climbing seed \d .*result\.best\.objectives\[0\]/);

    // A result stored before exact traces (one point per improving step, no traceExact) still
    // verifies on everything else, and says its trace was not compared; a tampered trace of a
    // current result does not.
    const old = open('p.saikoro')
      .runs()
      .find((r) => r.solver !== 'hill-climbing' && r.status === 'done')!;
    const db2 = new Database(path.join(cwd, 'p.saikoro'));
    const oldResult = { ...old.result!, trace: [old.result!.trace.at(-1)!] } as Record<string, unknown>;
    delete oldResult.traceExact;
    db2.run('UPDATE results SET result_json = ? WHERE run_id = ?', [JSON.stringify(oldResult), old.id]);
    db2.run('UPDATE results SET result_json = ? WHERE run_id = ?', [
      JSON.stringify({ ...stored, best: { ...stored.best, objectives: [stored.best.objectives[0] - 1] }, trace: stored.trace.slice(1) }),
      run.id,
    ]);
    db2.close();
    const mixed = await runCli(['experiment', 'verify', 'p.saikoro', '--all'], { cwd });
    expect(mixed.stdout).toBe('1 of 8 runs did not reproduce\n');
    expect(mixed.stderr).toMatch(
      new RegExp(`^ok +\\S+ \\S+ seed \\d \\(${old.id.slice(0, 12)}\\) \\(stored before exact traces: its trace was not compared\\)$`, 'm'),
    );
    expect(mixed.stderr).toMatch(/MISMATCH so-n\d+ hill-climbing seed \d .*result\.trace\[0\]/);
  });

  it('runs shards into results files that merge into the same runs as a full run', async () => {
    await setUp();
    for (const k of [1, 2, 3]) {
      const r = await runCli(['experiment', 'run', 'p.saikoro', '--inline', '--shard', `${k}/3`], { cwd });
      expect(r.code).toBe(0);
      expect(r.stderr).toContain(`results go to p.shard-${k}-of-3.saikoro`);
    }
    expect(open('p.shard-1-of-3.saikoro').runs()).toHaveLength(3);
    expect(open('p.shard-3-of-3.saikoro').runs()).toHaveLength(2);
    // The shards never wrote to the project itself.
    expect(open('p.saikoro').runs()).toHaveLength(0);
    const merged = await runCli(['merge', 'p.saikoro', 'p.shard-1-of-3.saikoro', 'p.shard-2-of-3.saikoro', 'p.shard-3-of-3.saikoro'], { cwd });
    expect(merged.stdout).toBe(
      [
        'p.shard-1-of-3.saikoro: 3 run(s) added, 0 already present, 0 experiment(s) added',
        'p.shard-2-of-3.saikoro: 3 run(s) added, 0 already present, 0 experiment(s) added',
        'p.shard-3-of-3.saikoro: 2 run(s) added, 0 already present, 0 experiment(s) added',
        'small: all 8 runs done',
        '',
      ].join('\n'),
    );
    expect((await runCli(['merge', 'p.saikoro', 'p.shard-2-of-3.saikoro'], { cwd })).stdout).toBe(
      'p.shard-2-of-3.saikoro: 0 run(s) added, 3 already present, 0 experiment(s) added\nsmall: all 8 runs done\n',
    );
    // A full run in a second project gives the same ids and results.
    await runCli(['project', 'new', 'full.saikoro'], { cwd });
    await runCli(['experiment', 'add', 'full.saikoro', '--spec', 'spec.json'], { cwd });
    await runCli(['experiment', 'run', 'full.saikoro', '--inline'], { cwd });
    const a = open('p.saikoro').runs();
    const b = open('full.saikoro').runs();
    expect(a.map((r) => r.id)).toEqual(b.map((r) => r.id));
    expect(a.map((r) => reproducible(r.result!))).toEqual(b.map((r) => reproducible(r.result!)));
    // A shard run skips what the project already has.
    const skip = await runCli(['experiment', 'run', 'p.saikoro', '--inline', '--shard', '1/3', '--out', 'again.saikoro'], { cwd });
    expect(skip.stdout).toContain('3 already done, 0 done now');
  });

  it('runs the documented Slurm script as two array tasks outside Slurm, and the shards merge', async () => {
    await setUp();
    const script = path.resolve('docs/examples/slurm-experiment.sh');
    const bash = (args: string[], env: NodeJS.ProcessEnv, scriptPath = script) =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawn('bash', [scriptPath, ...args], {
          cwd,
          env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
        child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
        child.on('close', (code) => resolve({ code, stdout, stderr }));
      });
    // The shard count is the argument; SLURM_ARRAY_TASK_COUNT (the size of this submission) is not it.
    for (const k of [1, 2])
      expect(await bash(['p.saikoro', '2', 'out'], { SLURM_ARRAY_TASK_ID: String(k), SLURM_ARRAY_TASK_COUNT: '1' })).toMatchObject({ code: 0 });
    expect(open('out/p.shard-1-of-2.saikoro').runs()).toHaveLength(4);
    expect(open('out/p.shard-2-of-2.saikoro').runs()).toHaveLength(4);
    const merged = await runCli(['merge', 'p.saikoro', 'out/p.shard-1-of-2.saikoro', 'out/p.shard-2-of-2.saikoro'], { cwd });
    expect(merged.code).toBe(0);
    expect((await runCli(['experiment', 'status', 'p.saikoro'], { cwd })).stdout).toContain('8 done');
    expect(await bash(['p.saikoro', '2', 'out'], { SLURM_ARRAY_TASK_ID: '3' })).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('array task id 3 is not a shard of 1..2'),
    });
    expect(await bash(['p.saikoro'], { SLURM_ARRAY_TASK_ID: '1' })).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('usage: slurm-experiment.sh PROJECT.saikoro N [RESULTS_DIR]'),
    });

    // Slurm runs a copy of the script from its spool directory: Saikoro is then found from
    // SAIKORO_HOME or the submit directory, never from the copy's path.
    fs.mkdirSync(path.join(cwd, 'spool', 'job00007'), { recursive: true });
    const copy = path.join(cwd, 'spool', 'job00007', 'slurm_script');
    fs.copyFileSync(script, copy);
    const task = { SLURM_JOB_ID: '7', SLURM_ARRAY_TASK_ID: '1', SLURM_ARRAY_TASK_COUNT: '1', SLURM_SUBMIT_DIR: cwd };
    // (A PATH without any installed saikoro, whatever the machine has.)
    const bare = `${path.dirname(process.execPath)}:/usr/bin:/bin`;
    expect(await bash(['p.saikoro', '3', 'out'], { ...task, PATH: bare }, copy)).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(
        new RegExp(`cannot find Saikoro: no saikoro on the PATH \\(.*\\) and no bin/saikoro.mjs in the submit directory ${cwd}: install it`),
      ),
    });
    // (p.saikoro has every run by now, so shard 1 of 3 has nothing left to do.)
    const done = 'small: 3 runs in shard 1/3: 3 already done, 0 done now, 0 failed, 0 not run';
    expect(await bash(['p.saikoro', '3', 'out'], { ...task, SAIKORO_HOME: process.cwd() }, copy)).toMatchObject({
      code: 0,
      stdout: expect.stringContaining(done),
    });
    expect(await bash(['p.saikoro', '3', 'out'], { ...task, SLURM_SUBMIT_DIR: process.cwd() }, copy)).toMatchObject({
      code: 0,
      stdout: expect.stringContaining(done),
    });
    // An installed saikoro on the PATH (here a stand-in that runs this checkout's) is used when
    // SAIKORO_HOME is not set, from any submit directory.
    const bin = path.join(cwd, 'installed-bin');
    fs.mkdirSync(bin);
    fs.writeFileSync(
      path.join(bin, 'saikoro'),
      `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(path.resolve('bin/saikoro.mjs'))} "$@"\n`,
      { mode: 0o755 },
    );
    const installed = await bash(['p.saikoro', '3', 'out'], { ...task, PATH: `${bin}:${process.env.PATH}` }, copy);
    expect(installed).toMatchObject({ code: 0, stdout: expect.stringContaining(done) });
    expect(installed.stdout).toContain(`(Saikoro: installed ${path.join(bin, 'saikoro')}, host `);
  });

  it('runs in worker processes with the same results as inline', async () => {
    writeJson('spec.json', { ...spec, instances: [spec.instances[0]], seeds: [7] });
    await runCli(['project', 'new', 'w.saikoro'], { cwd });
    await runCli(['experiment', 'add', 'w.saikoro', '--spec', 'spec.json'], { cwd });
    const r = await runCli(['experiment', 'run', 'w.saikoro', '--jobs', '2'], { cwd });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('2 done now, 0 failed');
    expect((await runCli(['experiment', 'verify', 'w.saikoro', '--all'], { cwd })).stdout).toBe('2 runs re-run: all reproduce exactly\n');
  });

  it('resumes after the runner is killed with SIGKILL, losing only the run in flight', async () => {
    writeJson('spec.json', { ...spec, seeds: { count: 4 }, budget: { evaluations: 400 } });
    await runCli(['project', 'new', 'p.saikoro'], { cwd });
    await runCli(['experiment', 'add', 'p.saikoro', '--spec', 'spec.json'], { cwd });
    const child = spawn(process.execPath, [path.resolve('bin/saikoro.mjs'), 'experiment', 'run', 'p.saikoro', '--inline'], {
      cwd,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let reported = 0;
    await new Promise<void>((resolve, reject) => {
      createInterface({ input: child.stderr! }).on('line', (line) => {
        if (/^\[small \d+\/16\] done/.test(line) && ++reported === 3) child.kill('SIGKILL');
      });
      child.on('exit', (code, signal) => (signal === 'SIGKILL' ? resolve() : reject(new Error(`runner ended by itself (${code}) after ${reported} runs`))));
    });
    const stored = open('p.saikoro').runs().length;
    expect(stored).toBeGreaterThanOrEqual(3);
    const resumed = await runCli(['experiment', 'run', 'p.saikoro', '--inline'], { cwd });
    expect(resumed.stdout).toBe(`small: 16 runs: ${stored} already done, ${16 - stored} done now, 0 failed, 0 not run\n`);
    expect((await runCli(['experiment', 'verify', 'p.saikoro', '--sample', '3'], { cwd })).code).toBe(0);
  });

  it('names unknown experiments and bad options', async () => {
    await setUp();
    const unknown = await runCli(['experiment', 'run', 'p.saikoro', 'nope', '--inline'], { cwd });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no experiment named "nope" (has: small)');
    expect((await runCli(['experiment', 'run', 'p.saikoro', '--shard', '4/3'], { cwd })).stderr).toContain('--shard: K/N needs 1 <= K <= N');
    expect((await runCli(['experiment', 'run', 'p.saikoro', '--jobs', '0'], { cwd })).code).toBe(2);
    expect(await runCli(['experiment', 'run', 'p.saikoro', '--memory-limit', '10'], { cwd })).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--memory-limit: must be at least 64, got 10'),
    });
    expect((await runCli(['experiment', 'run', 'p.saikoro', '--out', 'x.saikoro'], { cwd })).stderr).toContain('--out goes with --shard');
    const empty = await runCli(['experiment', 'verify', 'p.saikoro'], { cwd });
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain('no finished runs to verify');
  });
});
