// An experiment session of the app (ProjectService) says 100% only once its runs have ended:
// a run whose solver has spent its whole budget (progress 1) is still in flight until its
// outcome is back and stored. The runs are fakes whose snapshots and outcomes the test sends,
// so the order is the test's, not the machine's (the e2e test of experiments once read a run
// as running right after the page showed 100%, on a loaded machine).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ExperimentRunRow, ExperimentSession } from '../../../src-shared/projects/project-api.ts';
import type { RunStarted } from '../../../src-shared/api.ts';
import { Emitter } from '../../../src-shared/base/disposable.ts';
import { ApiEventHub } from '../../../src-main/app/events.ts';
import type { AnyRunPlan, LaunchedRun } from '../../../src-main/app/launcher.ts';
import { workspacePaths } from '../../../src-main/app/project-paths.ts';
import { ProjectService } from '../../../src-main/app/project-service.ts';
import type { RunService } from '../../../src-main/app/run-service.ts';
import { runInline } from '../../../src-main/app/experiment-executor.ts';
import { plannedRuns, PROGRESS_WHILE_IN_FLIGHT, sessionProgress } from '../../../src-main/experiments/runner.ts';
import { validateSpec } from '../../../src-shared/experiments/spec.ts';
import type { RunOutcome } from '../../../src-main/host/pool.ts';
import { commandLineGate } from '../../../src-main/app/program-gate.ts';

const SPEC = {
  name: 'two',
  instances: [{ name: 'so-n10', track: 'so', n: 10 }],
  solvers: [{ name: 'random' }],
  seeds: { count: 2 },
  budget: { evaluations: 20 },
};

/** A launched run the test drives: its snapshots and its end are sent by hand. */
class FakeRun {
  readonly status = new Emitter<string>();
  readonly snapshot = new Emitter<{ progress: number }>();
  end!: (outcome: RunOutcome) => void;
  readonly outcome = new Promise<RunOutcome>((resolve) => (this.end = resolve));
  cancelled = false;
  constructor(
    readonly runId: string,
    readonly plan: AnyRunPlan,
  ) {}
  handle(): LaunchedRun {
    return {
      id: this.runId,
      onStatus: (l: (s: string) => void) => this.status.listen(l),
      onSnapshot: (l: (s: { progress: number }) => void) => this.snapshot.listen(l),
      outcome: this.outcome,
    } as unknown as LaunchedRun;
  }
}

/** The part of the RunService a session uses, with runs that wait for the test. */
function fakeRunService() {
  const launched: FakeRun[] = [];
  const waiters: ((run: FakeRun) => void)[] = [];
  const service = {
    workerMemoryLimitMb: null,
    launchPrepared(plan: AnyRunPlan) {
      const run = new FakeRun(`run-${launched.length + 1}`, plan);
      launched.push(run);
      waiters.shift()?.(run);
      return { started: { ...plan.started, runId: run.runId, createdAt: new Date().toISOString() } as RunStarted, handle: run.handle() };
    },
    cancel(runId: string) {
      const run = launched.find((r) => r.runId === runId);
      if (run) run.cancelled = true;
      return !!run;
    },
  };
  /** The next run launched (or the one launched already and not yet taken). */
  let taken = 0;
  const next = () => new Promise<FakeRun>((resolve) => (taken < launched.length ? resolve(launched[taken++]) : waiters.push((r) => (taken++, resolve(r)))));
  return { service: service as unknown as RunService, next };
}

let workspace: string;
beforeEach(() => {
  workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-session-progress-'));
});
afterEach(() => fs.rmSync(workspace, { recursive: true, force: true }));

describe('an experiment session', () => {
  it('reaches progress 1 (100%) only when it is done, with no run of it still listed as running', async () => {
    const events = new ApiEventHub();
    const { service, next } = fakeRunService();
    const projects = new ProjectService(service, events, workspacePaths(workspace), 1, commandLineGate());
    await projects.create('p.saikoro');
    await projects.addExperiment(SPEC);
    // Real results of these two runs, computed in this process, for the fakes to hand back.
    const results = new Map(await Promise.all(plannedRuns(validateSpec(SPEC)).map(async (r) => [r.seed, (await runInline(r)).result] as const)));

    // Each session event, with what listExperimentRuns said at that moment.
    const seen: { session: ExperimentSession; rows: ExperimentRunRow['status'][] }[] = [];
    let ended!: () => void;
    const over = new Promise<void>((resolve) => (ended = resolve));
    events.attach((m) => {
      if (m.event !== 'onExperimentSession') return;
      const session = m.payload as ExperimentSession;
      seen.push({ session, rows: projects.listExperimentRuns('two').map((r) => r.status) });
      if (session.status === 'done') ended();
    });

    projects.runExperiment('two', { jobs: 1 });
    for (const seed of [1, 2]) {
      const run = await next();
      expect(run.plan.started).toMatchObject({ seed });
      run.status.fire('running');
      run.snapshot.fire({ progress: 0.5 });
      // The solver has spent its budget; the worker's result is not back yet.
      run.snapshot.fire({ progress: 1 });
      expect(projects.listExperimentRuns('two').find((r) => r.seed === seed)?.status).toBe('running');
      expect(projects.sessionList()[0]).toMatchObject({ status: 'running' });
      // Under what any rounding shows as 100% (the monitor rounds down).
      expect(projects.sessionList()[0].progress).toBeLessThan(0.995);
      run.end({ status: 'done', result: results.get(seed)!, reason: null });
    }
    await over;

    // Sent: queued, running, each run stored, done (the ticks between are sent at most every 250 ms).
    expect(seen.length).toBeGreaterThanOrEqual(5);
    for (const { session, rows } of seen) {
      // What the monitor shows as 100% (and everything from 99.5% rounds there): said only by the done session.
      if (session.progress >= 0.995) expect(session.status).toBe('done');
      if (session.status === 'done') expect(rows).toEqual(['done', 'done']);
    }
    expect(seen.at(-1)!.session).toMatchObject({ status: 'done', progress: 1, finished: 2, failed: 0 });
    expect(projects.listExperimentRuns('two').map((r) => r.status)).toEqual(['done', 'done']);
    await projects.close();
    projects.dispose();
  });
});

describe('sessionProgress', () => {
  it('counts runs in flight by their own progress, and says 1 only with none in flight', () => {
    expect(sessionProgress(0, 0, 0, 0)).toBe(1);
    expect(sessionProgress(1, 0.5, 4, 1)).toBeCloseTo(0.375, 12);
    expect(sessionProgress(3, 1, 4, 1)).toBe(PROGRESS_WHILE_IN_FLIGHT);
    expect(sessionProgress(2, 2, 4, 2)).toBe(PROGRESS_WHILE_IN_FLIGHT);
    expect(sessionProgress(4, 0, 4, 0)).toBe(1);
    expect(PROGRESS_WHILE_IN_FLIGHT).toBeLessThan(0.995);
  });
});
