// Who may make the app run a solver program: web mode refuses unless `saikoro serve
// --allow-commands`, naming the option; the desktop app asks once per project and program,
// naming it (here a fake confirm stands in for Electron's dialog). The policy sits in the API
// implementation, so the HTTP server and the desktop's IPC both go through it.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { request } from 'node:http';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  allowPrograms,
  askOncePerProject,
  ProgramNotAllowedError,
  programQuestion,
  refusePrograms,
  type ResolvedProgram,
} from '../../../src-main/app/program-policy.ts';
import { startAppServer } from '../../../src-main/server/app-server.ts';
import type { StartDiceRun } from '../../../src-shared/api.ts';
import { apiHarness, within } from './harness.ts';

const FAKE = path.join(import.meta.dirname, '../../fixtures/external/fake-solver.mjs');
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-program-policy-'));
// The program's own folder (what a sandbox copies): a small one, not the checkout.
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-program-policy-work-'));
afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true });
  fs.rmSync(work, { recursive: true, force: true });
});

const programRun = (extra: Partial<StartDiceRun> = {}): StartDiceRun => ({
  config: { n: 30 },
  seed: 2,
  evaluations: 40,
  wholeBudget: true,
  solver: 'fake',
  program: { command: [process.execPath, FAKE, 'random', '10'], cwd: work },
  ...extra,
});
// The program's folder is the project's, which holds only the project file: never shown, so empty
// (its hash is the sha256 of an empty list).
const EMPTY_FOLDER = { sha256: createHash('sha256').update('').digest('hex'), files: 0, bytes: 0 };
const spec = {
  name: 'with-program',
  instances: [{ name: 'so-n20', track: 'so', n: 20 }],
  solvers: [{ name: 'random' }, { name: 'fake', command: [process.execPath, FAKE, 'random', '10'] }],
  seeds: [1],
  budget: { evaluations: 30, wholeBudget: true },
};

let harness: ReturnType<typeof apiHarness> | null = null;
afterEach(() => {
  harness?.dispose();
  harness = null;
});

describe('the program policies', () => {
  const resolved = (name: string, command: string[], extra: Partial<ResolvedProgram> = {}): ResolvedProgram => ({
    name,
    command,
    executable: `/usr/bin/${command[0]}`,
    cwd: '/p',
    env: {},
    files: { [command[0]]: 'a'.repeat(64) },
    ...extra,
  });
  const mine = resolved('my-ga', ['python3', 'my_ga.py', '--pop', '100']);

  it('refusePrograms names the program and the option; an empty list passes', async () => {
    const refuse = refusePrograms();
    await expect(refuse.allow({ programs: [], place: '/p', action: 'Starting this run' })).resolves.toBeUndefined();
    const error = await refuse.allow({ programs: [mine], place: '/p', action: 'Starting this run' }).catch((e) => e);
    expect(error).toBeInstanceOf(ProgramNotAllowedError);
    expect(error.field).toBe('command');
    expect(error.message).toBe(
      'command: Starting this run: the solver my-ga (python3 my_ga.py --pop 100) is a program, and this server does not run programs; start `saikoro serve` with --allow-commands to allow it',
    );
    await expect(allowPrograms().allow({ programs: [mine], place: '/p', action: 'x' })).resolves.toBeUndefined();
  });

  it('askOncePerProject asks once per project and program, naming it; a "no" refuses and is asked again', async () => {
    const asked: ResolvedProgram[][] = [];
    let answer = false;
    const policy = askOncePerProject(async (q) => {
      asked.push(q.programs);
      return answer;
    });
    await expect(policy.allow({ programs: [mine], place: '/a.saikoro', action: 'Running experiment "e"' })).rejects.toThrow(
      'command: Running experiment "e": you did not allow the program my-ga (python3 my_ga.py --pop 100) to run',
    );
    answer = true;
    await policy.allow({ programs: [mine], place: '/a.saikoro', action: 'Running experiment "e"' });
    await policy.allow({ programs: [mine], place: '/a.saikoro', action: 'Running experiment "e"' });
    expect(asked).toEqual([[mine], [mine]]);
    // Another project, or another program in this one, is asked about (only the new one).
    const other = resolved('other', ['./other']);
    await policy.allow({ programs: [mine, other], place: '/a.saikoro', action: 'x' });
    await policy.allow({ programs: [mine], place: '/b.saikoro', action: 'x' });
    expect(asked.slice(2)).toEqual([[other], [mine]]);
    const { message, detail } = programQuestion({ place: '/a.saikoro', action: 'Running experiment "e"', programs: [mine] });
    expect(message).toBe('Run this program on your computer?');
    expect(detail).toContain('my-ga: python3 my_ga.py --pop 100');
    expect(detail).toContain('runs /usr/bin/python3');
    expect(detail).toContain('/a.saikoro');
  });

  it('an approval covers what really runs: another executable, env, cwd or file hash is asked about again', async () => {
    let count = 0;
    const policy = askOncePerProject(async () => (count++, true));
    const ask = (p: ResolvedProgram) => policy.allow({ programs: [p], place: '/a.saikoro', action: 'x' });
    await ask(mine);
    await ask(mine);
    expect(count).toBe(1);
    await ask({ ...mine, executable: '/a/bin/python3' });
    await ask({ ...mine, env: { PATH: '/a/bin' } });
    await ask({ ...mine, cwd: '/q' });
    await ask({ ...mine, files: { ...mine.files, 'my_ga.py': 'b'.repeat(64) } });
    expect(count).toBe(5);
    // A program the gate could not resolve is not asked about (the gate then says why it cannot run).
    await ask({ ...mine, executable: null });
    expect(count).toBe(5);
  });
});

describe('the API applies its policy', () => {
  it('web mode by default: startRun with a program is refused before anything runs', async () => {
    harness = apiHarness(1, { programs: refusePrograms() });
    await expect(harness.api.startRun(programRun())).rejects.toMatchObject({
      name: 'ProgramNotAllowedError',
      field: 'command',
      message: expect.stringContaining('--allow-commands'),
    });
    expect(await harness.api.listRuns()).toEqual([]);
    // Built-in solvers are not affected.
    const started = await harness.api.startRun({ config: { n: 30 }, seed: 1, evaluations: 50, solver: 'random' });
    expect(started).toMatchObject({ kind: 'dice', solver: 'random' });
  });

  it('without a policy the API refuses programs too', async () => {
    harness = apiHarness(1);
    await expect(harness.api.startRun(programRun())).rejects.toMatchObject({
      name: 'ProgramNotAllowedError',
      message: expect.stringContaining('this app instance does not run programs'),
    });
  });

  it("allowed: the program runs as the run's solver, counted and reported like any run", async () => {
    harness = apiHarness(1, { programs: allowPrograms() });
    const started = await harness.api.startRun(programRun());
    expect(started).toMatchObject({ kind: 'dice', solver: 'fake', params: {}, program: { command: [process.execPath, FAKE, 'random', '10'], cwd: work } });
    const h = harness;
    const finished = await within(h.follow<'dice'>(() => started.runId).finished, 30_000, 'the program run');
    expect(finished.status).toBe('done');
    expect(finished.result).toMatchObject({ solver: 'fake', evaluations: 40, program: { exit: { code: 0, how: 'exited' } } });
  });

  it('a bad program field is refused naming it', async () => {
    harness = apiHarness(1, { programs: allowPrograms() });
    await expect(harness.api.startRun(programRun({ program: { command: [process.execPath], grace: -1 } }))).rejects.toMatchObject({
      name: 'RunRequestError',
      message: 'program.grace: must be a number of seconds, more than 0 and at most 86400, got -1',
    });
    await expect(harness.api.startRun(programRun({ params: { a: 1 } }))).rejects.toMatchObject({ name: 'RunRequestError', field: 'params' });
  });

  it('the desktop asks once for an experiment with a program, naming it: at add, not again at run', async () => {
    const workspace = fs.mkdtempSync(path.join(root, 'desktop-'));
    const asked: { action: string; programs: ResolvedProgram[] }[] = [];
    let answer = false;
    harness = apiHarness(1, { workspace, programs: askOncePerProject(async (q) => (asked.push({ action: q.action, programs: q.programs }), answer)) });
    await harness.api.createProject('p.saikoro');
    await expect(harness.api.addExperiment(spec)).rejects.toMatchObject({ name: 'ProgramNotAllowedError' });
    expect((await harness.api.getProject())!.experiments).toHaveLength(0);
    answer = true;
    await harness.api.addExperiment(spec);
    const session = await harness.api.runExperiment('with-program');
    expect(session.todo).toBe(2);
    expect(asked.map((a) => a.action)).toEqual(['Adding experiment "with-program"', 'Adding experiment "with-program"']);
    expect(asked[0].programs).toEqual([
      {
        name: 'fake',
        command: spec.solvers[1].command,
        executable: process.execPath,
        ...(fs.realpathSync(process.execPath) !== process.execPath ? { target: fs.realpathSync(process.execPath) } : {}),
        cwd: workspace,
        env: {},
        files: { [process.execPath]: expect.stringMatching(/^[0-9a-f]{64}$/), [FAKE]: expect.stringMatching(/^[0-9a-f]{64}$/) },
        folder: EMPTY_FOLDER,
      },
    ]);
  });
});

describe('saikoro serve (HTTP)', () => {
  const post = (port: number, name: string, args: unknown[]) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: `/api/${name}`, method: 'POST', headers: { 'Content-Type': 'application/json' } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      });
      req.on('error', reject);
      req.end(JSON.stringify(args));
    });

  it('refuses a program run with an error naming --allow-commands, and runs it when started with it', async () => {
    const rendererDir = path.join(root, 'renderer');
    fs.mkdirSync(rendererDir, { recursive: true });
    fs.writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><title>fake renderer</title>');
    for (const allowCommands of [false, true]) {
      const app = await startAppServer({ port: 0, rendererDir, build: 'never', token: null, parallelism: 1, workspace: root, allowCommands });
      try {
        const answer = await post(app.port, 'startRun', [programRun()]);
        if (!allowCommands) {
          expect(answer.status).toBe(400);
          expect(JSON.parse(answer.body).error).toMatchObject({ name: 'ProgramNotAllowedError', field: 'command' });
          expect(JSON.parse(answer.body).error.message).toContain('start `saikoro serve` with --allow-commands to allow it');
        } else {
          expect(answer.status).toBe(200);
          // (web mode shows the app's own folder as <saikoro>)
          expect(JSON.parse(answer.body).value).toMatchObject({
            solver: 'fake',
            program: { command: [process.execPath, expect.stringMatching(/fake-solver\.mjs$/), 'random', '10'] },
          });
        }
      } finally {
        await app.close();
      }
    }
  });
});
