/**
 * The arguments of every API call, checked where they enter the main process, whatever the
 * transport: dispatchCall (dispatch.ts) checks them for the desktop's IPC (after its sender
 * check, src-main/electron/main.ts) and the web server's HTTP alike, before the API sees them:
 *
 * - plain data only, what JSON carries (the API's contract, src-shared/api.ts). IPC is a
 *   structured clone, which also carries Map, Set, Date, typed arrays, BigInt, NaN and cycles;
 * - nested at most MAX_JSON_DEPTH deep and at most MAX_CALL_ARGUMENT_BYTES in all (the web
 *   server's bounds on a request body, so one call is bounded the same on both transports);
 * - how many arguments, and each one's type and shape (CALL_ARGUMENTS), with the API's own
 *   checks where they exist (an evaluateDice request, a project path, a note's length).
 *
 * What a value means (a spec, a run request, a solver's parameters) is checked deeper by the
 * API itself, as for every transport. A refusal is a BadRequest naming the argument.
 */
import type { ApiCallName } from '../../src-shared/api.ts';
import { FieldError } from '../../src-shared/base/field-error.ts';
import { describeValue, MAX_JSON_DEPTH } from '../../src-shared/json.ts';
import { checkEvaluateDiceRequest } from '../../src-shared/problems/dice/call-limits.ts';
import { checkProjectPathText } from '../app/project-paths.ts';
import { MAX_NOTE_LENGTH } from '../app/project-service.ts';

/** Arguments a transport's call refuses; `field` names the argument (and the place inside it). */
export class BadRequestError extends FieldError {
  override readonly name = 'BadRequest';
}

/** The most one call's arguments may hold, as JSON would write them: the web server's body limit. */
export const MAX_CALL_ARGUMENT_BYTES = 1024 * 1024;
/** Run ids, experiment names and other identifiers: far longer than any the app makes. */
export const MAX_ID_LENGTH = 256;

interface Argument {
  name: string;
  optional?: boolean;
  /** What it must be, for the message when it is missing ("a string"). */
  what: string;
  check(value: unknown, field: string): void;
}

const fail = (field: string, rule: string): never => {
  throw new BadRequestError(field, rule);
};
const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function id(name: string, optional = false): Argument {
  return {
    name,
    optional,
    what: 'a string',
    check(v, field) {
      if (optional && (v === undefined || v === null)) return;
      if (typeof v !== 'string') fail(field, `must be a string, got ${describeValue(v)}`);
      if ((v as string).length > MAX_ID_LENGTH) fail(field, `must be at most ${MAX_ID_LENGTH} characters, got ${(v as string).length}`);
    },
  };
}

function object(name: string, optional = false): Argument {
  return {
    name,
    optional,
    what: 'an object',
    check(v, field) {
      if (optional && (v === undefined || v === null)) return;
      if (!isPlainObject(v)) fail(field, `must be an object, got ${describeValue(v)}`);
    },
  };
}

const number = (name: string): Argument => ({
  name,
  what: 'a number',
  check(v, field) {
    if (typeof v !== 'number') fail(field, `must be a number, got ${describeValue(v)}`);
  },
});

const boolean = (name: string): Argument => ({
  name,
  what: 'true or false',
  check(v, field) {
    if (typeof v !== 'boolean') fail(field, `must be true or false, got ${describeValue(v)}`);
  },
});

const oneOf = (name: string, values: readonly string[]): Argument => ({
  name,
  what: values.map((s) => JSON.stringify(s)).join(' or '),
  check(v, field) {
    if (typeof v !== 'string' || !values.includes(v)) fail(field, `must be ${values.map((s) => JSON.stringify(s)).join(' or ')}, got ${describeValue(v)}`);
  },
});

const idList = (name: string): Argument => ({
  name,
  optional: true,
  what: 'a list of strings',
  check(v, field) {
    if (v === undefined || v === null) return;
    if (!Array.isArray(v)) fail(field, `must be a list of strings, got ${describeValue(v)}`);
    (v as unknown[]).forEach((item, i) => id(name).check(item, `${field}[${i}]`));
  },
});

/** A project file's path, checked by the rules every project path follows (project-paths.ts). */
const projectPath: Argument = { name: 'path', what: 'a file name ending in .saikoro', check: (v) => checkProjectPathText(v) };

const note: Argument = {
  name: 'text',
  what: 'a string',
  check(v, field) {
    if (typeof v !== 'string') fail(field, `must be a string, got ${describeValue(v)}`);
    if ((v as string).length > MAX_NOTE_LENGTH) fail(field, `must be at most ${MAX_NOTE_LENGTH} characters, got ${(v as string).length}`);
  },
};

const diceRequest: Argument = {
  name: 'request',
  what: 'an object',
  check(v, field) {
    object(field).check(v, field);
    checkEvaluateDiceRequest(v);
  },
};

/** Every call's arguments, in order (a Record, so the compiler insists on every call). */
export const CALL_ARGUMENTS: Record<ApiCallName, readonly Argument[]> = {
  getAppInfo: [],
  evaluateDice: [diceRequest],
  randomSequence: [number('n'), number('seed')],
  listSolvers: [],
  startRun: [object('request')],
  getRun: [id('runId')],
  listRuns: [],
  cancelRun: [id('runId')],
  pauseRun: [id('runId'), boolean('paused')],
  createProject: [projectPath],
  openProject: [projectPath],
  closeProject: [],
  getProject: [],
  listProjectFiles: [],
  addExperiment: [object('spec')],
  runExperiment: [id('name'), object('options', true)],
  cancelExperiment: [id('name')],
  listExperimentRuns: [id('name')],
  compareExperiment: [id('name'), object('options')],
  saveRun: [id('runId'), id('name', true)],
  addNote: [note, id('experiment', true)],
  getExperimentResults: [id('name'), idList('ids')],
  exportReport: [id('name'), object('options')],
  getCompetition: [],
  getCompetitionStandings: [],
  runCompetition: [object('options', true)],
  cancelCompetition: [],
  pickProjectFile: [oneOf('purpose', ['open', 'create'])],
};

/** "a Map", "an ArrayBuffer", "NaN": what a value that JSON cannot carry is. */
function kindOf(v: unknown): string {
  if (typeof v === 'number') return String(v);
  if (typeof v !== 'object' || v === null) return `a ${typeof v}`;
  const name = (Object.getPrototypeOf(v) as { constructor?: { name?: unknown } } | null)?.constructor?.name;
  const label = typeof name === 'string' && name !== '' ? name : 'object of another kind';
  return `${/^[AEIOU]/.test(label) ? 'an' : 'a'} ${label}`;
}

/**
 * Checks that a value is plain data (null, booleans, finite numbers, strings, plain arrays and
 * objects; undefined, which JSON leaves out), at most MAX_JSON_DEPTH deep, and adds its size as
 * JSON would write it to `budget`; throws BadRequest naming the place. The size bound also ends
 * the walk of a value that shares its parts many times over (a structured clone keeps sharing).
 */
function checkPlainData(value: unknown, field: string, root: string, budget: { bytes: number }): void {
  const walk = (v: unknown, at: string, depth: number): void => {
    budget.bytes += 2;
    if (budget.bytes > MAX_CALL_ARGUMENT_BYTES) fail(root, `larger than ${MAX_CALL_ARGUMENT_BYTES} bytes`);
    if (v === null || v === undefined || typeof v === 'boolean') return;
    if (typeof v === 'string') {
      budget.bytes += v.length;
      if (budget.bytes > MAX_CALL_ARGUMENT_BYTES) fail(root, `larger than ${MAX_CALL_ARGUMENT_BYTES} bytes`);
      return;
    }
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) fail(at, `must be plain data (what JSON carries), got ${kindOf(v)}`);
      budget.bytes += 6;
      return;
    }
    if (typeof v !== 'object') fail(at, `must be plain data (what JSON carries), got ${kindOf(v)}`);
    const proto = Object.getPrototypeOf(v);
    const isArray = Array.isArray(v) && proto === Array.prototype;
    if (!isArray && proto !== Object.prototype && proto !== null) fail(at, `must be plain data (what JSON carries), got ${kindOf(v)}`);
    if (depth >= MAX_JSON_DEPTH) fail(root, `nested deeper than ${MAX_JSON_DEPTH} levels`);
    if (isArray) {
      const list = v as unknown[];
      for (let i = 0; i < list.length; i++) walk(list[i], `${at}[${i}]`, depth + 1);
    } else {
      for (const [key, child] of Object.entries(v as Record<string, unknown>)) {
        budget.bytes += key.length + 3;
        walk(child, `${at}.${key}`, depth + 1);
      }
    }
  };
  walk(value, field, 0);
}

/**
 * Checks a call's arguments as they came over a transport (see the header); throws BadRequest
 * (or the API's own error: PathError, CallLimitError, TypeError) naming the argument.
 */
export function checkCallArguments(name: ApiCallName, args: readonly unknown[]): void {
  const spec = CALL_ARGUMENTS[name];
  if (!Array.isArray(args)) fail('arguments', `${name} takes a list of arguments`);
  if (args.length > spec.length)
    fail('arguments', spec.length === 0 ? `${name} takes no arguments, got ${args.length}` : `${name} takes at most ${spec.length}, got ${args.length}`);
  const budget = { bytes: 0 };
  spec.forEach((arg, i) => {
    const value = args[i];
    if (value === undefined && !arg.optional) fail(arg.name, `${name} needs it (${arg.what})`);
    checkPlainData(value, arg.name, arg.name, budget);
    arg.check(value, arg.name);
  });
}
