// The one program gate (src-main/app/program-gate.ts): every planned run passes it, so a program
// runs only when the policy allowed what will really run. A request can reach startRun in any
// shape JSON carries: each value of `kind` and `program` is sent over HTTP (a server without
// --allow-commands) and over the desktop's IPC path (the arguments cloned and checked, then
// dispatched), and no program may start. The program here writes a marker file the moment it
// starts, so a run that slipped through would show; with a policy that allows programs the same
// requests do run it (the positive control that proves the marker can appear).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { request } from 'node:http';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { allowPrograms, askOncePerProject, refusePrograms, type ProgramPolicy, type ResolvedProgram } from '../../../src-main/app/program-policy.ts';
import { assertAdmitted, commandLineGate, ProgramGate, resolveProgram } from '../../../src-main/app/program-gate.ts';
import { Launcher, runInProcess } from '../../../src-main/app/launcher.ts';
import { planDiceRun, withHvNormalisation } from '../../../src-main/app/dice.ts';
import type { HvNormalisation } from '../../../src-shared/problems/dice/hv-reference.ts';
import { startAppServer } from '../../../src-main/server/app-server.ts';
import { checkCallArguments } from '../../../src-main/api/call-arguments.ts';
import { dispatchCall } from '../../../src-main/api/dispatch.ts';
import { nodeSpawner } from '../../../src-main/host/spawner.ts';
import { trackConfig } from '../../../src-shared/problems/dice/config.ts';
import { toWireError, type CallResult } from '../../../src-shared/api.ts';
import { apiHarness, within } from '../api/harness.ts';
import { SHARE_VARIABLE } from '../../../src-main/host/sandbox.ts';

const FAKE = path.join(import.meta.dirname, '../../fixtures/external/fake-solver.mjs');
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-program-gate-'));
// The markers: a folder every sandboxed program may write (sandbox.ts), so that a program that
// started leaves its marker where this test sees it.
const markers = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-program-gate-markers-'));
process.env[SHARE_VARIABLE] = markers;
// The program's own folder (what a sandbox copies): a small one, not the checkout.
const work = fs.mkdtempSync(path.join(root, 'work-'));
afterAll(() => {
  delete process.env[SHARE_VARIABLE];
  fs.rmSync(root, { recursive: true, force: true });
  fs.rmSync(markers, { recursive: true, force: true });
});

let cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

/** A program that leaves `marker` behind the moment it starts, then speaks the protocol (the fake solver). */
function markingProgram(marker: string): { command: string[]; cwd: string; env: Record<string, string> } {
  return { command: [process.execPath, FAKE, 'random', '10'], cwd: work, env: { FAKE_SOLVER_PID: marker } };
}

/** Every value a JSON field of startRun's request can take that is worth a try, for `kind`. */
const KINDS: unknown[] = [undefined, null, 'dice', 'nqueens', 'nqueens-sweep', '', 'DICE', 'dice ', 0, 1, -1, true, false, [], ['dice'], {}, { kind: 'dice' }];

/** ... and for `program` (a valid one first; the others are refused as they are). */
function programs(marker: string): unknown[] {
  const valid = markingProgram(marker);
  return [
    valid,
    { ...valid, cwd: '.' },
    { ...valid, blind: true },
    { ...valid, extra: 1 },
    { command: valid.command.join(' '), env: valid.env },
    valid.command,
    null,
    'x',
    1,
    true,
    [],
    {},
    { command: [] },
    { command: [1] },
  ];
}

interface Transport {
  call(name: string, args: unknown[]): Promise<CallResult>;
}

/** The desktop's path: ipcRenderer.invoke clones, the main process checks the arguments, then dispatches (src-main/electron/main.ts). */
function ipcTransport(api: Parameters<typeof dispatchCall>[0]): Transport {
  return {
    async call(name, args) {
      const sent = structuredClone(args);
      try {
        checkCallArguments(name as never, sent);
      } catch (e) {
        return { ok: false, error: toWireError(e) };
      }
      return dispatchCall(api, name, sent);
    },
  };
}

function httpTransport(port: number): Transport {
  return {
    call: (name, args) =>
      new Promise((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, path: `/api/${name}`, method: 'POST', headers: { 'Content-Type': 'application/json' } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
            resolve(res.statusCode === 200 ? { ok: true, value: body.value } : { ok: false, error: body.error });
          });
        });
        req.on('error', reject);
        req.end(JSON.stringify(args));
      }),
  };
}

async function webServer(allowCommands: boolean): Promise<Transport> {
  const rendererDir = path.join(root, 'renderer');
  fs.mkdirSync(rendererDir, { recursive: true });
  fs.writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><title>fake renderer</title>');
  const app = await startAppServer({ port: 0, rendererDir, build: 'never', token: null, parallelism: 1, workspace: root, allowCommands });
  cleanup.push(() => app.close());
  return httpTransport(app.port);
}

function ipcApp(policy?: ProgramPolicy): Transport {
  const harness = apiHarness(1, { workspace: fs.mkdtempSync(path.join(root, 'ipc-')), ...(policy ? { programs: policy } : {}) });
  cleanup.push(() => harness.dispose());
  return ipcTransport(harness.api);
}

/** Every (kind, program) request, sent; the answers, and whether any program started. */
async function tryEverything(transport: Transport, marker: string) {
  const answers: { kind: unknown; program: unknown; result: CallResult }[] = [];
  for (const kind of KINDS)
    for (const program of programs(marker)) {
      const req: Record<string, unknown> = { config: { n: 30 }, seed: 1, evaluations: 20, wholeBudget: true, solver: 'fake', program };
      if (kind !== undefined) req.kind = kind;
      answers.push({ kind, program, result: await transport.call('startRun', [req]) });
    }
  const runs = await transport.call('listRuns', []);
  return { answers, runs: runs.ok ? (runs.value as unknown[]) : null };
}

describe('startRun with a program, every shape, without permission', () => {
  for (const [name, make] of [
    ['HTTP: saikoro serve without --allow-commands', () => webServer(false)],
    ['IPC: the desktop with no permission to give', async () => ipcApp(refusePrograms())],
    ['IPC: the desktop where the person clicks Cancel', async () => ipcApp(askOncePerProject(async () => false))],
  ] as const)
    it(name, async () => {
      const marker = path.join(markers, `marker-${Math.random().toString(36).slice(2)}`);
      const { answers, runs } = await tryEverything(await make(), marker);
      expect(answers.length).toBe(KINDS.length * programs(marker).length);
      const started = answers.filter((a) => a.result.ok);
      expect(started, 'no request started a run').toEqual([]);
      // Every valid program shape of a dice kind is refused by the policy, named as such.
      for (const a of answers.filter((x) => (x.kind === undefined || x.kind === null || x.kind === 'dice') && x.program === programs(marker)[0]))
        expect(a.result.ok ? null : a.result.error.name, `kind ${JSON.stringify(a.kind)}`).toBe('ProgramNotAllowedError');
      expect(runs).toEqual([]);
      expect(fs.existsSync(marker), 'the program never started').toBe(false);
    });
});

describe('the positive control: with permission, the same requests run the program', () => {
  for (const [name, make] of [
    ['HTTP: saikoro serve --allow-commands', () => webServer(true)],
    ['IPC: the desktop where the person allows it', async () => ipcApp(askOncePerProject(async () => true))],
  ] as const)
    it(name, async () => {
      const transport = await make();
      for (const kind of [undefined, null, 'dice']) {
        const marker = path.join(markers, `marker-${Math.random().toString(36).slice(2)}`);
        const req: Record<string, unknown> = {
          config: { n: 30 },
          seed: 1,
          evaluations: 20,
          wholeBudget: true,
          solver: 'fake',
          program: markingProgram(marker),
        };
        if (kind !== undefined) req.kind = kind;
        const answer = await transport.call('startRun', [req]);
        expect(answer.ok, `kind ${JSON.stringify(kind)}: ${answer.ok ? '' : answer.error.message}`).toBe(true);
        const runId = (answer as { value: { runId: string } }).value.runId;
        const ended = async () => {
          for (;;) {
            const info = await transport.call('getRun', [runId]);
            const status = (info as { value: { status: string } }).value.status;
            if (status !== 'queued' && status !== 'running') return status;
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
        };
        expect(await within(ended(), 30_000, `the run of kind ${JSON.stringify(kind)}`)).toBe('done');
        expect(fs.existsSync(marker), `kind ${JSON.stringify(kind)}: the program ran`).toBe(true);
      }
    });
});

describe('the gate', () => {
  it('confirms the project after the question: another project opened meanwhile runs nothing', async () => {
    const workspace = fs.mkdtempSync(path.join(root, 'switch-'));
    let switchTo: (() => Promise<unknown>) | null = null;
    const asked: string[] = [];
    const harness = apiHarness(1, {
      workspace,
      programs: askOncePerProject(async (q) => {
        asked.push(q.place);
        await switchTo?.();
        return true;
      }),
    });
    cleanup.push(() => harness.dispose());
    await harness.api.createProject('b.saikoro');
    await harness.api.createProject('a.saikoro');
    switchTo = () => harness.api.openProject('b.saikoro');
    const marker = path.join(markers, 'marker-switch');
    const error = await harness.api
      .startRun({ config: { n: 30 }, seed: 1, evaluations: 20, wholeBudget: true, solver: 'fake', program: markingProgram(marker) })
      .catch((e) => e);
    expect(asked).toEqual([path.join(workspace, 'a.saikoro')]);
    expect(error).toMatchObject({ name: 'ProgramNotAllowedError', field: 'project' });
    expect(error.message).toContain('was replaced by another while the program was being approved; nothing ran');
    expect(await harness.api.listRuns()).toEqual([]);
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('asks again when the same command would run another executable (a PATH of the spec)', async () => {
    const dirs = ['a', 'b'].map((d) => {
      const bin = path.join(root, 'path-case', d);
      fs.mkdirSync(bin, { recursive: true });
      fs.writeFileSync(path.join(bin, 'solver-x'), `#!/bin/sh\necho ${d}\n`, { mode: 0o755 });
      return bin;
    });
    const asked: ResolvedProgram[] = [];
    const harness = apiHarness(1, {
      workspace: fs.mkdtempSync(path.join(root, 'path-case-')),
      programs: askOncePerProject(async (q) => (asked.push(...q.programs), false)),
    });
    cleanup.push(() => harness.dispose());
    for (const dir of dirs)
      await expect(
        harness.api.startRun({ config: { n: 30 }, seed: 1, evaluations: 20, solver: 'x', program: { command: ['solver-x'], cwd: work, env: { PATH: dir } } }),
      ).rejects.toMatchObject({ name: 'ProgramNotAllowedError' });
    expect(asked.map((p) => p.executable)).toEqual(dirs.map((d) => path.join(d, 'solver-x')));
    expect(asked[0].files['solver-x']).not.toBe(asked[1].files['solver-x']);
  });

  it("resolves what runs: the executable on the spec's PATH, a cwd that is a folder, the files' hashes", () => {
    const dir = fs.mkdtempSync(path.join(root, 'resolve-'));
    fs.writeFileSync(path.join(dir, 'ga.py'), 'print(1)\n');
    const r = resolveProgram('ga', { command: [process.execPath, 'ga.py', '--pop', '10'], cwd: '.' }, dir);
    expect(r).toMatchObject({ name: 'ga', executable: process.execPath, cwd: dir, env: {} });
    expect(Object.keys(r.files)).toEqual([process.execPath, 'ga.py']);
    expect(() => resolveProgram('ga', { command: ['no-such-program-here'] }, dir)).toThrow(
      /program "no-such-program-here" was not found on the PATH Saikoro runs with/,
    );
    expect(() => resolveProgram('ga', { command: [process.execPath], cwd: 'ga.py' }, dir)).toThrow(
      `the solver ga's working directory ${path.join(dir, 'ga.py')} is not a folder`,
    );
    expect(() => resolveProgram('ga', { command: ['./ga.py'] }, dir)).toThrow(/is not an executable file/);
  });

  it('the launcher and the in-process path refuse a program the gate did not admit', async () => {
    const plan = planDiceRun({
      config: trackConfig('so', 30),
      solver: 'fake',
      program: { command: [process.execPath, FAKE, 'random', '10'], cwd: root },
      params: {},
      seed: 1,
      evaluations: 20,
      wholeBudget: true,
    });
    expect(() => assertAdmitted(plan.request)).toThrow(/did not pass the program gate/);
    const launcher = new Launcher({ spawn: nodeSpawner(), parallelism: 1 });
    cleanup.push(() => launcher.dispose());
    expect(() => launcher.start(plan)).toThrow(/did not pass the program gate/);
    // A copy of an admitted request is not admitted: the mark is on the gate's own object.
    const admitted = await commandLineGate().admit(plan, { project: null, folder: root, action: 'test' });
    expect(() => launcher.start({ request: { ...admitted.request } })).toThrow(/did not pass the program gate/);
    expect(await runInProcess(plan)).toMatchObject({ status: 'failed', reason: expect.stringContaining('did not pass the program gate') });
    // The app's own copy with a known normalisation (withHvNormalisation: a multi-objective run on an instance whose
    // normalisation an earlier run computed) stays admitted, and only an admitted one does.
    const normalisation: HvNormalisation = { ideal: [0, 0], nadir: [1, 1], reference: [1.1, 1.1], method: 'test' };
    expect(() => assertAdmitted(withHvNormalisation(admitted, normalisation).request)).not.toThrow();
    expect(() => assertAdmitted(withHvNormalisation(plan, normalisation).request)).toThrow(/did not pass the program gate/);
    const outcome = await within(launcher.start(admitted).outcome, 30_000, 'the admitted run');
    expect(outcome).toMatchObject({ status: 'done', result: { evaluations: 20 } });
    // Runs without a program need no gate.
    const builtIn = planDiceRun({ config: trackConfig('so', 30), solver: 'random', params: {}, seed: 1, evaluations: 20 });
    expect(() => assertAdmitted(builtIn.request)).not.toThrow();
  });

  it('a refusing policy refuses before anything is resolved or hashed, naming the option', async () => {
    const gate = new ProgramGate({ policy: refusePrograms() });
    await expect(
      gate.allow([{ name: 'x', program: { command: ['no-such-program-here'] } }], { project: null, folder: root, action: 'Starting this run' }),
    ).rejects.toMatchObject({ name: 'ProgramNotAllowedError', message: expect.stringContaining('--allow-commands') });
    // Allowed, the unresolvable program is named with why.
    await expect(
      new ProgramGate({ policy: allowPrograms() }).allow([{ name: 'x', program: { command: ['no-such-program-here'] } }], {
        project: null,
        folder: root,
        action: 'x',
      }),
    ).rejects.toMatchObject({ name: 'ProgramResolveError', field: 'command' });
  });
});
