import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { validateSpec } from '../../../src-shared/experiments/spec.ts';
import type { SolverResult } from '../../../src-shared/solvers/types.ts';
import { addExperiment } from '../../../src-main/experiments/add.ts';
import { experimentProgress } from '../../../src-main/experiments/merge.ts';
import { experimentStatus, plannedRuns, runExperiment, type Executor, type ProgressEvent, type RunProgress } from '../../../src-main/experiments/runner.ts';
import type { RunSpec } from '../../../src-shared/experiments/grid.ts';
import { Project } from '../../../src-main/project/store.ts';

let dir: string;
let project: Project;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-runner-'));
  project = Project.create(path.join(dir, 'p.saikoro'));
});
afterEach(() => {
  project.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const spec = validateSpec({
  name: 'grid',
  instances: [{ name: 'so-n10', n: 10 }],
  solvers: [{ name: 'random' }],
  seeds: { count: 6 },
  budget: { evaluations: 10 },
});

/** A scripted executor: each run takes 2 s on the clock `log.now` (solver time, or wall time for the failure), reports halfway; seed 3 fails. */
function fakeExecutor(log: { inFlight: number; maxInFlight: number; now?: number }): Executor {
  return {
    async execute(run, onProgress) {
      log.inFlight++;
      log.maxInFlight = Math.max(log.maxInFlight, log.inFlight);
      // A turn of the event loop stands for the run's work: the other workers run meanwhile.
      await new Promise((r) => setImmediate(r));
      if (log.now !== undefined) log.now += 1000;
      onProgress?.({ fraction: 0.5 });
      await new Promise((r) => setImmediate(r));
      if (log.now !== undefined) log.now += 1000;
      log.inFlight--;
      const now = new Date();
      if (run.seed === 3) return { status: 'failed', result: null, error: 'boom', startedAt: new Date(now.getTime() - 2000), finishedAt: now };
      // The fields the store checks (project/records.ts); nothing found, so no solutions.
      const result = {
        solver: run.solver,
        seed: run.seed,
        seconds: 2,
        evaluations: 10,
        best: null,
        bestFoundAt: null,
        firstFeasibleAt: null,
        front: [],
        trace: [],
      } as unknown as SolverResult;
      return { status: 'done', result, error: null, startedAt: now, finishedAt: now };
    },
    dispose() {},
  };
}

describe('runExperiment', () => {
  it('runs with at most `jobs` in flight, stores every outcome, reports progress and an ETA', async () => {
    // Jobs run one after the other on this clock (each adds 2 s), so the times are the test's.
    const log = { inFlight: 0, maxInFlight: 0, now: 0 };
    const events: ProgressEvent[] = [];
    const overall: number[] = [];
    const summary = await runExperiment(plannedRuns(spec), {
      executor: fakeExecutor(log),
      jobs: 2,
      target: project,
      now: () => log.now,
      onProgress: (e) => events.push(e),
      onTick: (t) => overall.push(t.overall),
    });
    expect(summary).toEqual({ total: 6, skipped: 0, done: 5, failed: 1, remaining: 0, remote: 0, refused: null });
    expect(log.maxInFlight).toBe(2);
    expect(events.map((e) => e.finished)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(events.at(-1)!.etaMs).toBe(0);
    expect(events.find((e) => e.run.seed === 3)).toMatchObject({ status: 'failed', error: 'boom' });
    expect(overall.some((v) => v > 0 && v < 1)).toBe(true);
    expect(Math.max(...overall)).toBeLessThanOrEqual(1);
    const status = experimentStatus(spec, project.runStatuses());
    expect(status).toMatchObject({ total: 6, done: 5, failed: 1, missing: 0 });
    expect(project.runs().find((r) => r.seed === 3)).toMatchObject({ status: 'failed', error: 'boom', result: null });
  });

  it('retries only failed runs the next time, and stops when asked', async () => {
    const log = { inFlight: 0, maxInFlight: 0 };
    await runExperiment(plannedRuns(spec), { executor: fakeExecutor(log), jobs: 1, target: project });
    let started = 0;
    const again = await runExperiment(plannedRuns(spec), { executor: fakeExecutor(log), jobs: 1, target: project, onProgress: () => started++ });
    expect(again).toMatchObject({ skipped: 5, done: 0, failed: 1 });
    expect(started).toBe(1);

    const other = Project.create(path.join(dir, 'q.saikoro'));
    let calls = 0;
    const stopped = await runExperiment(plannedRuns(spec), { executor: fakeExecutor(log), jobs: 1, target: other, shouldStop: () => calls++ >= 2 });
    expect(stopped).toMatchObject({ total: 6, done: 2, remaining: 4 });
    expect(other.runs()).toHaveLength(2);
    other.close();
  });
});

describe('a run the program gate refuses', () => {
  it('is not stored, and stops the session with why: a failed run would be retried and refused for ever', async () => {
    const log = { inFlight: 0, maxInFlight: 0 };
    const runs = plannedRuns(spec);
    const done = fakeExecutor(log);
    let executed = 0;
    const refusing: Executor = {
      async execute(run, onProgress) {
        executed++;
        const now = new Date();
        if (run.seed === 2)
          return { status: 'refused', result: null, error: 'solver random: ga.py has changed since the experiment was added', startedAt: now, finishedAt: now };
        return done.execute(run, onProgress);
      },
      dispose() {},
    };
    const events: ProgressEvent[] = [];
    const summary = await runExperiment(runs, { executor: refusing, jobs: 1, target: project, onProgress: (e) => events.push(e) });
    expect(summary).toEqual({
      total: 6,
      skipped: 0,
      done: 1,
      failed: 0,
      remaining: 5,
      remote: 0,
      refused: 'solver random: ga.py has changed since the experiment was added',
    });
    // Seed 1 ran, seed 2 was refused, nothing after it started.
    expect(executed).toBe(2);
    expect(events.map((e) => e.run.seed)).toEqual([1]);
    expect(project.runs().map((r) => `${r.seed} ${r.status}`)).toEqual(['1 done']);
    expect(experimentStatus(spec, project.runStatuses())).toMatchObject({ done: 1, failed: 0, missing: 5 });
  });
});

describe('runExperiment on a project it cannot write', () => {
  it('refuses before running anything when there is something to run; with nothing to run it is fine', async () => {
    const log = { inFlight: 0, maxInFlight: 0 };
    const file = path.join(dir, 'p.saikoro');
    const readOnly = Project.open(file, { readOnly: true });
    try {
      await expect(runExperiment(plannedRuns(spec), { executor: fakeExecutor(log), jobs: 2, target: readOnly })).rejects.toThrow(
        `${file}: cannot store runs there: opened read-only; nothing was run`,
      );
      expect(log.maxInFlight).toBe(0);
    } finally {
      readOnly.close();
    }
    await runExperiment(plannedRuns(spec), { executor: fakeExecutor(log), jobs: 1, target: project });
    const failedOnly = plannedRuns(spec).filter((r) => r.seed !== 3);
    const again = Project.open(file, { readOnly: true });
    try {
      expect(await runExperiment(failedOnly, { executor: fakeExecutor(log), jobs: 1, target: again })).toMatchObject({ total: 5, skipped: 5 });
    } finally {
      again.close();
    }
  });
});

/**
 * A session on a simulated clock: each run takes the time its cell and seed give it, reports its
 * progress every 250 ms, and may be paused for a while. The runs' real end is known, so every
 * time left the runner said can be held against the time that was really left then.
 */
async function simulate(
  runs: RunSpec[],
  options: { jobs: number; lengthMs: (run: RunSpec) => number; pause?: { seed: number; atMs: number; forMs: number }; solverSeconds?: boolean },
): Promise<{
  ticks: { at: number; etaMs: number | null; paused: number }[];
  starts: Map<RunSpec, number>;
  endedAt: number;
  summary: Awaited<ReturnType<typeof runExperiment>>;
}> {
  let clock = 0;
  const STEP = 250;
  const starts = new Map<RunSpec, number>();
  const active: { run: RunSpec; started: number; pausedMs: number; report: (p: RunProgress) => void; end: () => void }[] = [];
  const executor: Executor = {
    execute: (run, onProgress) =>
      new Promise((resolve) => {
        const started = clock;
        starts.set(run, started);
        active.push({
          run,
          started,
          pausedMs: 0,
          report: (p) => onProgress?.(p),
          end: () => {
            const result = {
              solver: run.solver,
              seed: run.seed,
              seconds: (clock - started) / 1000,
              evaluations: 10,
              best: null,
              bestFoundAt: null,
              firstFeasibleAt: null,
              front: [],
              trace: [],
            } as unknown as SolverResult;
            resolve({ status: 'done', result, error: null, startedAt: new Date(started), finishedAt: new Date(clock) });
          },
        });
      }),
    dispose() {},
  };
  const ticks: { at: number; etaMs: number | null; paused: number }[] = [];
  // The solver's own time (paused time left out), as the executor reports it; or none, as a program may not.
  const seconds = (ms: number) => (options.solverSeconds === false ? {} : { seconds: ms / 1000 });
  let over = false;
  const session = runExperiment(runs, {
    executor,
    jobs: options.jobs,
    target: project,
    now: () => clock,
    onTick: (t) => ticks.push({ at: clock, etaMs: t.etaMs, paused: t.paused }),
  }).then((summary) => {
    over = true;
    return summary;
  });
  const settle = async () => {
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
  };
  await settle();
  while (!over) {
    clock += STEP;
    for (const a of [...active]) {
      const pause = options.pause && options.pause.seed === a.run.seed ? options.pause : null;
      const pausedNow = pause !== null && clock > pause.atMs && clock <= pause.atMs + pause.forMs;
      if (pausedNow) {
        a.pausedMs += STEP;
        a.report({ fraction: (clock - a.started - a.pausedMs) / options.lengthMs(a.run), ...seconds(clock - a.started - a.pausedMs), paused: true });
        continue;
      }
      const ran = clock - a.started - a.pausedMs;
      if (ran >= options.lengthMs(a.run)) {
        active.splice(active.indexOf(a), 1);
        a.end();
      } else a.report({ fraction: ran / options.lengthMs(a.run), ...seconds(ran), paused: false });
    }
    await settle();
    if (clock > 10 * 60_000) throw new Error('the simulated session did not end');
  }
  return { ticks, starts, endedAt: clock, summary: await session };
}

describe('the time left of a session', () => {
  // One instance, two solvers, six seeds each: random's runs take about 1 s, then (grid order)
  // the slow solver's about 6 s. With 2 jobs, the session's mean rate said 3 s when 18 s were left.
  const twoSolvers = validateSpec({
    name: 'slow-behind-fast',
    instances: [{ name: 'so-n10', n: 10 }],
    solvers: [{ name: 'random' }, { name: 'random', label: 'slow' }],
    seeds: { count: 6 },
    budget: { evaluations: 10 },
  });
  const lengthOf = (run: RunSpec) => (run.label === 'slow' ? 6000 : 1000) * (1 + 0.05 * (run.seed % 3));

  it('is the time really left (within 10 %) once a run of every cell that is left has moved, with slow runs waiting behind fast ones', async () => {
    const { ticks, starts, endedAt, summary } = await simulate(plannedRuns(twoSolvers), { jobs: 2, lengthMs: lengthOf });
    expect(summary).toMatchObject({ done: 12, failed: 0 });
    // From half a second after the first slow run started (it has moved 8 %).
    const firstSlowMoved = Math.min(...[...starts].filter(([run]) => run.label === 'slow').map(([, at]) => at)) + 500;
    const checked = ticks.filter((t) => t.at >= firstSlowMoved && endedAt - t.at >= 1000);
    expect(checked.length).toBeGreaterThan(20);
    for (const t of checked) {
      expect(t.etaMs, `at ${t.at} ms`).not.toBeNull();
      expect(t.etaMs! / (endedAt - t.at), `at ${t.at} ms: said ${t.etaMs} ms, ${endedAt - t.at} ms left`).toBeGreaterThan(0.9);
      expect(t.etaMs! / (endedAt - t.at), `at ${t.at} ms: said ${t.etaMs} ms, ${endedAt - t.at} ms left`).toBeLessThan(1.1);
    }
  });

  it('scales a cell that has not started by its size (evaluations × N) before any run of it has moved', async () => {
    const twoSizes = validateSpec({
      name: 'small-then-large',
      instances: [
        { name: 'so-n10', n: 10 },
        { name: 'so-n60', n: 60 },
      ],
      solvers: [{ name: 'random' }],
      seeds: { count: 4 },
      budget: { evaluations: 10 },
    });
    // A run's time grows with N here, as the evaluator's work does.
    const { ticks, endedAt } = await simulate(plannedRuns(twoSizes), { jobs: 2, lengthMs: (run) => run.config.n * 100 });
    // Once a small run has moved (1 % of 1 s) and until the large ones start (at 2 s).
    const before = ticks.filter((t) => t.at >= 250 && t.at < 2000);
    expect(before.length).toBeGreaterThan(3);
    for (const t of before) expect(t.etaMs! / (endedAt - t.at), `at ${t.at} ms`).toBeCloseTo(1, 1);
  });

  it('is known in a one-run session once the run has moved, and counts it down', async () => {
    const one = validateSpec({
      name: 'one',
      instances: [{ name: 'so-n10', n: 10 }],
      solvers: [{ name: 'random' }],
      seeds: { count: 1 },
      budget: { evaluations: 10 },
    });
    const { ticks, endedAt } = await simulate(plannedRuns(one), { jobs: 4, lengthMs: () => 8000 });
    const moving = ticks.filter((t) => t.at >= 250 && t.at < endedAt);
    expect(moving.length).toBeGreaterThan(20);
    for (const t of moving) expect(t.etaMs, `at ${t.at} ms`).toBeCloseTo(endedAt - t.at, 6);
  });

  it('stands still while the one run in flight is paused, and does not count the pause', async () => {
    const one = validateSpec({
      name: 'paused',
      instances: [{ name: 'so-n10', n: 10 }],
      solvers: [{ name: 'random' }],
      seeds: { count: 1 },
      budget: { evaluations: 10 },
    });
    const { ticks, endedAt } = await simulate(plannedRuns(one), { jobs: 1, lengthMs: () => 4000, pause: { seed: 1, atMs: 1000, forMs: 5000 } });
    expect(endedAt).toBe(9000);
    const during = ticks.filter((t) => t.paused === 1);
    expect(during.length).toBeGreaterThan(10);
    // 3 s of the run are left at the pause, and still when it ends.
    for (const t of during) expect(t.etaMs, `at ${t.at} ms`).toBeCloseTo(3000, 6);
    for (const t of ticks.filter((t) => t.at > 6000 && t.at < endedAt)) expect(t.etaMs, `at ${t.at} ms`).toBeCloseTo(endedAt - t.at, 6);
  });

  it('stands still through a pause of a run that reports no solver time: the time it held its job leaves the pause out', async () => {
    const one = validateSpec({
      name: 'paused-no-seconds',
      instances: [{ name: 'so-n10', n: 10 }],
      solvers: [{ name: 'random' }],
      seeds: { count: 1 },
      budget: { evaluations: 10 },
    });
    const { ticks, endedAt } = await simulate(plannedRuns(one), {
      jobs: 1,
      lengthMs: () => 4000,
      pause: { seed: 1, atMs: 1000, forMs: 5000 },
      solverSeconds: false,
    });
    expect(endedAt).toBe(9000);
    const during = ticks.filter((t) => t.paused === 1);
    expect(during.length).toBeGreaterThan(10);
    // The pause is known at its first report, a step (250 ms) after it began here: from then on the
    // estimate stands still, at what was left of the run then (3 s, less that step at most).
    for (const t of during) expect(t.etaMs, `at ${t.at} ms`).toBe(during[0].etaMs);
    expect(during[0].etaMs).toBeGreaterThanOrEqual(2750);
    expect(during[0].etaMs).toBeLessThanOrEqual(3000);
    for (const t of ticks.filter((t) => t.at > 6250 && t.at < endedAt)) expect(t.etaMs, `at ${t.at} ms`).toBeCloseTo(endedAt - t.at, 6);
  });
});

describe('experimentStatus', () => {
  const two = validateSpec({
    name: 'two',
    instances: [
      { name: 'so-n10', n: 10 },
      { name: 'so-n12', n: 12 },
    ],
    solvers: [{ name: 'random' }],
    seeds: { count: 3 },
    budget: { evaluations: 10 },
  });

  it('counts done, failed and missing runs in all and per cell, and names each run not done in grid order', () => {
    const runs = plannedRuns(two);
    // so-n10: seed 1 done, seed 2 failed, seed 3 missing; so-n12: all done but seed 3 failed.
    const statuses = new Map<string, 'done' | 'failed'>([
      [runs[0].id, 'done'],
      [runs[1].id, 'failed'],
      [runs[3].id, 'done'],
      [runs[4].id, 'done'],
      [runs[5].id, 'failed'],
      ['not-a-run-of-the-grid', 'done'],
    ]);
    const notDone: [string, number, string][] = [];
    const status = experimentStatus(two, statuses, undefined, (run, s) => notDone.push([run.instance, run.seed, s]));
    expect(status).toEqual({
      name: 'two',
      total: 6,
      done: 3,
      failed: 2,
      missing: 1,
      cells: [
        { instance: 'so-n10', label: 'random', total: 3, done: 1, failed: 1 },
        { instance: 'so-n12', label: 'random', total: 3, done: 2, failed: 1 },
      ],
    });
    expect(notDone).toEqual([
      ['so-n10', 2, 'failed'],
      ['so-n10', 3, 'missing'],
      ['so-n12', 3, 'failed'],
    ]);
  });

  it('is what saikoro merge reports of an experiment (experimentProgress)', async () => {
    addExperiment(project, spec);
    await runExperiment(plannedRuns(spec).slice(0, 4), { executor: fakeExecutor({ inFlight: 0, maxInFlight: 0 }), jobs: 1, target: project });
    const [progress] = experimentProgress(project, ['grid']);
    const status = experimentStatus(spec, project.runStatuses());
    expect(progress).toMatchObject({ name: 'grid', total: status.total, done: status.done, failed: status.failed, missing: status.missing });
    expect([status.done, status.failed, status.missing]).toEqual([3, 1, 2]);
    expect(progress.notDone.map((r) => [r.seed, r.status])).toEqual([
      [3, 'failed'],
      [5, 'missing'],
      [6, 'missing'],
    ]);
  });
});
