// `experiment run` with a solver program says when programs run without a sandbox (bubblewrap
// missing: here switched off with SAIKORO_BWRAP=none), and runs them all the same; with the
// sandbox it says nothing (src-main/host/sandbox.ts, docs/external-solvers.md "The sandbox").
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BWRAP_VARIABLE } from '../../../src-main/host/sandbox.ts';
import { requireTool } from '../../e2e/tools.ts';
import { runCli } from './io.ts';

const FAKE = path.join(import.meta.dirname, '../../fixtures/external/fake-solver.mjs');
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-cli-sandbox-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const bwrap = requireTool('bubblewrap', '/usr/bin/bwrap', 'apt-get install bubblewrap');

async function experimentRun(env: string | undefined) {
  const cwd = fs.mkdtempSync(path.join(root, 'p-'));
  fs.copyFileSync(FAKE, path.join(cwd, 'fake.mjs'));
  const spec = {
    name: 'e',
    instances: [{ name: 'so-n20', track: 'so', n: 20 }],
    solvers: [{ name: 'fake', command: [process.execPath, 'fake.mjs', 'random', '10'] }],
    seeds: [1],
    budget: { evaluations: 20, wholeBudget: true },
  };
  fs.writeFileSync(path.join(cwd, 'spec.json'), JSON.stringify(spec));
  expect((await runCli(['project', 'new', 'p.saikoro'], { cwd })).code).toBe(0);
  expect((await runCli(['experiment', 'add', 'p.saikoro', '--spec', 'spec.json'], { cwd })).code).toBe(0);
  const saved = process.env[BWRAP_VARIABLE];
  if (env === undefined) delete process.env[BWRAP_VARIABLE];
  else process.env[BWRAP_VARIABLE] = env;
  try {
    return await runCli(['experiment', 'run', 'p.saikoro', '--jobs', '1', '--yes'], { cwd });
  } finally {
    if (saved === undefined) delete process.env[BWRAP_VARIABLE];
    else process.env[BWRAP_VARIABLE] = saved;
  }
}

describe('experiment run and the sandbox', () => {
  it('without bubblewrap: a warning first, and the runs done', async () => {
    const r = await experimentRun('none');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr.split('\n')[0]).toBe(
      `warning: solver programs run without a sandbox here: bubblewrap is switched off (${BWRAP_VARIABLE}=none); a program can read and write what you can and reach the network, and only its process group is killed at the end of its run (docs/external-solvers.md, "The sandbox")`,
    );
    expect(r.stdout).toBe('e: 1 runs: 0 already done, 1 done now, 0 failed, 0 not run\n');
  });

  bwrap.describe('with bubblewrap', () => {
    it('no warning', async () => {
      const r = await experimentRun(undefined);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).not.toContain('without a sandbox');
      expect(r.stdout).toBe('e: 1 runs: 0 already done, 1 done now, 0 failed, 0 not run\n');
    });
  });
});
