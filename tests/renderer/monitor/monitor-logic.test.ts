// The run monitor's pure parts: the file's rows with the live runs laid over the ones in flight,
// failures grouped by reason, how sessions and their time left read.
import { describe, expect, it } from 'vitest';
import type { ExperimentRunRow, ExperimentSession } from '../../../src-shared/api.ts';
import type { LiveRun } from '../../../src-renderer/stores/runs.ts';
import { resultText as projectResultText, sessionText } from '../../../src-renderer/views/project/format.ts';
import { formatStat } from '../../../src-renderer/views/compare/compare.ts';
import {
  countStates,
  etaText,
  failureReasons,
  formatDuration,
  liveRunsOf,
  monitorRows,
  ordinal,
  resultText,
  retriedBy,
  sessionCounts,
  sessionEnd,
  sessionLabel,
  sessionTone,
  wholePercent,
} from '../../../src-renderer/views/monitor/monitor.ts';

const row = (id: string, fields: Partial<ExperimentRunRow> = {}): ExperimentRunRow => ({
  id,
  instance: 'i',
  label: 'nsga2',
  solver: 'nsga2',
  seed: 1,
  status: 'missing',
  runId: null,
  startedAt: null,
  finishedAt: null,
  elapsedMs: null,
  evaluations: null,
  error: null,
  best: null,
  feasible: null,
  frontSize: null,
  hv: null,
  ...fields,
});

const live = (runId: string, experiment: string | null, id: string, status: LiveRun['status'], snapshot: object | null = null, fields: Partial<LiveRun> = {}) =>
  ({
    runId,
    kind: 'dice',
    status,
    snapshot,
    result: null,
    reason: null,
    started: { kind: 'dice', createdAt: '2025-01-01T00:00:10.000Z', experiment: experiment ? { name: experiment, id, instance: 'i', label: 'nsga2' } : null },
    ...fields,
  }) as unknown as LiveRun;

const session = (fields: Partial<ExperimentSession>): ExperimentSession => ({
  experiment: 'e',
  status: 'running',
  jobs: 2,
  todo: 10,
  finished: 4,
  failed: 0,
  running: [],
  paused: 0,
  progress: 0.45,
  etaMs: 60_000,
  startedAt: '2025-01-01T00:00:00.000Z',
  finishedAt: null,
  error: null,
  ...fields,
});

describe('monitorRows', () => {
  it('lays the live runs of the experiment over the file’s rows: a retried failed run shows as running with its progress', () => {
    const rows = [
      row('a', { status: 'done', evaluations: 600, elapsedMs: 1500, hv: 0.81234, frontSize: 7 }),
      row('b', { status: 'failed', error: 'worker crashed (exit code 134)' }),
      row('c'),
      row('d'),
    ];
    const runs = [
      live('run-1', 'e', 'b', 'running', { progress: 0.5, evaluations: 300, seconds: 0.4 }),
      live('run-2', 'e', 'c', 'paused', { progress: 0.2, evaluations: 120, seconds: 0.1 }),
      live('run-3', 'other', 'd', 'running'),
      live('run-5', null, 'd', 'running'),
    ];
    const byId = liveRunsOf('e', runs);
    expect([...byId.keys()]).toEqual(['b', 'c']);
    const out = monitorRows(rows, byId);
    expect(out.map((r) => [r.state, r.runId, r.progress, r.evaluations, r.seconds, r.result, r.error])).toEqual([
      ['done', null, null, 600, 1.5, 'HV 0.8123 · 7 on the front', null],
      ['running', 'run-1', 0.5, 300, 0.4, null, null],
      ['paused', 'run-2', 0.2, 120, 0.1, null, null],
      ['missing', null, null, null, null, null, null],
    ]);
    expect(countStates(out)).toEqual({ running: 1, paused: 1, queued: 0, failed: 0, missing: 1, done: 1 });
  });
  it('a run the app saw end shows how it ended, not the "running 0%" the file said while it went', () => {
    // The file was read while these four went; then each ended.
    const inFlight = (id: string, fields: Partial<ExperimentRunRow> = {}) => row(id, { status: 'running', runId: `run-${id}`, ...fields });
    const rows = [
      inFlight('a'),
      inFlight('b'),
      inFlight('c'),
      inFlight('d', { finishedAt: '2025-01-01T00:00:00.000Z', error: 'timed out', elapsedMs: 2000, evaluations: 50 }),
    ];
    const runs = [
      live('run-a', 'e', 'a', 'done', { progress: 0.98, evaluations: 590, seconds: 0.7 }, { result: { evaluations: 600, seconds: 0.75 } } as Partial<LiveRun>),
      live('run-b', 'e', 'b', 'cancelled', { progress: 0.3, evaluations: 180, seconds: 0.2 }),
      live('run-c', 'e', 'c', 'failed', null, { reason: 'worker crashed (exit code 134)' }),
      live('run-d', 'e', 'd', 'cancelled', { progress: 0.1, evaluations: 60, seconds: 0.1 }),
    ];
    // Runs of the session that began at 00:00:05 (those of an earlier one are the file's to tell).
    const out = monitorRows(rows, liveRunsOf('e', runs, '2025-01-01T00:00:05.000Z'));
    expect(monitorRows(rows, liveRunsOf('e', runs, '2025-01-01T00:00:20.000Z')).map((r) => r.state)).toEqual(['running', 'running', 'running', 'running']);
    expect(out.map((r) => [r.state, r.runId, r.progress, r.evaluations, r.seconds, r.error])).toEqual([
      ['done', null, null, 600, 0.75, null],
      // Cancelled: not stored, so missing again (no Pause, no Cancel) ...
      ['missing', null, null, null, null, null],
      ['failed', null, null, null, null, 'worker crashed (exit code 134)'],
      // ... or failed as the file had it, when the cancelled run was a retry.
      ['failed', null, null, 50, 2, 'timed out'],
    ]);
    // Once the file has stored the end, the file's row is shown (with its result line).
    const stored = monitorRows(
      [row('a', { status: 'done', evaluations: 600, elapsedMs: 750, hv: 0.5, frontSize: 3, finishedAt: '2025-01-01T00:00:11.000Z' })],
      liveRunsOf('e', runs, '2025-01-01T00:00:05.000Z'),
    );
    expect(stored[0]).toMatchObject({ state: 'done', result: 'HV 0.5 · 3 on the front' });
  });
  it('the newest app run of a grid run counts (a retry after a cancelled run)', () => {
    const old = live('run-1', 'e', 'a', 'cancelled', null, {
      started: { kind: 'dice', createdAt: '2025-01-01T00:00:10.000Z', experiment: { name: 'e', id: 'a', instance: 'i', label: 'nsga2' } },
    } as Partial<LiveRun>);
    const retry = live('run-2', 'e', 'a', 'running', { progress: 0.4, evaluations: 240, seconds: 0.3 }, {
      started: { kind: 'dice', createdAt: '2025-01-01T00:01:00.000Z', experiment: { name: 'e', id: 'a', instance: 'i', label: 'nsga2' } },
    } as Partial<LiveRun>);
    const since = '2025-01-01T00:00:00.000Z';
    expect(liveRunsOf('e', [retry, old], since).get('a')!.runId).toBe('run-2');
    expect(liveRunsOf('e', [old, retry], since).get('a')!.runId).toBe('run-2');
    expect(monitorRows([row('a', { status: 'running', runId: 'run-2' })], liveRunsOf('e', [old, retry], since))[0]).toMatchObject({
      state: 'running',
      progress: 0.4,
    });
  });
  it('a hypervolume reads as the comparison writes it, 4 significant digits ("1.3310" stood beside "1.177"), here and on the project home', () => {
    for (const [hv, shown] of [
      [1.331, '1.331'],
      [1.1769999, '1.177'],
      [0.64781, '0.6478'],
      [0.5, '0.5'],
      [0.0004, '4.00e-4'],
    ] as const) {
      const r = row('a', { status: 'done', hv, frontSize: 12 });
      expect(resultText(r)).toBe(`HV ${shown} · 12 on the front`);
      expect(projectResultText(r)).toBe(resultText(r));
      expect(formatStat(hv)).toBe(shown);
    }
  });
  it('a failed row keeps its reason; one objective reads f or "no feasible solution"', () => {
    const out = monitorRows(
      [
        row('a', { status: 'failed', error: 'out of memory' }),
        row('b', { status: 'failed', error: 'out of memory' }),
        row('c', { status: 'failed', error: 'timed out' }),
        row('d', { status: 'done', best: 12, feasible: true }),
      ],
      new Map(),
    );
    expect(out.map((r) => r.error)).toEqual(['out of memory', 'out of memory', 'timed out', null]);
    expect(failureReasons(out)).toEqual([
      { reason: 'out of memory', count: 2 },
      { reason: 'timed out', count: 1 },
    ]);
    expect(out[3].result).toBe('f = 12');
    expect(resultText(row('e', { status: 'done', best: null, feasible: false }))).toBe('no feasible solution');
  });
});

describe('sessions', () => {
  it('a session going runs again the runs that had failed before it began, not those that fail in it', () => {
    const [before, during] = monitorRows(
      [
        row('a', { status: 'failed', error: 'x', finishedAt: '2024-12-31T23:59:00.000Z' }),
        row('b', { status: 'failed', error: 'x', finishedAt: '2025-01-01T00:01:00.000Z' }),
      ],
      new Map(),
    );
    expect([retriedBy(before, session({})), retriedBy(during, session({}))]).toEqual([true, false]);
    expect(retriedBy(before, session({ status: 'done' }))).toBe(false);
    expect(retriedBy(before, null)).toBe(false);
  });
  it('counts down the ETA from when it was sent', () => {
    const s = session({});
    expect(etaText(s, 1_000_000, 1_000_000)).toBe('about 1 min 0 s left');
    expect(etaText(s, 1_000_000, 1_030_000)).toBe('about 30 s left');
    // Never "about 0.0 s left" while runs go: past the estimate, it says what is happening.
    expect(etaText(s, 1_000_000, 1_057_900)).toBe('about 3 s left');
    expect(etaText(s, 1_000_000, 1_059_500)).toBe('finishing the runs in flight');
    expect(etaText(s, 1_000_000, 2_000_000)).toBe('finishing the runs in flight');
    expect(etaText(session({ etaMs: 3_400 }), 0, 0)).toBe('about 4 s left');
    expect(etaText(session({ etaMs: null }), 0, 0)).toBe('time left: known once a run has moved');
    expect(etaText(session({ status: 'queued' }), 0, 0)).toBe('waiting for the session before it');
  });
  it('stands still while every run in flight is paused (it counted down through a pause), and counts down while one of them goes', () => {
    const paused = session({ running: ['run-1'], paused: 1, etaMs: 42_000 });
    expect(etaText(paused, 1_000_000, 1_000_000)).toBe('paused: about 42 s left once resumed');
    expect(etaText(paused, 1_000_000, 1_030_000)).toBe('paused: about 42 s left once resumed');
    expect(etaText(session({ running: ['run-1', 'run-2'], paused: 1, etaMs: 42_000 }), 1_000_000, 1_030_000)).toBe('about 12 s left');
    expect(sessionLabel(paused)).toBe('paused');
    expect(sessionLabel(session({ running: ['run-1', 'run-2'], paused: 1 }))).toBe('running');
  });
  it('labels a session "done" only when every run it had to do is done (it said "done" with runs failed or cancelled)', () => {
    expect(sessionLabel(session({ status: 'done', finished: 10 }))).toBe('done');
    expect(sessionLabel(session({ status: 'done', finished: 10, failed: 2 }))).toBe('ended · 2 failed');
    expect(sessionLabel(session({ status: 'done', todo: 1, finished: 0 }))).toBe('ended · 1 not run');
    expect(sessionLabel(session({ status: 'done', finished: 9, failed: 1 }))).toBe('ended · 1 failed, 1 not run');
    expect(sessionLabel(session({ status: 'queued' }), 3)).toBe('queued · 3rd in line');
    expect(['running', 'stopping', 'cancelled', 'failed'].map((status) => sessionLabel(session({ status: status as ExperimentSession['status'] })))).toEqual([
      'running',
      'stopping',
      'cancelled',
      'failed',
    ]);
    // Green is for a session whose runs are all done.
    expect(sessionTone(session({ status: 'done', todo: 1, finished: 0 }))).toBe('queued');
  });
  it('the project home\'s session line says a session that ended with failed or cancelled runs is no "done", and names the failed runs once', () => {
    expect(sessionText(session({ status: 'done', finished: 10 }))).toBe('done · 10 of 10 runs');
    expect(sessionText(session({ status: 'done', finished: 10, failed: 2 }))).toBe('ended · 2 failed · 10 of 10 runs');
    expect(sessionText(session({ status: 'done', finished: 9, failed: 1 }))).toBe('ended · 1 failed, 1 not run · 9 of 10 runs');
    expect(sessionText(session({ status: 'cancelled', finished: 4, failed: 1 }))).toBe('cancelled · 4 of 10 runs · 1 failed');
  });
  it('a missing run the session going will start reads "queued"; a run it cancelled, or any once it is stopping, "missing"', () => {
    const rows = [row('a'), row('b'), row('c', { status: 'done' })];
    const cancelled = new Map([['b', live('run-1', 'e', 'b', 'cancelled')]]);
    expect(monitorRows(rows, cancelled, session({ status: 'running' })).map((r) => r.state)).toEqual(['queued', 'missing', 'done']);
    expect(monitorRows(rows, cancelled, session({ status: 'queued' })).map((r) => r.state)).toEqual(['queued', 'missing', 'done']);
    expect(monitorRows(rows, cancelled, session({ status: 'stopping' })).map((r) => r.state)).toEqual(['missing', 'missing', 'done']);
    expect(monitorRows(rows, cancelled, session({ status: 'done' })).map((r) => r.state)).toEqual(['missing', 'missing', 'done']);
    expect(monitorRows(rows, new Map(), null).map((r) => r.state)).toEqual(['missing', 'missing', 'done']);
  });
  it('says how a session ended', () => {
    expect(sessionEnd(session({ status: 'done', finished: 10 }))).toBe('finished');
    expect(sessionEnd(session({ status: 'done', finished: 10, failed: 2 }))).toBe('finished; 2 failed');
    expect(sessionEnd(session({ status: 'done', finished: 9 }))).toBe('ended with 1 run not run (cancelled)');
    expect(sessionEnd(session({ status: 'cancelled', finished: 4 }))).toBe('cancelled; 6 runs not run');
    expect(sessionEnd(session({ status: 'failed', error: 'the project was closed' }))).toBe('failed: the project was closed');
    expect(sessionCounts(session({ failed: 1 }))).toBe('4 of 10 runs · 1 failed');
    expect(sessionCounts(session({ todo: 1, finished: 0 }))).toBe('0 of 1 run');
  });
  it("the status badge's tone: a failure shows while the session runs, a queued one is grey", () => {
    expect(sessionTone(session({ status: 'done', finished: 10 }))).toBe('ok');
    expect(sessionTone(session({ status: 'done', failed: 1 }))).toBe('bad');
    expect(sessionTone(session({ status: 'running', failed: 2 }))).toBe('bad');
    expect(sessionTone(session({ status: 'failed' }))).toBe('bad');
    expect(sessionTone(session({ status: 'queued' }))).toBe('queued');
    expect(['running', 'stopping', 'cancelled'].map((status) => sessionTone(session({ status: status as ExperimentSession['status'] })))).toEqual([
      'running',
      'running',
      'running',
    ]);
  });
  it('durations and places', () => {
    expect([860, 9_949, 9_960, 75_000, 7_500_000].map(formatDuration)).toEqual(['0.9 s', '9.9 s', '10 s', '1 min 15 s', '2 h 5 min']);
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 101].map(ordinal)).toEqual(['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '101st']);
  });

  it('percentages round down: 100% only at 1, and 0.29 is 29 (not 28.999…)', () => {
    expect([0, 0.29, 0.5, 0.57, 0.99, 0.996, 0.999999, 1, 1.2, -0.1].map(wholePercent)).toEqual([0, 29, 50, 57, 99, 99, 99, 100, 100, 0]);
  });
});
