/**
 * The external-solver clients and examples (issue 18) against Saikoro's side of the protocol as
 * the issue defines it, played by tests/main/clients/fake-saikoro.ts with the real evaluator:
 * what clients/python/saikoro_client.py parses and sends, how it stops, and that
 * examples/solvers/{deap_ga.py,random_search.mjs} are complete solvers (valid requests, the
 * budget spent exactly, the same seed giving the same run).
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { requireTool } from '../../e2e/tools.ts';
import { diceConfig } from '../../../src-shared/problems/dice/config.ts';
import { DiceEvaluator } from '../../../src-shared/problems/dice/evaluate.ts';
import { runFakeSaikoro, type FakeRun } from './fake-saikoro.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const PYTHON = '/usr/bin/python3';
const python = requireTool('python3', PYTHON, 'apt-get install python3');
// Debian's python3-deap, for /usr/bin/python3 (CI installs it, .ci/run).
const deap = requireTool('python3-deap', '/usr/lib/python3/dist-packages/deap', 'apt-get install python3-deap');
const probe = (...args: string[]) => [PYTHON, 'tests/main/clients/probe_client.py', ...args];

/** The JSON reports the probe wrote as log lines. */
const reports = (run: FakeRun) => run.logs.map((l) => JSON.parse(l) as Record<string, unknown>);

/** Every request is a batch of valid sequences of length n. */
function expectValidRequests(run: FakeRun, n: number) {
  expect(run.requests.length).toBeGreaterThan(0);
  for (const batch of run.requests) for (const x of batch) expect(x).toMatch(new RegExp(`^[1-6]{${n}}$`));
}

python.describe('saikoro_client.py', () => {
  it('parses the first line, evaluates strings and int lists, returns errors for invalid sequences and keeps stdout for the protocol', async () => {
    const run = await runFakeSaikoro({ command: probe('attributes'), cwd: root, track: 'mo3', n: 24, budget: 10, seed: 2 ** 40 + 3 });
    expect(run.code).toBe(0);
    expect(run.otherLines).toEqual([]);
    expect(run.stderr).toContain('a stray print goes to stderr');
    const [attributes, evaluated] = reports(run);
    const config = diceConfig({ track: 'mo3', n: 24 });
    expect(attributes).toEqual({ n: 24, lower: 1, upper: 6, objectives: 3, constraints: 12, budget: 10, remaining: 10, seed: 2 ** 40 + 3, track: 'mo3', config, blind: false });

    expect(run.requests).toEqual([['315531553155315531553155', '661266126612661266126612', '7'.repeat(24), '31553155315531553155315']]);
    const evaluator = new DiceEvaluator(config);
    const results = evaluated.results as Record<string, unknown>[];
    for (const [i, x] of ['315531553155315531553155', '661266126612661266126612'].entries()) {
      const e = evaluator.evaluate(x);
      expect(results[i]).toEqual({ objective: e.objectives, objectives: e.objectives, constraint: e.constraints, feasible: e.feasible, error: null, violation: e.constraints.reduce((a, b) => a + b, 0) });
    }
    expect(results[2]).toEqual({ objective: null, objectives: ['inf', 'inf', 'inf'], constraint: [], feasible: false, error: 'character "7" at position 1 is not a die face 1-6', violation: 'inf' });
    expect(results[3].error).toBe('the sequence has 23 characters, expected N = 24');
    expect(results[3].feasible).toBe(false);
    // Errors cost no evaluation: 2 of 4 counted.
    expect(evaluated).toMatchObject({ remaining: 8, evaluated: 2 });
  });

  it('gives one objective as a number and leaves track and config out when blind', async () => {
    const run = await runFakeSaikoro({ command: probe('attributes'), cwd: root, n: 30, budget: 5, blind: true });
    expect(run.code).toBe(0);
    const [attributes, evaluated] = reports(run);
    expect(attributes).toMatchObject({ n: 30, objectives: 1, constraints: 12, track: null, config: null, blind: true, seed: 1 });
    const e = new DiceEvaluator(diceConfig({ track: 'so', n: 30 })).evaluate(('3155'.repeat(30)).slice(0, 30));
    expect((evaluated.results as Record<string, unknown>[])[0]).toMatchObject({ objective: e.objectives[0], objectives: e.objectives, feasible: e.feasible });
  });

  it('reads a run without an evaluation budget (budget null) and a custom grouping (track null)', async () => {
    const config = diceConfig({ track: 'mo2', n: 12 });
    const problem = { n: 12, lower: 1, upper: 6, objectives: 2, constraints: 12, track: null, config };
    const run = await runFakeSaikoro({ command: probe('attributes'), cwd: root, n: 12, budget: 5, firstLine: JSON.stringify({ protocol: 1, problem, budget: { evaluations: null }, seed: 4 }) });
    expect(run.code, run.stderr).toBe(0);
    expect(reports(run)[0]).toEqual({ n: 12, lower: 1, upper: 6, objectives: 2, constraints: 12, budget: null, remaining: null, seed: 4, track: null, config, blind: false });
  });

  it('raises Stopped with the cut batch\'s results at the budget, and again on every later call', async () => {
    const run = await runFakeSaikoro({ command: probe('until-stop', '7'), cwd: root, n: 20, budget: 30 });
    expect(run.code).toBe(0);
    expect(run.terminated).toBe(false);
    // 30 = 4 batches of 7 + 2 of the fifth; nothing is asked after the stop.
    expect(run.requests.map((b) => b.length)).toEqual([7, 7, 7, 7, 7]);
    expect(run.evaluations).toBe(30);
    expect(reports(run)).toEqual([{ again: 'budget', reason: 'budget', partial: 2, evaluated: 30, remaining: 0, stopped: 'budget', sizes: [7, 7, 7, 7] }]);
  });

  it('ends cleanly on a cancel and when Saikoro closes stdin without answering', async () => {
    const cancelled = await runFakeSaikoro({ command: probe('until-stop', '5'), cwd: root, n: 20, budget: 1000, cancelAtRequest: 3 });
    expect(cancelled.code).toBe(0);
    expect(reports(cancelled)).toEqual([{ again: 'cancelled', reason: 'cancelled', partial: 0, evaluated: 10, remaining: 990, stopped: 'cancelled', sizes: [5, 5] }]);
    const closed = await runFakeSaikoro({ command: probe('until-stop', '5'), cwd: root, n: 20, budget: 1000, closeAtRequest: 2 });
    expect(closed.code).toBe(0);
    expect(reports(closed)).toEqual([{ again: 'closed', reason: 'closed', partial: 0, evaluated: 5, remaining: 995, stopped: 'closed', sizes: [5] }]);
  });

  it('refuses an int list holding a non-face before sending it, and a first line of another protocol version', async () => {
    const bad = await runFakeSaikoro({ command: probe('bad-list'), cwd: root, n: 12, budget: 5 });
    expect(bad.requests).toEqual([]);
    expect(reports(bad)).toEqual([{ error: 'sequence 0, position 11: 7 is not a die face 1-6' }]);
    const other = await runFakeSaikoro({ command: probe('attributes'), cwd: root, budget: 5, firstLine: JSON.stringify({ protocol: 2, problem: {}, budget: {}, seed: 1 }) });
    expect(other.code).toBe(1);
    expect(other.stderr).toContain('ProtocolError: this client speaks protocol 1; Saikoro sent protocol 2');
    const none = await runFakeSaikoro({ command: probe('attributes'), cwd: root, budget: 5, firstLine: 'hello' });
    expect(none.stderr).toContain("ProtocolError: Saikoro's first line is not JSON: b'hello\\n'");
  });
});

deap.describe('examples/solvers/deap_ga.py (DEAP)', () => {
  const deapGa = (...args: string[]) => [PYTHON, 'examples/solvers/deap_ga.py', ...args];

  it('spends exactly the budget in whole-population batches of valid sequences and improves on its first population', async () => {
    const run = await runFakeSaikoro({ command: deapGa('--pop', '40', '--log-every', '5'), cwd: root, n: 50, budget: 1500, seed: 7 });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.otherLines).toEqual([]);
    expectValidRequests(run, 50);
    expect(run.requests.every((b) => b.length === 40)).toBe(true);
    expect(run.requests.length).toBe(Math.ceil(1500 / 40));
    expect(run.evaluations).toBe(1500);
    expect(run.logs[0]).toBe('DEAP GA: n = 50, 1 objective(s), 12 constraint(s), budget 1500, mu = 40, seed 7');
    expect(run.logs.at(-1)).toBe('stopped (budget) after 1500 evaluations');
    expect(run.logs.some((l) => /^generation 5: best /.test(l))).toBe(true);
    // Selection works: the best of the run beats the best of the random first population.
    const evaluator = new DiceEvaluator(diceConfig({ track: 'so', n: 50 }));
    const score = (x: string) => {
      const e = evaluator.evaluate(x);
      return e.constraints.reduce((a, b) => a + b, 0) * 1e6 + e.objectives[0];
    };
    const bestOf = (xs: unknown[]) => Math.min(...xs.map((x) => score(x as string)));
    expect(bestOf(run.requests.flat())).toBeLessThan(bestOf(run.requests[0]));
  });

  it('is a function of its seed: the same seed sends the same requests, another seed others', async () => {
    const runs = await Promise.all([3, 3, 4].map((seed) => runFakeSaikoro({ command: deapGa('--pop', '10'), cwd: root, n: 30, budget: 200, seed })));
    expect(runs[0].requests).toEqual(runs[1].requests);
    expect(runs[0].requests).not.toEqual(runs[2].requests);
  });

  it('runs several objectives (feasibility, violation, then non-domination rank and crowding) and blind', async () => {
    const run = await runFakeSaikoro({ command: deapGa('--pop', '20'), cwd: root, track: 'mo3', n: 40, budget: 300, blind: true, seed: 11 });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expectValidRequests(run, 40);
    expect(run.evaluations).toBe(300);
    expect(run.logs[0]).toContain('3 objective(s)');
  });
});

describe('examples/solvers/random_search.mjs (plain Node)', () => {
  const node = process.execPath;

  it('spends the budget in batches of valid sequences, seeded, and logs its best', async () => {
    const command = [node, 'examples/solvers/random_search.mjs', '--batch', '64'];
    const [a, b] = await Promise.all([0, 1].map(() => runFakeSaikoro({ command, cwd: root, n: 60, budget: 500, seed: 5 })));
    expect(a.code).toBe(0);
    expect(a.stderr).toBe('');
    expectValidRequests(a, 60);
    expect(a.requests.map((r) => r.length)).toEqual([64, 64, 64, 64, 64, 64, 64, 64]);
    expect(a.evaluations).toBe(500);
    expect(b.requests).toEqual(a.requests);
    // Its log names the best it saw; Saikoro's own count of the same requests agrees.
    const evaluator = new DiceEvaluator(diceConfig({ track: 'so', n: 60 }));
    const seen = a.requests.flat().slice(0, 500) as string[];
    const feasible = seen.map((x) => evaluator.evaluate(x)).filter((e) => e.feasible);
    expect(a.logs.at(-1)).toBe(`stopped (budget) after 500 evaluations; ${feasible.length ? `best feasible f = ${Math.min(...feasible.map((e) => e.objectives[0]))}` : 'nothing feasible'}`);
  });
});

// pymoo is not in Debian and CI has no PyPI: this runs only where `python3 -c "import pymoo"`
// works (docs/external-solvers.md says so).
const pymooPython = (() => {
  for (const candidate of ['python3', PYTHON]) {
    try {
      execFileSync(candidate, ['-c', 'import pymoo.algorithms.moo.nsga2'], { stdio: 'ignore' });
      return candidate;
    } catch {
      // not importable with this interpreter
    }
  }
  console.warn('SKIPPED: pymoo is not installed (pip install pymoo); examples/solvers/pymoo_nsga2.py is not tested here');
  return null;
})();

describe.skipIf(!pymooPython)('examples/solvers/pymoo_nsga2.py (pymoo, where installed)', () => {
  it('runs NSGA-II through the adapter on one and on three objectives', async () => {
    for (const [track, budget] of [['so', 400], ['mo3', 300]] as const) {
      const run = await runFakeSaikoro({ command: [pymooPython!, 'examples/solvers/pymoo_nsga2.py', '--pop', '20'], cwd: root, track, n: 30, budget, seed: 9 });
      expect(run.code, run.stderr).toBe(0);
      expectValidRequests(run, 30);
      expect(run.evaluations).toBe(budget);
      expect(run.logs.at(-1)).toBe(`stopped (budget) after ${budget} evaluations`);
    }
  });
});
