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
  /** True when stdin is a terminal, so a command may ask the person a question (default false: a script). */
  stdinIsTTY?: boolean;
}

/** A subcommand's code, loaded when it runs; its name, summary and help are in commands/registry.ts. */
export interface Command {
  name: string;
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

/**
 * What `saikoro <name> --help` prints and the options the command parses, in
 * commands/<name>.help.ts: the registry loads it for --help without loading the command, and
 * the command parses its arguments with it (parseCommandArgs), so the two cannot drift apart.
 */
export interface CommandHelp<O extends Options = Options> {
  usage: string;
  /** The options, as node:util parseArgs takes them. */
  options: O;
  /** Whether the command takes arguments besides its options (files, names). */
  positionals: boolean;
}

/** A value that starts with "-" but is no option: a negative number (-5, -0.5, -.5, -1e3). */
const NEGATIVE_NUMBER = /^-(\d|\.\d)/;

/**
 * `--n -5` as `--n=-5`: parseArgs takes a value starting with "-" for an option only when it is
 * joined with "=", and calls `--n -5` ambiguous; a negative number is a value, and its option's
 * own check then says what is wrong with it ("--n: must be positive, got -5").
 */
function joinNegativeValues(argv: string[], options: Options): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      out.push(...argv.slice(i));
      break;
    }
    const next = argv[i + 1];
    const long = /^--([^=]+)$/.exec(arg)?.[1];
    const short = /^-([^-])$/.exec(arg)?.[1];
    const name = long ?? (short === undefined ? undefined : Object.keys(options).find((k) => options[k].short === short));
    if (name !== undefined && options[name]?.type === 'string' && next !== undefined && NEGATIVE_NUMBER.test(next)) {
      out.push(`--${name}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

/** parseArgs's messages in one line: "Option '--n' needs a value" instead of three lines about dashes. */
function usageMessage(e: NodeJS.ErrnoException): string {
  const message = e.message;
  const ambiguous = /^Option '([^']+)' argument is ambiguous/.exec(message);
  if (ambiguous) return `Option '${ambiguous[1]}' needs a value`;
  const missing = /^Option '(\S+)(?: <value>)?' argument missing/.exec(message);
  if (missing) return `Option '${missing[1]}' needs a value`;
  // "Unknown option '--x'. To specify a positional argument starting with a '-', place it ...": the first sentence.
  if (e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return message.split('. To specify')[0];
  return message.split('\n')[0];
}

/** node:util parseArgs in strict mode with the command's options (its CommandHelp), turning its errors into UsageError. */
export function parseCommandArgs<T extends Options>(argv: string[], help: CommandHelp<T>) {
  try {
    return parseArgs({ args: joinNegativeValues(argv, help.options), options: help.options, allowPositionals: help.positionals, strict: true });
  } catch (e) {
    throw new UsageError(usageMessage(e as NodeJS.ErrnoException));
  }
}

/**
 * Text made safe for a terminal: every control character but LF and tab shown instead of
 * acted on, so text read from a file (a note holding ESC ] 0 ; ... BEL retitles the window,
 * ESC [ 2 J clears it) cannot drive the terminal. C0 controls in caret notation as git shows
 * them (ESC as ^[, BEL as ^G, CR as ^M), DEL as ^?, C1 controls (U+0080..U+009F: U+009B is a
 * one-byte ESC [) as the JSON escape \u009b, so a JSON line stays valid and means the same.
 */
export function visibleControls(text: string): string {
  return text.replace(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/g, (c) => {
    const code = c.charCodeAt(0);
    if (code < 0x20) return `^${String.fromCharCode(code + 0x40)}`;
    if (code === 0x7f) return '^?';
    return `\\u00${code.toString(16)}`;
  });
}

/** Writes a line of output (text or JSON) with its control characters made visible (visibleControls). */
export function writeLine(stream: Writable, text: string): void {
  stream.write(visibleControls(text) + '\n');
}

/**
 * The most a command reads from stdin as one piece (rngbias's input, minimax's tree from stdin,
 * one line of eval): 256 MB. Far above any real input (a sequence of N = 10^7 is 10 MB), and
 * below the longest string Node can make (about 512 MB: past it, "RangeError: Invalid string
 * length"), so more is refused with a message naming the limit.
 */
export const STDIN_LIMIT_BYTES = 256 * 1024 * 1024;

/** A size for messages: "256 MB" (MB = 2^20 bytes, as the memory limits), or bytes below 1 MB. */
export function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Number((bytes / (1024 * 1024)).toFixed(1))} MB` : `${bytes} bytes`;
}

function asBuffer(chunk: Buffer | string): Buffer {
  return typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
}

/**
 * Reads the whole of a stream as UTF-8, at most `limitBytes` (STDIN_LIMIT_BYTES by default);
 * more throws InputError "stdin holds more than 256 MB, the limit" and stops reading.
 */
export async function readAll(stream: Readable, options: { limitBytes?: number } = {}): Promise<string> {
  const limit = options.limitBytes ?? STDIN_LIMIT_BYTES;
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    const buffer = asBuffer(chunk);
    total += buffer.length;
    // Leaving the loop destroys the stream: nothing more is read.
    if (total > limit) throw new InputError(`stdin holds more than ${formatBytes(limit)}, the limit`);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A line longer than the limit of readLines: skipped, its place in the output kept. */
export class TooLongLine {
  constructor(readonly limitBytes: number) {}
  get message(): string {
    return `line longer than ${formatBytes(this.limitBytes)}, the limit of one line`;
  }
}

/**
 * The lines of a stream (split at LF, a CR before it dropped; the last line may lack its LF),
 * each decoded as UTF-8. A line longer than `limitBytes` (STDIN_LIMIT_BYTES by default) is not
 * kept: it comes as a TooLongLine and reading goes on after its end, so the stream may be as
 * long as it likes and memory stays bounded by one line.
 */
export async function* readLines(stream: Readable, options: { limitBytes?: number } = {}): AsyncGenerator<string | TooLongLine> {
  const limit = options.limitBytes ?? STDIN_LIMIT_BYTES;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let skipping = false;
  const line = (last: Buffer): string => {
    const whole = pending.length ? Buffer.concat([...pending, last]) : last;
    pending = [];
    pendingBytes = 0;
    const end = whole.length > 0 && whole[whole.length - 1] === 0x0d ? whole.length - 1 : whole.length;
    return whole.toString('utf8', 0, end);
  };
  for await (const chunk of stream) {
    const buffer = asBuffer(chunk);
    let start = 0;
    for (;;) {
      const lf = buffer.indexOf(0x0a, start);
      const piece = buffer.subarray(start, lf < 0 ? buffer.length : lf);
      if (!skipping && pendingBytes + piece.length > limit) {
        // Over the limit: drop what was kept of it.
        skipping = true;
        pending = [];
        pendingBytes = 0;
        yield new TooLongLine(limit);
      }
      if (lf < 0) {
        if (!skipping && piece.length) {
          pending.push(piece);
          pendingBytes += piece.length;
        }
        break;
      }
      if (skipping) skipping = false;
      else yield line(piece);
      start = lf + 1;
    }
  }
  if (!skipping && pendingBytes > 0) yield line(Buffer.alloc(0));
}

/** A number as people write it in decimal: 12, -3, 0.5, .5, 1e6, 2.5E-3. */
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** Parses a number option, naming the option in the error. */
export function numberOption(name: string, value: string | undefined, fallback: number, opts: { integer?: boolean; min?: number; max?: number } = {}): number {
  if (value === undefined) return fallback;
  // Decimal notation only: Number() also reads 0x10 as 16, 0b11 as 3, and "Infinity".
  const text = value.trim();
  if (!DECIMAL.test(text))
    throw new UsageError(`--${name}: expected ${text !== '' && !Number.isNaN(Number(text)) ? 'a decimal number' : 'a number'}, got "${value}"`);
  const n = Number(value);
  if (opts.integer && !Number.isInteger(n)) throw new UsageError(`--${name}: expected an integer, got "${value}"`);
  // Past 2^53 an integer is no longer exact: name it as written, not as the double it rounds to.
  const shown = opts.integer && !Number.isSafeInteger(n) ? value.trim() : String(n);
  if (opts.min !== undefined && (n < opts.min || (opts.integer && n <= -(2 ** 53)))) {
    const rule = opts.min === 1 && opts.integer ? 'must be positive' : opts.min === 0 ? 'must be 0 or more' : `must be at least ${opts.min}`;
    throw new UsageError(`--${name}: ${rule}, got ${shown}`);
  }
  if (opts.max !== undefined && (n > opts.max || (opts.integer && n >= 2 ** 53))) throw new UsageError(`--${name}: must be at most ${opts.max}, got ${shown}`);
  return n;
}
