// A project file may come from someone else, and its solver programs would run with your
// permissions: the CLI names them (project info, experiment status, merge, and run and verify
// before they run anything) and runs them only once approved on this machine: `experiment add`
// of a spec you gave approves its programs; a received file's are asked about on a terminal,
// and a script needs --yes (src-main/app/program-policy.ts, commandLinePrograms). Approvals are
// kept per user outside the project file (XDG_CONFIG_HOME here: each "person" has their own)
// and cover what really runs: the executable and its hash, the command, cwd, env and scripts.
//
// Whether a program started is told by a marker file it writes the moment it starts
// (FAKE_SOLVER_PID), in a folder the sandbox lets every program write (SAIKORO_SANDBOX_SHARE),
// so a refusal that ran it anyway would show.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Project } from '../../../src-main/project/store.ts';
import { runCli } from './io.ts';
import { SHARE_VARIABLE } from '../../../src-main/host/sandbox.ts';

const FAKE = path.join(import.meta.dirname, '../../fixtures/external/fake-solver.mjs');
const markers = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-approvals-markers-'));
process.env[SHARE_VARIABLE] = markers;
afterAll(() => fs.rmSync(markers, { recursive: true, force: true }));
let root: string;
let marker: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-approvals-'));
  marker = path.join(markers, path.basename(root));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

/** A person: their own configuration folder (where their approvals are kept). */
function person(name: string): NodeJS.ProcessEnv {
  const config = path.join(root, `config-${name}`);
  fs.mkdirSync(config);
  return { XDG_CONFIG_HOME: config };
}

/**
 * A project folder made by `author`: solvers/fake.mjs, an interpreter wrapper outside the
 * project (interp/node, not hashed by the spec: what differs between machines), and an
 * experiment of a built-in solver and the program, added and not run.
 */
async function authored(author: NodeJS.ProcessEnv, marker: string): Promise<{ dir: string; wrapper: string; spec: object }> {
  const dir = path.join(root, 'made');
  fs.mkdirSync(path.join(dir, 'solvers'), { recursive: true });
  fs.copyFileSync(FAKE, path.join(dir, 'solvers', 'fake.mjs'));
  fs.mkdirSync(path.join(root, 'interp'), { recursive: true });
  const wrapper = path.join(root, 'interp', 'node');
  fs.writeFileSync(wrapper, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} "$@"\n`, { mode: 0o755 });
  const spec = {
    name: 'mine',
    instances: [{ name: 'so-n30', track: 'so', n: 30 }],
    solvers: [{ name: 'random' }, { name: 'fake-search', command: [wrapper, 'solvers/fake.mjs', 'random', '10'], env: { FAKE_SOLVER_PID: marker } }],
    seeds: { count: 2 },
    budget: { evaluations: 60, wholeBudget: true },
  };
  fs.writeFileSync(path.join(dir, 'spec.json'), JSON.stringify(spec));
  expect((await runCli(['project', 'new', 'p.saikoro'], { cwd: dir, env: author })).code).toBe(0);
  return { dir, wrapper, spec };
}

function storedRuns(file: string): string[] {
  const project = Project.open(file, { readOnly: true });
  try {
    return project
      .runs()
      .map((r) => `${r.solver} ${r.seed} ${r.status}`)
      .sort();
  } finally {
    project.close();
  }
}

describe("a project's programs run once approved on this machine", () => {
  it('add approves the programs of the spec you give it, naming them; run and verify then run them without asking', async () => {
    const me = person('me');
    const { dir, wrapper } = await authored(me, marker);
    const added = await runCli(['experiment', 'add', 'p.saikoro', '--spec', 'spec.json'], { cwd: dir, env: me });
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toBe(
      `added experiment mine: 4 runs (1 instance(s) x 2 solver(s) x 2 seed(s))\n  program fake-search (solvers[1]): ${wrapper} solvers/fake.mjs random 10 (runs ${wrapper})\n  approved for p.saikoro on this machine (experiment run and verify run it without asking)\n`,
    );
    const ran = await runCli(['experiment', 'run', 'p.saikoro'], { cwd: dir, env: me });
    expect(ran.code, ran.stderr).toBe(0);
    // Named before it runs: what really runs, where, and that it is approved.
    expect(ran.stderr).toContain(
      `experiment run runs this program of p.saikoro:\n  fake-search: ${wrapper} solvers/fake.mjs random 10\n    runs ${wrapper} (sha256 `,
    );
    expect(ran.stderr).toMatch(new RegExp(`\\n    in ${dir}( \\([^)]*\\))?\\n    with FAKE_SOLVER_PID=${marker}\\n    solvers/fake\\.mjs: sha256 `));
    expect(ran.stderr).toContain('  (approved for this project on this machine)\n');
    // Named once for the command, not once per run.
    expect(ran.stderr.split('runs this program').length).toBe(2);
    expect(storedRuns(path.join(dir, 'p.saikoro'))).toEqual(['fake-search 1 done', 'fake-search 2 done', 'random 1 done', 'random 2 done']);
    const verified = await runCli(['experiment', 'verify', 'p.saikoro', '--all'], { cwd: dir, env: me });
    expect(verified.stdout).toBe('4 runs re-run: all reproduce exactly\n');
    expect(verified.stderr).toContain('experiment verify runs this program of p.saikoro:');
  });

  it('a received file in a script: refused without --yes, naming the programs and --yes; nothing runs', async () => {
    const author = person('author');
    const { dir, wrapper } = await authored(author, marker);
    expect((await runCli(['experiment', 'add', 'p.saikoro', '--spec', 'spec.json'], { cwd: dir, env: author })).code).toBe(0);
    // Someone else receives the folder.
    const me = person('me');
    const refused = await runCli(['experiment', 'run', 'p.saikoro'], { cwd: dir, env: me });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`experiment run runs this program of p.saikoro:\n  fake-search: ${wrapper} solvers/fake.mjs random 10\n`);
    expect(refused.stderr).toContain(
      `saikoro experiment: experiment run: p.saikoro runs a program not approved on this machine: fake-search (${wrapper} solvers/fake.mjs random 10). Nothing was run. Look at it (above, or saikoro project info p.saikoro), then run again with --yes, or on a terminal to be asked\n`,
    );
    expect(storedRuns(path.join(dir, 'p.saikoro'))).toEqual([]);
    expect(fs.existsSync(marker), 'the program never started').toBe(false);

    // With --yes it runs, named; the approval is for this command only.
    const yes = await runCli(['experiment', 'run', 'p.saikoro', '--yes'], { cwd: dir, env: me });
    expect(yes.code, yes.stderr).toBe(0);
    expect(yes.stderr).toContain(`  fake-search: ${wrapper} solvers/fake.mjs random 10\n`);
    expect(yes.stderr).toContain('  (not approved on this machine: run because of --yes)\n');
    expect(fs.existsSync(marker)).toBe(true);
    fs.rmSync(marker);
    const verify = await runCli(['experiment', 'verify', 'p.saikoro', '--all'], { cwd: dir, env: me });
    expect(verify.code).toBe(1);
    expect(verify.stderr).toContain('saikoro experiment: experiment verify: p.saikoro runs a program not approved on this machine: fake-search (');
    expect(verify.stdout).toBe('');
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('on a terminal the person is asked: no refuses, yes runs and is remembered', async () => {
    const author = person('author');
    const { dir } = await authored(author, marker);
    expect((await runCli(['experiment', 'add', 'p.saikoro', '--spec', 'spec.json'], { cwd: dir, env: author })).code).toBe(0);
    const me = person('me');
    const terminal = { cwd: dir, env: me, stdinIsTTY: true, stderrIsTTY: true };
    const no = await runCli(['experiment', 'run', 'p.saikoro'], { ...terminal, stdin: 'n\n' });
    expect(no.code).toBe(1);
    expect(no.stderr).toContain('Run fake-search, a program not approved for p.saikoro on this machine, with your permissions? [y/N] ');
    expect(no.stderr).toContain('experiment run: you did not allow the program fake-search (');
    expect(storedRuns(path.join(dir, 'p.saikoro'))).toEqual([]);
    expect(fs.existsSync(marker)).toBe(false);
    // Only "y" or "yes" is a yes; the end of the input is a no.
    expect((await runCli(['experiment', 'run', 'p.saikoro'], { ...terminal, stdin: '' })).code).toBe(1);
    expect(fs.existsSync(marker)).toBe(false);

    const yes = await runCli(['experiment', 'run', 'p.saikoro'], { ...terminal, stdin: 'y\n' });
    expect(yes.code, yes.stderr).toBe(0);
    expect(yes.stderr).toContain('  (approved; remembered for this project on this machine)\n');
    expect(storedRuns(path.join(dir, 'p.saikoro'))).toHaveLength(4);
    // Remembered: a script of the same person verifies without --yes.
    const verified = await runCli(['experiment', 'verify', 'p.saikoro', '--all'], { cwd: dir, env: me });
    expect(verified.stdout).toBe('4 runs re-run: all reproduce exactly\n');
    // ... in their own configuration folder, outside the project.
    const kept = JSON.parse(fs.readFileSync(path.join(me.XDG_CONFIG_HOME!, 'saikoro', 'approved-programs.json'), 'utf8'));
    expect(Object.values(kept.approved)).toEqual([
      { project: path.join(dir, 'p.saikoro'), solver: 'fake-search', command: expect.stringContaining('solvers/fake.mjs random 10'), at: expect.any(String) },
    ]);
  });

  it('an approval covers what really runs: another interpreter, or the project copied elsewhere, is asked about again', async () => {
    const me = person('me');
    const { dir, wrapper } = await authored(me, marker);
    expect((await runCli(['experiment', 'add', 'p.saikoro', '--spec', 'spec.json'], { cwd: dir, env: me })).code).toBe(0);
    expect((await runCli(['experiment', 'run', 'p.saikoro'], { cwd: dir, env: me })).code).toBe(0);
    fs.rmSync(marker);
    // The interpreter (outside the project: no stored hash) is another program now.
    fs.appendFileSync(wrapper, '# another interpreter\n');
    const verify = await runCli(['experiment', 'verify', 'p.saikoro', '--all'], { cwd: dir, env: me });
    expect(verify.code).toBe(1);
    expect(verify.stderr).toContain('runs a program not approved on this machine: fake-search (');
    expect(fs.existsSync(marker)).toBe(false);
    // The same folder elsewhere is another project to the approvals.
    const copy = path.join(root, 'copy');
    fs.cpSync(dir, copy, { recursive: true });
    fs.writeFileSync(wrapper, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} "$@"\n`);
    expect((await runCli(['experiment', 'verify', 'p.saikoro', '--all'], { cwd: dir, env: me })).code).toBe(0);
    const there = await runCli(['experiment', 'verify', 'p.saikoro', '--all'], { cwd: copy, env: me });
    expect(there.code).toBe(1);
    expect(there.stderr).toContain('runs a program not approved on this machine');
  });
});

describe('the stored commands are shown', () => {
  it('project info (--json too), experiment status (--json too) and merge name them', async () => {
    const author = person('author');
    const { dir, wrapper } = await authored(author, marker);
    expect((await runCli(['experiment', 'add', 'p.saikoro', '--spec', 'spec.json'], { cwd: dir, env: author })).code).toBe(0);
    const hash = expect.stringMatching(/^[0-9a-f]{64}$/);
    const program = {
      solver: 'fake-search',
      command: [wrapper, 'solvers/fake.mjs', 'random', '10'],
      cwd: null,
      env: { FAKE_SOLVER_PID: marker },
      blind: false,
      hashes: { 'solvers/fake.mjs': hash },
    };

    const info = await runCli(['project', 'info', 'p.saikoro', '--json'], { cwd: dir, env: author });
    expect(JSON.parse(info.stdout).experiments[0].programs).toEqual([program]);
    const infoText = await runCli(['project', 'info', 'p.saikoro'], { cwd: dir, env: author });
    expect(infoText.stdout).toContain(
      `  mine: 0/4 done, 0 failed, 4 missing\n    program fake-search: ${wrapper} solvers/fake.mjs random 10 (with FAKE_SOLVER_PID=${marker})\n`,
    );
    const status = await runCli(['experiment', 'status', 'p.saikoro', '--json'], { cwd: dir, env: author });
    expect(JSON.parse(status.stdout)[0].programs).toEqual([program]);
    expect((await runCli(['experiment', 'status', 'p.saikoro'], { cwd: dir, env: author })).stdout).toContain(
      `\n  program fake-search: ${wrapper} solvers/fake.mjs random 10 (with FAKE_SOLVER_PID=${marker})\n`,
    );

    // merge of a file holding an experiment the project does not have: named on stderr.
    const me = person('me');
    expect((await runCli(['project', 'new', 'mine.saikoro'], { cwd: dir, env: me })).code).toBe(0);
    const merged = await runCli(['merge', 'mine.saikoro', 'p.saikoro'], { cwd: dir, env: me });
    expect(merged.code, merged.stderr).toBe(0);
    expect(merged.stderr).toBe(
      `p.saikoro: imported experiment mine, whose solver is a program: fake-search (${wrapper} solvers/fake.mjs random 10). Look at it before running: saikoro experiment run mine.saikoro mine names it and runs it only once approved on this machine (asked on a terminal; --yes in a script)\n`,
    );
    expect(JSON.parse((await runCli(['merge', 'mine.saikoro', 'p.saikoro', '--json'], { cwd: dir, env: me })).stdout).files[0].importedPrograms).toEqual([]);
    expect((await runCli(['experiment', 'run', 'mine.saikoro'], { cwd: dir, env: me })).code).toBe(1);
    expect(fs.existsSync(marker)).toBe(false);
  });
});
