// JSON nested thousands deep, through every way it reaches the CLI: a clear error, exit 1,
// never "RangeError: Maximum call stack size exceeded".
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from './io.ts';

const deep = (depth: number) => '['.repeat(depth) + '1' + ']'.repeat(depth);
const D = deep(6000);
const X = '"3155"';

let cwd: string;
beforeEach(() => {
  cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-deep-'));
});
afterEach(() => {
  fs.rmSync(cwd, { recursive: true, force: true });
});

describe('saikoro rngbias with JSON 6,000 deep', () => {
  it.each([
    ['-s', ['-x', '4', '-s', D], {}, 'option: --constraints nested deeper than 64 levels: "[[[['],
    ['-o', ['-x', '4', '-o', D], {}, 'option: --objectives nested deeper than 64 levels'],
    ['RNGBIAS_CONSTRAINTS', ['-x', '4'], { RNGBIAS_CONSTRAINTS: D }, 'environment RNGBIAS_CONSTRAINTS: --constraints nested deeper than 64 levels'],
    ['RNGBIAS_OBJECTIVES', ['-x', '4'], { RNGBIAS_OBJECTIVES: D }, 'environment RNGBIAS_OBJECTIVES: --objectives nested deeper than 64 levels'],
  ])('%s: an error line, exit 1', async (_, argv, env, message) => {
    const r = await runCli(['rngbias', ...argv], { stdin: X, env, cwd });
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ objective: null, constraint: null });
    expect(out.error).toContain(message);
    expect(out.error.length).toBeLessThan(200);
  });

  it('in the YAML config file', async () => {
    fs.writeFileSync(path.join(cwd, 'config.yml'), `variables: 4\nobjectives: ${'['.repeat(200)}1${']'.repeat(200)}\n`);
    const r = await runCli(['rngbias'], { stdin: X, cwd });
    expect(r.code).toBe(1);
    // Refused as the file is read (tests/main/cli/deep-yaml.test.ts), before any key is looked at.
    expect(JSON.parse(r.stdout).error).toBe(`config file ${path.join(cwd, 'config.yml')}: nested deeper than 64 levels`);
  });

  it('as the input itself', async () => {
    const r = await runCli(['rngbias', '-x', '4'], { stdin: D, cwd });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).error).toBe('input is nested deeper than 64 levels');
  });
});

describe('saikoro experiment add with a spec 6,000 deep', () => {
  it('refuses config.objectives with the file named, and stores nothing', async () => {
    await runCli(['project', 'new', 'p.saikoro'], { cwd });
    const spec = `{"name": "deep", "instances": [{"name": "a", "track": "so", "n": 20, "config": {"objectives": ${D}}}], "solvers": [{"name": "random"}], "seeds": [1], "budget": {"evaluations": 10}}`;
    fs.writeFileSync(path.join(cwd, 'spec.json'), spec);
    const r = await runCli(['experiment', 'add', 'p.saikoro', '--spec', 'spec.json'], { cwd });
    expect(r).toMatchObject({ code: 1, stderr: 'saikoro experiment: spec.json: nested deeper than 64 levels\n' });
    const shallow = spec.replace(D, deep(40));
    fs.writeFileSync(path.join(cwd, 'spec.json'), shallow);
    const r2 = await runCli(['experiment', 'add', 'p.saikoro', '--spec', 'spec.json'], { cwd });
    expect(r2.code).toBe(1);
    expect(r2.stderr).toMatch(/^saikoro experiment: spec\.json: instances\[0\]\.config\.objectives\[0\]\[0\]: must be a feature index from 1 to 15, got \[/);
  });
});
