import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from './io.ts';
import { SCHEMA_VERSION } from '../../../src-main/project/schema.ts';

let cwd: string;
beforeEach(() => {
  cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-cli-project-'));
});
afterEach(() => {
  fs.rmSync(cwd, { recursive: true, force: true });
});

describe('saikoro project', () => {
  it('creates a project and describes it', async () => {
    expect(await runCli(['project', 'new', 'p.saikoro'], { cwd })).toMatchObject({ code: 0, stdout: 'created p.saikoro\n' });
    const info = await runCli(['project', 'info', 'p.saikoro'], { cwd });
    expect(info.code).toBe(0);
    expect(info.stdout).toMatch(new RegExp(`^p\\.saikoro: Saikoro project, schema ${SCHEMA_VERSION}, \\d+ bytes\n`));
    expect(info.stdout).toContain('0 experiment(s), 0 run(s) done, 0 failed, 0 note(s)');
    expect(info.stdout).toContain('0 lab run(s) done, 0 failed');
    const json = JSON.parse((await runCli(['project', 'info', 'p.saikoro', '--json'], { cwd })).stdout);
    expect(json).toMatchObject({
      path: 'p.saikoro',
      schemaVersion: SCHEMA_VERSION,
      experiments: [],
      runs: { done: 0, failed: 0 },
      notes: [],
      labRuns: { done: 0, failed: 0 },
    });
  });

  it('keeps notes', async () => {
    await runCli(['project', 'new', 'p.saikoro'], { cwd });
    expect(await runCli(['project', 'note', 'p.saikoro', 'tabu', 'looks', 'stuck'], { cwd })).toMatchObject({ code: 0, stdout: 'note 1 added\n' });
    expect((await runCli(['project', 'info', 'p.saikoro'], { cwd })).stdout).toMatch(/note 1 \S+: tabu looks stuck/);
    const unknown = await runCli(['project', 'note', 'p.saikoro', 'x', '--experiment', 'nope'], { cwd });
    expect(unknown).toMatchObject({ code: 1 });
    expect(unknown.stderr).toContain('no experiment named "nope"');
  });

  it('refuses to overwrite, and names a missing or foreign file (exit 1)', async () => {
    fs.writeFileSync(path.join(cwd, 'taken.saikoro'), 'mine');
    const taken = await runCli(['project', 'new', 'taken.saikoro'], { cwd });
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain('taken.saikoro: already exists; not overwriting it');
    const missing = await runCli(['project', 'info', 'nope.saikoro'], { cwd });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('nope.saikoro: no such file (create one with: saikoro project new nope.saikoro)');
    const foreign = await runCli(['project', 'info', 'taken.saikoro'], { cwd });
    expect(foreign.code).toBe(1);
    expect(foreign.stderr).toContain('taken.saikoro: not a Saikoro project (not an SQLite database)');
    expect(fs.readFileSync(path.join(cwd, 'taken.saikoro'), 'utf8')).toBe('mine');
  });

  it('gives usage errors (exit 2)', async () => {
    expect((await runCli(['project'], { cwd })).code).toBe(2);
    expect((await runCli(['project', 'open', 'p.saikoro'], { cwd })).stderr).toContain('unknown action "open"');
    expect((await runCli(['project', 'info'], { cwd })).code).toBe(2);
    expect((await runCli(['project', 'info', 'a', '--bogus'], { cwd })).code).toBe(2);
  });
});
