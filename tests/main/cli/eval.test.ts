import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from './io.ts';
import { closeConstraint, closeValue, goldenCases } from '../../shared/problems/dice/golden.ts';
import { trackConfig } from '../../../src-shared/problems/dice/config.ts';
import { evaluateDice } from '../../../src-shared/problems/dice/evaluate.ts';

const lines = (text: string) =>
  text
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));

describe('saikoro eval', () => {
  it('evaluates golden cases given with their configs, in order, with their ids', async () => {
    const sample = goldenCases.filter((c) => c.x.length <= 3000).slice(0, 120);
    const input = sample.map((c) => JSON.stringify({ id: c.id, x: c.x, config: c.config })).join('\n') + '\n';
    const run = await runCli(['eval'], { stdin: input });
    expect(run.code).toBe(0);
    const out = lines(run.stdout);
    expect(out.map((o) => o.id)).toEqual(sample.map((c) => c.id));
    out.forEach((o, k) => {
      const c = sample[k];
      c.features.forEach((ref, i) => expect(closeValue(o.features[i], ref), `${c.id} F${i + 1}`).toBe(true));
      c.errors.forEach((ref, i) => expect(closeValue(o.errors[i], ref), `${c.id} E${i + 1}`).toBe(true));
      c.objectives.forEach((ref, m) => expect(closeValue(o.objectives[m], ref), `${c.id} f${m + 1}`).toBe(true));
      c.constraints.forEach((ref, l) => expect(closeConstraint(o.constraints[l], ref, c.config.constraints[l]), `${c.id} g`).toBe(true));
      expect(o.chi).toHaveLength(c.constraints.length);
      expect(o.bounds).toHaveLength(c.constraints.length);
      expect(o.feasible).toBe(c.constraints.every((g) => g === 0));
    });
  });

  it('uses the spec defaults for a missing config and gives exactly the evaluation fields', async () => {
    const x = '31552264665432613134314646226624645162511461153216';
    const run = await runCli(['eval'], { stdin: JSON.stringify({ x }) + '\n' });
    const [o] = lines(run.stdout);
    expect(Object.keys(o).sort()).toEqual(['bounds', 'chi', 'constraints', 'errors', 'feasible', 'features', 'id', 'objectives']);
    expect(o.id).toBeNull();
    expect(o.objectives[0]).toBeCloseTo(76.8, 12);
    expect(o).toEqual({ id: null, ...evaluateDice(x, trackConfig('so', 50)) });
    expect(o.bounds[0][0]).toBeGreaterThan(0);
  });

  it('writes null for an infinite bound (p = 1)', async () => {
    const run = await runCli(['eval'], { stdin: JSON.stringify({ x: '123456', config: { constraints: [1], lowerBounds: [0], upperBounds: [1] } }) + '\n' });
    expect(lines(run.stdout)[0].bounds).toEqual([[0, null]]);
  });

  it('reports a bad line with its id and goes on with the rest (exit 1)', async () => {
    const input = [
      JSON.stringify({ id: 'a', x: '123456' }),
      JSON.stringify({ id: 'b', x: '123457' }),
      '{not json',
      JSON.stringify({ id: 'c', x: '123456', config: { alpha: [1] } }),
      JSON.stringify({ id: 'd', x: '123456', config: { bogus: 1 } }),
      JSON.stringify({ id: 'e', x: 123 }),
      '',
      JSON.stringify({ id: 'f', x: '654321' }),
    ].join('\n');
    const run = await runCli(['eval'], { stdin: input });
    expect(run.code).toBe(1);
    const out = lines(run.stdout);
    expect(out.map((o) => o.id)).toEqual(['a', 'b', null, 'c', 'd', 'e', 'f']);
    expect(out[0].error).toBeUndefined();
    expect(out[1].error).toMatch(/"7" at position 6 is not a die face/);
    expect(out[2].error).toMatch(/not valid JSON/);
    expect(out[3].error).toMatch(/alpha.*15 entries/);
    expect(out[4].error).toMatch(/unknown config field "bogus"/);
    expect(out[5].error).toMatch(/"x" must be a string/);
    expect(out[6].features).toHaveLength(15);
    expect(run.stderr).toMatch(/5 line\(s\) had errors/);
  });

  it('streams: 100,000 lines through the real binary with bounded memory', async () => {
    const bin = fileURLToPath(new URL('../../../bin/saikoro.mjs', import.meta.url));
    const child = spawn(process.execPath, [bin, 'eval'], { stdio: ['pipe', 'pipe', 'inherit'] });
    let count = 0;
    let firstBeforeEnd = false;
    let inputDone = false;
    let rest = '';
    child.stdout.on('data', (chunk: Buffer) => {
      const text = rest + chunk.toString('utf8');
      const parts = text.split('\n');
      rest = parts.pop()!;
      count += parts.length;
      if (!inputDone && count > 0) firstBeforeEnd = true;
    });
    const line = JSON.stringify({ x: '31552264665432613134314646226624645162511461153216' }) + '\n';
    const total = 100_000;
    for (let i = 0; i < total; i += 1000) {
      if (!child.stdin.write(line.repeat(1000))) await new Promise((r) => child.stdin.once('drain', r));
    }
    inputDone = true;
    child.stdin.end();
    const code = await new Promise((r) => child.on('close', r));
    expect(code).toBe(0);
    expect(count).toBe(total);
    // Output began before the input ended: lines are evaluated as they arrive, not collected.
    expect(firstBeforeEnd).toBe(true);
  }, 120_000);
});
