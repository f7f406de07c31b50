// Runs the saikoro CLI in-process with buffered streams.
import { PassThrough, Readable } from 'node:stream';
import { main } from '../../../src-main/cli/index.ts';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * `stdin`: a string, or a stream of its own (a test of the input limits streams far more than it holds).
 * `stderrIsTTY` makes commands draw their progress line; `stdinIsTTY` (with it) lets them ask a
 * question, answered from `stdin`; `stderrSoFar` (filled while the command runs) lets a test wait for it.
 */
export async function runCli(
  argv: string[],
  options: {
    stdin?: string | Readable;
    env?: NodeJS.ProcessEnv;
    cwd?: string;
    stderrIsTTY?: boolean;
    stdinIsTTY?: boolean;
    stderrSoFar?: { text: string };
  } = {},
): Promise<CliRun> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  stdout.on('data', (c: Buffer) => out.push(c));
  stderr.on('data', (c: Buffer) => {
    err.push(c);
    if (options.stderrSoFar) options.stderrSoFar.text += c.toString('utf8');
  });
  const code = await main(argv, {
    stdin: options.stdin instanceof Readable ? options.stdin : Readable.from(options.stdin === undefined ? [] : [Buffer.from(options.stdin)]),
    stdout,
    stderr,
    env: options.env ?? {},
    cwd: options.cwd ?? process.cwd(),
    stderrIsTTY: options.stderrIsTTY ?? false,
    stdinIsTTY: options.stdinIsTTY ?? false,
  });
  return { code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') };
}
