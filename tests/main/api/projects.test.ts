// The open project through the app's API, on a real solver host in a temporary workspace:
// create and open (paths inside the workspace only), experiments added as `experiment add`
// adds them, sessions that run the missing runs and store each as it ends, cancel and resume,
// the comparison equal to `saikoro compare --json`, runs the CLI adds appearing on the next
// read, saved app runs, notes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExperimentRunRow, ExperimentSession, ProjectChangedEvent, ProjectSummary } from '../../../src-shared/api.ts';
import { dispatchCall } from '../../../src-main/api/dispatch.ts';
import { runCli } from '../cli/io.ts';
import { apiHarness, within } from './harness.ts';

const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-workspace-'));
const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-outside-'));
const harness = apiHarness(2, { workspace });
const { api, events } = harness;
afterAll(() => {
  harness.dispose();
  fs.rmSync(workspace, { recursive: true, force: true });
  fs.rmSync(outside, { recursive: true, force: true });
});

async function call<T>(name: string, ...args: unknown[]): Promise<T> {
  const answer = await dispatchCall(api, name, args);
  if (!answer.ok) throw Object.assign(new Error(answer.error.message), answer.error);
  return answer.value as T;
}
async function refusal(name: string, ...args: unknown[]) {
  const answer = await dispatchCall(api, name, args);
  expect(answer.ok).toBe(false);
  return (answer as { error: { name: string; message: string; field?: string } }).error;
}

/** Resolves with the first session event of `experiment` that satisfies `accept`. */
function sessionWhere(experiment: string, accept: (s: ExperimentSession) => boolean): Promise<ExperimentSession> {
  return new Promise((resolve) => {
    const detach = events.attach((m) => {
      if (m.event !== 'onExperimentSession') return;
      const s = m.payload as ExperimentSession;
      if (s.experiment === experiment && accept(s)) {
        detach();
        resolve(s);
      }
    });
  });
}

const changes: ProjectChangedEvent[] = [];
beforeAll(() => {
  events.attach((m) => {
    if (m.event === 'onProjectChanged') changes.push(m.payload as ProjectChangedEvent);
  });
});

const spec = {
  name: 'small',
  instances: [
    { name: 'so-n24', track: 'so', n: 24 },
    { name: 'mo2-n24', track: 'mo2', n: 24 },
  ],
  solvers: [{ name: 'random' }, { name: 'random', label: 'random-b5', params: { batch: 5 } }],
  seeds: [1, 2],
  budget: { evaluations: 300 },
};

describe('the open project through the API', () => {
  it('paths stay inside the workspace: .., absolute paths outside it and symlinks out are refused', async () => {
    expect(await call('getProject')).toBeNull();
    expect(await refusal('openProject', '../x.saikoro')).toMatchObject({
      name: 'PathError',
      field: 'path',
      message: 'path: "../x.saikoro" is outside the workspace (paths are relative to it, and stay inside)',
    });
    expect(await refusal('createProject', path.join(outside, 'x.saikoro'))).toMatchObject({ name: 'PathError', field: 'path' });
    fs.symlinkSync(outside, path.join(workspace, 'link'));
    expect(await refusal('createProject', 'link/x.saikoro')).toMatchObject({
      name: 'PathError',
      message: 'path: "link/x.saikoro" leads outside the workspace through a symbolic link',
    });
    fs.writeFileSync(path.join(outside, 'real.saikoro'), '');
    fs.symlinkSync(path.join(outside, 'real.saikoro'), path.join(workspace, 'sneaky.saikoro'));
    expect(await refusal('openProject', 'sneaky.saikoro')).toMatchObject({
      name: 'PathError',
      message: 'path: "sneaky.saikoro" leads outside the workspace through a symbolic link',
    });
    expect(await refusal('createProject', 'notes.txt')).toMatchObject({ name: 'PathError', message: 'path: must end in .saikoro, got "notes.txt"' });
    expect(fs.readdirSync(outside).sort()).toEqual(['real.saikoro']);
    // An absolute path inside the workspace is fine.
    const made = await call<ProjectSummary>('createProject', path.join(workspace, 'first.saikoro'));
    expect(made).toMatchObject({ path: 'first.saikoro', name: 'first', experiments: [], notes: [], readOnly: false });
    expect(await call('closeProject')).toBe(true);
    expect(await call('getProject')).toBeNull();
  });

  it('adds an experiment as `experiment add` does; a bad spec is refused naming the field', async () => {
    fs.mkdirSync(path.join(workspace, 'study'));
    const made = await call<ProjectSummary>('createProject', 'study/p.saikoro');
    expect(made.path).toBe('study/p.saikoro');
    expect(await refusal('addExperiment', { ...spec, seeds: [1, 1] })).toMatchObject({
      name: 'SpecError',
      field: 'seeds[1]',
      message: 'seeds[1]: seed 1 is listed twice',
    });
    expect(await refusal('addExperiment', { ...spec, solvers: [{ name: 'nsga2' }] })).toMatchObject({ name: 'SpecError', field: 'solvers[0].name' });
    const added = await call<{ name: string; counts: object; spec: { instances: { normalisation?: unknown }[] } }>('addExperiment', spec);
    expect(added).toMatchObject({ name: 'small', counts: { total: 8, done: 0, failed: 0, missing: 8, running: 0 } });
    // The default normalisation is stored with the multi-objective instance, as the CLI does.
    expect(added.spec.instances[1].normalisation).toMatchObject({ ideal: [0, 0] });
    expect(changes.at(-1)).toEqual({ reason: 'experiment-added', path: 'study/p.saikoro', experiment: 'small' });
    const listed = await call<{ path: string }[]>('listProjectFiles');
    expect(listed.map((f) => f.path).sort()).toEqual(['first.saikoro', 'study/p.saikoro']);
  });

  it('runs the missing runs, each stored as it ends; a cancel leaves the rest missing and a second session does only those', async () => {
    // Runs of about half a second each, so the cancel finds the session going.
    const slow = {
      name: 'slow',
      instances: [{ name: 'so-n200', track: 'so', n: 200 }],
      solvers: [{ name: 'random' }],
      seeds: [1, 2, 3, 4],
      budget: { evaluations: 30_000, wholeBudget: true },
    };
    await call('addExperiment', slow);
    const running = sessionWhere('slow', (s) => s.status === 'running' && s.running.length > 0);
    const ended = sessionWhere('slow', (s) => s.status === 'cancelled');
    const session = await call<ExperimentSession>('runExperiment', 'slow', { jobs: 1 });
    expect(session).toMatchObject({ experiment: 'slow', todo: 4, jobs: 1 });
    await within(running, 30_000, 'a running session');
    // The session's runs are app runs: listRuns shows them with their experiment.
    const runs = await call<{ started: { experiment: { name: string } | null } }[]>('listRuns');
    expect(runs.some((r) => r.started.experiment?.name === 'slow')).toBe(true);
    await within(
      sessionWhere('slow', (s) => s.finished >= 1),
      60_000,
      'a first stored run',
    );
    expect(await call('cancelExperiment', 'slow')).toBe(true);
    const stopped = await within(ended, 30_000, 'the cancelled session');
    expect(stopped.finished).toBeLessThan(4);
    const rows = await call<ExperimentRunRow[]>('listExperimentRuns', 'slow');
    expect(rows.filter((r) => r.status === 'done').length).toBe(stopped.finished);
    // The run in flight was cancelled: not stored, missing like the ones never started.
    expect(rows.filter((r) => r.status === 'missing').length).toBe(4 - stopped.finished);
    expect(rows.every((r) => r.status !== 'failed' && r.status !== 'running')).toBe(true);

    const second = await call<ExperimentSession>('runExperiment', 'slow', { jobs: 2 });
    expect(second.todo).toBe(4 - stopped.finished);
    const finished = await within(
      sessionWhere('slow', (s) => s.status === 'done'),
      120_000,
      'the second session',
    );
    expect([finished.finished, finished.failed, finished.progress]).toEqual([4 - stopped.finished, 0, 1]);
    expect((await call<ExperimentRunRow[]>('listExperimentRuns', 'slow')).map((r) => r.status)).toEqual(Array(4).fill('done'));

    // The small experiment, all at once; then every run's final indicators.
    await call('runExperiment', 'small', { jobs: 2 });
    await within(
      sessionWhere('small', (s) => s.status === 'done'),
      120_000,
      'the small experiment',
    );
    const all = await call<ExperimentRunRow[]>('listExperimentRuns', 'small');
    expect(all.map((r) => r.status)).toEqual(Array(8).fill('done'));
    // Best f of the single-objective runs, front size and HV of the others.
    for (const r of all) {
      if (r.instance === 'so-n24') expect([typeof r.best, r.feasible, r.frontSize, r.hv]).toEqual(['number', true, null, null]);
      else expect(r.hv).toBeGreaterThan(0);
      expect(r.evaluations).toBeGreaterThan(0);
      expect(r.elapsedMs).toBeGreaterThanOrEqual(0);
    }
    const summary = await call<ProjectSummary>('getProject');
    expect(summary.experiments.find((e) => e.name === 'small')).toMatchObject({
      counts: { total: 8, done: 8, failed: 0, missing: 0, running: 0 },
      session: { status: 'done' },
    });
    expect(changes.filter((c) => c.reason === 'runs-stored' && c.experiment === 'small').length).toBe(8);
  });

  it('compareExperiment gives the numbers of `saikoro compare --json` on the same file', async () => {
    for (const metric of ['hv', 'best', 'feasibility', 'igd+']) {
      const fromApi = await call('compareExperiment', 'small', { metric });
      const cli = await runCli(['compare', 'study/p.saikoro', 'small', '--metric', metric, '--json'], { cwd: workspace });
      expect(cli.code, cli.stderr).toBe(0);
      expect(fromApi).toEqual(JSON.parse(cli.stdout));
    }
    expect(await refusal('compareExperiment', 'small', { metric: 'speed' })).toMatchObject({ name: 'ProjectRequestError', field: 'metric' });
    expect(await refusal('compareExperiment', 'nope', { metric: 'hv' })).toMatchObject({
      name: 'ProjectRequestError',
      field: 'experiment',
      message: 'experiment: no experiment named "nope" (has: small, slow)',
    });
  });

  it('getExperimentResults gives the stored results; exportReport the files of `saikoro report`', async () => {
    const results = await call<{ id: string; status: string; result: { front: unknown[]; trace: unknown[] } | null; instance: string }[]>(
      'getExperimentResults',
      'small',
    );
    expect(results).toHaveLength(8);
    expect(results.every((r) => r.status === 'done' && r.result !== null && r.result.trace.length > 0)).toBe(true);
    const rows = await call<ExperimentRunRow[]>('listExperimentRuns', 'small');
    const some = await call<{ id: string }[]>('getExperimentResults', 'small', [rows[5].id, 'not-a-run']);
    expect(some.map((r) => r.id)).toEqual([rows[5].id]);
    expect(await refusal('getExperimentResults', 'small', 'x')).toMatchObject({ field: 'ids' });

    const json = await call<{ files: { filename: string; mediaType: string; encoding: string; content: string }[] }>('exportReport', 'small', {
      format: 'json',
      metrics: ['hv'],
    });
    const cli = await runCli(['report', 'study/p.saikoro', 'small', '--format', 'json', '--metric', 'hv'], { cwd: workspace });
    expect(cli.code, cli.stderr).toBe(0);
    const [file] = json.files;
    expect([file.filename, file.mediaType, file.encoding]).toEqual(['small.json', 'application/json', 'utf8']);
    // The same report, but for the date it was made.
    const strip = (text: string) => ({ ...JSON.parse(text), generatedAt: '' });
    expect(strip(file.content)).toEqual(strip(cli.stdout));
    const csv = await call<{ files: { filename: string; content: string }[] }>('exportReport', 'small', { format: 'csv' });
    expect(csv.files.map((f) => f.filename)).toEqual(['small-runs.csv', 'small-solutions.csv']);
    expect(csv.files[0].content.split('\r\n').filter(Boolean)).toHaveLength(1 + 8);
    const html = await call<{ files: { content: string }[] }>('exportReport', 'small', { format: 'html' });
    expect(html.files[0].content).toContain('<svg');
    const tex = await call<{ files: { content: string }[] }>('exportReport', 'small', { format: 'latex' });
    expect(tex.files[0].content).toContain('\\toprule');
    expect(await refusal('exportReport', 'small', { format: 'docx' })).toMatchObject({ name: 'ProjectRequestError', field: 'format' });
    expect(await refusal('exportReport', 'small', { format: 'html', metrics: ['speed'] })).toMatchObject({ field: 'metric' });
    // No printer in this harness: PDF says so (the server and the desktop app have one).
    expect(await refusal('exportReport', 'small', { format: 'pdf' })).toMatchObject({
      field: 'format',
      message: 'format: PDF is not available in this app instance (no printer for the report page)',
    });
    expect(await refusal('pickProjectFile', 'open')).toMatchObject({ name: 'UnavailableError' });
  });

  it('a run the CLI stores in the same file appears on the next read', async () => {
    fs.writeFileSync(path.join(workspace, 'other.json'), JSON.stringify({ ...spec, name: 'from-cli', seeds: [3] }));
    const added = await runCli(['experiment', 'add', 'study/p.saikoro', '--spec', 'other.json'], { cwd: workspace });
    expect(added.code, added.stderr).toBe(0);
    const ran = await runCli(['experiment', 'run', 'study/p.saikoro', 'from-cli', '--inline'], { cwd: workspace });
    expect(ran.code, ran.stderr).toBe(0);
    const summary = await call<ProjectSummary>('getProject');
    expect(summary.experiments.map((e) => [e.name, e.counts.done])).toEqual([
      ['small', 8],
      ['slow', 4],
      ['from-cli', 4],
    ]);
  });

  it('saves an app run into the project: a dice run as a one-run experiment, an N-Queens run as a lab run; notes', async () => {
    let id = '';
    const f = harness.follow<'dice'>(() => id);
    const started = await call<{ runId: string }>('startRun', { config: { n: 30 }, solver: 'random', seed: 4, evaluations: 200, wholeBudget: true });
    id = started.runId;
    await within(f.finished, 30_000, 'the dice run');
    const saved = await call<{ as: string; name: string; id: string; added: boolean }>('saveRun', id, 'kept-run');
    expect(saved).toMatchObject({ as: 'experiment', name: 'kept-run', added: true });
    expect(await call('saveRun', id, 'kept-run')).toMatchObject({ added: false });
    const rows = await call<ExperimentRunRow[]>('listExperimentRuns', 'kept-run');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: saved.id, status: 'done', solver: 'random', seed: 4, evaluations: 200 });
    // Stored exactly as `experiment run` would have made it: verify re-runs it and it matches.
    const verify = await runCli(['experiment', 'verify', 'study/p.saikoro', 'kept-run', '--all'], { cwd: workspace });
    expect(verify.code, verify.stderr).toBe(0);

    let nq = '';
    const g = harness.follow<'nqueens'>(() => nq);
    nq = (await call<{ runId: string }>('startRun', { kind: 'nqueens', method: 'minconflicts', n: 50, seed: 2 })).runId;
    await within(g.finished, 30_000, 'the N-Queens run');
    expect(await call('saveRun', nq)).toMatchObject({ as: 'lab', added: true });
    const summary = await call<ProjectSummary>('getProject');
    expect(summary.labRuns).toHaveLength(1);
    expect(summary.labRuns[0]).toMatchObject({ method: 'minconflicts', n: 50, seed: 2, status: 'done', solved: true });
    expect(await refusal('saveRun', 'run-none-1')).toMatchObject({ name: 'ProjectRequestError', field: 'runId' });

    // A sweep is not stored, and saveRun says why (not "has no result to store"), finished or not.
    let sweep = '';
    const s = harness.follow<'nqueens-sweep'>(() => sweep);
    sweep = (await call<{ runId: string }>('startRun', { kind: 'nqueens-sweep', points: [{ setting: 0, n: 8, params: {} }], seeds: 2 })).runId;
    const notStored = `runId: run ${sweep} is an N-Queens sweep, which is not stored in a project: a sweep is the lab's figures of the moment (its report, shown in the lab, carries every cell), not one run with a result; save a single run of the lab instead`;
    expect(await refusal('saveRun', sweep)).toMatchObject({ name: 'ProjectRequestError', field: 'runId', message: notStored });
    expect(await within(s.finished, 30_000, 'the sweep')).toMatchObject({ status: 'done' });
    expect(await refusal('saveRun', sweep)).toMatchObject({ name: 'ProjectRequestError', field: 'runId', message: notStored });
    expect((await call<ProjectSummary>('getProject')).labRuns).toHaveLength(1);

    const note = await call<{ id: number; text: string; experiment: string | null }>('addNote', 'random with batch 5 looks the same', 'small');
    expect(note).toMatchObject({ text: 'random with batch 5 looks the same', experiment: 'small' });
    expect(await refusal('addNote', '   ')).toMatchObject({ field: 'text' });
    expect(await refusal('addNote', 'x', 'nope')).toMatchObject({ field: 'experiment' });
    expect((await call<ProjectSummary>('getProject')).notes.map((n) => n.text)).toEqual(['random with batch 5 looks the same']);
  });

  it('without an open project the calls say so', async () => {
    expect(await call('closeProject')).toBe(true);
    expect(await refusal('addExperiment', spec)).toMatchObject({
      name: 'ProjectRequestError',
      field: 'project',
      message: 'project: no project is open (create or open one first)',
    });
    expect(await refusal('openProject', 'missing.saikoro')).toMatchObject({ name: 'ProjectError' });
    const reopened = await call<ProjectSummary>('openProject', 'study/p.saikoro');
    expect(reopened.experiments.map((e) => e.name)).toEqual(['small', 'slow', 'from-cli', 'kept-run']);
  });
});
