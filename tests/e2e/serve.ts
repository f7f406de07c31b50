// `saikoro serve` of this checkout as a real process, for the browser tests: started over a
// workspace with a renderer built for the test file (browser.ts), its URL with the token read
// from what it prints (printedUrl, which the installed package's test uses too), and stopped
// as a user stops it (SIGTERM), which must end it.
import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import { expect } from 'vitest';
import { hasEnded, waitFor } from '../main/processes.ts';

const ROOT = resolve(import.meta.dirname, '../..');

export interface Server {
  process: ChildProcess;
  /** The URL with its token, as printed. */
  url: string;
}

/** `saikoro serve --workspace W --port 0 --no-build --renderer-dir R` (and `extra`), once it has printed its URL. */
export async function serve(workspace: string, rendererDir: string, extra: string[] = []): Promise<Server> {
  const child = spawn(
    process.execPath,
    [join(ROOT, 'bin/saikoro.mjs'), 'serve', '--workspace', workspace, '--port', '0', '--no-build', '--renderer-dir', rendererDir, ...extra],
    {
      cwd: workspace,
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const { url } = await printedUrl(child);
  return { process: child, url };
}

/**
 * Waits (60 s at most) until a `saikoro serve` just started (this checkout's or an installed
 * one) has printed its URL with the token, failing with what it printed if it ends first.
 * Call it in the tick `child` was spawned in, so no output is missed. `stderr()`: everything
 * it has printed to stderr so far.
 */
export async function printedUrl(child: ChildProcess): Promise<{ url: string; stderr: () => string }> {
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += String(d)));
  const url = await waitFor(
    'the server to print its URL',
    () => {
      if (child.exitCode !== null) throw new Error(`saikoro serve ended (${child.exitCode}): ${stderr}`);
      return /on (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(stderr)?.[1];
    },
    { withinMs: 60_000 },
  );
  return { url, stderr: () => stderr };
}

/** SIGTERM, and the process must have ended within 30 s. */
export async function stop(server: { process: ChildProcess }): Promise<void> {
  server.process.kill('SIGTERM');
  expect(await hasEnded(server.process.pid!, 30_000)).toBe(true);
}
