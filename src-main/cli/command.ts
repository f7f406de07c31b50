import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { Readable, Writable } from 'node:stream';

/** Where a command reads and writes; the real process streams, or buffers in tests. */
export interface CliIo {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** True when stderr is a terminal, so progress bars may be drawn there. */
  stderrIsTTY: boolean;
}

export interface Command {
  name: string;
  summary: string;
  usage: string;
  /** Returns the exit status: 0 success, 1 bad input, 2 usage error. */
  run(argv: string[], io: CliIo): Promise<number>;
}

/** A usage error (unknown option, missing argument): exit status 2. */
export class UsageError extends Error {}
/** Bad input data (malformed sequence, corrupt file): exit status 1. */
export class InputError extends Error {}

export const EXIT_OK = 0;
export const EXIT_BAD_INPUT = 1;
export const EXIT_USAGE = 2;

type Options = NonNullable<ParseArgsConfig['options']>;

/** node:util parseArgs in strict mode, turning its errors into UsageError. */
export function parseCommandArgs<T extends Options>(argv: string[], options: T, allowPositionals = false) {
  try {
    return parseArgs({ args: argv, options, allowPositionals, strict: true });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

export function writeLine(stream: Writable, text: string): void {
  stream.write(text + '\n');
}

/** Reads the whole of a stream as UTF-8. */
export async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/** Parses a number option, naming the option in the error. */
export function numberOption(name: string, value: string | undefined, fallback: number, opts: { integer?: boolean; min?: number; max?: number } = {}): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n)) throw new UsageError(`--${name}: expected a number, got "${value}"`);
  if (opts.integer && !Number.isInteger(n)) throw new UsageError(`--${name}: expected an integer, got "${value}"`);
  if (opts.min !== undefined && n < opts.min) throw new UsageError(`--${name}: must be at least ${opts.min}, got ${n}`);
  if (opts.max !== undefined && n > opts.max) throw new UsageError(`--${name}: must be at most ${opts.max}, got ${n}`);
  return n;
}
