// saikoro competition new / enter / problems / reveal: every flag, and bad input named.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Project } from '../../../src-main/project/store.ts';
import { Database } from '../../../src-main/project/sqlite.ts';
import { problemConfig } from '../../../src-shared/competition/suite.ts';
import { trackConfig } from '../../../src-shared/problems/dice/config.ts';
import { expandGrid } from '../../../src-shared/experiments/grid.ts';
import { runCli } from './io.ts';

let cwd: string;
beforeEach(() => {
  cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-cli-competition-'));
});
afterEach(() => {
  fs.rmSync(cwd, { recursive: true, force: true });
});

const SECRET = 'organiser-secret-2026';
const cli = (...argv: string[]) => runCli(argv, { cwd });
const cliIn = (stdin: string, ...argv: string[]) => runCli(argv, { cwd, stdin });
const open = (name = 'c.saikoro') => Project.open(path.join(cwd, name), { readOnly: true });

async function make(extra: string[] = []) {
  const r = await cli(
    'competition',
    'new',
    'c.saikoro',
    '--tracks',
    'so,mo2',
    '--n',
    '60,80',
    '--instances',
    '2',
    '--budget',
    '300',
    '--seeds',
    '2',
    '--secret',
    SECRET,
    ...extra,
  );
  expect(r.code, r.stderr).toBe(0);
  return r;
}

describe('saikoro competition new', () => {
  it('makes a competition file of the suite with a commitment, never the secret', async () => {
    const r = await make();
    expect(r.stdout).toBe('created competition c.saikoro: 8 problem(s) (8 hidden), 300 evaluations x 2 seed(s) per problem and entrant\n');
    const project = open();
    const competition = project.competition()!;
    project.close();
    expect(competition.definition).toEqual({ tracks: ['so', 'mo2'], ns: [60, 80], instances: 2, withPublic: false, evaluations: 300, seeds: 2 });
    expect(competition.problems.map((p) => p.id)).toEqual([
      'so-n60-i1',
      'so-n60-i2',
      'so-n80-i1',
      'so-n80-i2',
      'mo2-n60-i1',
      'mo2-n60-i2',
      'mo2-n80-i1',
      'mo2-n80-i2',
    ]);
    // The bands are the secret's draws; the multi-objective problems carry their normalisation.
    const mo = competition.problems[5];
    const config = problemConfig(SECRET, 'mo2', 60, 2);
    expect(mo.bands).toEqual({ alpha: config.alpha, beta: config.beta, gamma: config.gamma });
    expect(mo.normalisation!.nadir).toHaveLength(2);
    expect(competition.problems[0].normalisation).toBeUndefined();
    expect(competition.secret).toBeNull();
    expect(competition.commitment.scheme).toBe('sha256-salted-1');
    // Nowhere in the file is the secret.
    expect(fs.readFileSync(path.join(cwd, 'c.saikoro')).includes(Buffer.from(SECRET))).toBe(false);
  });

  it('--with-public adds instance 0, the public configuration, not hidden', async () => {
    expect(
      (
        await cli(
          'competition',
          'new',
          'p.saikoro',
          '--tracks',
          'mo3',
          '--n',
          '50',
          '--instances',
          '1',
          '--budget',
          '10',
          '--seeds',
          '1',
          '--secret',
          SECRET,
          '--with-public',
        )
      ).code,
    ).toBe(0);
    const project = open('p.saikoro');
    const [zero, one] = project.competition()!.problems;
    project.close();
    expect([zero.id, zero.hidden, one.id, one.hidden]).toEqual(['mo3-n50-i0', false, 'mo3-n50-i1', true]);
    const pub = trackConfig('mo3', 50);
    expect(zero.bands).toEqual({ alpha: pub.alpha, beta: pub.beta, gamma: pub.gamma });
    expect((await cli('competition', 'problems', 'p.saikoro')).stdout).toBe('mo3-n50-i0         public\nmo3-n50-i1         hidden\n');
  });

  it('reads the secret from stdin with --secret -', async () => {
    const r = await cliIn(
      `${SECRET}\nignored`,
      'competition',
      'new',
      'c.saikoro',
      '--tracks',
      'so',
      '--n',
      '50',
      '--instances',
      '1',
      '--budget',
      '10',
      '--seeds',
      '1',
      '--secret',
      '-',
    );
    expect(r.code, r.stderr).toBe(0);
    const project = open();
    expect(project.competition()!.problems[0].bands.alpha).toEqual(problemConfig(SECRET, 'so', 50, 1).alpha);
    project.close();
    expect((await cliIn(`${SECRET}\n`, 'competition', 'reveal', 'c.saikoro', '--secret', '-')).code).toBe(0);
  });

  it.each([
    [['--n', '50', '--instances', '1', '--budget', '10', '--seeds', '1', '--secret', SECRET], 2, 'missing --tracks'],
    [
      ['--tracks', 'so,mo4', '--n', '50', '--instances', '1', '--budget', '10', '--seeds', '1', '--secret', SECRET],
      2,
      '--tracks: unknown track "mo4" (known: so, mo2, mo3, mo5, mo7)',
    ],
    [
      ['--tracks', 'so,,mo2', '--n', '50', '--instances', '1', '--budget', '10', '--seeds', '1', '--secret', SECRET],
      2,
      '--tracks: expected a comma-separated list, got "so,,mo2"',
    ],
    [['--tracks', 'so,so', '--n', '50', '--instances', '1', '--budget', '10', '--seeds', '1', '--secret', SECRET], 1, 'tracks: a track is named twice (so,so)'],
    [['--tracks', 'so', '--instances', '1', '--budget', '10', '--seeds', '1', '--secret', SECRET], 2, 'missing --n'],
    [['--tracks', 'so', '--n', '-5', '--instances', '1', '--budget', '10', '--seeds', '1', '--secret', SECRET], 2, '--n: must be positive, got -5'],
    [['--tracks', 'so', '--n', '50,50', '--instances', '1', '--budget', '10', '--seeds', '1', '--secret', SECRET], 1, 'n: an N is given twice (50,50)'],
    [['--tracks', 'so', '--n', '50', '--budget', '10', '--seeds', '1', '--secret', SECRET], 2, 'missing --instances'],
    [
      ['--tracks', 'so', '--n', '50', '--instances', '101', '--budget', '10', '--seeds', '1', '--secret', SECRET],
      2,
      '--instances: must be at most 100, got 101',
    ],
    [
      ['--tracks', 'so', '--n', '50', '--instances', '0', '--budget', '10', '--seeds', '1', '--secret', SECRET],
      1,
      'instances: must be at least 1 (or give --with-public',
    ],
    [['--tracks', 'so', '--n', '50', '--instances', '1', '--seeds', '1', '--secret', SECRET], 2, 'missing --budget'],
    [['--tracks', 'so', '--n', '50', '--instances', '1', '--budget', '0', '--seeds', '1', '--secret', SECRET], 2, '--budget: must be positive, got 0'],
    [['--tracks', 'so', '--n', '50', '--instances', '1', '--budget', '10', '--secret', SECRET], 2, 'missing --seeds'],
    [['--tracks', 'so', '--n', '50', '--instances', '1', '--budget', '10', '--seeds', '1.5', '--secret', SECRET], 2, '--seeds: expected an integer, got "1.5"'],
    [['--tracks', 'so', '--n', '50', '--instances', '1', '--budget', '10', '--seeds', '1'], 2, 'missing --secret TEXT'],
    [['--tracks', 'so', '--n', '50', '--instances', '1', '--budget', '10', '--seeds', '1', '--secret', 'short'], 1, 'secret: must have at least 8 characters'],
    [
      ['--tracks', 'so', '--n', '50', '--instances', '1', '--budget', '10', '--seeds', '1', '--secret', SECRET, '--name', 'x'],
      2,
      'competition new: --name does not go with new',
    ],
  ])('refuses %j (exit %i) naming the problem, and makes no file', async (args, code, message) => {
    const r = await cli('competition', 'new', 'c.saikoro', ...args);
    expect(r.code).toBe(code);
    expect(r.stderr).toContain(message);
    expect(fs.existsSync(path.join(cwd, 'c.saikoro'))).toBe(false);
  });

  it('never overwrites an existing file', async () => {
    fs.writeFileSync(path.join(cwd, 'c.saikoro'), 'mine');
    const r = await cli(
      'competition',
      'new',
      'c.saikoro',
      '--tracks',
      'so',
      '--n',
      '50',
      '--instances',
      '1',
      '--budget',
      '10',
      '--seeds',
      '1',
      '--secret',
      SECRET,
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('c.saikoro: already exists; not overwriting it');
    expect(fs.readFileSync(path.join(cwd, 'c.saikoro'), 'utf8')).toBe('mine');
  });
});

describe('saikoro competition enter (built-in solvers)', () => {
  it('enters the defaults and a built-in solver blind, one experiment per track of the problems x entrants x seeds', async () => {
    await make();
    expect(await cli('competition', 'enter', 'c.saikoro', '--name', 'defaults', '--solver', 'default')).toMatchObject({
      code: 0,
      stdout: 'entered defaults: built-in solver default, blind\n',
    });
    expect((await cli('competition', 'enter', 'c.saikoro', '--name', 'rnd', '--solver', 'random')).code).toBe(0);
    const project = open();
    const experiments = new Map(project.experiments().map((e) => [e.name, e.spec]));
    expect(project.entrants().map((e) => [e.name, e.entry])).toEqual([
      ['defaults', { kind: 'builtin', solver: 'default' }],
      ['rnd', { kind: 'builtin', solver: 'random' }],
    ]);
    project.close();
    expect([...experiments.keys()].sort()).toEqual(['mo2', 'so']);
    const so = experiments.get('so')!;
    expect(so.blind).toBe(true);
    expect(so.solvers).toEqual([
      { name: 'barrier-ls', label: 'defaults' },
      { name: 'random', label: 'rnd' },
    ]);
    expect(experiments.get('mo2')!.solvers[0]).toEqual({ name: 'barrier-mo', label: 'defaults' });
    expect(so.instances.map((i) => [i.name, i.hidden])).toEqual([
      ['so-n60-i1', true],
      ['so-n60-i2', true],
      ['so-n80-i1', true],
      ['so-n80-i2', true],
    ]);
    expect(so.seeds).toEqual({ count: 2, start: 1 });
    expect(so.budget).toEqual({ evaluations: 300 });
    const runs = expandGrid(so);
    expect(runs).toHaveLength(4 * 2 * 2);
    expect(runs.every((r) => r.blind === true)).toBe(true);
    expect(runs[0].config).toEqual(problemConfig(SECRET, 'so', 60, 1));
  });

  it("keeps the earlier entrants' run ids when another enters", async () => {
    await make();
    await cli('competition', 'enter', 'c.saikoro', '--name', 'defaults', '--solver', 'default');
    let project = open();
    const before = expandGrid(project.experiment('so')!.spec).map((r) => r.id);
    project.close();
    await cli('competition', 'enter', 'c.saikoro', '--name', 'rnd', '--solver', 'random');
    project = open();
    const after = expandGrid(project.experiment('so')!.spec)
      .filter((r) => r.label === 'defaults')
      .map((r) => r.id);
    project.close();
    expect(after).toEqual(before);
  });

  it.each([
    [
      ['--name', 'ga', '--solver', 'ga'],
      1,
      'solver ga is single-objective; track mo2 has 2 objectives; enter a solver that handles every track of the competition, or default',
    ],
    [['--name', 'x', '--solver', 'simplex'], 1, 'unknown solver "simplex" (known: random,'],
    [['--name', 'bad name', '--solver', 'random'], 1, "an entrant's name must be 1-64 characters"],
    [['--solver', 'random'], 2, 'missing --name NAME'],
    [['--name', 'x'], 2, 'give --solver BUILTIN (or default)'],
    [['--name', 'x', '--solver', 'random', '--seeds', '3'], 2, '--seeds does not go with enter'],
  ])('refuses %j (exit %i) naming the problem', async (args, code, message) => {
    await make();
    const r = await cli('competition', 'enter', 'c.saikoro', ...args);
    expect(r.code).toBe(code);
    expect(r.stderr).toContain(message);
    const project = open();
    expect(project.entrants()).toEqual([]);
    expect(project.experiments()).toEqual([]);
    project.close();
  });

  it('refuses a name taken, an entrant that would make the same runs as another, a file that is not a competition, and any entrant after the reveal', async () => {
    await make();
    await cli('competition', 'enter', 'c.saikoro', '--name', 'defaults', '--solver', 'default');
    expect((await cli('competition', 'enter', 'c.saikoro', '--name', 'defaults', '--solver', 'random')).stderr).toContain(
      'an entrant named "defaults" has entered already; choose another name',
    );
    expect((await cli('competition', 'enter', 'c.saikoro', '--name', 'again', '--solver', 'default')).stderr).toContain(
      'entrant again would make the very runs of entrant defaults',
    );
    await cli('project', 'new', 'plain.saikoro');
    const plain = await cli('competition', 'enter', 'plain.saikoro', '--name', 'x', '--solver', 'random');
    expect(plain).toMatchObject({ code: 1 });
    expect(plain.stderr).toContain('plain.saikoro: is not a competition file (make one with saikoro competition new)');
    expect((await cli('competition', 'reveal', 'c.saikoro', '--secret', SECRET)).code).toBe(0);
    expect((await cli('competition', 'enter', 'c.saikoro', '--name', 'late', '--solver', 'random')).stderr).toContain(
      "the competition's secret has been revealed; no entrant can enter any more",
    );
    const project = open();
    expect(project.entrants().map((e) => e.name)).toEqual(['defaults']);
    project.close();
  });
});

describe('saikoro competition problems and reveal', () => {
  it('lists the problems without bands; with --reveal --secret (checked) or once revealed, with them', async () => {
    await make();
    const plain = await cli('competition', 'problems', 'c.saikoro', '--json');
    expect(plain.code).toBe(0);
    const listed = JSON.parse(plain.stdout);
    expect(listed.problems[0]).toEqual({ id: 'so-n60-i1', track: 'so', n: 60, instance: 1, hidden: true });
    expect(plain.stdout).not.toMatch(/alpha|beta|gamma/);
    const shown = JSON.parse((await cli('competition', 'problems', 'c.saikoro', '--json', '--reveal', '--secret', SECRET)).stdout);
    const config = problemConfig(SECRET, 'so', 60, 1);
    expect(shown.problems[0]).toEqual({
      id: 'so-n60-i1',
      track: 'so',
      n: 60,
      instance: 1,
      hidden: true,
      alpha: config.alpha,
      beta: config.beta,
      gamma: config.gamma,
    });
    // --reveal lists; it does not reveal.
    expect((await cli('competition', 'problems', 'c.saikoro', '--json')).stdout).toBe(plain.stdout);
    const wrong = await cli('competition', 'problems', 'c.saikoro', '--reveal', '--secret', 'not-the-secret');
    expect(wrong).toMatchObject({ code: 1, stdout: '' });
    expect(wrong.stderr).toContain("c.saikoro: the secret does not match the competition's commitment");
    expect((await cli('competition', 'problems', 'c.saikoro', '--reveal')).stderr).toContain('--reveal needs --secret TEXT');
    expect((await cli('competition', 'problems', 'c.saikoro', '--secret', SECRET)).stderr).toContain('--secret goes with --reveal');
    // Revealed: shown without the secret.
    expect((await cli('competition', 'reveal', 'c.saikoro', '--secret', SECRET)).stdout).toBe(
      'revealed c.saikoro: the secret matches the commitment and draws each of its 8 hidden instance(s) again; their bands are shown from now on\n',
    );
    expect(JSON.parse((await cli('competition', 'problems', 'c.saikoro', '--json')).stdout)).toEqual(shown);
    expect((await cli('competition', 'reveal', 'c.saikoro', '--secret', SECRET)).stdout).toMatch(
      /^c\.saikoro was revealed already \(.*\); the secret matches\n$/,
    );
  });

  it('refuses a wrong secret, and a secret whose draws are not the stored instances (a changed file)', async () => {
    await make();
    const wrong = await cli('competition', 'reveal', 'c.saikoro', '--secret', 'not-the-secret');
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain("the secret does not match the competition's commitment; nothing was revealed");
    // An organiser who changes an instance after the commitment is found out at the reveal.
    const db = new Database(path.join(cwd, 'c.saikoro'));
    const row = db.get('SELECT definition_json FROM competition') as { definition_json: string };
    const stored = JSON.parse(row.definition_json);
    stored.problems[3].bands.gamma[0] = stored.problems[3].bands.gamma[0] === 1 ? 2 : 1;
    db.run('UPDATE competition SET definition_json = ?', [JSON.stringify(stored)]);
    db.close();
    const changed = await cli('competition', 'reveal', 'c.saikoro', '--secret', SECRET);
    expect(changed.code).toBe(1);
    expect(changed.stderr).toContain('the secret matches the commitment but does not draw problem so-n80-i2 as stored');
    const project = open();
    expect(project.competition()!.secret).toBeNull();
    project.close();
  });

  it('gives usage errors for a missing action, file or argument', async () => {
    expect((await cli('competition')).code).toBe(2);
    expect((await cli('competition', 'launch', 'c.saikoro')).stderr).toContain('unknown action "launch" (new, enter, run, standings, problems, reveal');
    expect((await cli('competition', 'problems')).stderr).toContain('competition problems: missing FILE');
    expect((await cli('competition', 'problems', 'c.saikoro', 'extra')).stderr).toContain('unexpected argument "extra"');
    expect((await cli('competition', 'reveal', 'c.saikoro')).stderr).toContain('missing --secret TEXT');
    const missing = await cli('competition', 'problems', 'nope.saikoro');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('nope.saikoro');
  });
});

describe('saikoro competition run (built-in entrants)', () => {
  it('runs every run once, resumes (nothing left to do), and shards merge to the same runs', async () => {
    const r = await cli(
      'competition',
      'new',
      'c.saikoro',
      '--tracks',
      'so,mo2',
      '--n',
      '40',
      '--instances',
      '2',
      '--budget',
      '150',
      '--seeds',
      '2',
      '--secret',
      SECRET,
    );
    expect(r.code, r.stderr).toBe(0);
    await cli('competition', 'enter', 'c.saikoro', '--name', 'defaults', '--solver', 'default');
    await cli('competition', 'enter', 'c.saikoro', '--name', 'rnd', '--solver', 'random');
    fs.copyFileSync(path.join(cwd, 'c.saikoro'), path.join(cwd, 's.saikoro'));
    const ran = await cli('competition', 'run', 'c.saikoro', '--jobs', '2', '--json');
    expect(ran.code, ran.stderr).toBe(0);
    expect(JSON.parse(ran.stdout)).toEqual([
      { track: 'so', total: 8, skipped: 0, done: 8, failed: 0, remaining: 0, remote: 0, refused: null },
      { track: 'mo2', total: 8, skipped: 0, done: 8, failed: 0, remaining: 0, remote: 0, refused: null },
    ]);
    expect((await cli('competition', 'run', 'c.saikoro')).stdout).toBe(
      'so: 8 runs: 8 finished before, 0 done now, 0 failed, 0 not run\nmo2: 8 runs: 8 finished before, 0 done now, 0 failed, 0 not run\n',
    );
    // The same competition in two shards, merged.
    for (const k of [1, 2]) expect((await cli('competition', 'run', 's.saikoro', '--shard', `${k}/2`, '--jobs', '1')).code).toBe(0);
    expect(fs.existsSync(path.join(cwd, 's.shard-1-of-2.saikoro'))).toBe(true);
    const merged = await cli('merge', 's.saikoro', 's.shard-1-of-2.saikoro', 's.shard-2-of-2.saikoro');
    expect(merged.code, merged.stderr).toBe(0);
    expect(merged.stdout).toContain('so: all 8 runs done');
    const whole = open('c.saikoro');
    const sharded = open('s.saikoro');
    const strip = (p: Project) =>
      p.runs().map((run) => ({ id: run.id, instance: run.instance, label: run.label, blind: run.blind, best: run.result!.best, evaluations: run.evaluations }));
    expect(strip(sharded)).toEqual(strip(whole));
    expect(whole.runs().every((run) => run.blind === true)).toBe(true);
    whole.close();
    sharded.close();
  });

  it('refuses a file that is not a competition, one nobody entered, and bad options', async () => {
    await cli('project', 'new', 'plain.saikoro');
    expect((await cli('competition', 'run', 'plain.saikoro')).stderr).toContain('plain.saikoro: is not a competition file');
    await make();
    const empty = await cli('competition', 'run', 'c.saikoro');
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain('c.saikoro: nobody has entered yet (saikoro competition enter c.saikoro --name NAME --solver default)');
    expect((await cli('competition', 'run', 'c.saikoro', '--out', 'x.saikoro')).stderr).toContain('--out goes with --shard');
    expect((await cli('competition', 'run', 'c.saikoro', '--shard', '3/2')).stderr).toContain('--shard: K/N needs 1 <= K <= N, got 3/2');
    expect((await cli('competition', 'run', 'c.saikoro', '--jobs', '0')).stderr).toContain('--jobs: must be positive, got 0');
    expect((await cli('competition', 'run', 'c.saikoro', '--memory-limit', '10')).stderr).toContain('--memory-limit: must be at least 64, got 10');
    expect((await cli('competition', 'run', 'c.saikoro', '--secret', SECRET)).stderr).toContain('--secret does not go with run');
  });
});

describe('a competition file and the experiment command', () => {
  it('refuses experiment add and experiment run on a competition file, naming the competition command', async () => {
    await make();
    await cli('competition', 'enter', 'c.saikoro', '--name', 'defaults', '--solver', 'default');
    fs.writeFileSync(
      path.join(cwd, 'spec.json'),
      JSON.stringify({ name: 'extra', instances: [{ name: 'a', n: 20 }], solvers: [{ name: 'random' }], seeds: [1], budget: { evaluations: 10 } }),
    );
    const add = await cli('experiment', 'add', 'c.saikoro', '--spec', 'spec.json');
    expect(add.code).toBe(1);
    expect(add.stderr).toContain('c.saikoro: is a competition file; its experiments are its tracks; enter entrants with saikoro competition enter');
    const run = await cli('experiment', 'run', 'c.saikoro', '--inline');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('c.saikoro: is a competition file; run it with saikoro competition run');
    const project = open();
    expect(project.runs()).toEqual([]);
    expect(
      project
        .experiments()
        .map((e) => e.name)
        .sort(),
    ).toEqual(['mo2', 'so']);
    project.close();
  });
});
