/**
 * The clients and examples against Saikoro's own runner (`saikoro solve --command`, a worker
 * process like any run): the client reads the real first line; deap_ga.py's result re-evaluates
 * exactly and its budget holds by the count of tests/main/clients/counting-proxy.mjs, a program
 * between the two that trusts neither; the plain-Node example runs too.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { requireTool } from '../../e2e/tools.ts';
import { runCli } from '../cli/io.ts';
import { SHARE_VARIABLE } from '../../../src-main/host/sandbox.ts';
import { trackConfig } from '../../../src-shared/problems/dice/config.ts';
import { evaluateDice } from '../../../src-shared/problems/dice/evaluate.ts';
import { dominates } from '../../../src-shared/metrics/dominance.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const PYTHON = '/usr/bin/python3';
const python = requireTool('python3', PYTHON, 'apt-get install python3');
const deap = requireTool('python3-deap', '/usr/lib/python3/dist-packages/deap', 'apt-get install python3-deap');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-clients-'));
// Each program in a folder of its own with the client beside it, as docs/external-clients.md
// says: the sandbox shows a program its folder and nothing else of the checkout.
const solverFolder = (...files: string[]) => {
  const folder = fs.mkdtempSync(path.join(dir, 'solver-'));
  for (const f of [...files, 'clients/python/saikoro_client.py']) fs.copyFileSync(path.join(root, f), path.join(folder, path.basename(f)));
  return folder;
};
// The proxy's counts: a folder every sandboxed program may write (sandbox.ts).
const shared = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-clients-shared-'));
process.env[SHARE_VARIABLE] = shared;
afterAll(() => {
  delete process.env[SHARE_VARIABLE];
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(shared, { recursive: true, force: true });
});

const quoted = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const commandLine = (...argv: string[]) => argv.map(quoted).join(' ');
const solve = (args: string[], command: string[], cwd = dir) => runCli(['solve', ...args, '--json', '--cwd', cwd, '--command', commandLine(...command)], { cwd: dir });

interface SolveJson {
  solver: string;
  evaluations: number;
  best: { x: string; objectives: number[]; constraints: number[]; feasible: boolean } | null;
  front: { x: string; objectives: number[]; constraints: number[]; feasible: boolean }[];
}

python.describe('the Python client on the real first line', () => {
  it('reads every field Saikoro sends, and the same without config and track when blind', async () => {
    // The probe reports what it parsed as {"log"} lines; --out keeps the run's log.
    for (const blind of [false, true]) {
      const out = path.join(dir, `probe-${blind}.json`);
      const run = await runCli(['solve', '--track', 'mo2', '--n', '20', '--evals', '10', '--seed', '9', '--out', out, ...(blind ? ['--blind'] : []), '--cwd', solverFolder('tests/main/clients/probe_client.py'), '--command', commandLine(PYTHON, 'probe_client.py', 'attributes')], { cwd: dir });
      expect(run.code, run.stderr).toBe(0);
      // The run's log: the program's {"log"} lines and its stderr, in order.
      const log = (JSON.parse(fs.readFileSync(out, 'utf8')) as { log: string }).log.split('\n');
      expect(log[1]).toBe('a stray print goes to stderr');
      const attributes = JSON.parse(log[0]);
      expect(attributes).toEqual({ n: 20, lower: 1, upper: 6, objectives: 2, constraints: 12, budget: 10, remaining: 10, seed: 9, track: blind ? null : 'mo2', config: blind ? null : trackConfig('mo2', 20), blind });
    }
  });
});

deap.describe('examples/solvers/deap_ga.py under saikoro solve --command', () => {
  it('one objective: the budget exact by an independent count, the best re-evaluates exactly', async () => {
    const counts = path.join(shared, 'counts-so');
    fs.mkdirSync(counts);
    const run = await solve(['--track', 'so', '--n', '40', '--evals', '700', '--whole-budget', '--seed', '3', '--name', 'deap-ga'], [process.execPath, path.join(root, 'tests/main/clients/counting-proxy.mjs'), counts, PYTHON, 'deap_ga.py', '--pop', '30'], solverFolder('examples/solvers/deap_ga.py'));
    expect(run.code, run.stderr).toBe(0);
    const r = JSON.parse(run.stdout) as SolveJson;
    expect(r).toMatchObject({ solver: 'deap-ga', evaluations: 700 });
    const e = evaluateDice(r.best!.x, trackConfig('so', 40));
    expect(r.best).toEqual({ x: r.best!.x, objectives: e.objectives, constraints: e.constraints, feasible: e.feasible });
    const [count] = fs.readdirSync(counts).filter((f) => f.endsWith('.json')).map((f) => JSON.parse(fs.readFileSync(path.join(counts, f), 'utf8')));
    // 700 = 23 populations of 30 + 10 of the 24th batch, cut there with the stop.
    expect(count).toEqual({ seed: 3, budget: 700, requested: 720, answered: 700, answers: 24, stop: 'budget' });
  });

  it('three objectives, blind: a front of non-dominated feasible solutions that re-evaluate exactly', async () => {
    const run = await solve(['--track', 'mo3', '--n', '40', '--evals', '400', '--seed', '2', '--blind'], [PYTHON, 'deap_ga.py', '--pop', '20'], solverFolder('examples/solvers/deap_ga.py'));
    expect(run.code, run.stderr).toBe(0);
    const r = JSON.parse(run.stdout) as SolveJson;
    expect(r.evaluations).toBe(400);
    expect(r.front.length).toBeGreaterThan(0);
    for (const s of r.front) {
      const e = evaluateDice(s.x, trackConfig('mo3', 40));
      expect(s).toEqual({ x: s.x, objectives: e.objectives, constraints: e.constraints, feasible: true });
      for (const t of r.front) expect(dominates(t.objectives, s.objectives)).toBe(false);
    }
  });
});

describe('examples/solvers/random_search.mjs under saikoro solve --command', () => {
  it('spends the budget and its best re-evaluates', async () => {
    const run = await solve(['--track', 'so', '--n', '30', '--evals', '250', '--whole-budget', '--seed', '8'], [process.execPath, 'random_search.mjs', '--batch', '64'], solverFolder('examples/solvers/random_search.mjs'));
    expect(run.code, run.stderr).toBe(0);
    const r = JSON.parse(run.stdout) as SolveJson;
    expect(r).toMatchObject({ solver: 'random_search', evaluations: 250 });
    expect(r.best!.objectives).toEqual(evaluateDice(r.best!.x, trackConfig('so', 30)).objectives);
  });
});

python.describe('examples/solvers/local_search.py (the solver of saikoro init) under saikoro solve --command', () => {
  it('one objective: the budget exact by an independent count, the best re-evaluates exactly, the same seed gives the same run', async () => {
    const counts = path.join(shared, 'counts-local-so');
    fs.mkdirSync(counts);
    const args = ['--track', 'so', '--n', '40', '--evals', '650', '--whole-budget', '--seed', '4', '--name', 'local-search'];
    const program = [PYTHON, 'local_search.py', '--climbers', '20'];
    const folder = solverFolder('examples/solvers/local_search.py');
    const run = await solve(args, [process.execPath, path.join(root, 'tests/main/clients/counting-proxy.mjs'), counts, ...program], folder);
    expect(run.code, run.stderr).toBe(0);
    const r = JSON.parse(run.stdout) as SolveJson;
    expect(r).toMatchObject({ solver: 'local-search', evaluations: 650 });
    const e = evaluateDice(r.best!.x, trackConfig('so', 40));
    expect(r.best).toEqual({ x: r.best!.x, objectives: e.objectives, constraints: e.constraints, feasible: e.feasible });
    const [count] = fs.readdirSync(counts).filter((f) => f.endsWith('.json')).map((f) => JSON.parse(fs.readFileSync(path.join(counts, f), 'utf8')));
    // 650 = the 20 starts and 31 steps of 20 climbers + 10 of the 33rd batch, cut there with the stop.
    expect(count).toEqual({ seed: 4, budget: 650, requested: 660, answered: 650, answers: 33, stop: 'budget' });
    const again = JSON.parse((await solve(args, program, folder)).stdout) as SolveJson;
    expect(again.best).toEqual(r.best);
  });

  it('two objectives: a front of non-dominated feasible solutions that re-evaluate exactly, better than random search', async () => {
    const args = ['--track', 'mo2', '--n', '200', '--evals', '3000', '--seed', '1'];
    const run = await solve(args, [PYTHON, 'local_search.py'], solverFolder('examples/solvers/local_search.py'));
    expect(run.code, run.stderr).toBe(0);
    const r = JSON.parse(run.stdout) as SolveJson;
    expect(r.evaluations).toBe(3000);
    expect(r.front.length).toBeGreaterThan(0);
    for (const p of r.front) {
      const e = evaluateDice(p.x, trackConfig('mo2', 200));
      expect(p).toEqual({ x: p.x, objectives: e.objectives, constraints: e.constraints, feasible: true });
      for (const q of r.front) expect(dominates(q.objectives, p.objectives)).toBe(false);
    }
    // Random search with the same budget finds no point that dominates any of the climbers'.
    const random = JSON.parse((await runCli(['solve', ...args, '--solver', 'random', '--json'], { cwd: dir })).stdout) as SolveJson;
    for (const q of random.front) for (const p of r.front) expect(dominates(q.objectives, p.objectives)).toBe(false);
  });
});
