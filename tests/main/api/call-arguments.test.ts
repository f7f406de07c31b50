// Every call's arguments are checked before the API sees them, on both transports (the
// desktop's IPC and the web server's HTTP go through dispatchCall, which checks them): how
// many, their types and shapes, their sizes, and that they are plain data (what JSON carries;
// structured clone carries more: Map, Date, typed arrays, BigInt, cycles).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppServer } from '../../../src-main/server/app-server.ts';
import { API_CALL_NAMES, toWireError } from '../../../src-shared/api.ts';
import { CALL_ARGUMENTS, checkCallArguments, MAX_CALL_ARGUMENT_BYTES } from '../../../src-main/api/call-arguments.ts';
import { MAX_EVALUATE_DICE_LENGTH } from '../../../src-shared/problems/dice/call-limits.ts';
import { MAX_NOTE_LENGTH } from '../../../src-main/app/project-service.ts';

const SAMPLE = '31552264665432613134314646226624645162511461153216';

/** The refusal's wire error, or null when the arguments pass. */
function problem(name: string, args: unknown[]) {
  try {
    checkCallArguments(name as never, args);
    return null;
  } catch (e) {
    const err = e as Error & { field?: string };
    return { name: err.name, message: err.message, field: err.field };
  }
}

/** The wire error the IPC handler sends for these arguments (dispatchCall's), or null when they pass. */
function wireProblem(name: string, args: unknown[]) {
  try {
    checkCallArguments(name as never, args);
    return null;
  } catch (e) {
    return toWireError(e);
  }
}

describe('IPC call arguments', () => {
  it('every call has its argument list', () => {
    expect(Object.keys(CALL_ARGUMENTS).sort()).toEqual([...API_CALL_NAMES].sort());
  });

  it('lets through what the renderer sends', () => {
    const good: [string, unknown[]][] = [
      ['getAppInfo', []],
      ['evaluateDice', [{ x: SAMPLE }]],
      ['evaluateDice', [{ x: SAMPLE, config: { n: 50, alpha: [1, 2, 3] } }]],
      ['randomSequence', [50, 7]],
      ['startRun', [{ solver: 'ga', track: 'so', n: 50, seed: 1, params: { populationSize: 20 } }]],
      ['getRun', ['run-1']],
      ['pauseRun', ['run-1', true]],
      ['openProject', ['/home/u/study.saikoro']],
      ['runExperiment', ['small']],
      ['runExperiment', ['small', { jobs: 2 }]],
      ['runExperiment', ['small', undefined]],
      ['saveRun', ['run-1']],
      ['saveRun', ['run-1', null]],
      ['addNote', ['a note', null]],
      ['getExperimentResults', ['small', ['a', 'b']]],
      ['exportReport', ['small', { format: 'pdf', metrics: ['hv'] }]],
      ['pickProjectFile', ['open']],
      [
        'addExperiment',
        [{ name: 'x', instances: [{ name: 'a', track: 'so', n: 24 }], solvers: [{ name: 'random' }], seeds: [1], budget: { evaluations: 10 } }],
      ],
    ];
    for (const [name, args] of good) expect(problem(name, args), name).toBeNull();
  });

  it('refuses too many or missing arguments', () => {
    expect(problem('getAppInfo', [1])).toEqual({ name: 'BadRequest', field: 'arguments', message: 'arguments: getAppInfo takes no arguments, got 1' });
    expect(problem('getRun', [])).toEqual({ name: 'BadRequest', field: 'runId', message: 'runId: getRun needs it (a string)' });
    expect(problem('pauseRun', ['r', true, 'extra'])).toEqual({
      name: 'BadRequest',
      field: 'arguments',
      message: 'arguments: pauseRun takes at most 2, got 3',
    });
  });

  it('refuses wrong types, naming the argument', () => {
    expect(problem('getRun', [42])).toEqual({ name: 'BadRequest', field: 'runId', message: 'runId: must be a string, got 42' });
    expect(problem('pauseRun', ['r', 'yes'])).toEqual({ name: 'BadRequest', field: 'paused', message: 'paused: must be true or false, got "yes"' });
    expect(problem('randomSequence', ['50', 1])).toMatchObject({ field: 'n', message: 'n: must be a number, got "50"' });
    expect(problem('startRun', [[1, 2]])).toMatchObject({ field: 'request', message: 'request: must be an object, got [1,2]' });
    expect(problem('startRun', [null])).toMatchObject({ field: 'request' });
    expect(problem('pickProjectFile', ['delete'])).toMatchObject({ field: 'purpose', message: 'purpose: must be "open" or "create", got "delete"' });
    expect(problem('getExperimentResults', ['small', ['a', 3]])).toMatchObject({ field: 'ids[1]', message: 'ids[1]: must be a string, got 3' });
    expect(problem('addNote', [7])).toMatchObject({ field: 'text' });
    expect(problem('exportReport', ['small', 'pdf'])).toMatchObject({ field: 'options' });
  });

  it("reuses the API's own checks: evaluateDice's roll limit, the note limit, the project path's rules", () => {
    expect(problem('evaluateDice', [{ x: '1'.repeat(MAX_EVALUATE_DICE_LENGTH + 1) }])).toMatchObject({ name: 'CallLimitError' });
    expect(problem('evaluateDice', [{ x: 12 }])).toMatchObject({ name: 'TypeError', message: 'evaluateDice: request.x must be a string of faces 1-6' });
    expect(problem('addNote', ['n'.repeat(MAX_NOTE_LENGTH + 1)])).toMatchObject({
      field: 'text',
      message: `text: must be at most ${MAX_NOTE_LENGTH} characters, got ${MAX_NOTE_LENGTH + 1}`,
    });
    expect(problem('openProject', ['/x/notes.txt'])).toMatchObject({
      name: 'PathError',
      field: 'path',
      message: 'path: must end in .saikoro, got "/x/notes.txt"',
    });
    expect(problem('createProject', [`/${'d/'.repeat(600)}x.saikoro`])).toMatchObject({ name: 'PathError', message: 'path: is longer than 1024 characters' });
    expect(problem('getRun', ['r'.repeat(300)])).toMatchObject({ field: 'runId', message: 'runId: must be at most 256 characters, got 300' });
  });

  it('refuses what JSON cannot carry: Map, Set, Date, typed arrays, BigInt, NaN, functions, class instances', () => {
    const cases: [unknown, string][] = [
      [new Map([[1, 2]]), 'a Map'],
      [new Set([1]), 'a Set'],
      [new Date(0), 'a Date'],
      [new Float64Array(4), 'a Float64Array'],
      [new ArrayBuffer(8), 'an ArrayBuffer'],
      [10n, 'a bigint'],
      [Number.NaN, 'NaN'],
      [Number.POSITIVE_INFINITY, 'Infinity'],
      [/x/, 'a RegExp'],
      [new (class Point {})(), 'a Point'],
    ];
    for (const [value, what] of cases) {
      expect(problem('startRun', [{ solver: 'ga', params: { p: value } }]), what).toEqual({
        name: 'BadRequest',
        field: 'request.params.p',
        message: `request.params.p: must be plain data (what JSON carries), got ${what}`,
      });
    }
    expect(problem('addExperiment', [{ seeds: [1, Number.NaN] }])).toMatchObject({ field: 'spec.seeds[1]' });
  });

  it('refuses arguments nested too deep, cycles, and more than the size limit', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 70; i++) deep = [deep];
    expect(problem('addExperiment', [deep])).toMatchObject({ name: 'BadRequest', field: 'spec', message: 'spec: nested deeper than 64 levels' });
    const cyclic: Record<string, unknown> = { name: 'x' };
    cyclic.self = cyclic;
    expect(problem('addExperiment', [cyclic])).toMatchObject({ name: 'BadRequest', field: 'spec', message: 'spec: nested deeper than 64 levels' });
    // Shared references: 40 levels of two edges each would be 2^40 visits; the size bound stops the walk early.
    let shared: unknown = { leaf: 'x'.repeat(100) };
    for (let i = 0; i < 40; i++) shared = { a: shared, b: shared };
    expect(problem('addExperiment', [shared])).toMatchObject({
      name: 'BadRequest',
      field: 'spec',
      message: `spec: larger than ${MAX_CALL_ARGUMENT_BYTES} bytes`,
    });
    const big = Array.from({ length: 300_000 }, (_, i) => i * 1.5);
    expect(problem('addExperiment', [{ seeds: big }])).toMatchObject({ field: 'spec', message: `spec: larger than ${MAX_CALL_ARGUMENT_BYTES} bytes` });
    // A full-size evaluateDice sequence still fits.
    expect(problem('evaluateDice', [{ x: '1'.repeat(MAX_EVALUATE_DICE_LENGTH) }])).toBeNull();
  });
});

describe('over HTTP, the same checks with the same answers', () => {
  let app: Awaited<ReturnType<typeof startAppServer>>;
  let workspace: string;
  beforeAll(async () => {
    workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-call-arguments-'));
    fs.mkdirSync(path.join(workspace, 'renderer'));
    fs.writeFileSync(path.join(workspace, 'renderer', 'index.html'), '<!doctype html><title>fake renderer</title>');
    app = await startAppServer({ port: 0, rendererDir: path.join(workspace, 'renderer'), build: 'never', token: null, parallelism: 1, workspace });
  });
  afterAll(async () => {
    await app?.close();
    fs.rmSync(workspace, { recursive: true, force: true });
  });

  const post = (name: string, args: unknown[]) =>
    new Promise<{ status: number; body: { value?: unknown; error?: { name: string; message: string; field?: string } } }>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port: app.port, path: `/api/${name}`, method: 'POST', headers: { 'Content-Type': 'application/json' } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
        },
      );
      req.on('error', reject);
      req.end(JSON.stringify(args));
    });

  it('refuses each bad call as IPC does (name, field, message), before the API sees it', async () => {
    const bad: [string, unknown[]][] = [
      ['getAppInfo', [1]],
      ['listRuns', [1, 2, 3]],
      ['getRun', []],
      ['getRun', [42]],
      ['getRun', ['r'.repeat(300)]],
      ['pauseRun', ['r', 'yes']],
      ['pauseRun', ['r', true, 'extra']],
      ['randomSequence', ['50', 1]],
      ['startRun', [[1, 2]]],
      ['startRun', [null]],
      ['getExperimentResults', ['small', ['a', 3]]],
      ['addNote', ['n'.repeat(MAX_NOTE_LENGTH + 1)]],
      ['openProject', ['notes.txt']],
      ['exportReport', ['small', 'pdf']],
    ];
    for (const [name, args] of bad) {
      const ipc = wireProblem(name, args);
      expect(ipc, `${name}: IPC refuses it`).not.toBeNull();
      const http = await post(name, args);
      expect(http.status, name).toBe(400);
      expect(http.body.error, `${name} ${JSON.stringify(args).slice(0, 40)}`).toEqual(ipc);
    }
    // Nothing reached the API: no run was started by the bad startRun calls.
    expect((await post('listRuns', [])).body.value).toEqual([]);
  });
});
