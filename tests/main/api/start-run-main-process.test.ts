// A multi-objective startRun does no heavy work in the main process and waits for none (issue
// 21: M = 2 at N = 300,000 took 258 s to answer and held up every other request): it answers at
// once, and the HV normalisation's 1000 random sequences are computed in a worker process, with
// exactly the numbers the main side computed before, while the run is listed as queued; other
// calls are answered meanwhile; a run cancelled meanwhile stops that worker; a call whose client
// has gone launches nothing. The order is checked by holding the normalisation, not by a clock.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type * as HvReference from '../../../src-shared/problems/dice/hv-reference.ts';
import { trackConfig } from '../../../src-shared/problems/dice/config.ts';
import { withRequestSignal } from '../../../src-main/app/request-context.ts';
import { hvNormalisationFor, knownHvNormalisation } from '../../../src-main/app/dice.ts';
import { planRun } from '../../../src-main/app/runs.ts';
import { apiHarness, within } from './harness.ts';

// Counts every call of the normalisation in this (the main) process; workers are other processes.
const calls = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../../src-shared/problems/dice/hv-reference.ts', async (importOriginal) =>
  (await import('../../helpers/normalisation-calls.ts')).countingHvReference(await importOriginal<typeof HvReference>(), calls),
);

const harness = apiHarness(1);
afterAll(() => harness.dispose());

/** The normalisation as the main side computed it before (the real function, not counted). */
async function expected(config: ReturnType<typeof trackConfig>) {
  const real = await vi.importActual<typeof HvReference>('../../../src-shared/problems/dice/hv-reference.ts');
  return real.diceHvNormalisation(config);
}

describe('the normalisation of a multi-objective run', () => {
  it('is computed in a worker, with exactly the numbers of diceHvNormalisation, once per config', async () => {
    calls.count = 0;
    for (const config of [trackConfig('mo2', 840), trackConfig('mo3', 120), trackConfig('mo7', 30)]) {
      const [a, b] = await within(
        Promise.all([hvNormalisationFor(harness.launcher, config), hvNormalisationFor(harness.launcher, config)]),
        60_000,
        'normalisation',
      );
      expect(a).toEqual(await expected(config));
      expect(b).toBe(a);
      expect(await hvNormalisationFor(harness.launcher, config)).toBe(a);
    }
    expect(calls.count).toBe(0);
  });

  it('startRun answers before the normalisation is computed; the run waits, listed as queued, and starts with it', async () => {
    calls.count = 0;
    const held = holdNormalisation();
    try {
      const order: string[] = [];
      const config = { n: 3000, objectives: trackConfig('mo2', 3000).objectives };
      let runId: string | undefined;
      const run = harness.follow<'dice'>(() => runId);
      const started = await within(harness.api.startRun({ config, solver: 'random', seed: 3, evaluations: 200 }), 30_000, 'startRun');
      order.push('answered');
      runId = started.runId;
      expect(started.kind === 'dice' && started.hvNormalisation).toBeNull();
      // Other calls are answered meanwhile, and tell the truth about the run.
      const listed = (await harness.api.listRuns()).find((r) => r.runId === runId)!;
      expect([listed.status, listed.snapshot, listed.started.kind === 'dice' && listed.started.hvNormalisation]).toEqual(['queued', null, null]);
      expect((await harness.api.getAppInfo()).name).toBe('saikoro');
      expect(held.signals).toHaveLength(1);
      void run.snapshotWhere(() => true).then(() => order.push('first snapshot'));
      order.push('released');
      held.release();
      const end = await within(run.finished, 60_000, 'the run');
      expect(end.status).toBe('done');
      expect(order).toEqual(['answered', 'released', 'first snapshot']);
      const info = (await harness.api.getRun(runId))!;
      expect(info.started.kind === 'dice' && info.started.hvNormalisation).toEqual(await expected(trackConfig('mo2', 3000)));
      expect(calls.count).toBe(0);
    } finally {
      held.restore();
    }
  });

  it('a run cancelled while it is prepared stops the normalisation and never reaches a worker', async () => {
    const held = holdNormalisation();
    try {
      const config = { n: 3001, objectives: trackConfig('mo3', 3001).objectives };
      let runId: string | undefined;
      const run = harness.follow<'dice'>(() => runId);
      runId = (await within(harness.api.startRun({ config, solver: 'random', seed: 4, evaluations: 100 }), 30_000, 'startRun')).runId;
      expect(await harness.api.cancelRun(runId)).toBe(true);
      const end = await within(run.finished, 30_000, 'the run');
      expect([end.status, end.reason, end.result]).toEqual(['cancelled', 'cancelled', null]);
      expect(run.snapshots).toEqual([]);
      // Nobody waits for the normalisation any more: its computation is aborted (its worker killed).
      expect(held.signals[0]!.aborted).toBe(true);
      held.release();
      expect(knownHvNormalisation(trackConfig('mo3', 3001))).toBeNull();
      expect((await harness.api.getRun(runId))!.status).toBe('cancelled');
    } finally {
      held.restore();
    }
  });

  it('a run paused while it is prepared stays paused once prepared, and resumes to the end', async () => {
    const held = holdNormalisation();
    try {
      const config = { n: 3002, objectives: trackConfig('mo2', 3002).objectives };
      let runId: string | undefined;
      const run = harness.follow<'dice'>(() => runId);
      runId = (await within(harness.api.startRun({ config, solver: 'random', seed: 5, evaluations: 100 }), 30_000, 'startRun')).runId;
      expect(await harness.api.pauseRun(runId, true)).toBe(true);
      expect((await harness.api.getRun(runId))!.status).toBe('paused');
      held.release();
      await within(held.computed, 60_000, 'the normalisation');
      // Prepared, and still paused: it has not started.
      expect((await harness.api.getRun(runId))!.status).toBe('paused');
      expect(run.snapshots).toEqual([]);
      expect(await harness.api.pauseRun(runId, false)).toBe(true);
      expect((await within(run.finished, 60_000, 'the run')).status).toBe('done');
    } finally {
      held.restore();
    }
  });

  it('a startRun whose client has gone is not carried out: no run, no normalisation', async () => {
    const held = holdNormalisation();
    try {
      const before = (await harness.api.listRuns()).length;
      const gone = new AbortController();
      gone.abort(new Error('the client has gone'));
      const config = { n: 20_000, objectives: trackConfig('mo3', 20_000).objectives };
      await expect(withRequestSignal(gone.signal, () => harness.api.startRun({ config, solver: 'random', seed: 9, evaluations: 100 }))).rejects.toThrow(
        'the client has gone',
      );
      expect(await harness.api.listRuns()).toHaveLength(before);
      expect(held.signals).toEqual([]);
    } finally {
      held.release();
      held.restore();
    }
  });

  it('planRun never computes it: the plan leaves it to the RunService', async () => {
    calls.count = 0;
    const plan = await planRun({ config: { n: 600, objectives: trackConfig('mo3', 600).objectives }, solver: 'random', seed: 1, evaluations: 10 });
    expect(plan.kind === 'dice' && [plan.request.hvNormalisation, plan.started.hvNormalisation]).toEqual([undefined, null]);
    expect(calls.count).toBe(0);
  });
});

describe('an experiment added with a multi-objective instance above N = 2,520', () => {
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-h6-'));
  const app = apiHarness(1, { workspace });
  afterAll(() => {
    app.dispose();
    fs.rmSync(workspace, { recursive: true, force: true });
  });
  const spec = (name: string, n: number) => ({
    name,
    instances: [{ name: `mo2-n${n}`, track: 'mo2', n }],
    solvers: [{ name: 'random' }],
    seeds: [1],
    budget: { evaluations: 20 },
  });

  it('has its normalisation computed in a worker while other calls are answered; the report computes none either', async () => {
    await app.api.createProject('study.saikoro');
    calls.count = 0;
    const held = holdNormalisation(app);
    try {
      const order: string[] = [];
      const added = app.api.addExperiment(spec('big', 2600)).then((summary) => (order.push('added'), summary));
      await within(
        waitUntil(() => held.signals.length === 1),
        30_000,
        'the normalisation asked for',
      );
      const project = await app.api.getProject();
      order.push('getProject');
      expect(project?.experiments.map((e) => e.name)).toEqual([]);
      held.release();
      const summary = await within(added, 120_000, 'addExperiment');
      expect(order).toEqual(['getProject', 'added']);
      const { ideal, nadir, method } = await expected(trackConfig('mo2', 2600));
      expect(summary.spec.instances[0]!.normalisation).toEqual({ ideal, nadir, method });
      // The report reads the stored default instead of computing it again (the session's run
      // got the same normalisation from hvNormalisationFor's memory).
      await app.api.runExperiment('big');
      await within(
        waitUntil(
          () => false,
          async () => (await app.api.getProject())?.experiments[0]?.counts.done === 1,
        ),
        120_000,
        'the run',
      );
      const report = await app.api.exportReport('big', { format: 'json' });
      expect(JSON.stringify(report)).toContain(String(nadir[0]));
      expect(calls.count).toBe(0);
    } finally {
      held.release();
      held.restore();
    }
  });

  it("a session's multi-objective run is listed as queued at once while its instance's normalisation is computed, then runs", async () => {
    // The spec gives its own normalisation, so addExperiment computes none; the runs' traces need the dice default.
    const given = { ...spec('given', 2700), instances: [{ name: 'mo2-n2700', track: 'mo2', n: 2700, normalisation: { ideal: [0, 0], nadir: [100, 100] } }] };
    await within(app.api.addExperiment(given), 30_000, 'addExperiment');
    calls.count = 0;
    const held = holdNormalisation(app);
    try {
      await app.api.runExperiment('given');
      await within(
        waitUntil(() => held.signals.length === 1),
        30_000,
        'the normalisation asked for',
      );
      const listed = (await app.api.listRuns()).find((r) => r.started.kind === 'dice' && r.started.experiment?.name === 'given')!;
      expect([listed.status, listed.snapshot, listed.started.kind === 'dice' && listed.started.hvNormalisation]).toEqual(['queued', null, null]);
      held.release();
      await within(
        waitUntil(
          () => false,
          async () => (await app.api.getProject())?.experiments.find((e) => e.name === 'given')?.counts.done === 1,
        ),
        120_000,
        'the run',
      );
      const ran = (await app.api.getRun(listed.runId))!;
      expect(ran.status).toBe('done');
      expect(ran.started.kind === 'dice' && ran.started.hvNormalisation).toEqual(await expected(trackConfig('mo2', 2700)));
      expect(calls.count).toBe(0);
    } finally {
      held.release();
      held.restore();
    }
  });

  it('small instances (N <= 2,520) are computed where they are asked for, with the same numbers', async () => {
    calls.count = 0;
    const summary = await within(app.api.addExperiment(spec('small', 120)), 30_000, 'addExperiment');
    const { ideal, nadir, method } = await expected(trackConfig('mo2', 120));
    expect(summary.spec.instances[0]!.normalisation).toEqual({ ideal, nadir, method });
    expect(calls.count).toBe(1);
  });
});

/** Polls `done` on the event loop until it holds (the caller puts a deadline on it). */
async function waitUntil(done: () => boolean, asked?: () => Promise<boolean>): Promise<void> {
  while (!done() && !(asked && (await asked()))) await new Promise((resolve) => setTimeout(resolve, 10));
}

/**
 * Holds every normalisation the RunService asks for until release(); then the real one (a
 * worker) is computed. `signals` are the abort signals it was asked with; `computed` resolves
 * once one has been computed.
 */
function holdNormalisation(app: { runs: typeof harness.runs } = harness) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let done!: () => void;
  const computed = new Promise<void>((resolve) => (done = resolve));
  const signals: AbortSignal[] = [];
  const real = app.runs.computeHvNormalisation.bind(app.runs);
  const spy = vi.spyOn(app.runs, 'computeHvNormalisation').mockImplementation(async (config, signal) => {
    signals.push(signal!);
    await gate;
    const norm = await real(config, signal);
    done();
    return norm;
  });
  return { release, signals, computed, restore: () => spy.mockRestore() };
}
