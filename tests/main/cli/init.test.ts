// `saikoro init DIR` (issue 27): a first study from the package alone. It makes the project
// with its experiment added exactly as `experiment add` adds it, the spec, the Python solver
// (examples/solvers/local_search.py) with the client beside it, and a README of the next
// commands; it never overwrites anything and leaves nothing behind when it stops. The study
// run end to end, from the installed package: tests/e2e/package.test.ts.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Project } from '../../../src-main/project/store.ts';
import { runCli } from './io.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');
let cwd: string;
beforeEach(() => {
  cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-init-'));
});
afterEach(() => fs.rmSync(cwd, { recursive: true, force: true }));

const init = (dir: string, env: NodeJS.ProcessEnv = { PATH: process.env.PATH }) => runCli(['init', dir], { cwd, env });
const listing = (dir: string) => fs.readdirSync(path.join(cwd, dir)).sort();

describe('saikoro init', () => {
  it('makes a project with the experiment added, its spec, the Python solver and client, and a README', async () => {
    const r = await init('study');
    expect(r.code, r.stderr).toBe(0);
    expect(listing('study')).toEqual(['README.md', 'solver', 'study.json', 'study.saikoro']);
    // The program's folder (its sandbox's copy): the solver and the client, nothing else.
    expect(listing('study/solver')).toEqual(['saikoro_client.py', 'solver.py']);
    expect(fs.readFileSync(path.join(cwd, 'study', 'solver', 'solver.py'))).toEqual(fs.readFileSync(path.join(ROOT, 'examples', 'solvers', 'local_search.py')));
    // With its comments: what the protocol gives it, what stops it, and why the seed matters.
    const solver = fs.readFileSync(path.join(cwd, 'study', 'solver', 'solver.py'), 'utf8');
    for (const said of [
      '``connect()`` reads the problem',
      '``problem.evaluate(batch)`` sends sequences',
      '``evaluate`` raises ``Stopped``',
      'random.Random(problem.seed)',
      'Ideas to try:',
      'saikoro help protocol',
    ])
      expect(solver, said).toContain(said);
    expect(/^#!.*\n"""([\s\S]*?)"""/.exec(solver)?.[1].split('\n').length, "the opening docstring's lines").toBeGreaterThanOrEqual(30);
    for (const comment of ['# Start from random sequences.', '# The budget is spent']) expect(solver, comment).toContain(comment);
    expect(fs.readFileSync(path.join(cwd, 'study', 'solver', 'saikoro_client.py'))).toEqual(
      fs.readFileSync(path.join(ROOT, 'clients', 'python', 'saikoro_client.py')),
    );
    const spec = JSON.parse(fs.readFileSync(path.join(cwd, 'study', 'study.json'), 'utf8'));
    expect(spec.solvers.map((s: { name: string }) => s.name)).toEqual(['random', 'nsga2', 'barrier-mo', 'local-search']);
    expect(spec.instances).toEqual([
      { name: 'mo2-n200', track: 'mo2', n: 200 },
      { name: 'mo3-n200', track: 'mo3', n: 200 },
    ]);
    const project = Project.open(path.join(cwd, 'study', 'study.saikoro'), { readOnly: true });
    try {
      const [stored] = project.experiments();
      expect(stored.name).toBe('first');
      // Stored as experiment add stores it: the program with the sha256 of solver.py.
      expect(stored.spec.solvers[3]).toMatchObject({ name: 'local-search', command: ['python3', 'solver.py'], cwd: 'solver' });
      expect(stored.spec.solvers[3].hashes).toEqual({
        'solver.py': createHash('sha256')
          .update(fs.readFileSync(path.join(ROOT, 'examples', 'solvers', 'local_search.py')))
          .digest('hex'),
      });
      expect(stored.spec.instances.map((i) => i.name)).toEqual(['mo2-n200', 'mo3-n200']);
      expect(project.runs()).toEqual([]);
    } finally {
      project.close();
    }
    expect(r.stdout).toContain('added experiment first: 80 runs (2 instance(s) x 4 solver(s) x 10 seed(s))');
    expect(r.stdout).toContain('made a first study in study/:');
    // The commands it prints are the README's, in the same words.
    const readme = fs.readFileSync(path.join(cwd, 'study', 'README.md'), 'utf8');
    for (const command of [
      'saikoro experiment run study.saikoro',
      'saikoro compare study.saikoro first --metric hv',
      'saikoro serve',
      'saikoro report study.saikoro first --out first.html',
    ]) {
      expect(r.stdout, command).toContain(`  ${command} `);
      expect(readme, command).toContain(`${command} `);
    }
    // The spec it stored is the spec in study.json: adding the file again changes nothing.
    const again = await runCli(['experiment', 'add', 'study.saikoro', '--spec', 'study.json'], { cwd: path.join(cwd, 'study') });
    // (and names its program, approved again: the spec is the one given)
    expect(again.stdout).toMatch(
      /^experiment first is already in study\.saikoro with this spec \(80 runs\)\n  program local-search \(solvers\[3\]\): python3 solver\.py \(runs \S+\)\n/,
    );
  });

  it("the study's solvers differ: run and compared, every pair on both instances is apart (no ties at p = 1)", async () => {
    // The built-in solvers only (no python3 on the PATH), as a newcomer without Python gets it;
    // the Python solver's runs too, from the installed package: tests/e2e/package.test.ts.
    expect((await init('study', { PATH: path.join(cwd, 'empty-bin') })).code).toBe(0);
    const dir = path.join(cwd, 'study');
    const run = await runCli(['experiment', 'run', 'study.saikoro', '--jobs', '2'], { cwd: dir, env: { PATH: process.env.PATH } });
    expect(run.stdout, run.stderr).toContain('first: 60 runs: 0 already done, 60 done now, 0 failed, 0 not run');
    const compared = await runCli(['compare', 'study.saikoro', 'first', '--metric', 'hv', '--json'], { cwd: dir });
    expect(compared.code, compared.stderr).toBe(0);
    const comparison = JSON.parse(compared.stdout) as {
      instances: { instance: string; solvers: { label: string; summary: { median: number } | null }[]; pairs: { a: string; b: string; pHolm: number }[] }[];
    };
    expect(comparison.instances.map((i) => i.instance)).toEqual(['mo2-n200', 'mo3-n200']);
    for (const inst of comparison.instances) {
      expect(inst.pairs.map((p) => `${p.a}/${p.b}`)).toEqual(['random/nsga2', 'random/barrier-mo', 'nsga2/barrier-mo']);
      for (const pair of inst.pairs) expect(pair.pHolm, `${inst.instance}: ${pair.a} vs ${pair.b}`).toBeLessThan(0.001);
      // And in the order the README describes: the baseline worst, barrier-mo best.
      const median = Object.fromEntries(inst.solvers.map((s) => [s.label, s.summary!.median]));
      expect(median.random, inst.instance).toBeLessThan(median.nsga2);
      expect(median.nsga2, inst.instance).toBeLessThan(median['barrier-mo']);
    }
  }, 600_000);

  it('never overwrites: a folder holding any of its files is refused and nothing is written', async () => {
    expect((await init('study')).code).toBe(0);
    const before = Object.fromEntries(
      listing('study')
        .filter((f) => f !== 'solver')
        .map((f) => [f, fs.readFileSync(path.join(cwd, 'study', f))]),
    );
    const r = await init('study');
    expect([r.code, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toBe(
      'saikoro init: study: already holds study.saikoro, study.json, solver, README.md; saikoro init never overwrites anything (choose a new folder)\n',
    );
    for (const [f, bytes] of Object.entries(before)) if (f !== 'solver') expect(fs.readFileSync(path.join(cwd, 'study', f)), f).toEqual(bytes);
    expect(listing('study/solver')).toEqual(['saikoro_client.py', 'solver.py']);

    fs.mkdirSync(path.join(cwd, 'mine'));
    fs.writeFileSync(path.join(cwd, 'mine', 'README.md'), 'my notes\n');
    fs.writeFileSync(path.join(cwd, 'mine', 'data.csv'), '1,2\n');
    const one = await init('mine');
    expect(one.stderr).toBe('saikoro init: mine: already holds README.md; saikoro init never overwrites anything (choose a new folder)\n');
    expect(listing('mine')).toEqual(['README.md', 'data.csv']);
    expect(fs.readFileSync(path.join(cwd, 'mine', 'README.md'), 'utf8')).toBe('my notes\n');
    // A folder with other files only is fine.
    fs.rmSync(path.join(cwd, 'mine', 'README.md'));
    expect((await init('mine')).code).toBe(0);
    expect(listing('mine')).toEqual(['README.md', 'data.csv', 'solver', 'study.json', 'study.saikoro']);
    // A folder named solver already there is not the program's: refused, nothing written.
    fs.mkdirSync(path.join(cwd, 'other', 'solver'), { recursive: true });
    expect((await init('other')).stderr).toBe('saikoro init: other: already holds solver; saikoro init never overwrites anything (choose a new folder)\n');
    expect(listing('other')).toEqual(['solver']);

    fs.writeFileSync(path.join(cwd, 'afile'), 'x');
    expect((await init('afile')).stderr).toBe('saikoro init: afile: exists and is not a folder\n');
    const usage = await runCli(['init'], { cwd });
    expect([usage.code, usage.stderr]).toEqual([2, "saikoro init: missing DIR (the folder to make the study in)\nTry 'saikoro init --help' for the usage.\n"]);
  });

  it('without python3 on the PATH, the study has the built-in solvers only, and says so', async () => {
    const r = await init('study', { PATH: path.join(cwd, 'empty-bin') });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('(no python3 on the PATH: the study has the built-in solvers only)');
    expect(listing('study')).toEqual(['README.md', 'study.json', 'study.saikoro']);
    expect(JSON.parse(fs.readFileSync(path.join(cwd, 'study', 'study.json'), 'utf8')).solvers.map((s: { name: string }) => s.name)).toEqual([
      'random',
      'nsga2',
      'barrier-mo',
    ]);
    expect(fs.readFileSync(path.join(cwd, 'study', 'README.md'), 'utf8')).toContain('No `python3` was found on the PATH');
  });

  it('a step that fails (a full disk) leaves nothing behind: the files it made are removed, and the folder if it made it', async () => {
    const writeFileSync = fs.writeFileSync;
    const spy = vi.spyOn(fs, 'writeFileSync').mockImplementation(((file: fs.PathOrFileDescriptor, ...rest: unknown[]) => {
      if (typeof file === 'string' && file.endsWith('README.md')) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      return Reflect.apply(writeFileSync, fs, [file, ...rest]);
    }) as typeof fs.writeFileSync);
    try {
      const fresh = await init('study');
      expect([fresh.code, fresh.stderr]).toEqual([1, 'saikoro init: study: cannot make the study there (ENOSPC); nothing was left behind\n']);
      expect(fs.existsSync(path.join(cwd, 'study'))).toBe(false);
      fs.mkdirSync(path.join(cwd, 'mine'));
      fs.writeFileSync(path.join(cwd, 'mine', 'data.csv'), '1,2\n');
      expect((await init('mine')).code).toBe(1);
      expect(listing('mine')).toEqual(['data.csv']);
    } finally {
      spy.mockRestore();
    }
  });
});
