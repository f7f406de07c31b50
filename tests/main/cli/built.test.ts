// The built CLI (out/cli, what `saikoro` runs) against the TypeScript sources (what every other
// test runs in-process): the same output on the reference evaluator's golden cases, through
// `eval` (all 718 in one batch) and `rngbias` (one call per case, as harnesses do). And the build
// keeps its promise of a light start: the code `--help` and `rngbias` load holds no heavy package.
import { execFile } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './io.ts';
import { commands } from '../../../src-main/cli/commands/registry.ts';
import { closeConstraint, closeValue, goldenCases } from '../../shared/problems/dice/golden.ts';
import { buildWindowTable } from '../../../src-shared/problems/dice/features.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const BIN = join(ROOT, 'bin', 'saikoro.mjs');
const OUT = join(ROOT, 'out', 'cli');
const SAMPLE = '31552264665432613134314646226624645162511461153216'; // the reference's rand50.json

/** Runs the built CLI as a user would (bin/saikoro.mjs, which rebuilds out/cli if stale). */
function runBuilt(args: string[], stdin: string, env: NodeJS.ProcessEnv = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      [BIN, ...args],
      { env: { PATH: process.env.PATH, ...env }, cwd: dirname(ROOT), maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') reject(error);
        else resolve({ code: error ? (error.code as number) : 0, stdout, stderr });
      },
    );
    child.stdin!.end(stdin);
  });
}

describe('the built CLI gives the sources’ output', () => {
  it('eval: all the golden cases, line for line', async () => {
    const input = goldenCases.map((c) => JSON.stringify({ id: c.id, x: c.x, config: c.config })).join('\n') + '\n';
    const [built, source] = await Promise.all([runBuilt(['eval'], input), runCli(['eval'], { stdin: input })]);
    expect(built.stderr).toBe('');
    expect(built.code).toBe(0);
    expect(built.stdout).toBe(source.stdout);
    const lines = built.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.length).toBe(goldenCases.length);
    goldenCases.forEach((c, i) => {
      expect(lines[i].id).toBe(c.id);
      c.objectives.forEach((ref, m) => expect(closeValue(lines[i].objectives[m], ref), c.id).toBe(true));
      c.constraints.forEach((ref, l) => expect(closeConstraint(lines[i].constraints[l], ref, c.config.constraints[l]), c.id).toBe(true));
    });
  }, 300_000);

  it('rngbias: the sample (76.8) and golden cases given through RNGBIAS_* variables', async () => {
    const built = await runBuilt(['rngbias'], JSON.stringify(SAMPLE));
    expect(JSON.parse(built.stdout)).toEqual({ objective: 76.8, constraint: new Array(12).fill(0), error: null });
    const sample = goldenCases.filter((c) => c.x.length <= 2000).filter((_, i) => i % 97 === 0);
    expect(sample.length).toBeGreaterThan(5);
    for (const c of sample) {
      const k = c.config;
      const env = {
        RNGBIAS_VARIABLES: String(c.x.length),
        RNGBIAS_OBJECTIVES: JSON.stringify(k.objectives),
        RNGBIAS_CONSTRAINTS: JSON.stringify(k.constraints),
        RNGBIAS_LOWER_BOUNDS: JSON.stringify(k.lowerBounds),
        RNGBIAS_UPPER_BOUNDS: JSON.stringify(k.upperBounds),
        RNGBIAS_BIAS_ALPHA: JSON.stringify(k.alpha),
        RNGBIAS_BIAS_BETA: JSON.stringify(k.beta),
        RNGBIAS_BIAS_GAMMA: JSON.stringify(k.gamma),
      };
      const [b, s] = await Promise.all([
        runBuilt(['rngbias'], JSON.stringify(c.x), env),
        runCli(['rngbias'], { stdin: JSON.stringify(c.x), env, cwd: dirname(ROOT) }),
      ]);
      expect([b.code, b.stdout, b.stderr], c.id).toEqual([s.code, s.stdout, s.stderr]);
      const out = JSON.parse(b.stdout);
      [out.objective].flat().forEach((v: number, m: number) => expect(closeValue(v, c.objectives[m]), c.id).toBe(true));
    }
  }, 300_000);

  it('bad input: the same message and exit status', async () => {
    const [b, s] = await Promise.all([
      runBuilt(['rngbias'], '"3155226466543261313431464622662464516251146115321X"'),
      runCli(['rngbias'], { stdin: '"3155226466543261313431464622662464516251146115321X"', cwd: dirname(ROOT) }),
    ]);
    expect(b.code).toBe(1);
    expect([b.code, b.stdout, b.stderr]).toEqual([s.code, s.stdout, s.stderr]);
    const [bh, sh] = await Promise.all([runBuilt(['--help'], ''), runCli(['--help'])]);
    expect(bh.stdout).toBe(sh.stdout);
    expect(bh.stdout).toMatch(/^ {2}rngbias +Drop-in/m);
  }, 300_000);
});

/** The files and packages a built file imports statically (`import ... from`), not through import(). */
function staticImports(file: string): string[] {
  const text = readFileSync(join(OUT, file), 'utf8');
  return [...text.matchAll(/^\s*(?:import|export)\s*(?:[^'"();]*?\s*from\s*)?["']([^"']+)["'];?\s*$/gm)].map((m) => m[1]);
}

/** Every module loaded with `file`, following static imports through the build's chunks. */
function staticClosure(file: string): Set<string> {
  const seen = new Set<string>();
  const visit = (f: string) => {
    if (seen.has(f)) return;
    seen.add(f);
    for (const spec of staticImports(f)) {
      if (spec.startsWith('./')) visit(spec.slice(2));
      else seen.add(spec);
    }
  };
  visit(file);
  return seen;
}

describe('what a light command loads', () => {
  const HEAVY = ['echarts', 'yaml', 'playwright-core', 'vite', 'node-sqlite3-wasm', 'ws', 'jstat', 'esbuild', 'tsx'];
  const chunkOf = (command: string) => {
    const registry = readFileSync(join(OUT, 'index.js'), 'utf8');
    const match = new RegExp(`import\\("\\./(${command}-[A-Z0-9]+\\.js)"\\)`).exec(registry);
    expect(match, `index.js imports the ${command} chunk lazily`).not.toBeNull();
    return match![1];
  };

  it('--help (index.js) loads no npm package and no command', () => {
    const loaded = [...staticClosure('index.js')];
    expect(loaded.filter((m) => !m.startsWith('node:') && !m.endsWith('.js'))).toEqual([]);
    expect(loaded.filter((m) => /^(rngbias|eval|report|serve|solve|experiment)-/.test(m))).toEqual([]);
  });

  it("a command's help loads no npm package and a few kB (it never loads the command: tests/main/cli/help.test.ts)", () => {
    for (const { name } of commands) {
      const loaded = [...staticClosure(chunkOf(`${name}.help`))];
      expect(
        loaded.filter((m) => !m.startsWith('node:') && !m.endsWith('.js')),
        name,
      ).toEqual([]);
      const bytes = loaded.filter((m) => m.endsWith('.js')).reduce((sum, m) => sum + statSync(join(OUT, m)).size, 0);
      expect(bytes, name).toBeLessThan(64 * 1024);
    }
  });

  it('rngbias and eval load none of the heavy packages (YAML only for a config file, through import())', () => {
    for (const command of ['rngbias', 'eval']) {
      const loaded = [...staticClosure(chunkOf(command))];
      expect(
        loaded.filter((m) => HEAVY.includes(m)),
        command,
      ).toEqual([]);
    }
    // Its YAML comes through import(): the chunk it loads that way does import yaml.
    const lazy = [...readFileSync(join(OUT, chunkOf('rngbias')), 'utf8').matchAll(/import\("\.\/([^"]+)"\)/g)].map((m) => m[1]);
    expect(lazy.some((chunk) => staticClosure(chunk).has('yaml'))).toBe(true);
  });

  it("rngbias finds the evaluator's window table in the bundle, as the sources build it (no table built at start)", () => {
    const tableText = /"(\[[\d,]*\])"/;
    const holders = [...staticClosure(chunkOf('rngbias'))].filter((m) => m.endsWith('.js') && tableText.test(readFileSync(join(OUT, m), 'utf8')));
    expect(holders).toHaveLength(1);
    const built = Uint32Array.from(JSON.parse(tableText.exec(readFileSync(join(OUT, holders[0]), 'utf8'))![1]) as number[]);
    const table = buildWindowTable();
    expect(built.length).toBe(table.length);
    expect(built).toEqual(table);
    // In the evaluator's chunk: not in one that --help loads.
    expect([...staticClosure('index.js')]).not.toContain(holders[0]);
  });

  it('report loads ECharts (the check sees a package when there is one)', () => {
    expect([...staticClosure(chunkOf('report'))]).toContain('echarts');
  });
});
