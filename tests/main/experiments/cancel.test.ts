// A run cancelled while it goes is stored the same way by both executors of an experiment: the
// CLI's (`experiment run`: runExperiment on hostExecutor, which a second Ctrl-C disposes) and the
// app's sessions (ProjectService, cancelExperiment). Cancelled is no result: the run is not
// stored and stays missing, so the next session runs it; it is never stored as failed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ExperimentSession, RunSnapshotEvent } from '../../../src-shared/api.ts';
import { prepareSpec } from '../../../src-main/app/experiments.ts';
import { diceHvNormalisation } from '../../../src-shared/problems/dice/hv-reference.ts';
import { addExperiment } from '../../../src-main/experiments/add.ts';
import { hostExecutor } from '../../../src-main/app/experiment-executor.ts';
import { experimentStatus, plannedRuns, runExperiment } from '../../../src-main/experiments/runner.ts';
import { Project } from '../../../src-main/project/store.ts';
import { apiHarness, within } from '../api/harness.ts';

// Runs of a few seconds each, so the cancel finds the first one going.
const SPEC = {
  name: 'slow',
  instances: [{ name: 'so-n200', track: 'so', n: 200 }],
  solvers: [{ name: 'random' }],
  seeds: [1, 2],
  budget: { evaluations: 200_000, wholeBudget: true },
};

const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-cancel-'));
afterAll(() => fs.rmSync(workspace, { recursive: true, force: true }));

/** What the file says of each grid run after the session. */
function storedStatuses(file: string) {
  const project = Project.open(file);
  try {
    const spec = project.experiment('slow')!.spec;
    const statuses = project.runStatuses();
    return { status: experimentStatus(spec, statuses), records: plannedRuns(spec).map((r) => statuses.get(r.id) ?? 'missing') };
  } finally {
    project.close();
  }
}

describe('a run cancelled in flight', () => {
  it('stays missing in the CLI executor and in the app session alike', async () => {
    // The CLI: Ctrl-C twice stops the session and disposes the executor (its runs in flight are cancelled).
    const cliFile = path.join(workspace, 'cli.saikoro');
    const project = Project.create(cliFile);
    addExperiment(project, await prepareSpec(SPEC, workspace, async (config) => diceHvNormalisation(config)));
    const executor = hostExecutor({ jobs: 1 });
    let stop = false;
    const summary = await runExperiment(plannedRuns(project.experiment('slow')!.spec), {
      executor,
      jobs: 1,
      target: project,
      shouldStop: () => stop,
      onTick: (t) => {
        if (!stop && t.running.some((r) => r.fraction > 0)) {
          stop = true;
          executor.dispose();
        }
      },
    });
    project.close();
    expect(summary).toMatchObject({ total: 2, done: 0, failed: 0, remaining: 2 });
    const cli = storedStatuses(cliFile);

    // The app: a session cancelled while its first run goes.
    const harness = apiHarness(1, { workspace });
    try {
      const projects = harness.projects!;
      await projects.create('app.saikoro');
      await projects.addExperiment(SPEC);
      const ended = new Promise<ExperimentSession>((resolve) =>
        harness.events.attach((m) => {
          if (m.event === 'onExperimentSession' && (m.payload as ExperimentSession).status === 'cancelled') resolve(m.payload as ExperimentSession);
        }),
      );
      const going = new Promise<void>((resolve) =>
        harness.events.attach((m) => {
          if (m.event === 'onRunSnapshot' && (m.payload as RunSnapshotEvent).snapshot.progress > 0) resolve();
        }),
      );
      projects.runExperiment('slow', { jobs: 1 });
      await within(going, 30_000, 'a run going');
      projects.cancelExperiment('slow');
      expect(await within(ended, 30_000, 'the cancelled session')).toMatchObject({ finished: 0, failed: 0 });
      await projects.close();
    } finally {
      harness.dispose();
    }
    const app = storedStatuses(path.join(workspace, 'app.saikoro'));

    expect(cli.records).toEqual(['missing', 'missing']);
    expect(app.records).toEqual(cli.records);
    expect(app.status).toEqual(cli.status);
  });
});
