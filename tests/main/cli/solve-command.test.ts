// `saikoro solve --command`: any program speaking the external-solver protocol as the solver,
// run in a worker process like a built-in one (tests/fixtures/external/fake-solver.mjs).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BWRAP_VARIABLE, SHARE_VARIABLE } from '../../../src-main/host/sandbox.ts';
import { runCli } from './io.ts';
import { trackConfig } from '../../../src-shared/problems/dice/config.ts';
import { evaluateDice } from '../../../src-shared/problems/dice/evaluate.ts';
import { splitCommandLine } from '../../../src-shared/solvers/program/command-line.ts';

const FAKE = join(import.meta.dirname, '../../fixtures/external/fake-solver.mjs');
const dir = mkdtempSync(join(tmpdir(), 'saikoro-solve-command-'));
// Where the programs record what they receive: a folder every sandboxed program may write
// (sandbox.ts); what a program writes in its own folder stays in its copy.
const records = mkdtempSync(join(tmpdir(), 'saikoro-solve-command-records-'));
process.env[SHARE_VARIABLE] = records;
afterAll(() => delete process.env[SHARE_VARIABLE]);
const quoted = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const command = (...args: string[]) => [process.execPath, FAKE, ...args].map(quoted).join(' ');

describe('saikoro solve --command', () => {
  it('runs the program as the solver: the printed best is the full evaluation, the budget exact, the program recorded in --out', async () => {
    const out = join(dir, 'result.json');
    const record = join(records, 'record.jsonl');
    const run = await runCli(
      [
        'solve',
        '--track',
        'so',
        '--n',
        '50',
        '--evals',
        '95',
        '--seed',
        '4',
        '--whole-budget',
        '--json',
        '--out',
        out,
        '--name',
        'my-search',
        '--env',
        `FAKE_SOLVER_RECORD=${record}`,
        '--command',
        command('random', '10'),
      ],
      { cwd: dir },
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const r = JSON.parse(run.stdout);
    expect(r).toMatchObject({ solver: 'my-search', track: 'so', n: 50, seed: 4, evaluations: 95, front: [] });
    const full = evaluateDice(r.best.x, trackConfig('so', 50));
    expect(r.best).toEqual({ x: r.best.x, objectives: full.objectives, constraints: full.constraints, feasible: full.feasible });
    const seen = readFileSync(record, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(seen[0]).toMatchObject({ protocol: 1, seed: 4, budget: { evaluations: 95 }, problem: { n: 50, track: 'so' } });
    const answers = seen.filter((m) => m.results);
    expect(answers.reduce((s, a) => s + a.results.length, 0)).toBe(95);
    expect(answers[answers.length - 1]).toMatchObject({ remaining: 0, stop: 'budget' });
    const file = JSON.parse(readFileSync(out, 'utf8'));
    expect(file.program).toMatchObject({
      command: [process.execPath, FAKE, 'random', '10'],
      cwd: dir,
      blind: false,
      exit: { code: 0, signal: null, how: 'exited' },
    });
    expect(file.params).toEqual({});
  });

  it('--blind leaves config and track out of the first line', async () => {
    const record = join(records, 'blind.jsonl');
    const run = await runCli(
      [
        'solve',
        '--track',
        'mo2',
        '--n',
        '30',
        '--evals',
        '20',
        '--seed',
        '1',
        '--blind',
        '--env',
        `FAKE_SOLVER_RECORD=${record}`,
        '--command',
        command('random', '10'),
      ],
      { cwd: dir },
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('(program: ');
    expect(run.stdout).toContain(', blind)');
    const hello = JSON.parse(readFileSync(record, 'utf8').split('\n')[0]);
    expect(hello).toEqual({ protocol: 1, problem: { n: 30, lower: 1, upper: 6, objectives: 2, constraints: 12 }, budget: { evaluations: 20 }, seed: 1 });
  });

  it('without bubblewrap the program still runs, and the command warns that it is not sandboxed', async () => {
    const saved = process.env[BWRAP_VARIABLE];
    process.env[BWRAP_VARIABLE] = 'none';
    try {
      const run = await runCli(
        ['solve', '--track', 'so', '--n', '30', '--evals', '20', '--seed', '1', '--whole-budget', '--json', '--command', command('random', '10')],
        { cwd: dir },
      );
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toBe(
        `warning: solver programs run without a sandbox here: bubblewrap is switched off (${BWRAP_VARIABLE}=none); a program can read and write what you can and reach the network, and only its process group is killed at the end of its run (docs/external-solvers.md, "The sandbox")\n`,
      );
      expect(JSON.parse(run.stdout).evaluations).toBe(20);
    } finally {
      if (saved === undefined) delete process.env[BWRAP_VARIABLE];
      else process.env[BWRAP_VARIABLE] = saved;
    }
  });

  it('--cwd at a file is refused before anything starts, naming it (not "spawn ENOTDIR")', async () => {
    const file = join(dir, 'not-a-folder.txt');
    writeFileSync(file, 'x');
    const run = await runCli(['solve', '--track', 'so', '--n', '50', '--evals', '10', '--seed', '1', '--cwd', file, '--command', command('random', '10')], {
      cwd: dir,
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`saikoro solve: --cwd: the solver fake-solver's working directory ${file} is not a folder\n`);
  });

  it('a program that fails fails the run with its reason and exit 1', async () => {
    const run = await runCli(['solve', '--track', 'so', '--n', '50', '--evals', '100', '--seed', '1', '--command', command('notjson')], { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`saikoro solve: the run failed: the program's line 2 is not JSON: "generation 1: best 12.5"\n`);
  });

  it.each([
    [['--command', "node 'unterminated"], "--command: unterminated ' (single quote) at character 6"],
    [['--command', 'node x.js', '--solver', 'ga'], '--solver and --command both name the solver: give one of them'],
    [['--command', 'node x.js', '--param', 'a=1'], "--param sets a built-in solver's parameters; a program takes its options in --command"],
    [['--blind'], '--blind applies to a program solver: give --command too'],
    [['--command', 'node x.js', '--env', 'NOEQUALS'], '--env: expected NAME=VALUE, got "NOEQUALS"'],
    [['--command', 'node x.js', '--env', '1X=2'], '--env: is not a valid environment variable name (letters, digits, _; not starting with a digit)'],
    [['--command', 'node x.js', '--grace', '0'], '--grace: must be at least 0.001, got 0'],
    [['--command', 'node x.js', '--name=-bad'], '--name: must be 1-64 characters of letters, digits, . _ + - (starting with a letter or digit), got "-bad"'],
  ])('refuses %j with exit 2, naming the option', async (args, message) => {
    const run = await runCli(['solve', '--track', 'so', '--n', '50', '--evals', '100', '--seed', '1', ...args], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr.split('\n')[0]).toBe(`saikoro solve: ${message}`);
  });
});

describe('splitCommandLine', () => {
  it.each([
    ['python3 my_ga.py --pop 100', ['python3', 'my_ga.py', '--pop', '100']],
    ['  a  \'b c\'  "d \\" e" f\\ g ', ['a', 'b c', 'd " e', 'f g']],
    ['python3 -c \'print("$HOME")\'', ['python3', '-c', 'print("$HOME")']],
    ['a "" b', ['a', '', 'b']],
  ])('%j -> %j', (text, argv) => {
    expect(splitCommandLine(text)).toEqual(argv);
  });
  it('refuses an empty command', () => {
    expect(() => splitCommandLine('   ')).toThrow('the command is empty');
  });
});
