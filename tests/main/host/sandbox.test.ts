// The sandbox of solver programs (src-main/host/sandbox.ts, issue 26): a hostile program in a
// project's folder tries to read the project file, reach the network, write outside its folder
// and leave children running; in bubblewrap every attempt fails and its run is still scored on
// what it evaluated. Without bubblewrap it runs with a warning, and its process group (and every
// process carrying its marker) is still killed at the end. Interpreters work inside: python3 and
// its standard library, the PATH's python3 (here a pyenv shim), a venv's python, node, and a
// compiled C program. The folder copy is exactly what was hashed.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { commandLineGate } from '../../../src-main/app/program-gate.ts';
import { Launcher } from '../../../src-main/app/launcher.ts';
import { planDiceRun } from '../../../src-main/app/dice.ts';
import { nodeSpawner } from '../../../src-main/host/spawner.ts';
import { BWRAP_VARIABLE, requireSandbox, sandboxCommand, sandboxSupport, SandboxUnavailableError, SHARE_VARIABLE } from '../../../src-main/host/sandbox.ts';
import { copyFolder, FOLDER_LIMITS, hashFolder, ProgramFolderError } from '../../../src-main/host/program-folder.ts';
import { Project } from '../../../src-main/project/store.ts';
import { trackConfig } from '../../../src-shared/problems/dice/config.ts';
import { evaluateDice } from '../../../src-shared/problems/dice/evaluate.ts';
import type { ProgramSpec } from '../../../src-shared/solvers/program/protocol.ts';
import { requireTool } from '../../e2e/tools.ts';
import { killAll, processesWithArgument, waitFor } from '../processes.ts';

const HOSTILE = path.join(import.meta.dirname, '../../fixtures/external/hostile-solver.mjs');
const CLIENT = path.join(import.meta.dirname, '../../../clients/python/saikoro_client.py');
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-sandbox-test-'));
const cleanup: (() => void)[] = [];
const leftovers: number[] = [];
afterEach(() => {
  for (const f of cleanup.splice(0)) f();
  killAll(leftovers.splice(0));
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const bwrap = requireTool('bubblewrap', '/usr/bin/bwrap', 'apt-get install bubblewrap');
const gcc = requireTool('gcc', '/usr/bin/gcc', 'apt-get install gcc');
let folders = 0;

/** A project in a folder of its own, with the given files copied beside it: the program's folder. */
function projectWith(files: Record<string, string>): { dir: string; file: string } {
  const dir = path.join(root, `project-${folders++}`);
  fs.mkdirSync(dir);
  const file = path.join(dir, 'study.saikoro');
  Project.create(file).close();
  for (const [name, from] of Object.entries(files)) fs.copyFileSync(from, path.join(dir, name));
  return { dir, file };
}

/** A program's run through the gate (its project named) and a worker, as experiments run it. */
async function runProgram(project: string, program: ProgramSpec, options: { evaluations?: number; env?: NodeJS.ProcessEnv; n?: number; solver?: string } = {}) {
  const plan = planDiceRun({
    config: trackConfig('so', options.n ?? 30),
    solver: options.solver ?? 'program',
    program,
    params: {},
    seed: 5,
    evaluations: options.evaluations ?? 100,
    wholeBudget: true,
  });
  const admitted = await commandLineGate().admit(plan, { project, action: 'test' });
  const launcher = new Launcher({ spawn: nodeSpawner({ env: options.env ?? process.env }), parallelism: 1 });
  cleanup.push(() => launcher.dispose());
  return launcher.start(admitted).outcome;
}

/** The attempts the hostile program reported: name -> [done, detail]. */
function attempts(log: string): Record<string, [boolean, string]> {
  const found: Record<string, [boolean, string]> = {};
  for (const m of log.matchAll(/^attempt ([\w-]+): (done|failed) (.*)$/gm)) found[m[1]] = [m[2] === 'done', m[3]];
  return found;
}

/** A TCP server on 127.0.0.1 that counts the connections it gets. */
async function listener(): Promise<{ port: number; connections: () => number; close: () => void }> {
  let count = 0;
  const server = net.createServer((socket) => {
    count++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as net.AddressInfo).port, connections: () => count, close: () => server.close() };
}

function hostileProgram(file: string, port: number, outside: string, token: string): ProgramSpec {
  return {
    command: [process.execPath, 'hostile-solver.mjs'],
    env: { HOSTILE_PROJECT: file, HOSTILE_PORT: String(port), HOSTILE_OUTSIDE: outside, HOSTILE_TOKEN: token },
  };
}

bwrap.describe('a hostile program in the sandbox', () => {
  it('cannot read the project file, reach the network, write outside its folder or leave a child running; its run is scored', async () => {
    expect(sandboxSupport()).toMatchObject({ available: true, bwrap: '/usr/bin/bwrap' });
    const { dir, file } = projectWith({ 'hostile-solver.mjs': HOSTILE });
    const before = fs.readdirSync(dir).sort();
    const server = await listener();
    cleanup.push(() => server.close());
    // Outside its folder and outside /tmp (the sandbox's /tmp is a tmpfs of its own, writable).
    const outside = path.join(fs.existsSync('/var/tmp') ? '/var/tmp' : os.homedir(), `saikoro-sandbox-outside-${process.pid}-${folders}.txt`);
    cleanup.push(() => fs.rmSync(outside, { force: true }));
    const token = `hostile-${process.pid}-${folders}`;
    const outcome = await runProgram(file, hostileProgram(file, server.port, outside, token), { evaluations: 200 });

    expect(outcome.status, outcome.reason ?? '').toBe('done');
    const result = outcome.result!;
    const tried = attempts(result.log!);
    // The project file is not in its folder's copy, nor anywhere it can see.
    expect(tried['read-project']).toEqual([false, `${file}: ENOENT`]);
    // No network: the connection goes to a loopback of its own, where nothing listens.
    expect(tried.network).toEqual([false, 'ECONNREFUSED']);
    expect(server.connections()).toBe(0);
    // Outside its folder nothing can be written (the folder above is not even there) ...
    expect(tried['write-outside'][0]).toBe(false);
    expect(fs.existsSync(outside)).toBe(false);
    // ... and what it writes in its folder goes to its copy: the project's folder is unchanged.
    expect(tried['write-project'][0]).toBe(true);
    expect(fs.readdirSync(dir).sort()).toEqual(before);
    expect(Project.open(file, { readOnly: true }).close()).toBeUndefined();
    // Its children were started, and none outlives the run (its PID namespace ended with it).
    expect(tried.children[0]).toBe(true);
    await waitFor('the children to end', () => processesWithArgument(token).length === 0, { withinMs: 5000 }).catch(() =>
      leftovers.push(...processesWithArgument(token)),
    );
    expect(processesWithArgument(token)).toEqual([]);
    // Scored on what it evaluated: the whole budget, and a best the evaluator confirms.
    expect(result.evaluations).toBe(200);
    expect(result.best!.objectives).toEqual(evaluateDice(result.best!.x, trackConfig('so', 30)).objectives);
  });
});

describe('a hostile program without a sandbox (bubblewrap missing)', () => {
  it('runs with a warning in its log, and its children in its group or its own session (with its environment) end with the run', async () => {
    const { file } = projectWith({ 'hostile-solver.mjs': HOSTILE });
    const server = await listener();
    cleanup.push(() => server.close());
    const token = `hostile-open-${process.pid}-${folders}`;
    const outcome = await runProgram(file, hostileProgram(file, server.port, path.join(root, `outside-open-${folders}.txt`), token), {
      env: { ...process.env, [BWRAP_VARIABLE]: 'none' },
    });
    expect(outcome.status, outcome.reason ?? '').toBe('done');
    const log = outcome.result!.log!;
    expect(log).toContain(
      `[saikoro] this program runs without a sandbox: bubblewrap is switched off (${BWRAP_VARIABLE}=none); Saikoro kills its process group at the end of the run`,
    );
    // Nothing stops it reading or connecting: that is what the sandbox is for.
    expect(attempts(log).network, log).toEqual([true, `connected to 127.0.0.1:${server.port}`]);
    // The child in its group is killed with the group. The one in a session of its own that
    // cleared its environment escapes without a sandbox (docs/external-solvers.md says so).
    await waitFor('the group child to end', () => processesWithArgument(token).length <= 1, { withinMs: 5000 }).catch(() => {});
    const left = processesWithArgument(token);
    leftovers.push(...left);
    expect(left.length).toBeLessThanOrEqual(1);
  });

  it('a competition refuses to run: requireSandbox names the package', () => {
    const saved = process.env[BWRAP_VARIABLE];
    process.env[BWRAP_VARIABLE] = 'none';
    try {
      expect(sandboxSupport()).toEqual({ available: false, reason: `bubblewrap is switched off (${BWRAP_VARIABLE}=none)` });
      expect(() => requireSandbox()).toThrow(SandboxUnavailableError);
      expect(() => requireSandbox()).toThrow(/apt-get install bubblewrap/);
      process.env[BWRAP_VARIABLE] = path.join(root, 'no-bwrap-here');
      expect(sandboxSupport().available).toBe(false);
    } finally {
      if (saved === undefined) delete process.env[BWRAP_VARIABLE];
      else process.env[BWRAP_VARIABLE] = saved;
    }
  });
});

bwrap.describe('interpreters and programs inside the sandbox', () => {
  const PY = `
import json, sqlite3, sys, random
hello = json.loads(sys.stdin.readline())
n = hello["problem"]["n"]
rng = random.Random(hello["seed"])
sqlite3.connect(":memory:").execute("select 1")
while True:
    print(json.dumps({"evaluate": ["".join(rng.choice("123456") for _ in range(n)) for _ in range(5)]}), flush=True)
    answer = json.loads(sys.stdin.readline() or "null")
    if answer is None or "stop" in answer:
        break
`;
  const C = `
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static char line[1 << 20];
int main(int argc, char **argv) {
  int n = atoi(argv[1]);
  unsigned state = 7;
  if (!fgets(line, sizeof line, stdin)) return 1;
  for (;;) {
    fputs("{\\"evaluate\\": [\\"", stdout);
    for (int i = 0; i < n; i++) { state = state * 1103515245u + 12345u; putchar('1' + (state >> 16) % 6); }
    fputs("\\"]}\\n", stdout);
    fflush(stdout);
    if (!fgets(line, sizeof line, stdin) || strstr(line, "\\"stop\\"")) return 0;
  }
}
`;

  const cases: [string, () => { dir: string; file: string; program: ProgramSpec }][] = [
    [
      '/usr/bin/python3 with its standard library (json, random, sqlite3)',
      () => {
        const p = projectWith({});
        fs.writeFileSync(path.join(p.dir, 'solver.py'), PY);
        return { ...p, program: { command: ['/usr/bin/python3', 'solver.py'] } };
      },
    ],
    [
      "the python3 Saikoro's PATH finds",
      () => {
        const p = projectWith({});
        fs.writeFileSync(path.join(p.dir, 'solver.py'), PY);
        return { ...p, program: { command: ['python3', 'solver.py'] } };
      },
    ],
    [
      "a venv's python, the venv outside the program's folder",
      () => {
        const p = projectWith({});
        const venv = path.join(root, `venv-${folders}`);
        execFileSync('/usr/bin/python3', ['-m', 'venv', '--without-pip', venv]);
        fs.writeFileSync(path.join(p.dir, 'solver.py'), `import sys\nassert sys.prefix == ${JSON.stringify(venv)}, sys.prefix\n${PY}`);
        return { ...p, program: { command: [path.join(venv, 'bin', 'python3'), 'solver.py'] } };
      },
    ],
    [
      'the Python client (clients/python/saikoro_client.py) beside its program',
      () => {
        const p = projectWith({ 'saikoro_client.py': CLIENT });
        fs.writeFileSync(
          path.join(p.dir, 'solver.py'),
          'import random\nfrom saikoro_client import Stopped, connect\nsolver = connect()\nrng = random.Random(solver.seed)\ntry:\n    while True:\n        solver.evaluate(["".join(rng.choice("123456") for _ in range(solver.n)) for _ in range(5)])\nexcept Stopped:\n    pass\n',
        );
        return { ...p, program: { command: ['/usr/bin/python3', 'solver.py'] } };
      },
    ],
    [
      'node, with a script given by its absolute path outside the folder',
      () => {
        const p = projectWith({});
        const script = path.join(root, `solver-${folders}.mjs`);
        fs.writeFileSync(
          script,
          "import { createInterface } from 'node:readline';\nconst lines = createInterface({ input: process.stdin });\nlet n = 0;\nfor await (const line of lines) {\n  const m = JSON.parse(line);\n  if (m.problem) n = m.problem.n;\n  else if (m.stop) break;\n  console.log(JSON.stringify({ evaluate: ['1'.repeat(n), '2'.repeat(n)] }));\n}\n",
        );
        return { ...p, program: { command: [process.execPath, script] } };
      },
    ],
  ];
  for (const [what, make] of cases)
    it(`${what} runs, and its run is scored`, async () => {
      const { file, program } = make();
      const outcome = await runProgram(file, program, { evaluations: 40 });
      expect(outcome.status, `${outcome.reason}\n${outcome.result?.log ?? ''}`).toBe('done');
      expect(outcome.result!.evaluations).toBe(40);
      expect(outcome.result!.log ?? '').not.toContain('without a sandbox');
    });

  gcc.describe('a compiled C program', () => {
    it('built in its folder, runs from its copy', async () => {
      const p = projectWith({});
      fs.writeFileSync(path.join(p.dir, 'solver.c'), C);
      execFileSync('/usr/bin/gcc', ['-O2', '-o', path.join(p.dir, 'solver'), path.join(p.dir, 'solver.c')]);
      const outcome = await runProgram(p.file, { command: ['./solver', '30'] }, { evaluations: 25 });
      expect(outcome.status, outcome.reason ?? '').toBe('done');
      expect(outcome.result!.evaluations).toBe(25);
    });
  });
});

describe("a program's folder, hashed and copied", () => {
  it('hashes every file (links inside kept as links, links outside followed), and the copy is exactly that', () => {
    const dir = path.join(root, `folder-${folders++}`);
    fs.mkdirSync(path.join(dir, 'lib', 'deep'), { recursive: true });
    fs.mkdirSync(path.join(dir, 'empty'));
    fs.writeFileSync(path.join(dir, 'solver.py'), 'print(1)\n');
    fs.writeFileSync(path.join(dir, 'lib', 'deep', 'data.bin'), Buffer.from([0, 1, 2, 255]));
    fs.chmodSync(path.join(dir, 'solver.py'), 0o755);
    fs.symlinkSync('lib', path.join(dir, 'lib64'));
    const outsideFile = path.join(root, `shared-${folders}.txt`);
    fs.writeFileSync(outsideFile, 'from outside\n');
    fs.symlinkSync(outsideFile, path.join(dir, 'shared.txt'));
    const manifest = hashFolder(dir);
    expect(manifest.entries.map((e) => [e.path, e.kind])).toEqual([
      ['empty', 'dir'],
      ['lib', 'dir'],
      ['lib/deep', 'dir'],
      ['lib/deep/data.bin', 'file'],
      ['lib64', 'link'],
      ['shared.txt', 'file'],
      ['solver.py', 'file'],
    ]);
    expect(manifest).toMatchObject({ files: 3, bytes: 9 + 4 + 13 });
    expect(manifest.entries.find((e) => e.path === 'solver.py')).toEqual({
      path: 'solver.py',
      kind: 'file',
      bytes: 9,
      executable: true,
      sha256: createHash('sha256').update('print(1)\n').digest('hex'),
    });
    expect(manifest.entries.find((e) => e.path === 'shared.txt')).toMatchObject({
      kind: 'file',
      executable: false,
      sha256: createHash('sha256').update('from outside\n').digest('hex'),
    });
    const copy = path.join(root, `copy-${folders}`);
    fs.mkdirSync(copy);
    copyFolder(manifest, copy);
    // The copy hashes the same (its links lead inside it), wherever it lies.
    expect(hashFolder(copy).sha256).toBe(manifest.sha256);
    expect(fs.readlinkSync(path.join(copy, 'lib64'))).toBe('lib');
    expect(fs.readFileSync(path.join(copy, 'shared.txt'), 'utf8')).toBe('from outside\n');
    // A file changed after hashing is refused by the copy, naming it.
    fs.writeFileSync(path.join(dir, 'solver.py'), 'print(2)\n');
    const again = path.join(root, `copy-again-${folders}`);
    fs.mkdirSync(again);
    expect(() => copyFolder(manifest, again)).toThrow(new RegExp(`^solver.py in the program's folder ${dir} has changed since the program was approved`));
  });

  it('refuses a folder over the limits, saying what to do', () => {
    const dir = path.join(root, `big-${folders++}`);
    fs.mkdirSync(dir);
    for (let i = 0; i < 5; i++) fs.writeFileSync(path.join(dir, `f${i}`), 'x'.repeat(100));
    expect(() => hashFolder(dir, { limits: { files: 4, bytes: FOLDER_LIMITS.bytes } })).toThrow(ProgramFolderError);
    expect(() => hashFolder(dir, { limits: { files: 4, bytes: FOLDER_LIMITS.bytes } })).toThrow(
      `the program's folder ${dir} holds more than 4 files, the limit for a program's folder (it is copied for each run): give the program a folder of its own that holds only what it needs (its cwd)`,
    );
    expect(() => hashFolder(dir, { limits: { files: 100, bytes: 300 } })).toThrow(/holds more than 0 MiB/);
  });

  it('the gate leaves the project file and what lies beside it out of the folder, and refuses it as an argument', async () => {
    const { dir, file } = projectWith({ 'hostile-solver.mjs': HOSTILE });
    fs.writeFileSync(`${file}-journal`, 'x');
    fs.copyFileSync(file, path.join(dir, 'other-name.db'));
    const plan = planDiceRun({
      config: trackConfig('so', 30),
      solver: 'p',
      program: { command: [process.execPath, 'hostile-solver.mjs'] },
      params: {},
      seed: 1,
      evaluations: 10,
    });
    const admitted = await commandLineGate().admit(plan, { project: file, action: 'test' });
    expect(admitted.request.admitted!.view!.folder.entries.map((e) => e.path)).toEqual(['hostile-solver.mjs']);
    const reading = planDiceRun({
      config: trackConfig('so', 30),
      solver: 'p',
      program: { command: [process.execPath, 'hostile-solver.mjs', 'study.saikoro'] },
      params: {},
      seed: 1,
      evaluations: 10,
    });
    await expect(commandLineGate().admit(reading, { project: file, action: 'test' })).rejects.toThrow(
      `the solver p's argument "study.saikoro" is a Saikoro project file (${file}): a program never sees one`,
    );
  });
});

describe('the one function that makes the sandboxed command', () => {
  it('without a sandbox only the limits wrap the command; with one, bwrap runs it in its folder with nothing shared', () => {
    const command = { file: '/usr/bin/python3', args: ['ga.py', '--pop', '10'], cwd: '/work/solver' };
    expect(sandboxCommand(command, null, { cpuSeconds: null, memoryMb: null })).toEqual(command);
    expect(sandboxCommand(command, null, { cpuSeconds: 60, memoryMb: 512 })).toEqual({
      file: '/bin/sh',
      args: ['-c', 'ulimit -S -t 60 && ulimit -H -t 65 && ulimit -d 524288 && exec "$@"', 'saikoro-limits', '/usr/bin/python3', 'ga.py', '--pop', '10'],
      cwd: '/work/solver',
    });
    const saved = process.env[SHARE_VARIABLE];
    delete process.env[SHARE_VARIABLE];
    try {
      const scratch = {
        dir: '/tmp/s',
        copy: '/tmp/s/folder',
        folder: '/work/solver',
        files: [{ copy: '/tmp/s/file-0', path: '/home/me/ga.py' }],
        readOnly: ['/opt/venv'],
      };
      const boxed = sandboxCommand(command, { bwrap: '/usr/bin/bwrap', scratch, statusFd: 3 }, { cpuSeconds: null, memoryMb: 512 });
      expect(boxed.file).toBe('/bin/sh');
      const args = boxed.args.slice(boxed.args.indexOf('/usr/bin/bwrap') + 1);
      expect(args.slice(0, 3)).toEqual(['--unshare-all', '--die-with-parent', '--new-session']);
      expect(args).not.toContain('--share-net');
      const pairs = (flag: string) => args.flatMap((a, i) => (a === flag ? [args.slice(i + 1, i + 3).join(' ')] : []));
      expect(pairs('--bind')).toEqual(['/tmp/s/folder /work/solver']);
      expect(pairs('--ro-bind')).toEqual(expect.arrayContaining(['/usr /usr', '/etc /etc', '/opt/venv /opt/venv', '/tmp/s/file-0 /home/me/ga.py']));
      expect(args.slice(args.indexOf('--size'), args.indexOf('--size') + 4)).toEqual(['--size', String(512 * 1024 * 1024), '--tmpfs', '/tmp']);
      expect(args.slice(args.indexOf('--chdir'))).toEqual(['--chdir', '/work/solver', '--', '/usr/bin/python3', 'ga.py', '--pop', '10']);
      expect(boxed.cwd).toBe('/tmp/s');
      // In a cgroup: the shell joins it (each hierarchy's cgroup.procs) before its limits and the exec.
      const grouped = sandboxCommand(command, null, { cpuSeconds: 60, memoryMb: null }, ['/cg/memory/saikoro-1-1/cgroup.procs', "/cg/pids/it's/cgroup.procs"]);
      expect(grouped.args[1]).toBe(
        `{ echo $$ > '/cg/memory/saikoro-1-1/cgroup.procs'; } 2>/dev/null || { echo "saikoro: could not join the program's cgroup (/cg/memory/saikoro-1-1/cgroup.procs)" >&2; exit 126; } && ` +
          `{ echo $$ > '/cg/pids/it'\\''s/cgroup.procs'; } 2>/dev/null || { echo "saikoro: could not join the program's cgroup (/cg/pids/it's/cgroup.procs)" >&2; exit 126; } && ` +
          'ulimit -S -t 60 && ulimit -H -t 65 && exec "$@"',
      );
      const joined = sandboxCommand(command, null, { cpuSeconds: null, memoryMb: null }, ['/cg/x/cgroup.procs']);
      expect(joined.file).toBe('/bin/sh');
      expect(joined.args.slice(2)).toEqual(['saikoro-limits', '/usr/bin/python3', 'ga.py', '--pop', '10']);
    } finally {
      if (saved !== undefined) process.env[SHARE_VARIABLE] = saved;
    }
  });
});
