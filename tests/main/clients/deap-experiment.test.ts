/**
 * The real client in an experiment (issue 18): examples/solvers/deap_ga.py, run by Saikoro's
 * own runner through the CLI beside two built-in solvers, is killed with the CLI (SIGKILL) in
 * the middle, resumes (the stored runs kept, only the missing ones run) and compares. The DEAP
 * runs' stored best equals a re-evaluation by `saikoro eval`, and their budgets are counted by
 * tests/main/clients/counting-proxy.mjs, a program between Saikoro and deap_ga.py that neither
 * trusts: no run is answered more evaluations than its budget, and a finished run exactly its
 * budget, the count Saikoro stored.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { requireTool } from '../../e2e/tools.ts';
import type { RunRecord } from '../../../src-main/project/project-records.ts';
import { Project } from '../../../src-main/project/store.ts';
import { runCli } from '../cli/io.ts';
import { SHARE_VARIABLE } from '../../../src-main/host/sandbox.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const deap = requireTool('python3-deap', '/usr/lib/python3/dist-packages/deap', 'apt-get install python3-deap');

const BUDGET = 400;
const SEEDS = 3;
const SOLVERS = ['deap-ga', 'barrier-ls', 'hill-climbing'];

interface ProxyCount {
  seed: number;
  budget: number;
  requested: number;
  answered: number;
  answers: number;
  stop: string | null;
}

let dir: string;
let counts: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-deap-'));
  // The solver's folder, as docs/external-clients.md says: deap_ga.py with the client beside it
  // (the sandbox shows a program its folder and nothing else of the project's).
  fs.mkdirSync(path.join(dir, 'deap'));
  for (const f of ['examples/solvers/deap_ga.py', 'clients/python/saikoro_client.py']) fs.copyFileSync(path.join(root, f), path.join(dir, 'deap', path.basename(f)));
  // The proxy's counts: a folder every sandboxed program may write (sandbox.ts), outside the project.
  counts = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-deap-counts-'));
  process.env[SHARE_VARIABLE] = counts;
});
afterAll(() => {
  delete process.env[SHARE_VARIABLE];
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(counts, { recursive: true, force: true });
});

const readCounts = (): ProxyCount[] =>
  fs
    .readdirSync(counts)
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(fs.readFileSync(path.join(counts, f), 'utf8')) as ProxyCount);

function storedRuns(): RunRecord[] {
  const project = Project.open(path.join(dir, 'study.saikoro'), { readOnly: true });
  try {
    return project.runs();
  } finally {
    project.close();
  }
}

/** `saikoro experiment run` in its own process, killed with SIGKILL once `killAfter` runs are reported done. */
function runUntilKilled(killAfter: number): Promise<number> {
  const child = spawn(process.execPath, [path.join(root, 'bin/saikoro.mjs'), 'experiment', 'run', 'study.saikoro', '--jobs', '2', '--yes'], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  let reported = 0;
  let stderr = '';
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stderr! }).on('line', (line) => {
      stderr += line + '\n';
      if (/^\[byo \d+\/\d+\] done/.test(line) && ++reported === killAfter) child.kill('SIGKILL');
    });
    child.on('exit', (code, signal) => (signal === 'SIGKILL' ? resolve(reported) : reject(new Error(`runner ended by itself (${code}) after ${reported} runs:\n${stderr}`))));
  });
}

deap.describe('a DEAP solver in an experiment, through the CLI', () => {
  it('runs beside two built-in solvers, resumes after kill -9, compares; its best re-evaluates; budgets hold by an independent count', async () => {
    const command = [process.execPath, path.join(root, 'tests/main/clients/counting-proxy.mjs'), counts, '/usr/bin/python3', 'deap_ga.py', '--pop', '20'];
    const spec = {
      name: 'byo',
      instances: [{ name: 'so-n60', track: 'so', n: 60 }],
      solvers: [{ name: 'deap-ga', command, cwd: 'deap' }, { name: 'barrier-ls' }, { name: 'hill-climbing' }],
      seeds: { count: SEEDS, start: 1 },
      budget: { evaluations: BUDGET, wholeBudget: true },
    };
    fs.writeFileSync(path.join(dir, 'spec.json'), JSON.stringify(spec));
    expect((await runCli(['project', 'new', 'study.saikoro'], { cwd: dir })).code).toBe(0);
    const added = await runCli(['experiment', 'add', 'study.saikoro', '--spec', 'spec.json'], { cwd: dir });
    expect(added.code, added.stderr).toBe(0);

    // Killed after 2 runs are done: those are kept, the rest run on the second try.
    await runUntilKilled(2);
    const before = storedRuns().filter((r) => r.status === 'done');
    const total = SEEDS * SOLVERS.length;
    expect(before.length).toBeGreaterThanOrEqual(2);
    expect(before.length).toBeLessThan(total);
    const resumed = await runCli(['experiment', 'run', 'study.saikoro', '--jobs', '2', '--yes'], { cwd: dir });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toBe(`byo: ${total} runs: ${before.length} already done, ${total - before.length} done now, 0 failed, 0 not run\n`);
    const after = storedRuns();
    expect(after).toHaveLength(total);
    for (const r of before) expect(after.find((a) => a.id === r.id)).toEqual(r);

    // The DEAP runs: one per seed, each with its whole budget and a feasible or infeasible best
    // that `saikoro eval` reproduces exactly.
    const deapRuns = after.filter((r) => r.label === 'deap-ga');
    expect(deapRuns.map((r) => r.seed).sort()).toEqual([1, 2, 3]);
    for (const r of deapRuns) {
      expect(r.status).toBe('done');
      expect(r.result!.evaluations).toBe(BUDGET);
      const best = r.result!.best!;
      const { n: _n, ...config } = r.config;
      const evaluated = await runCli(['eval'], { stdin: JSON.stringify({ x: best.x, config }) + '\n' });
      expect(evaluated.code, evaluated.stderr).toBe(0);
      const e = JSON.parse(evaluated.stdout) as { objectives: number[]; constraints: number[]; feasible: boolean };
      expect(e.objectives).toEqual(best.objectives);
      expect(e.feasible).toBe(best.feasible);
    }

    // The independent count: every run the proxy saw (the killed ones too) stayed within its
    // budget; each stored DEAP run matches a proxy count that reached the budget with its stop.
    const seen = readCounts();
    expect(seen.length).toBeGreaterThanOrEqual(SEEDS);
    for (const c of seen) {
      expect(c.budget).toBe(BUDGET);
      expect(c.answered).toBeLessThanOrEqual(BUDGET);
    }
    for (const r of deapRuns) {
      const finished = seen.filter((c) => c.seed === r.seed && c.stop === 'budget');
      expect(finished.length).toBeGreaterThanOrEqual(1);
      for (const c of finished) expect(c.answered).toBe(BUDGET);
    }
    // A run stored before the kill was not run again: its seed's proxy counts did not grow.
    for (const r of before.filter((b) => b.label === 'deap-ga')) expect(seen.filter((c) => c.seed === r.seed && c.stop === 'budget')).toHaveLength(1);

    // compare: each solver's row counts its 3 runs, with the median of their stored bests.
    const compared = await runCli(['compare', 'study.saikoro', 'byo', '--metric', 'best'], { cwd: dir });
    expect(compared.code, compared.stderr).toBe(0);
    for (const label of SOLVERS) {
      const bests = after.filter((r) => r.label === label).map((r) => r.result!.best!.objectives[0]).sort((a, b) => a - b);
      expect(compared.stdout).toMatch(new RegExp(`^\\| ${label} +\\| 3 +\\| ${bests[1].toFixed(4)} +\\|`, 'm'));
    }
  });
});
