import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { validateSpec } from '../../../src-shared/experiments/spec.ts';
import type { SolverResult } from '../../../src-shared/solvers/types.ts';
import { addExperiment } from '../../../src-main/experiments/add.ts';
import { experimentProgress } from '../../../src-main/experiments/merge.ts';
import { estimateLeftMs, experimentStatus, plannedRuns, runExperiment, type Executor, type ProgressEvent } from '../../../src-main/experiments/runner.ts';
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

/** A scripted executor: each run takes 2 s (solver time, or wall time for the failure), reports halfway; seed 3 fails. */
function fakeExecutor(log: { inFlight: number; maxInFlight: number }): Executor {
  return {
    async execute(run, onProgress) {
      log.inFlight++;
      log.maxInFlight = Math.max(log.maxInFlight, log.inFlight);
      await new Promise((r) => setTimeout(r, 5));
      onProgress?.(0.5);
      await new Promise((r) => setTimeout(r, 5));
      log.inFlight--;
      const now = new Date();
      if (run.seed === 3) return { status: 'failed', result: null, error: 'boom', startedAt: new Date(now.getTime() - 2000), finishedAt: now };
      // The fields the store checks (project/records.ts); nothing found, so no solutions.
      const result = { solver: run.solver, seed: run.seed, seconds: 2, evaluations: 10, best: null, bestFoundAt: null, firstFeasibleAt: null, front: [], trace: [] } as unknown as SolverResult;
      return { status: 'done', result, error: null, startedAt: now, finishedAt: now };
    },
    dispose() {},
  };
}

describe('runExperiment', () => {
  it('runs with at most `jobs` in flight, stores every outcome, reports progress and an ETA', async () => {
    const log = { inFlight: 0, maxInFlight: 0 };
    const events: ProgressEvent[] = [];
    const overall: number[] = [];
    const summary = await runExperiment(plannedRuns(spec), {
      executor: fakeExecutor(log),
      jobs: 2,
      target: project,
      onProgress: (e) => events.push(e),
      onTick: (t) => overall.push(t.overall),
    });
    expect(summary).toEqual({ total: 6, skipped: 0, done: 5, failed: 1, remaining: 0 });
    expect(log.maxInFlight).toBe(2);
    expect(events.map((e) => e.finished)).toEqual([1, 2, 3, 4, 5, 6]);
    // Every run took 2 s of solver time: ETA = 2 s × runs left / 2 jobs.
    expect(events.map((e) => e.etaMs)).toEqual([5000, 4000, 3000, 2000, 1000, 0]);
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

describe('runExperiment on a project it cannot write', () => {
  it('refuses before running anything when there is something to run; with nothing to run it is fine', async () => {
    const log = { inFlight: 0, maxInFlight: 0 };
    const file = path.join(dir, 'p.saikoro');
    const readOnly = Project.open(file, { readOnly: true });
    try {
      await expect(runExperiment(plannedRuns(spec), { executor: fakeExecutor(log), jobs: 2, target: readOnly })).rejects.toThrow(`${file}: cannot store runs there: opened read-only; nothing was run`);
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

describe('estimateLeftMs', () => {
  it('is unknown before a run has finished', () => {
    expect(estimateLeftMs({ elapsedMs: 5000, overall: 0.3, finished: 0, running: [{ fraction: 0.6, elapsedMs: 5000 }] })).toBeNull();
  });
  it('goes by the session rate while every job is busy', () => {
    // 4 of 10 runs in 8 s, two in flight at half: 5/10 done in 8 s, so 8 s more.
    expect(estimateLeftMs({ elapsedMs: 8000, overall: 0.5, finished: 4, running: [{ fraction: 0.5, elapsedMs: 1000 }, { fraction: 0.5, elapsedMs: 1000 }] })).toBeCloseTo(8000, 9);
  });
  it('at the end goes by the last run in flight (it said 0 s with 3 s to go)', () => {
    // 9 of 10 done in 4.5 s with 2 jobs; the last run is a slow one, a quarter through after 1 s.
    // The mean run time (1 s) times one run over two jobs says 0.5 s; it has 3 s to go.
    expect(estimateLeftMs({ elapsedMs: 4500, overall: 0.925, finished: 9, running: [{ fraction: 0.25, elapsedMs: 1000 }] })).toBeCloseTo(3000, 9);
  });
});

describe('experimentStatus', () => {
  const two = validateSpec({
    name: 'two',
    instances: [{ name: 'so-n10', n: 10 }, { name: 'so-n12', n: 12 }],
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
    expect(notDone).toEqual([['so-n10', 2, 'failed'], ['so-n10', 3, 'missing'], ['so-n12', 3, 'failed']]);
  });

  it('is what saikoro merge reports of an experiment (experimentProgress)', async () => {
    addExperiment(project, spec);
    await runExperiment(plannedRuns(spec).slice(0, 4), { executor: fakeExecutor({ inFlight: 0, maxInFlight: 0 }), jobs: 1, target: project });
    const [progress] = experimentProgress(project, ['grid']);
    const status = experimentStatus(spec, project.runStatuses());
    expect(progress).toMatchObject({ name: 'grid', total: status.total, done: status.done, failed: status.failed, missing: status.missing });
    expect([status.done, status.failed, status.missing]).toEqual([3, 1, 2]);
    expect(progress.notDone.map((r) => [r.seed, r.status])).toEqual([[3, 'failed'], [5, 'missing'], [6, 'missing']]);
  });
});
