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
