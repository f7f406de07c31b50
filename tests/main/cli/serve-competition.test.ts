// saikoro serve --competition FILE: what it prints at start, its limits' flags checked, and bad
// files refused with a message (one server per file, a file that is not a competition).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServeCommand } from '../../../src-main/cli/commands/serve.ts';
import { UsageError } from '../../../src-main/cli/command.ts';
import { runCli } from './io.ts';

const dir = mkdtempSync(join(tmpdir(), 'saikoro-serve-competition-'));
writeFileSync(join(dir, 'index.html'), '<!doctype html><title>fake renderer</title>');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

beforeAll(async () => {
  const cli = (...argv: string[]) => runCli(argv, { cwd: dir });
  expect(
    (
      await cli(
        'competition',
        'new',
        'c.saikoro',
        '--tracks',
        'so',
        '--n',
        '30',
        '--instances',
        '1',
        '--budget',
        '50',
        '--seeds',
        '1',
        '--secret',
        'serve-secret-1',
      )
    ).code,
  ).toBe(0);
  expect((await cli('competition', 'enter', 'c.saikoro', '--name', 'alice', '--remote')).code).toBe(0);
  expect((await cli('project', 'new', 'plain.saikoro')).code).toBe(0);
});

/** Runs `saikoro serve ARGS` until it has started (then `whileServing`), and stops it; what it printed. */
async function start(args: string[], whileServing: () => Promise<void> = async () => {}): Promise<{ code: number; stderr: string }> {
  const stderr = new PassThrough();
  let text = '';
  stderr.on('data', (c: Buffer) => (text += c.toString('utf8')));
  const command = createServeCommand({ stopped: whileServing });
  const code = await command.run(['--port', '0', '--no-build', '--renderer-dir', dir, '--workspace', dir, ...args], {
    stdin: Readable.from([]),
    stdout: new PassThrough(),
    stderr,
    env: {},
    cwd: dir,
    stderrIsTTY: false,
  });
  return { code, stderr: text };
}

async function refused(args: string[]): Promise<string> {
  try {
    await start(args);
  } catch (e) {
    return (e as Error).message;
  }
  return 'started';
}

describe('saikoro serve --competition', () => {
  it('serves the competition and says where; a second server of the same file is refused while the first runs', async () => {
    let second = '';
    const r = await start(['--competition', 'c.saikoro'], async () => {
      second = await refused(['--competition', 'c.saikoro']);
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /competition c\.saikoro: 1 remote entrant\(s\); WebSocket or POST at http:\/\/127\.0\.0\.1:\d+\/api\/competition\/<problem>, leaderboard at http:\/\/127\.0\.0\.1:\d+\/competition \(with this token\)\n/,
    );
    expect(second).toMatch(/^c\.saikoro: another competition server serves this file \(process \d+ on .*\); stop it first$/);
    // Stopped, it leaves nothing beside the file: a new server starts.
    expect((await start(['--competition', 'c.saikoro', '--public-leaderboard'])).stderr).toContain('/competition (public)');
  });

  it('checks its limits and refuses them without --competition', async () => {
    expect(await refused(['--max-batch', '10'])).toBe('--max-batch goes with --competition FILE');
    expect(await refused(['--public-leaderboard'])).toBe('--public-leaderboard goes with --competition FILE');
    expect(await refused(['--competition', 'c.saikoro', '--max-batch', '0'])).toBe('--max-batch: must be positive, got 0');
    expect(await refused(['--competition', 'c.saikoro', '--rate', 'fast'])).toBe('--rate: expected a number, got "fast"');
    expect(await refused(['--competition', 'c.saikoro', '--max-message', '100'])).toBe('--max-message: must be at least 1024, got 100');
    expect(await refused(['--competition', 'c.saikoro', '--max-connections', '2.5'])).toBe('--max-connections: expected an integer, got "2.5"');
    await expect(start(['--max-batch', '10'])).rejects.toBeInstanceOf(UsageError);
  });

  it('refuses a file that is not a competition, or is not there, naming it', async () => {
    expect(await refused(['--competition', 'plain.saikoro'])).toContain('plain.saikoro: is not a competition file');
    expect(await refused(['--competition', 'missing.saikoro'])).toMatch(/^missing\.saikoro: /);
  });
});
