// One rule for a program whose script changed since its experiment was added, in the one
// executor (src-main/app/experiment-executor.ts), for the app and the CLI alike: its runs do not
// start (they would be stored under the run ids of the old script, and verify would then report
// a mismatch), the refusal names the experiment and the solver, and nothing is stored for them:
// a refused run stored as failed would be retried, and refused, by every later session.
//
// The runs here are failed ones (the program exits 3), so that a retry has something to re-run:
// the app's "Retry failed" and the CLI's `experiment run` are the same call on the same runs.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { ExperimentSession } from '../../../src-shared/api.ts';
import { allowPrograms } from '../../../src-main/app/program-policy.ts';
import { Project } from '../../../src-main/project/store.ts';
import { runCli } from '../cli/io.ts';
import { apiHarness, within } from '../api/harness.ts';

const FAKE = path.join(import.meta.dirname, '../../fixtures/external/fake-solver.mjs');
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-changed-program-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
let cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

/** A folder with solvers/fake.mjs (its own copy, to change) and an experiment spec of it in `mode`. */
function folder(mode: string[], seeds = 2, builtIn = true): { dir: string; script: string; spec: object } {
  const dir = fs.mkdtempSync(path.join(root, 'p-'));
  fs.mkdirSync(path.join(dir, 'solvers'));
  const script = path.join(dir, 'solvers', 'fake.mjs');
  fs.copyFileSync(FAKE, script);
  const spec = {
    name: 'mine',
    instances: [{ name: 'so-n30', track: 'so', n: 30 }],
    solvers: [...(builtIn ? [{ name: 'random' }] : []), { name: 'fake', command: [process.execPath, 'solvers/fake.mjs', ...mode] }],
    seeds: { count: seeds },
    budget: { evaluations: 60, wholeBudget: true },
  };
  fs.writeFileSync(path.join(dir, 'spec.json'), JSON.stringify(spec));
  return { dir, script, spec };
}

/** The stored runs of the program, as (status, finishedAt): a retry would change them. */
function programRuns(file: string): { id: string; status: string; finishedAt: string }[] {
  const project = Project.open(file, { readOnly: true });
  try {
    return project
      .runs()
      .filter((r) => r.solver === 'fake')
      .map((r) => ({ id: r.id, status: r.status, finishedAt: r.finishedAt }))
      .sort((a, b) => a.id.localeCompare(b.id));
  } finally {
    project.close();
  }
}

const CHANGED =
  /experiment "mine", solver fake \(solvers\[1\]\): solvers\/fake\.mjs has changed since the experiment was added \(sha256 [0-9a-f]{12}\.\.\. then, [0-9a-f]{12}\.\.\. now\); its runs would not be the ones the experiment names\. Restore the file, or add the changed program as a new experiment/;

function appWith(dir: string) {
  const harness = apiHarness(2, { workspace: dir, programs: allowPrograms() });
  cleanup.push(() => harness.dispose());
  /** The session's last event once it is over. */
  const ended = (experiment: string) =>
    new Promise<ExperimentSession>((resolve) => {
      const detach = harness.events.attach((m) => {
        const s = m.payload as ExperimentSession;
        if (m.event === 'onExperimentSession' && s.experiment === experiment && ['done', 'failed', 'cancelled'].includes(s.status)) {
          detach();
          resolve(s);
        }
      });
    });
  return { harness, ended };
}

describe('a program whose script changed since the experiment was added', () => {
  it("the app's Retry refuses it at once, naming the experiment and solver; the failed runs stay as they were", async () => {
    const { dir, script, spec } = folder(['exit3', '1']);
    const { harness, ended } = appWith(dir);
    await harness.api.createProject('p.saikoro');
    await harness.api.addExperiment(spec);
    const first = ended('mine');
    await harness.api.runExperiment('mine');
    expect(await within(first, 60_000, 'the first session')).toMatchObject({ status: 'done', failed: 2 });
    const before = programRuns(path.join(dir, 'p.saikoro'));
    expect(before.map((r) => r.status)).toEqual(['failed', 'failed']);

    fs.appendFileSync(script, '\n// changed\n');
    // "Retry failed" (and "Run N missing and failed") is runExperiment.
    const retry = await harness.api.runExperiment('mine').catch((e: Error) => e);
    expect(retry).toMatchObject({ name: 'ProgramFilesError', message: expect.stringMatching(CHANGED) });
    expect(harness.projects!.sessionList().filter((s) => s.status !== 'done')).toEqual([]);
    expect(programRuns(path.join(dir, 'p.saikoro'))).toEqual(before);
  });

  it('changed during a session: the app stops with why, and stores nothing for the runs it refused', async () => {
    const { dir, script, spec } = folder(['random', '10'], 3, false);
    const { harness, ended } = appWith(dir);
    await harness.api.createProject('p.saikoro');
    await harness.api.addExperiment(spec);
    // One job: the script changes the moment the first run is stored, before the next is admitted.
    let changed = false;
    const detach = harness.events.attach((m) => {
      const s = m.payload as ExperimentSession;
      if (m.event === 'onExperimentSession' && s.finished === 1 && !changed) {
        changed = true;
        fs.appendFileSync(script, '\n// changed\n');
      }
    });
    cleanup.push(detach);
    const over = ended('mine');
    await harness.api.runExperiment('mine', { jobs: 1 });
    const session = await within(over, 60_000, 'the session');
    expect(changed).toBe(true);
    expect(session.status).toBe('failed');
    expect(session.error).toMatch(/solver fake: solvers\/fake\.mjs has changed since the experiment was added/);
    expect(session.failed).toBe(0);
    // What ran before the change is kept; nothing after it is stored, failed or otherwise.
    const project = Project.open(path.join(dir, 'p.saikoro'), { readOnly: true });
    const stored = project.runs();
    project.close();
    expect(stored.filter((r) => r.status === 'failed')).toEqual([]);
    expect(stored.map((r) => `${r.solver} ${r.seed} ${r.status}`)).toEqual(['fake 1 done']);
  });

  it('the CLI refuses the same retry alike, and runs the experiments whose programs did not change', async () => {
    const { dir, script, spec } = folder(['exit3', '1']);
    const other = { ...spec, name: 'other', solvers: [{ name: 'random' }], seeds: { count: 2, start: 10 } };
    fs.writeFileSync(path.join(dir, 'other.json'), JSON.stringify(other));
    for (const argv of [
      ['project', 'new', 'p.saikoro'],
      ['experiment', 'add', 'p.saikoro', '--spec', 'spec.json'],
      ['experiment', 'add', 'p.saikoro', '--spec', 'other.json'],
    ])
      expect((await runCli(argv, { cwd: dir })).code).toBe(0);
    const first = await runCli(['experiment', 'run', 'p.saikoro', 'mine', '--yes'], { cwd: dir });
    expect(first.stdout).toBe('mine: 4 runs: 0 already done, 2 done now, 2 failed, 0 not run\n');
    const before = programRuns(path.join(dir, 'p.saikoro'));

    fs.appendFileSync(script, '\n// changed\n');
    const retry = await runCli(['experiment', 'run', 'p.saikoro', '--yes'], { cwd: dir });
    expect(retry.code).toBe(1);
    expect(retry.stderr).toMatch(CHANGED);
    expect(retry.stderr).toContain('experiment mine was not run');
    // The other experiment ran; the refused one kept its runs as they were.
    expect(retry.stdout).toBe('other: 2 runs: 0 already done, 2 done now, 0 failed, 0 not run\n');
    expect(programRuns(path.join(dir, 'p.saikoro'))).toEqual(before);
  });
});
