import { describe, expect, it } from 'vitest';
import { runCli } from './io.ts';

describe('saikoro bench', () => {
  it('rejects an unknown suite with a usage error', async () => {
    const run = await runCli(['bench', 'nosuch']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/unknown suite "nosuch"/);
  });

  it('prints usage with --help', async () => {
    const run = await runCli(['bench', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Usage: saikoro bench/);
  });
});

describe('saikoro bench eval', () => {
  it('prints the figures as JSON in the documented shape (--quick)', async () => {
    const run = await runCli(['bench', 'eval', '--quick', '--json']);
    expect(run.code).toBe(0);
    const figures = JSON.parse(run.stdout);
    expect(Object.keys(figures.full).sort()).toEqual(['27720', '50', '840']);
    expect(Object.keys(figures.incremental).sort()).toEqual(['27720', '50', '5040', '840']);
    expect(Object.keys(figures.peek).sort()).toEqual(['27720', '50', '5040', '840']);
    for (const rate of [...Object.values(figures.full), ...Object.values(figures.incremental)] as number[]) {
      expect(rate).toBeGreaterThan(0);
      expect(Number.isFinite(rate)).toBe(true);
    }
    // Full evaluation costs grow with N; the measurement must see that.
    expect(figures.full['50']).toBeGreaterThan(figures.full['27720']);
  }, 60_000);
});
