// YAML nested 100,000 deep, in both YAML files the CLI reads (rngbias's config.yml, solve's
// --config x.yaml), and in every shape YAML nests (flow brackets, block sequences and maps,
// compact "- - -"): "nested deeper than 64 levels", as for JSON, never "Maximum call stack size
// exceeded" (the yaml package's composer recurses) nor an out-of-memory abort.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseYamlSafe, YamlInputError, yamlDepth } from '../../../src-main/cli/yaml.ts';
import { runCli } from './io.ts';

const DEEP = 100_000;
const flow = (depth: number) => '['.repeat(depth) + '1' + ']'.repeat(depth);
const flowMaps = (depth: number) => '{a: '.repeat(depth) + '1' + '}'.repeat(depth);
const compactSeq = (depth: number) => '- '.repeat(depth) + '1';
const blockSeq = (depth: number) => Array.from({ length: depth }, (_, i) => ' '.repeat(2 * i) + '-').join('\n') + ' 1';
const blockMap = (depth: number) => Array.from({ length: depth }, (_, i) => ' '.repeat(i) + 'a:').join('\n') + ' 1';

describe('yamlDepth (counted on the concrete syntax tree, without recursion)', () => {
  it('counts collections the way the parsed value nests', () => {
    expect(yamlDepth('1')).toBe(0);
    expect(yamlDepth('a: 1')).toBe(1);
    expect(yamlDepth('a: [1, {b: 2}]')).toBe(3);
    expect(yamlDepth(flow(7))).toBe(7);
    expect(yamlDepth(flowMaps(5))).toBe(5);
    expect(yamlDepth(compactSeq(9))).toBe(9);
    expect(yamlDepth(blockSeq(6))).toBe(6);
    expect(yamlDepth(blockMap(4))).toBe(4);
    expect(yamlDepth('x: "[[[[["\ny: \'{{{\'\n# [[[[\n')).toBe(1);
  });

  it('parses what is 64 deep, refuses 65 and 100,000 in every shape', () => {
    for (const make of [flow, flowMaps, compactSeq, blockSeq, blockMap]) {
      expect(() => parseYamlSafe(make(64))).not.toThrow();
      expect(() => parseYamlSafe(make(65))).toThrow(new YamlInputError('nested deeper than 64 levels'));
    }
    for (const make of [flow, flowMaps, compactSeq]) expect(() => parseYamlSafe(make(DEEP))).toThrow(new YamlInputError('nested deeper than 64 levels'));
    // Block nesting needs an indentation per level: 1,000 levels is already a megabyte of spaces.
    for (const make of [blockSeq, blockMap]) expect(() => parseYamlSafe(make(1000))).toThrow(new YamlInputError('nested deeper than 64 levels'));
  });

  it('gives the parsed value and says where a syntax error is', () => {
    expect(parseYamlSafe('a: [1, {b: 2}]\nc: x\n')).toEqual({ a: [1, { b: 2 }], c: 'x' });
    expect(() => parseYamlSafe('a: [1, 2\n')).toThrow(/not valid YAML at line \d+, column \d+/);
  });
});

let cwd: string;
beforeEach(() => {
  cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-deep-yaml-'));
});
afterEach(() => {
  fs.rmSync(cwd, { recursive: true, force: true });
});

describe('YAML files 100,000 deep through the CLI', () => {
  it('rngbias config.yml: an error line naming the file, exit 1', async () => {
    for (const text of [`variables: 4\nobjectives: ${flow(DEEP)}\n`, `variables: 4\nobjectives:\n${compactSeq(DEEP)}\n`]) {
      fs.writeFileSync(path.join(cwd, 'config.yml'), text);
      const r = await runCli(['rngbias'], { stdin: '"3155"', cwd });
      expect(r.code).toBe(1);
      expect(JSON.parse(r.stdout).error).toBe(`config file ${path.join(cwd, 'config.yml')}: nested deeper than 64 levels`);
    }
  });

  it('solve --config deep.yaml: the file named, exit 1, no stack trace', async () => {
    fs.writeFileSync(path.join(cwd, 'deep.yaml'), `objectives: ${flow(DEEP)}\n`);
    const r = await runCli(['solve', '--n', '20', '--config', 'deep.yaml', '--evals', '10', '--seed', '1'], { cwd });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('saikoro solve: config file deep.yaml: nested deeper than 64 levels\n');
  });
});
