// saikoro nqueens --project FILE: the finished run is stored in the project as a lab run.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runCli } from './io.ts';
import { labRunId } from '../../../src-main/project/project-records.ts';
import { Project } from '../../../src-main/project/store.ts';
import { verifySolution } from '../../../src-shared/problems/nqueens/verify.ts';

let cwd: string;
beforeEach(() => {
  cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-cli-nqueens-project-'));
});
afterEach(() => {
  fs.rmSync(cwd, { recursive: true, force: true });
});

describe('saikoro nqueens --project', () => {
  it('stores the run once; the stored result equals the printed JSON', async () => {
    expect((await runCli(['project', 'new', 'p.saikoro'], { cwd })).code).toBe(0);
    const argv = ['nqueens', '--n', '8', '--seed', '3', '--project', 'p.saikoro', '--json'];
    const first = await runCli(argv, { cwd });
    expect(first.code).toBe(0);
    const printed = JSON.parse(first.stdout);
    expect(printed).toMatchObject({ n: 8, method: 'neural', solved: true });
    expect(verifySolution(printed.queens)).toBe(true);
    const id = /^nqueens: stored in p\.saikoro \(lab run ([0-9a-f]{32})\)$/m.exec(first.stderr)?.[1];
    expect(id).toBeDefined();

    const second = await runCli(argv, { cwd });
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({ queens: printed.queens, steps: printed.steps, solved: true });
    expect(second.stderr).toMatch(new RegExp(`^nqueens: already stored in p\\.saikoro \\(lab run ${id}\\); kept the stored run$`, 'm'));

    const project = Project.open(path.join(cwd, 'p.saikoro'), { readOnly: true });
    const runs = project.labRuns();
    project.close();
    expect(runs).toHaveLength(1);
    const [run] = runs;
    expect(run.id).toBe(id);
    expect(run.id).toBe(labRunId(run.request));
    expect(run.request).toMatchObject({ kind: 'nqueens', method: 'neural', n: 8, seed: 3, limits: {} });
    expect(run.request.params).toMatchObject({ A: printed.params.A, B: printed.params.B, maxSteps: printed.params.maxSteps });
    expect(run).toMatchObject({ kind: 'nqueens', status: 'done', error: null, host: os.hostname() });
    expect(run.appVersion).toMatch(/^saikoro \d+\.\d+\.\d+/);
    expect(run.result).toMatchObject({ queens: printed.queens, steps: printed.steps, solved: printed.solved, n: 8, method: 'neural', seed: 3 });
    expect(run.result!.seconds).toBe(printed.seconds);
    expect(Date.parse(run.finishedAt)).toBeGreaterThanOrEqual(Date.parse(run.startedAt));
    expect(run.elapsedMs).toBeGreaterThanOrEqual(0);

    const info = JSON.parse((await runCli(['project', 'info', 'p.saikoro', '--json'], { cwd })).stdout);
    expect(info).toMatchObject({ labRuns: { done: 1, failed: 0 }, runs: { done: 0, failed: 0 } });
    expect((await runCli(['project', 'info', 'p.saikoro'], { cwd })).stdout).toContain('1 lab run(s) done, 0 failed');
  });

  it('stores an unsolved run and a min-conflicts run as separate lab runs; exit codes unchanged', async () => {
    await runCli(['project', 'new', 'p.saikoro'], { cwd });
    const unsolved = await runCli(
      ['nqueens', '--n', '10', '--update', 'sync', '--kick-every', '0', '--max-steps', '50', '--inline', '--project', 'p.saikoro'],
      { cwd },
    );
    expect(unsolved.code).toBe(1);
    expect(unsolved.stdout).toMatch(/^Not solved: N = 10 with neural/);
    expect(unsolved.stderr).toMatch(/^nqueens: stored in p\.saikoro/m);
    const mc = await runCli(['nqueens', '--n', '12', '--method', 'minconflicts', '--seed', '2', '--inline', '--project', 'p.saikoro'], { cwd });
    expect(mc.code).toBe(0);
    const project = Project.open(path.join(cwd, 'p.saikoro'), { readOnly: true });
    const runs = project.labRuns('nqueens');
    project.close();
    expect(runs.map((r) => [r.request.method, r.request.n, r.result?.solved])).toEqual([
      ['neural', 10, false],
      ['minconflicts', 12, true],
    ]);
    expect(runs[0].result).toMatchObject({ steps: 50, queens: null });
    expect(verifySolution(runs[1].result!.queens!)).toBe(true);
  });

  it('refuses a missing or foreign project file with exit 1 before running', async () => {
    const missing = await runCli(['nqueens', '--n', '8', '--project', 'nope.saikoro'], { cwd });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/nope\.saikoro: no such file \(create one with: saikoro project new nope\.saikoro\)/);
    expect(missing.stdout).toBe('');
    expect(fs.existsSync(path.join(cwd, 'nope.saikoro'))).toBe(false);
    fs.writeFileSync(path.join(cwd, 'notes.txt'), 'hello, this is not a database at all\n'.repeat(5));
    const foreign = await runCli(['nqueens', '--n', '8', '--project', 'notes.txt'], { cwd });
    expect(foreign.code).toBe(1);
    expect(foreign.stderr).toMatch(/notes\.txt: not a Saikoro project \(not an SQLite database\)/);
    expect(foreign.stdout).toBe('');
  });

  it('refuses a project it could read but not write before running (issue 21: it ran the whole job first)', async () => {
    expect((await runCli(['project', 'new', 'p.saikoro'], { cwd })).code).toBe(0);
    const file = path.join(cwd, 'p.saikoro');
    const before = fs.readFileSync(file);
    // The project file cannot be written (root ignores permission bits, so this is simulated).
    const accessSync = fs.accessSync;
    const spy = vi.spyOn(fs, 'accessSync').mockImplementation((p, mode) => {
      if (typeof p === 'string' && path.resolve(p) === file && mode !== undefined && mode & fs.constants.W_OK)
        throw Object.assign(new Error(`EACCES: permission denied, access '${p}'`), { code: 'EACCES' });
      return accessSync(p, mode);
    });
    try {
      for (const extra of [['--inline'], []]) {
        const r = await runCli(['nqueens', '--n', '8', '--seed', '3', '--project', 'p.saikoro', '--json', ...extra], { cwd });
        expect(r.code).toBe(1);
        expect(r.stderr).toBe('saikoro nqueens: p.saikoro: cannot store a run there: opened read-only (the file cannot be written); nothing was run\n');
        expect(r.stdout).toBe('');
      }
    } finally {
      spy.mockRestore();
    }
    expect(fs.readFileSync(file)).toEqual(before);
  });

  it('prints nothing about storing without --project', async () => {
    const r = await runCli(['nqueens', '--n', '8', '--seed', '3', '--inline'], { cwd });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
  });
});
