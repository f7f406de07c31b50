import { describe, expect, it } from 'vitest';
import { runCli } from './io.ts';
import { EvaluatorCache } from '../../../src-main/cli/commands/eval.ts';
import { QUANTILE_CACHE_LIMIT, quantileCacheSize } from '../../../src-shared/problems/dice/chi2.ts';

const X = '31552264665432613134314646226624645162511461153216';
const deep = (depth: number) => '['.repeat(depth) + '1' + ']'.repeat(depth);

describe('saikoro eval: hostile lines', () => {
  it('gives ids back exactly as written, big integers and odd spellings included', async () => {
    const ids = ['12345678901234567890', '-0.0', '1e400', '"x"', '{"a": [1, 2]}', '123456789012345678901234567890.5'];
    const input = ids.map((id) => `{"id": ${id}, "x": "${X}"}`).join('\n') + '\n';
    const run = await runCli(['eval'], { stdin: input });
    expect(run.code).toBe(0);
    const out = run.stdout.trim().split('\n');
    expect(out).toHaveLength(ids.length);
    out.forEach((line, k) => expect(line.startsWith(`{"id":${ids[k]},"features":[`)).toBe(true));
    // Every output line is still JSON.
    for (const line of out) expect(() => JSON.parse(line)).not.toThrow();
  });

  it('answers a line with an id 6,000 deep with an error line and goes on with the rest', async () => {
    const lines = [
      `{"id": 1, "x": "${X}"}`,
      `{"id": ${deep(6000)}, "x": "${X}"}`,
      `{"id": 3, "x": "${X}", "config": {"objectives": ${deep(6000)}}}`,
      `{"id": 4, "x": "${X}"}`,
    ];
    const run = await runCli(['eval'], { stdin: lines.join('\n') + '\n' });
    expect(run.code).toBe(1);
    const out = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(out).toHaveLength(4);
    expect(out[0].id).toBe(1);
    expect(out[1]).toEqual({ id: null, error: 'line nested deeper than 64 levels' });
    expect(out[2]).toEqual({ id: null, error: 'line nested deeper than 64 levels' });
    expect(out[3].id).toBe(4);
    expect(out[3].objectives).toHaveLength(1);
    expect(run.stderr).toBe('saikoro eval: 2 line(s) had errors (see their "error" fields)\n');
  });
});

describe('saikoro eval: memory stays bounded with many distinct configs', () => {
  it('keeps at most 64 evaluators, the most recently used ones', () => {
    const cache = new EvaluatorCache();
    const hot = cache.get(10, { lowerBounds: Array(12).fill(0.2) });
    for (let i = 0; i < 200; i++) {
      cache.get(10, { lowerBounds: Array(12).fill(0.01 + i / 1000) });
      // Used on every line: must never be evicted (it was, oldest first, before).
      expect(cache.get(10, { lowerBounds: Array(12).fill(0.2) })).toBe(hot);
    }
    expect(cache.size).toBe(64);
  });

  it('does not keep a chi-square quantile for every config it ever saw', async () => {
    const lines = Array.from({ length: 800 }, (_, i) =>
      JSON.stringify({ id: i, x: X, config: { lowerBounds: Array(12).fill(0.05 + i * 1e-5), upperBounds: Array(12).fill(0.95 - i * 1e-5) } }),
    );
    const run = await runCli(['eval'], { stdin: lines.join('\n') + '\n' });
    expect(run.code).toBe(0);
    expect(run.stdout.trim().split('\n')).toHaveLength(800);
    // 800 configs x 24 distinct quantiles = 19,200 without a bound.
    expect(quantileCacheSize()).toBeLessThanOrEqual(QUANTILE_CACHE_LIMIT);
  });
});
