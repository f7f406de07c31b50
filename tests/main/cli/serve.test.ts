// What `saikoro serve` says when it starts: --allow-commands lets anyone with the token run
// programs on this machine, and the start says so (as --host does for the network). The command
// runs until it is stopped; the test stops it (createServeCommand's `stopped`) once it has
// printed its address, so the whole start is what it printed.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { createServeCommand } from '../../../src-main/cli/commands/serve.ts';

const dir = mkdtempSync(join(tmpdir(), 'saikoro-serve-'));
writeFileSync(join(dir, 'index.html'), '<!doctype html><title>fake renderer</title>');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `saikoro serve ARGS` until it has started, then stops it; what it printed to stderr. */
async function start(args: string[]): Promise<{ code: number; stderr: string; served: string | null }> {
  const stderr = new PassThrough();
  let text = '';
  stderr.on('data', (c: Buffer) => (text += c.toString('utf8')));
  let served: string | null = null;
  const command = createServeCommand({
    stopped: async (server) => {
      served = server.url;
    },
  });
  const code = await command.run(['--port', '0', '--no-build', '--renderer-dir', dir, '--workspace', dir, ...args], {
    stdin: Readable.from([]),
    stdout: new PassThrough(),
    stderr,
    env: {},
    cwd: dir,
    stderrIsTTY: false,
  });
  return { code, stderr: text, served };
}

describe('saikoro serve at start', () => {
  it('--allow-commands warns that anyone with the token can run programs here', async () => {
    const r = await start(['--allow-commands']);
    expect(r.code).toBe(0);
    expect(r.served).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=/);
    expect(r.stderr).toContain(
      `warning: --allow-commands lets anyone who has the token run any program on this machine, with your permissions (solver programs of startRun, addExperiment and runExperiment); serve it only to people you trust.\n`,
    );
    // The warning comes before the address, where a person looks first.
    expect(r.stderr.indexOf('warning: --allow-commands')).toBeLessThan(r.stderr.indexOf('Saikoro is serving'));
  });

  it('without it, says nothing of programs', async () => {
    const r = await start([]);
    expect(r.code).toBe(0);
    expect(r.served).not.toBeNull();
    expect(r.stderr).not.toContain('warning');
    expect(r.stderr).toContain(`Saikoro is serving ${dir} on http://127.0.0.1:`);
  });
});
