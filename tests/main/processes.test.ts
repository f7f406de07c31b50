import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { hasEnded, isAlive, waitFor } from './processes.ts';

describe('waitFor', () => {
  it('returns the first truthy value of the condition, polling until then', async () => {
    let polls = 0;
    expect(await waitFor('the third poll', () => (++polls === 3 ? 'ready' : null), { intervalMs: 1 })).toBe('ready');
    expect(polls).toBe(3);
    expect(await waitFor('an async condition', async () => 42)).toBe(42);
  });

  it('fails at the deadline with a message naming what it waited for, after a last poll', async () => {
    let polls = 0;
    const started = Date.now();
    await expect(waitFor('the moon to turn blue', () => (polls++, false), { withinMs: 60, intervalMs: 10 })).rejects.toThrow(
      new Error('timed out after 60 ms waiting for the moon to turn blue'),
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(60);
    expect(polls).toBeGreaterThanOrEqual(2);
  });
});

describe('hasEnded', () => {
  it('is true once a killed process is gone, false while it runs', async () => {
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    await waitFor('the child to start', () => child.pid !== undefined && isAlive(child.pid));
    expect(await hasEnded(child.pid!, 100)).toBe(false);
    child.kill('SIGKILL');
    expect(await hasEnded(child.pid!)).toBe(true);
  });
});
