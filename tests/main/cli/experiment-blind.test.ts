// A blind experiment through the CLI: its runs are stored blind (the column, the id), shards and
// merge rehash them with blind, verify re-runs them blind, and a run whose blind mark was
// removed from the file no longer hashes to its id and is refused by merge.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Project } from '../../../src-main/project/store.ts';
import { Database } from '../../../src-main/project/sqlite.ts';
import { expandGrid } from '../../../src-shared/experiments/grid.ts';
import { validateSpec } from '../../../src-shared/experiments/spec.ts';
import { runCli } from './io.ts';

let cwd: string;
beforeEach(() => {
  cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-cli-blind-'));
});
afterEach(() => {
  fs.rmSync(cwd, { recursive: true, force: true });
});

const spec = {
  name: 'blindexp',
  blind: true,
  instances: [{ name: 'so-n16', track: 'so', n: 16 }],
  solvers: [{ name: 'random' }, { name: 'hill-climbing' }],
  seeds: { count: 2 },
  budget: { evaluations: 120, wholeBudget: true },
};

async function cli(...argv: string[]) {
  return runCli(argv, { cwd });
}

describe('a blind experiment in a project', () => {
  it('stores its runs blind, shards and merges them, verifies them, and refuses a run whose blind mark was removed', async () => {
    fs.writeFileSync(path.join(cwd, 'spec.json'), JSON.stringify(spec));
    expect((await cli('project', 'new', 'p.saikoro')).code).toBe(0);
    expect((await cli('experiment', 'add', 'p.saikoro', '--spec', 'spec.json')).code).toBe(0);
    const grid = expandGrid(validateSpec(spec));
    expect(grid.every((r) => r.blind === true)).toBe(true);
    // Two shards, merged into the project.
    for (const k of [1, 2]) {
      const r = await cli('experiment', 'run', 'p.saikoro', '--inline', '--shard', `${k}/2`);
      expect(r.code, r.stderr).toBe(0);
    }
    const merged = await cli('merge', 'p.saikoro', 'p.shard-1-of-2.saikoro', 'p.shard-2-of-2.saikoro');
    expect(merged.code, merged.stderr).toBe(0);
    expect(merged.stdout).toContain('blindexp: all 4 runs done');
    const project = Project.open(path.join(cwd, 'p.saikoro'), { readOnly: true });
    const runs = project.runs();
    project.close();
    expect(runs.map((r) => r.id).sort()).toEqual(grid.map((r) => r.id).sort());
    expect(runs.every((r) => r.blind === true && r.status === 'done')).toBe(true);
    const verified = await cli('experiment', 'verify', 'p.saikoro', '--all');
    expect(verified.code, verified.stderr).toBe(0);
    expect(verified.stdout).toContain('4 runs re-run: all reproduce exactly');

    // A shard whose run lost its blind mark: its inputs hash to the sighted run's id, not its own.
    const forged = path.join(cwd, 'p.shard-1-of-2.saikoro');
    const db = new Database(forged);
    db.run('UPDATE runs SET blind = 0');
    db.close();
    expect((await cli('project', 'new', 'q.saikoro')).code).toBe(0);
    const refused = await cli('merge', 'q.saikoro', 'p.shard-1-of-2.saikoro');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /refused run [0-9a-f]{32} \(so-n16 (random|hill-climbing) seed \d\): its config, solver, parameters, seed and budget hash to [0-9a-f]{32}, not to its id/,
    );
  });
});
