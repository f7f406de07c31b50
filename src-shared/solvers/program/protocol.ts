/**
 * The external-solver protocol, version 1 (docs/external-solvers.md): JSON lines between
 * Saikoro and a solver program over the program's stdin and stdout. This module is the pure
 * part: the program's entry as runs carry it (`ProgramSpec`, checked with errors naming the
 * field), the first line Saikoro sends, the program's messages parsed and checked, and the
 * answers formatted. The field names are fixed by the protocol: outside programs rely on them.
 *
 *   Saikoro -> program   {"protocol": 1, "problem": {...}, "budget": {"evaluations": E}, "seed": S}
 *   program -> Saikoro   {"evaluate": ["3155...", ...]}   or   {"log": "..."}
 *   Saikoro -> program   {"results": [{"objective", "constraint", "feasible"} | {"error"}], "remaining": R, "stop"?: ...}
 */
import { FieldError } from '../../base/field-error.ts';
import { describeValue } from '../../json.ts';
import { trackOf, type DiceConfig } from '../../problems/dice/config.ts';
import { parseSequence, SequenceError } from '../../problems/dice/sequence.ts';
import type { StopReason } from '../../core/termination.ts';

export const PROTOCOL_VERSION = 1;

/** Seconds between closing the program's stdin and SIGTERM, and between SIGTERM and SIGKILL. */
export const DEFAULT_GRACE_SECONDS = 5;
/** Seconds Saikoro waits for the program's next request before it fails the run (a hang). */
export const DEFAULT_TIMEOUT_SECONDS = 60;

/** A solver program, as a run, a spec entry (besides its name) and the CLI give it. */
export interface ProgramSpec {
  /** The program and its arguments (argv; no shell). */
  command: string[];
  /** Working directory; relative to the project's folder in a spec, absolute in a run request. */
  cwd?: string;
  /** Environment variables added to Saikoro's own. */
  env?: Record<string, string>;
  /** Send the problem without `config` and `track` (the competition's secret bands). */
  blind?: boolean;
  /** Grace period before SIGTERM and before SIGKILL, seconds (default 5). */
  grace?: number;
  /** How long Saikoro waits for a request before the run fails as hung, seconds (default 60). */
  timeout?: number;
  /**
   * sha256 (hex) of each argument that is a file inside the project's folder, by the argument
   * as written, taken when the spec was stored: what ran, for `experiment verify` and reports.
   */
  hashes?: Record<string, string>;
  /**
   * sha256 of the program's whole folder (its working directory) as the program gate hashes it
   * (the manifest of every file, src-main/host/program-folder.ts): the gate refuses to run it
   * when the folder is not exactly that. A competition's program entrants carry the hash of
   * their archived folder (docs/competition.md); part of the run's identity.
   */
  folder?: string;
}

export const PROGRAM_FIELDS = ['command', 'cwd', 'env', 'blind', 'grace', 'timeout', 'hashes', 'folder'] as const;

/** A bad field of a program entry; `field` is prefixed by where the entry sits (solvers[2].command). */
export class ProgramSpecError extends FieldError {
  override readonly name = 'ProgramSpecError';
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Checks the program fields of `input` (other fields are the caller's) and returns them as a
 * ProgramSpec; throws ProgramSpecError naming `${at}.field`.
 */
export function checkProgramSpec(input: Record<string, unknown>, at: string): ProgramSpec {
  const field = (name: string) => (at ? `${at}.${name}` : name);
  const { command } = input;
  if (!Array.isArray(command) || command.length === 0)
    throw new ProgramSpecError(field('command'), `must be a non-empty list of strings (the program and its arguments), got ${describeValue(command)}`);
  command.forEach((a, i) => {
    if (typeof a !== 'string') throw new ProgramSpecError(`${field('command')}[${i}]`, `must be a string, got ${describeValue(a)}`);
    if (a.includes('\0')) throw new ProgramSpecError(`${field('command')}[${i}]`, 'must not contain a NUL character');
  });
  if (command[0] === '') throw new ProgramSpecError(`${field('command')}[0]`, 'must name the program to run');
  const spec: ProgramSpec = { command: [...(command as string[])] };
  if (input.cwd !== undefined) {
    if (typeof input.cwd !== 'string' || input.cwd === '')
      throw new ProgramSpecError(field('cwd'), `must be a directory path, got ${describeValue(input.cwd)}`);
    spec.cwd = input.cwd;
  }
  if (input.env !== undefined) {
    if (!isRecord(input.env))
      throw new ProgramSpecError(field('env'), `must be an object of strings like {"OMP_NUM_THREADS": "1"}, got ${describeValue(input.env)}`);
    for (const [k, v] of Object.entries(input.env)) {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(k))
        throw new ProgramSpecError(`${field('env')}.${k}`, 'is not a valid environment variable name (letters, digits, _; not starting with a digit)');
      if (typeof v !== 'string') throw new ProgramSpecError(`${field('env')}.${k}`, `must be a string, got ${describeValue(v)}`);
    }
    spec.env = { ...(input.env as Record<string, string>) };
  }
  if (input.blind !== undefined) {
    if (typeof input.blind !== 'boolean') throw new ProgramSpecError(field('blind'), `must be true or false, got ${describeValue(input.blind)}`);
    if (input.blind) spec.blind = true;
  }
  for (const name of ['grace', 'timeout'] as const) {
    const v = input[name];
    if (v === undefined) continue;
    if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0 || v > 86_400)
      throw new ProgramSpecError(field(name), `must be a number of seconds, more than 0 and at most 86400, got ${describeValue(v)}`);
    spec[name] = v;
  }
  if (input.hashes !== undefined) {
    if (!isRecord(input.hashes)) throw new ProgramSpecError(field('hashes'), 'must be an object of sha256 hex digests by argument');
    for (const [k, v] of Object.entries(input.hashes)) {
      if (typeof v !== 'string' || !/^[0-9a-f]{64}$/.test(v))
        throw new ProgramSpecError(`${field('hashes')}.${k}`, `must be a sha256 hex digest (64 characters 0-9a-f), got ${describeValue(v)}`);
      if (!spec.command.includes(k)) throw new ProgramSpecError(`${field('hashes')}.${k}`, 'is not an argument of the command');
    }
    if (Object.keys(input.hashes).length) spec.hashes = { ...(input.hashes as Record<string, string>) };
  }
  if (input.folder !== undefined) {
    if (typeof input.folder !== 'string' || !/^[0-9a-f]{64}$/.test(input.folder))
      throw new ProgramSpecError(
        field('folder'),
        `must be the sha256 hex digest of the program's folder (64 characters 0-9a-f), got ${describeValue(input.folder)}`,
      );
    spec.folder = input.folder;
  }
  return spec;
}

/** One word for a POSIX shell, always in single quotes (a quote inside as '\\''). */
export function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A command as one line a person can read and paste into a POSIX shell. */
export function formatCommand(command: readonly string[]): string {
  return command.map((a) => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(a) ? a : shellQuote(a))).join(' ');
}

// ---------------------------------------------------------------------------------------------
// Saikoro -> program

/** The problem as the first line describes it. */
export interface ProtocolProblem {
  n: number;
  lower: 1;
  upper: 6;
  objectives: number;
  constraints: number;
  /** The track whose grouping the config uses ("so", "mo2", ...), or null for a custom one; left out when blind. */
  track?: string | null;
  /** Every field of the dice config; left out when blind. */
  config?: DiceConfig;
}

export interface ProtocolHello {
  protocol: 1;
  problem: ProtocolProblem;
  budget: { evaluations: number | null };
  seed: number;
}

/** The first line Saikoro sends (without its newline). */
export function helloMessage(config: DiceConfig, budget: number | null, seed: number, blind: boolean): ProtocolHello {
  const problem: ProtocolProblem = { n: config.n, lower: 1, upper: 6, objectives: config.objectives.length, constraints: config.constraints.length };
  if (!blind) {
    problem.track = trackOf(config.objectives) ?? null;
    problem.config = {
      n: config.n,
      alpha: [...config.alpha],
      beta: [...config.beta],
      gamma: [...config.gamma],
      objectives: config.objectives.map((g) => [...g]),
      constraints: [...config.constraints],
      lowerBounds: [...config.lowerBounds],
      upperBounds: [...config.upperBounds],
    };
  }
  return { protocol: PROTOCOL_VERSION, problem, budget: { evaluations: budget }, seed };
}

/** The "stop" an answer carries, by how the run stopped. */
export const STOP_OF: Record<StopReason, string> = {
  evaluations: 'budget',
  cancelled: 'cancelled',
  target: 'target',
  time: 'time',
  stall: 'stall',
  solver: 'solver',
};

/** A number as JSON writes it (non-finite values as null, as JSON.stringify does). */
function num(x: number): string {
  return Number.isFinite(x) ? String(x) : 'null';
}

/**
 * One result in the reference evaluator's shape: the objective as a number when there is one
 * (a list when there are several), the constraint values g_d as a list, and feasibility.
 */
export function formatResult(F: ArrayLike<number>, G: ArrayLike<number>, feasible: boolean): string {
  let s = '{"objective":';
  if (F.length === 1) s += num(F[0]);
  else {
    s += '[';
    for (let i = 0; i < F.length; i++) s += (i ? ',' : '') + num(F[i]);
    s += ']';
  }
  s += ',"constraint":[';
  for (let i = 0; i < G.length; i++) s += (i ? ',' : '') + num(G[i]);
  return s + (feasible ? '],"feasible":true}' : '],"feasible":false}');
}

export function formatErrorResult(message: string): string {
  return `{"error":${JSON.stringify(message)}}`;
}

/** One answer line (with its newline): the results in order, the evaluations left, and the stop if any. */
export function formatAnswer(results: readonly string[], count: number, remaining: number | null, stop: string | null): string {
  let s = '{"results":[';
  for (let i = 0; i < count; i++) s += (i ? ',' : '') + results[i];
  s += `],"remaining":${remaining === null ? 'null' : remaining}`;
  return s + (stop === null ? '}\n' : `,"stop":${JSON.stringify(stop)}}\n`);
}

// ---------------------------------------------------------------------------------------------
// program -> Saikoro

/** A request's items are checked one by one when evaluated: an item that is not a string gets its own error. */
export type ProgramMessage = { evaluate: unknown[] } | { log: string };

/** A line of the program's that breaks the protocol; the run fails with this message. */
export class ProtocolError extends Error {
  override name = 'ProtocolError';
}

/** The start of a line for a message: at most 60 characters, JSON-quoted. */
export function linePrefix(line: string, length = 60): string {
  return JSON.stringify(line.length > length ? `${line.slice(0, length)}…` : line);
}

/** Parses and checks line `lineNumber` (1-based) of the program's stdout. */
export function parseProgramMessage(line: string, lineNumber: number): ProgramMessage {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new ProtocolError(`the program's line ${lineNumber} is not JSON: ${linePrefix(line)}`);
  }
  if (!isRecord(value))
    throw new ProtocolError(`the program's line ${lineNumber} is not a protocol message ({"evaluate": [...]} or {"log": "..."}): ${linePrefix(line)}`);
  const keys = Object.keys(value);
  if (keys.length === 1 && keys[0] === 'evaluate') {
    const list = value.evaluate;
    if (!Array.isArray(list)) throw new ProtocolError(`the program's line ${lineNumber}: "evaluate" must be a list of strings, got ${describeValue(list, 40)}`);
    return { evaluate: list as unknown[] };
  }
  if (keys.length === 1 && keys[0] === 'log') {
    if (typeof value.log !== 'string') throw new ProtocolError(`the program's line ${lineNumber}: "log" must be a string, got ${describeValue(value.log, 40)}`);
    return { log: value.log };
  }
  throw new ProtocolError(`the program's line ${lineNumber} is not a protocol message ({"evaluate": [...]} or {"log": "..."}): ${linePrefix(line)}`);
}

/** A request's sequences, each parsed as a sequence of length N: the valid ones' faces, and each invalid one's error. */
export interface ParsedSequences {
  /** How many sequences the request holds, valid or not. */
  count: number;
  /** Indices of the valid sequences, ascending. */
  valid: number[];
  /** Their faces 1..6, in the same order. */
  faces: Uint8Array[];
  /** Each invalid sequence's index and its SequenceError message, ascending. */
  errors: { index: number; message: string }[];
}

/** Parses each item of a request as a sequence of length n (an item that is not a string gets its own error). */
export function parseRequestSequences(items: readonly unknown[], n: number): ParsedSequences {
  const parsed: ParsedSequences = { count: items.length, valid: [], faces: [], errors: [] };
  for (let i = 0; i < items.length; i++) addSequence(parsed, i, items[i], n);
  return parsed;
}

function addSequence(parsed: ParsedSequences, index: number, item: unknown, n: number): void {
  try {
    parsed.faces.push(parseSequence(item as string, n));
    parsed.valid.push(index);
  } catch (e) {
    if (!(e instanceof SequenceError)) throw e;
    parsed.errors.push({ index, message: e.message });
  }
}

/** A program's line: a {"log"} message, or a request with its sequences parsed. */
export type ParsedProgramLine = { evaluate: ParsedSequences } | { log: string };

/**
 * Parses and checks line `lineNumber` of a program, and the sequences of a request as
 * sequences of length n: what parseProgramMessage and then parseRequestSequences give, with
 * the same errors. A request as JSON writers write it ({"evaluate": ["3155...", ...]}, any
 * JSON whitespace, strings without escapes) is read straight from the text into faces; its
 * strings are never made (JSON.parse made 100 strings of N characters a request, then each was
 * read again into faces). Anything else takes JSON.parse.
 */
export function parseProgramLine(line: string, lineNumber: number, n: number): ParsedProgramLine {
  const fast = readEvaluateLine(line, n);
  if (fast !== null) return { evaluate: fast };
  const message = parseProgramMessage(line, lineNumber);
  return 'log' in message ? message : { evaluate: parseRequestSequences(message.evaluate, n) };
}

/** Index of the first character from `i` that is not JSON whitespace. */
function skipSpace(line: string, i: number): number {
  for (; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c !== 32 && c !== 10 && c !== 13 && c !== 9) break;
  }
  return i;
}

const QUOTE = 34;
const BACKSLASH = 92;

/**
 * The request of `line` when it is exactly {"evaluate": [strings]} with JSON whitespace
 * anywhere between tokens and strings without escapes or control characters (so each string is
 * its characters, as JSON.parse would give it); null for anything else (JSON.parse decides).
 */
function readEvaluateLine(line: string, n: number): ParsedSequences | null {
  const length = line.length;
  let i = skipSpace(line, 0);
  if (line.charCodeAt(i) !== 123) return null; // {
  i = skipSpace(line, i + 1);
  if (!line.startsWith('"evaluate"', i)) return null;
  i = skipSpace(line, i + 10);
  if (line.charCodeAt(i) !== 58) return null; // :
  i = skipSpace(line, i + 1);
  if (line.charCodeAt(i) !== 91) return null; // [
  i = skipSpace(line, i + 1);
  const parsed: ParsedSequences = { count: 0, valid: [], faces: [], errors: [] };
  if (line.charCodeAt(i) === 93)
    i++; // ]
  else
    for (;;) {
      if (line.charCodeAt(i) !== QUOTE) return null;
      const start = i + 1;
      const index = parsed.count++;
      let faces: Uint8Array | null = null;
      if (start + n < length && line.charCodeAt(start + n) === QUOTE) {
        // n characters and a quote: a valid sequence if they are all digits 1-6.
        faces = new Uint8Array(n);
        for (let k = 0; k < n; k++) {
          const face = line.charCodeAt(start + k) - 48;
          if (face < 1 || face > 6) {
            faces = null;
            break;
          }
          faces[k] = face;
        }
      }
      if (faces !== null) {
        parsed.valid.push(index);
        parsed.faces.push(faces);
        i = start + n + 1;
      } else {
        let end = start;
        for (; end < length; end++) {
          const c = line.charCodeAt(end);
          if (c === QUOTE) break;
          if (c === BACKSLASH || c < 32) return null;
        }
        if (end >= length) return null;
        addSequence(parsed, index, line.slice(start, end), n);
        i = end + 1;
      }
      i = skipSpace(line, i);
      const c = line.charCodeAt(i);
      if (c === 93) {
        i++;
        break;
      }
      if (c !== 44) return null; // ,
      i = skipSpace(line, i + 1);
    }
  i = skipSpace(line, i);
  if (line.charCodeAt(i) !== 125) return null; // }
  return skipSpace(line, i + 1) === length ? parsed : null;
}
