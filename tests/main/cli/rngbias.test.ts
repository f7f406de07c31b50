import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './io.ts';
import { goldenCases } from '../../shared/problems/dice/golden.ts';
import { closeConstraint, closeValue } from '../../shared/problems/dice/golden.ts';

const SAMPLE = '31552264665432613134314646226624645162511461153216'; // the reference's rand50.json

const emptyDir = () => mkdtempSync(join(tmpdir(), 'saikoro-rngbias-'));
const rngbias = (args: string[], stdin: string, env: NodeJS.ProcessEnv = {}, cwd = emptyDir()) => runCli(['rngbias', ...args], { stdin, env, cwd });

describe('saikoro rngbias (drop-in for rngbias.py)', () => {
  it('gives the reference sample objective 76.8 and twelve zero constraints', async () => {
    const run = await rngbias([], JSON.stringify(SAMPLE) + '\n');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ objective: 76.8, constraint: new Array(12).fill(0), error: null });
  });

  it('matches golden cases given through the command-line options', async () => {
    // One case per track shape and a few with random bands, bounds and constraint subsets.
    const sample = goldenCases.filter((c) => c.x.length <= 2000).filter((_, i) => i % 37 === 0);
    expect(sample.length).toBeGreaterThan(10);
    for (const c of sample) {
      const k = c.config;
      const args = [
        '-x',
        String(c.x.length),
        '-o',
        JSON.stringify(k.objectives),
        '-s',
        JSON.stringify(k.constraints),
        '-l',
        JSON.stringify(k.lowerBounds),
        '-u',
        JSON.stringify(k.upperBounds),
        '-a',
        JSON.stringify(k.alpha),
        '-b',
        JSON.stringify(k.beta),
        '-g',
        JSON.stringify(k.gamma),
      ];
      const run = await rngbias(args, JSON.stringify(c.x));
      expect(run.code, `${c.id}: ${run.stdout}`).toBe(0);
      const out = JSON.parse(run.stdout);
      const objectives = c.objectives.length === 0 ? null : c.objectives.length === 1 ? c.objectives[0] : c.objectives;
      if (objectives === null) expect(out.objective).toBeNull();
      else [objectives].flat().forEach((ref, m) => expect(closeValue([out.objective].flat()[m], ref), c.id).toBe(true));
      if (c.constraints.length === 0) expect(out.constraint).toBeNull();
      else c.constraints.forEach((ref, l) => expect(closeConstraint([out.constraint].flat()[l], ref, k.constraints[l]), c.id).toBe(true));
      if (c.constraints.length === 1) expect(typeof out.constraint).toBe('number');
    }
  });

  it('accepts the long option names', async () => {
    const run = await rngbias(
      [
        '--variables',
        '50',
        '--objectives',
        '[[1,2,3,4,5],[6,7,8,9,10],[11,12,13,14,15]]',
        '--constraints',
        '[1]',
        '--lower-bounds',
        '[0.1]',
        '--upper-bounds',
        '[0.9]',
        '--bias_alpha',
        JSON.stringify(new Array(15).fill(0)),
        '--bias_beta',
        JSON.stringify(new Array(15).fill(1000)),
        '--bias_gamma',
        JSON.stringify(new Array(15).fill(1)),
      ],
      JSON.stringify(SAMPLE),
    );
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ objective: [0, 0, 0], constraint: 0, error: null });
  });

  it('takes the command line over RNGBIAS_* over config.yml over the defaults', async () => {
    const cwd = emptyDir();
    writeFileSync(join(cwd, 'config.yml'), 'objectives: [[1], [2], [3]]\nconstraints: [1, 2]\nlower_bounds: [0.1, 0.1]\nupper_bounds: [0.9, 0.9]\n');
    const fromFile = JSON.parse((await rngbias([], JSON.stringify(SAMPLE), {}, cwd)).stdout);
    expect(fromFile.objective).toHaveLength(3);
    expect(fromFile.constraint).toEqual([0, 0]);
    const fromEnv = JSON.parse((await rngbias([], JSON.stringify(SAMPLE), { RNGBIAS_OBJECTIVES: '[[1],[2]]' }, cwd)).stdout);
    expect(fromEnv.objective).toHaveLength(2);
    expect(fromEnv.constraint).toEqual([0, 0]); // still from the file
    const fromCli = JSON.parse((await rngbias(['-o', '[[1]]'], JSON.stringify(SAMPLE), { RNGBIAS_OBJECTIVES: '[[1],[2]]' }, cwd)).stdout);
    expect(typeof fromCli.objective).toBe('number');
    const envN = await rngbias([], JSON.stringify('123456'), { RNGBIAS_VARIABLES: '6' });
    expect(JSON.parse(envN.stdout).error).toBeNull();
  });

  it('reads an explicit YAML file with --config and refuses a missing one', async () => {
    const cwd = emptyDir();
    writeFileSync(join(cwd, 'mine.yml'), 'variables: 6\n');
    expect(JSON.parse((await rngbias(['--config', 'mine.yml'], '"123456"', {}, cwd)).stdout).error).toBeNull();
    const missing = await rngbias(['-c', 'nope.yml'], '"123456"', {}, cwd);
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.stdout)).toEqual({
      objective: null,
      constraint: null,
      error: `cannot read config file ${join(cwd, 'nope.yml')}: ENOENT: no such file or directory, open '${join(cwd, 'nope.yml')}'`,
    });
  });

  // Each bad input with the exact message the command prints for it.
  const quoted = JSON.stringify(SAMPLE);
  const badInputs: [name: string, args: string[], stdin: string, message: string, env?: NodeJS.ProcessEnv][] = [
    ['wrong length', [], JSON.stringify(SAMPLE.slice(1)), 'the sequence has 49 characters, expected N = 50'],
    ['a character outside 1-6', [], JSON.stringify(SAMPLE.slice(0, 10) + '7' + SAMPLE.slice(11)), 'character "7" at position 11 is not a die face 1-6'],
    ['a JSON list, not a string', [], '[3,1,5]', 'input must be a JSON string of digits 1-6, got a list'],
    ['a JSON number, not a string', [], '3155226', 'input must be a JSON string of digits 1-6, got number'],
    ['a JSON object, not a string', [], '{"x": "3155"}', 'input must be a JSON string of digits 1-6, got object'],
    // Not JSON at all (JSON.parse throws on each of these).
    ['not JSON: single quotes', [], `'${SAMPLE}'`, `input is not valid JSON: ${JSON.stringify(`'${SAMPLE}'`)}`],
    ['not JSON: an unterminated string', [], `"${SAMPLE}\n`, `input is not valid JSON: ${JSON.stringify(`"${SAMPLE}`)}`],
    ['not JSON: a string followed by more text', [], `${quoted} ${quoted}`, `input is not valid JSON: ${JSON.stringify(`${quoted} ${quoted}`.slice(0, 60))}`],
    ['not JSON: bare words', [], 'dice please', 'input is not valid JSON: "dice please"'],
    ['empty input', [], '', 'empty input: expected a JSON string of digits 1-6 on stdin'],
    ['blank input', [], '  \n', 'empty input: expected a JSON string of digits 1-6 on stdin'],
    ['malformed option JSON', ['-o', '[[1,2'], quoted, 'option: --objectives is not valid JSON: "[[1,2"'],
    [
      'malformed JSON in RNGBIAS_OBJECTIVES',
      [],
      quoted,
      'environment RNGBIAS_OBJECTIVES: --objectives is not valid JSON: "[[1],"',
      { RNGBIAS_OBJECTIVES: '[[1],' },
    ],
    ['a list of the wrong length', ['-a', '[1,2,3]'], quoted, '--bias_alpha: alpha: must have 15 entries, got 3'],
    ['bounds not matching the constraints', ['-s', '[1,2]', '-l', '[0.1]'], quoted, '--lower-bounds: lowerBounds: must have 2 entries, got 1'],
    ['a feature index 16', ['-o', '[[16]]'], quoted, '--objectives: objectives[0][0]: must be a feature index from 1 to 15, got 16'],
    ['a non-integer N', ['-x', '2.5'], quoted, 'option: --variables must be a positive integer, got "2.5"'],
  ];
  for (const [name, args, stdin, message, env] of badInputs) {
    it(`reports ${name} as an error object and exits 1`, async () => {
      const run = await rngbias(args, stdin, env);
      expect(run.code).toBe(1);
      expect(JSON.parse(run.stdout)).toEqual({ objective: null, constraint: null, error: message });
    });
  }

  it('treats an unknown option as a usage error (exit 2)', async () => {
    const run = await rngbias(['--nope'], JSON.stringify(SAMPLE));
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/Unknown option '--nope'/);
  });

  it('prints usage with --help', async () => {
    const run = await rngbias(['--help'], '');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/-x, --variables N/);
  });
});
