// Program entrants: competition enter --dir DIR --command archives the folder in the competition
// file; competition run extracts it and runs the command in a sandboxed copy; a failed run is
// stored with what it evaluated, scored on it, and not retried unless --retry-failed.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Project } from '../../../src-main/project/store.ts';
import { Database } from '../../../src-main/project/sqlite.ts';
import { hashFolder } from '../../../src-main/host/program-folder.ts';
import { cgroupSupport } from '../../../src-main/host/cgroup.ts';
import { sandboxSupport } from '../../../src-main/host/sandbox.ts';
import { evaluateDice } from '../../../src-shared/problems/dice/evaluate.ts';
import { expandGrid } from '../../../src-shared/experiments/grid.ts';
import { requireTool } from '../../e2e/tools.ts';
import { runCli } from './io.ts';
import { defaultMemoryLimitMb } from '../../../src-main/host/memory-limit.ts';

const FAKE = path.join(import.meta.dirname, '../../fixtures/external/fake-solver.mjs');
const bwrap = requireTool('bubblewrap', '/usr/bin/bwrap', 'apt-get install bubblewrap');

let cwd: string;
beforeEach(() => {
  cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-cli-comp-programs-'));
});
afterEach(() => {
  fs.rmSync(cwd, { recursive: true, force: true });
});
const cli = (...argv: string[]) => runCli(argv, { cwd, env: process.env });
const open = () => Project.open(path.join(cwd, 'c.saikoro'), { readOnly: true });
const sha = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

async function competition(extra: string[] = []) {
  const r = await cli(
    'competition',
    'new',
    'c.saikoro',
    '--tracks',
    'so',
    '--n',
    '30',
    '--instances',
    '2',
    '--budget',
    '60',
    '--seeds',
    '2',
    '--secret',
    'program-secret',
    ...extra,
  );
  expect(r.code, r.stderr).toBe(0);
}

/** An entrant's folder: the fake solver, a data file, an empty folder, a link inside. */
function folder(name = 'entry'): string {
  const dir = path.join(cwd, name);
  fs.mkdirSync(path.join(dir, 'lib', 'empty'), { recursive: true });
  fs.copyFileSync(FAKE, path.join(dir, 'solver.mjs'));
  fs.writeFileSync(path.join(dir, 'lib', 'data.txt'), 'data\n');
  fs.writeFileSync(path.join(dir, 'run.sh'), '#!/bin/sh\nexec node solver.mjs "$@"\n', { mode: 0o755 });
  fs.symlinkSync('lib/data.txt', path.join(dir, 'data-link'));
  return dir;
}

describe('competition enter --dir --command', () => {
  it('archives every file of the folder with its sha256 and the interpreter, and its runs hash the folder', async () => {
    await competition();
    const dir = folder();
    // A Saikoro project in the folder is left out of the archive.
    fs.copyFileSync(path.join(cwd, 'c.saikoro'), path.join(dir, 'copy.saikoro'));
    const r = await cli('competition', 'enter', 'c.saikoro', '--name', 'fake', '--dir', 'entry', '--command', 'node solver.mjs random 10');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /^entered fake: program node solver\.mjs random 10, blind, in a copy of entry \(3 file\(s\), \d+ bytes, sha256 [0-9a-f]{16}\.\.\.\); node is \/\S+ \(v\d+\.\d+\.\d+\)\n$/,
    );
    const project = open();
    const [entrant] = project.entrants();
    const files = project.entrantFiles('fake');
    const spec = project.experiment('so')!.spec;
    project.close();
    expect(entrant.entry.kind).toBe('program');
    if (entrant.entry.kind !== 'program') return;
    const manifest = hashFolder(dir, { exclude: (f) => f.endsWith('.saikoro') });
    expect(entrant.entry.folder.sha256).toBe(manifest.sha256);
    expect(entrant.entry.folder.entries.map((e) => [e.path, e.kind])).toEqual([
      ['data-link', 'link'],
      ['lib', 'dir'],
      ['lib/data.txt', 'file'],
      ['lib/empty', 'dir'],
      ['run.sh', 'file'],
      ['solver.mjs', 'file'],
    ]);
    expect(files.map((f) => [f.path, f.mode, f.sha256])).toEqual([
      ['lib/data.txt', 0o644, sha('data\n')],
      ['run.sh', 0o755, sha(fs.readFileSync(path.join(dir, 'run.sh')))],
      ['solver.mjs', 0o644, sha(fs.readFileSync(FAKE))],
    ]);
    expect(Buffer.from(files[2].content).equals(fs.readFileSync(FAKE))).toBe(true);
    expect(entrant.entry.interpreter).toMatchObject({
      command: 'node',
      path: expect.stringMatching(/node$/),
      sha256: sha(fs.readFileSync(fs.realpathSync(entrant.entry.interpreter!.path))),
      version: process.version,
    });
    expect(spec.solvers).toEqual([
      { name: 'fake', command: ['node', 'solver.mjs', 'random', '10'], hashes: { 'solver.mjs': sha(fs.readFileSync(FAKE)) }, folder: manifest.sha256 },
    ]);
    expect(expandGrid(spec).every((run) => run.program?.folder === manifest.sha256 && run.program.blind === true)).toBe(true);
  });

  it.each([
    [['--dir', 'entry'], 2, '--dir needs --command "CMD ARGS"'],
    [['--command', 'node solver.mjs'], 2, '--command needs --dir DIR'],
    [['--dir', 'entry', '--command', 'node solver.mjs', '--solver', 'random'], 2, '--solver and --dir/--command contradict each other'],
    [['--dir', 'nowhere', '--command', 'node solver.mjs'], 1, 'nowhere cannot be read (ENOENT)'],
    [['--dir', 'entry/run.sh', '--command', 'node solver.mjs'], 1, 'is not a folder'],
    [['--dir', 'entry', '--command', 'node other.mjs'], 1, '--command: other.mjs is not a file of entry (the program runs in a copy of that folder'],
    [['--dir', 'entry', '--command', 'no-such-interpreter solver.mjs'], 1, '--command: no-such-interpreter is not on the PATH'],
    [['--dir', 'entry', '--command', './lib/data.txt'], 1, '--command: ./lib/data.txt is not an executable file of entry'],
    [['--dir', 'entry', '--command', 'node "solver.mjs'], 1, '--command: unterminated "'],
    [['--dir', 'entry', '--command', ''], 1, '--command: the command is empty'],
  ])('refuses %j (exit %i) naming the problem; nothing is entered', async (args, code, message) => {
    await competition();
    folder();
    const r = await cli('competition', 'enter', 'c.saikoro', '--name', 'fake', ...args);
    expect(r.code).toBe(code);
    expect(r.stderr).toContain(message);
    const project = open();
    expect(project.entrants()).toEqual([]);
    project.close();
  });

  it('refuses a program named like a built-in solver', async () => {
    await competition();
    folder();
    const r = await cli('competition', 'enter', 'c.saikoro', '--name', 'random', '--dir', 'entry', '--command', 'node solver.mjs');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('"random" is a built-in solver\'s name; give the program another name');
  });
});

bwrap.describe('competition run with program entrants', () => {
  it("runs the archived copy blind (the folder changed since does not matter), and every run is the exact evaluator's", async () => {
    await competition();
    const dir = folder();
    expect((await cli('competition', 'enter', 'c.saikoro', '--name', 'fake', '--dir', 'entry', '--command', './run.sh random 10')).code).toBe(0);
    // After entering, the folder the entrant gave changes: the competition runs what it archived.
    fs.writeFileSync(path.join(dir, 'solver.mjs'), 'process.exit(7)\n');
    fs.rmSync(path.join(dir, 'run.sh'));
    const ran = await cli('competition', 'run', 'c.saikoro', '--jobs', '2');
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toBe('so: 4 runs: 0 finished before, 4 done now, 0 failed, 0 not run\n');
    // What holds the programs, said before they run: the sandbox, and a cgroup each where the machine has them.
    const groups = cgroupSupport();
    expect(ran.stderr).toContain(
      `programs run in the sandbox (${(sandboxSupport() as { version: string }).version}), ${groups.available ? `each in a cgroup of its own (cgroup v${groups.version}` : `with rlimits per process only (no cgroup: ${groups.reason})`}`,
    );
    const project = open();
    const runs = project.runs();
    const spec = project.experiment('so')!.spec;
    project.close();
    expect(runs).toHaveLength(4);
    const grid = new Map(expandGrid(spec).map((g) => [g.id, g]));
    for (const run of runs) {
      expect(run.status).toBe('done');
      expect(run.evaluations).toBe(60);
      expect(run.result!.program).toMatchObject({ command: ['./run.sh', 'random', '10'], blind: true });
      // The best is what the exact evaluator gives its sequence under the instance's secret config.
      const best = run.result!.best!;
      expect(evaluateDice(best.x, grid.get(run.id)!.config).objectives[0]).toBe(best.objectives[0]);
    }
  });

  it('stores a failed run with what it evaluated, scores it on that, and runs it again only with --retry-failed', async () => {
    await competition();
    folder();
    expect((await cli('competition', 'enter', 'c.saikoro', '--name', 'quitter', '--dir', 'entry', '--command', 'node solver.mjs exit3 3')).code).toBe(0);
    expect((await cli('competition', 'enter', 'c.saikoro', '--name', 'rnd', '--solver', 'random')).code).toBe(0);
    const first = await cli('competition', 'run', 'c.saikoro', '--jobs', '2');
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toBe('so: 8 runs: 0 finished before, 4 done now, 4 failed, 0 not run\n');
    expect(first.stderr).toContain('4 run(s) failed: each is scored on what it evaluated; --retry-failed runs them again');
    expect(first.stderr).toMatch(/FAILED so-n30-i1 quitter seed 1 in [\d.]+s: the program exited with code 3 after 15 of 60 evaluations/);
    let project = open();
    const failed = project.runs().filter((r) => r.status === 'failed');
    project.close();
    expect(failed).toHaveLength(4);
    for (const run of failed) {
      expect(run.label).toBe('quitter');
      expect(run.evaluations).toBe(15);
      expect(run.result!.evaluations).toBe(15);
      expect(run.result!.best).not.toBeNull();
    }
    // Scored on what it evaluated: its best f, at its evaluation.
    const standings = JSON.parse((await cli('competition', 'standings', 'c.saikoro', '--json')).stdout);
    const quitter = standings.standings.find((s: { entrant: string }) => s.entrant === 'quitter');
    const one = failed.filter((r) => r.instance === 'so-n30-i1');
    const expectBest = Math.min(...one.filter((r) => r.result!.best!.feasible).map((r) => r.result!.best!.objectives[0]));
    if (Number.isFinite(expectBest)) expect(quitter.problems['so-n30-i1'].best.f).toBe(expectBest);
    expect(quitter.problems['so-n30-i1'].best.evaluations).toBe(15);
    // Not retried by a second run; retried with --retry-failed (and fails again: 4 failed runs, replaced).
    const again = await cli('competition', 'run', 'c.saikoro');
    expect(again.stdout).toBe('so: 8 runs: 8 finished before, 0 done now, 0 failed, 0 not run\n');
    const retried = await cli('competition', 'run', 'c.saikoro', '--retry-failed');
    expect(retried.stdout).toBe('so: 8 runs: 4 finished before, 0 done now, 4 failed, 0 not run\n');
    project = open();
    expect(
      project
        .runs()
        .filter((r) => r.status === 'failed')
        .every((r) => r.finishedAt > failed[0].finishedAt),
    ).toBe(true);
    project.close();
  });

  it('refuses to run an entrant whose interpreter, the same file, now prints another --version (a pyenv shim, a wrapper)', async () => {
    await competition();
    folder();
    // A wrapper interpreter on the PATH: the same file whichever version it prints.
    const bin = path.join(cwd, 'bin');
    fs.mkdirSync(bin);
    fs.writeFileSync(
      path.join(bin, 'wrapped-node'),
      `#!/bin/sh\nif [ "$1" = --version ]; then cat ${JSON.stringify(path.join(bin, 'version.txt'))}; exit 0; fi\nexec ${JSON.stringify(process.execPath)} "$@"\n`,
      { mode: 0o755 },
    );
    fs.writeFileSync(path.join(bin, 'version.txt'), 'wrapped 1.0\n');
    const saved = process.env.PATH;
    process.env.PATH = `${bin}${path.delimiter}${saved}`;
    try {
      const entered = await cli('competition', 'enter', 'c.saikoro', '--name', 'fake', '--dir', 'entry', '--command', 'wrapped-node solver.mjs random 10');
      expect(entered.code, entered.stderr).toBe(0);
      expect(entered.stdout).toContain(`; wrapped-node is ${path.join(bin, 'wrapped-node')} (wrapped 1.0)`);
      fs.writeFileSync(path.join(bin, 'version.txt'), 'wrapped 2.0\n');
      const r = await cli('competition', 'run', 'c.saikoro');
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(
        `entrant fake entered with wrapped-node = ${path.join(bin, 'wrapped-node')} printing "wrapped 1.0" for --version, but here it prints "wrapped 2.0"`,
      );
      let project = open();
      expect(project.runs()).toEqual([]);
      project.close();
      // The version it entered with: it runs.
      fs.writeFileSync(path.join(bin, 'version.txt'), 'wrapped 1.0\n');
      const ran = await cli('competition', 'run', 'c.saikoro', '--jobs', '2');
      expect(ran.code, ran.stderr).toBe(0);
      project = open();
      expect(project.runs().filter((run) => run.status === 'done')).toHaveLength(4);
      project.close();
    } finally {
      process.env.PATH = saved;
    }
  });

  it('refuses to run an entrant whose archive in the file was changed', async () => {
    await competition();
    folder();
    expect((await cli('competition', 'enter', 'c.saikoro', '--name', 'fake', '--dir', 'entry', '--command', 'node solver.mjs random 10')).code).toBe(0);
    const db = new Database(path.join(cwd, 'c.saikoro'));
    const changed = Buffer.from('process.exit(0)\n');
    db.run("UPDATE entrant_files SET content = ?, sha256 = ? WHERE path = 'solver.mjs'", [new Uint8Array(changed), sha(changed)]);
    db.close();
    const r = await cli('competition', 'run', 'c.saikoro');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("entrant fake's archived file solver.mjs is missing or not the one entered (a damaged file)");
    const project = open();
    expect(project.runs()).toEqual([]);
    project.close();
  });
});

bwrap.describe('competition run and the memory limit', () => {
  // competition run once passed "no limit" (null) to its workers when --memory-limit was left
  // out, where experiment run gives each the default share: the issue 28 hole, again.
  it('gives each worker and its program the default share without --memory-limit, and --memory-limit MB with it', async () => {
    for (const [args, mb] of [
      [['--jobs', '2'], defaultMemoryLimitMb(2)],
      [['--jobs', '2', '--memory-limit', '300'], 300],
    ] as const) {
      fs.rmSync(path.join(cwd, 'c.saikoro'), { force: true });
      fs.rmSync(path.join(cwd, 'entry'), { recursive: true, force: true });
      await competition();
      folder();
      expect((await cli('competition', 'enter', 'c.saikoro', '--name', 'limits', '--dir', 'entry', '--command', 'node solver.mjs limits')).code).toBe(0);
      const r = await cli('competition', 'run', 'c.saikoro', ...args);
      expect(r.code, r.stderr).toBe(0);
      const project = open();
      const runs = project.runs();
      project.close();
      expect(runs.length).toBeGreaterThan(0);
      const bytes = mb * 1024 * 1024;
      for (const run of runs) expect(run.result!.log).toContain(`Max data size ${bytes} ${bytes} bytes`);
    }
  });
});
