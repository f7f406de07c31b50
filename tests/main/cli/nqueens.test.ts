import { describe, expect, it } from 'vitest';
import { runCli } from './io.ts';
import { verifySolution } from '../../../src-shared/problems/nqueens/verify.ts';

describe('saikoro nqueens', () => {
  it('solves N = 8 with the network and draws the verified board', async () => {
    const r = await runCli(['nqueens', '--n', '8', '--seed', '3']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Solved N = 8 with neural \(seed 3\) in \d+ steps, [\d.]+ s; verified\./);
    const rows = r.stdout.split('\n').filter((l) => /^[.Q]( [.Q]){7}$/.test(l));
    expect(rows).toHaveLength(8);
    const queens = rows.map((l) => l.split(' ').indexOf('Q'));
    expect(rows.every((l) => l.split('Q').length === 2)).toBe(true);
    expect(verifySolution(queens)).toBe(true);
    expect(r.stdout).toContain(`queens (column per row, 0-based): ${queens.join(' ')}`);
  });

  it('prints the JSON contract for both methods, the same for the same seed', async () => {
    for (const method of ['neural', 'minconflicts']) {
      const r = await runCli(['nqueens', '--n', '20', '--method', method, '--seed', '5', '--json']);
      expect(r.code).toBe(0);
      const o = JSON.parse(r.stdout);
      expect(Object.keys(o).slice(0, 6)).toEqual(['n', 'method', 'solved', 'steps', 'seconds', 'queens']);
      expect(o).toMatchObject({ n: 20, method, solved: true });
      expect(verifySolution(o.queens)).toBe(true);
      expect(o.seconds).toBeGreaterThanOrEqual(0);
      const again = JSON.parse((await runCli(['nqueens', '--n', '20', '--method', method, '--seed', '5', '--json'])).stdout);
      expect(again.queens).toEqual(o.queens);
      expect(again.steps).toBe(o.steps);
    }
  });

  it('passes the network parameters through', async () => {
    const r = await runCli([
      'nqueens',
      '--n',
      '15',
      '--preset',
      'slides',
      '--A',
      '0.6',
      '--B',
      '0.7',
      '--kick',
      '5',
      '--kick-every',
      '40',
      '--kick-length',
      '2',
      '--json',
      '--max-steps',
      '30',
    ]);
    const o = JSON.parse(r.stdout);
    expect(o.params).toMatchObject({ A: 0.6, B: 0.7, C: 1, kick: { value: 5, every: 40, length: 2 }, update: 'sync', clamp: 0, maxSteps: 30 });
  });

  it('reports an unsolved run with its step count and failure mode, exit 1', async () => {
    // Synchronous updates with bounded U and no kicks lock into a loop at N = 10 (seed 1).
    const r = await runCli(['nqueens', '--n', '10', '--update', 'sync', '--kick-every', '0', '--max-steps', '50']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /^Not solved: N = 10 with neural \(seed 1\) stopped at the step limit after 50 steps, [\d.]+ s; failure mode: (loop|oscillation|stall)\./,
    );
    const j = await runCli(['nqueens', '--n', '10', '--update', 'sync', '--kick-every', '0', '--max-steps', '50', '--json']);
    expect(j.code).toBe(1);
    expect(JSON.parse(j.stdout)).toMatchObject({ solved: false, steps: 50, queens: null });
  });

  it('rejects bad usage with exit 2 and a message naming the option', async () => {
    const cases: [string[], RegExp][] = [
      [['nqueens'], /--n is required/],
      [['nqueens', '--n', '3'], /--n: must be an integer >= 4/],
      [['nqueens', '--n', '3', '--method', 'minconflicts'], /--n: N = 3 has no solution/],
      [['nqueens', '--n', 'eight'], /--n: expected a number, got "eight"/],
      [['nqueens', '--n', '8', '--method', 'annealing'], /--method: expected "neural" or "minconflicts"/],
      [['nqueens', '--n', '8', '--samples', '4'], /--samples does not apply to --method neural/],
      [['nqueens', '--n', '8', '--method', 'minconflicts', '--A', '1'], /--A does not apply to --method minconflicts/],
      [['nqueens', '--n', '8', '--A=-1'], /--A: must be a positive number/],
      [['nqueens', '--n', '8', '--kick-every', '5', '--kick-length', '5'], /--kick-length: must be less than/],
      [['nqueens', '--n', '8', '--update', 'async'], /--update: expected "sync" or "seq"/],
      [['nqueens', '--n', '8', '--seed', '1.5'], /--seed: expected an integer/],
      [['nqueens', '--n', '8', '--bogus'], /Unknown option '--bogus'/],
    ];
    for (const [argv, message] of cases) {
      const r = await runCli(argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stdout).toBe('');
    }
  });

  it('has --help', async () => {
    const r = await runCli(['nqueens', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('--method M          neural (default) or minconflicts');
  });
});

describe('bench nqueens --quick', () => {
  it('measures both methods and reports every run, failures with their mode', async () => {
    const { nqueensBench } = await import('../../../src-main/bench/nqueens.ts');
    const report = await nqueensBench.run({ quick: true, progress: () => {} });
    const [lab, slides, mc] = report.tables;
    expect(lab.rows.map((r) => r[0])).toEqual([8, 16, 32]);
    expect(lab.rows.every((r) => r[1] === '3/3')).toBe(true);
    // Each slides row accounts for all 3 seeds: solved plus failures by mode.
    for (const r of slides.rows) {
      const solved = Number(String(r[1]).split('/')[0]);
      const failed =
        String(r[6]) === '-'
          ? 0
          : String(r[6])
              .split(', ')
              .reduce((s, part) => s + Number(part.split(' ')[0]), 0);
      expect(solved + failed).toBe(3);
      expect(String(r[6])).toMatch(/^(-|(\d+ (loop|oscillation|stall|wander)(, )?)+)$/);
    }
    expect(mc.rows.map((r) => [r[0], r[1]])).toEqual([
      [10_000, '2/2'],
      [100_000, '2/2'],
    ]);
  }, 60_000);
});
