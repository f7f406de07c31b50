import { describe, expect, it } from 'vitest';
import {
  API_CALL_NAMES,
  API_EVENT_NAMES,
  ApiError,
  apiFromBridge,
  callChannel,
  eventChannel,
  toWireError,
  unwrapResult,
  type CallResult,
  type SaikoroBridge,
} from '../../../src-shared/api.ts';
import { createApi } from '../../../src-main/api/implementation.ts';
import { dispatchCall } from '../../../src-main/api/dispatch.ts';
import { ApiEventHub } from '../../../src-main/app/events.ts';
import { randomSequence } from '../../../src-main/api/random-sequence.ts';
import { packageAppInfo } from '../../../src-main/api/app-info.ts';
import { ConfigError } from '../../../src-shared/problems/dice/config.ts';

// The reference evaluator's sample rand50.json: objective 76.8 and all twelve g_d = 0 under the
// defaults (spec dice-eccomp2020.md, "The reference evaluator's interface").
const SAMPLE = '31552264665432613134314646226624645162511461153216';

const api = createApi({ name: 'saikoro', version: '9.9.9', platform: 'test', runtime: 'web' });

describe('API contract', () => {
  it('lists every call and event once, with distinct channels', () => {
    // The names issues 9 and 10 fix (scripts drive the app by them).
    const runs = ['cancelRun', 'getRun', 'listRuns', 'pauseRun', 'startRun'];
    const projects = [
      'addExperiment',
      'addNote',
      'cancelExperiment',
      'closeProject',
      'compareExperiment',
      'createProject',
      'exportReport',
      'getExperimentResults',
      'getProject',
      'listExperimentRuns',
      'listProjectFiles',
      'openProject',
      'pickProjectFile',
      'runExperiment',
      'saveRun',
    ];
    const core = ['evaluateDice', 'getAppInfo', 'listSolvers', 'randomSequence'];
    const competition = ['cancelCompetition', 'getCompetition', 'getCompetitionStandings', 'runCompetition'];
    expect([...API_CALL_NAMES].sort()).toEqual([...runs, ...projects, ...core, ...competition].sort());
    expect(API_EVENT_NAMES).toEqual(['onMenuCommand', 'onRunSnapshot', 'onRunFinished', 'onProjectChanged', 'onExperimentSession']);
    const channels = [...API_CALL_NAMES.map(callChannel), ...API_EVENT_NAMES.map(eventChannel)];
    expect(new Set(channels).size).toBe(channels.length);
  });

  it('the implementation has exactly the calls of the contract', () => {
    expect(Object.keys(api).sort()).toEqual([...API_CALL_NAMES].sort());
  });

  it('wire errors keep the class name and the fields', () => {
    expect(toWireError(new ConfigError('alpha[3]', 'must not exceed beta[3]'))).toEqual({
      name: 'ConfigError',
      message: 'alpha[3]: must not exceed beta[3]',
      field: 'alpha[3]',
      rule: 'must not exceed beta[3]',
    });
    expect(toWireError('plain')).toEqual({ name: 'Error', message: 'plain' });
    const err = new ApiError({ name: 'SequenceError', message: 'bad', position: 4 });
    expect(err).toBeInstanceOf(Error);
    expect([err.name, err.message, err.position]).toEqual(['SequenceError', 'bad', 4]);
    expect(() => unwrapResult({ ok: false, error: { name: 'X', message: 'y' } })).toThrow('y');
    expect(unwrapResult({ ok: true, value: 7 })).toBe(7);
  });
});

describe('dispatchCall', () => {
  it('evaluates the reference sample: objective 76.8, all 12 constraints satisfied', async () => {
    const result = await dispatchCall(api, 'evaluateDice', [{ x: SAMPLE }]);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const value = result.value as { objectives: number[]; constraints: number[]; feasible: boolean; chi: number[]; bounds: [number | null, number | null][] };
    expect(value.objectives[0]).toBeCloseTo(76.8, 9);
    expect(value.constraints).toEqual(Array(12).fill(0));
    expect(value.feasible).toBe(true);
    // chi_1 is the chi-square of the face counts (10, 8, 6, 8, 6, 12) against 50/6 each.
    expect(value.chi[0]).toBeCloseTo(3.28, 12);
    expect(value.bounds).toHaveLength(12);
    // The result must survive JSON (the web transport): no Infinity, no typed arrays.
    expect(JSON.parse(JSON.stringify(value))).toEqual(value);
  });

  it('applies a track and N from the request', async () => {
    const result = await dispatchCall(api, 'evaluateDice', [
      {
        x: SAMPLE,
        config: {
          n: 50,
          objectives: [
            [1, 2, 3, 4, 5, 6, 7],
            [8, 9, 10, 11, 12, 13, 14, 15],
          ],
        },
      },
    ]);
    expect(result.ok).toBe(true);
    if (result.ok) {
      const o = (result.value as { objectives: number[] }).objectives;
      expect(o).toHaveLength(2);
      expect(o[0] + o[1]).toBeCloseTo(76.8, 9);
    }
  });

  it('a bad character comes back as SequenceError with its 0-based position', async () => {
    const x = SAMPLE.slice(0, 16) + '7' + SAMPLE.slice(17);
    const result = await dispatchCall(api, 'evaluateDice', [{ x }]);
    expect(result).toEqual({ ok: false, error: { name: 'SequenceError', message: 'character "7" at position 17 is not a die face 1-6', position: 16 } });
  });

  it('a wrong length names both lengths', async () => {
    const result = (await dispatchCall(api, 'evaluateDice', [{ x: '123' }])) as Extract<CallResult, { ok: false }>;
    expect(result.ok).toBe(false);
    expect(result.error.name).toBe('SequenceError');
    expect(result.error.message).toContain('3 characters, expected N = 50');
  });

  it('a bad config comes back as ConfigError with field and rule', async () => {
    const result = await dispatchCall(api, 'evaluateDice', [{ x: SAMPLE, config: { n: 50, lowerBounds: Array(12).fill(0.95) } }]);
    expect(result).toMatchObject({ ok: false, error: { name: 'ConfigError', field: 'lowerBounds[0]' } });
    const badN = await dispatchCall(api, 'evaluateDice', [{ x: '', config: { n: 0 } }]);
    expect(badN).toMatchObject({ ok: false, error: { name: 'ConfigError', field: 'n', rule: 'must be at least 1, got 0' } });
  });

  it('refuses unknown calls, non-list arguments and a missing sequence', async () => {
    expect(await dispatchCall(api, 'deleteEverything', [])).toEqual({
      ok: false,
      error: { name: 'UnknownCall', message: 'no API call named "deleteEverything"' },
    });
    // Inherited names are not calls either.
    expect(await dispatchCall(api, 'toString', [])).toMatchObject({ ok: false, error: { name: 'UnknownCall' } });
    expect(await dispatchCall(api, 'getAppInfo', { 0: 1 })).toEqual({
      ok: false,
      error: { name: 'BadRequest', message: 'arguments of "getAppInfo" must be a list' },
    });
    expect(await dispatchCall(api, 'evaluateDice', [{}])).toMatchObject({ ok: false, error: { name: 'TypeError' } });
    // A missing argument is refused before the API sees it (call-arguments.ts), as over IPC.
    expect(await dispatchCall(api, 'evaluateDice', [])).toMatchObject({ ok: false, error: { name: 'BadRequest', field: 'request' } });
  });

  it('getAppInfo answers a copy of the app info', async () => {
    expect(await dispatchCall(api, 'getAppInfo', [])).toEqual({ ok: true, value: { name: 'saikoro', version: '9.9.9', platform: 'test', runtime: 'web' } });
    const info = packageAppInfo('web');
    expect(info.name).toBe('saikoro');
    expect(info.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(info.platform).toBe(process.platform);
  });
});

describe('randomSequence', () => {
  it('is determined by the seed, uses every face and only faces 1-6', () => {
    const a = randomSequence(6000, 42);
    expect(a).toHaveLength(6000);
    expect(a).toMatch(/^[1-6]+$/);
    expect(randomSequence(6000, 42)).toBe(a);
    expect(randomSequence(6000, 43)).not.toBe(a);
    // Each face about 1000 times: a 6-sided chi-square far below its 0.9999 quantile (25.7).
    const counts = [0, 0, 0, 0, 0, 0];
    for (const c of a) counts[Number(c) - 1]++;
    const chi = counts.reduce((s, c) => s + (c - 1000) ** 2 / 1000, 0);
    expect(chi).toBeLessThan(25.7);
  });

  it('rejects lengths and seeds it cannot honour, naming them', async () => {
    expect(() => randomSequence(0, 1)).toThrow('n must be an integer from 1 to 1000000, got 0');
    expect(() => randomSequence(2.5, 1)).toThrow('got 2.5');
    expect(() => randomSequence(5, 0.5)).toThrow('seed must be an integer, got 0.5');
    // A negative seed would silently be another seed's sequence (-1 gave that of 2^32 - 1).
    expect(() => randomSequence(30, -1)).toThrow('seed must be at least 0, got -1');
    expect(await dispatchCall(api, 'randomSequence', [30, -1])).toMatchObject({
      ok: false,
      error: { name: 'RangeError', message: 'seed must be at least 0, got -1' },
    });
    expect(randomSequence(30, 0)).toMatch(/^[1-6]{30}$/);
    expect(await dispatchCall(api, 'randomSequence', [-1, 1])).toMatchObject({ ok: false, error: { name: 'RangeError' } });
  });
});

describe('ApiEventHub', () => {
  it('delivers to every attached sink until it is detached', () => {
    const hub = new ApiEventHub();
    const a: unknown[] = [];
    const b: unknown[] = [];
    const detachA = hub.attach((m) => a.push(m));
    const detachB = hub.attach((m) => b.push(m));
    hub.emit('onMenuCommand', { kind: 'showShortcuts' });
    detachA();
    hub.emit('onMenuCommand', { kind: 'navigate', view: 'dice' });
    expect(a).toEqual([{ event: 'onMenuCommand', payload: { kind: 'showShortcuts' } }]);
    expect(b).toHaveLength(2);
    detachB();
    expect(hub.sinkCount).toBe(0);
  });
});

describe('apiFromBridge (the desktop preload path)', () => {
  it('unwraps envelopes and rethrows failures with their name and fields', async () => {
    const bridge = {
      getAppInfo: () => dispatchCall(api, 'getAppInfo', []),
      evaluateDice: (...args: unknown[]) => dispatchCall(api, 'evaluateDice', args),
      randomSequence: (...args: unknown[]) => dispatchCall(api, 'randomSequence', args),
      onMenuCommand: () => () => undefined,
    } as unknown as SaikoroBridge;
    const wrapped = apiFromBridge(bridge);
    expect((await wrapped.getAppInfo()).version).toBe('9.9.9');
    expect((await wrapped.evaluateDice({ x: SAMPLE })).objectives[0]).toBeCloseTo(76.8, 9);
    const err = await wrapped.evaluateDice({ x: SAMPLE.slice(0, 49) + '0' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ name: 'SequenceError', position: 49 });
    expect(wrapped.onMenuCommand).toBe(bridge.onMenuCommand);
  });
});

describe('limits of one call', () => {
  it('evaluateDice refuses more than 10^6 rolls in one call, naming the field', async () => {
    const long = await dispatchCall(api, 'evaluateDice', [{ x: '1'.repeat(1_000_001) }]);
    expect(long).toEqual({
      ok: false,
      error: {
        name: 'CallLimitError',
        message: 'evaluateDice: request.x has 1000001 rolls; one call evaluates at most 1000000 (use saikoro eval for longer sequences)',
      },
    });
    const ok = await dispatchCall(api, 'evaluateDice', [{ x: '1'.repeat(1000), config: { n: 1000 } }]);
    expect(ok.ok).toBe(true);
  });

  it('randomSequence draws from the one seeded generator: seeds past 2^32 give their own sequences', () => {
    const a = randomSequence(60, 1);
    expect(randomSequence(60, 1)).toBe(a);
    expect(randomSequence(60, 2 ** 32 + 1)).not.toBe(a);
    expect(randomSequence(60, 2 ** 33 + 1)).not.toBe(randomSequence(60, 2 ** 32 + 1));
  });
});
