// Issue 10: the app and the CLI on one project file at the same time. The app runs one
// experiment's session (its worker processes storing runs as they end) while a separate
// `saikoro experiment run` process stores another experiment's runs and notes go in from both
// sides; the file lock keeps them from corrupting it: afterwards every run of both is stored and
// done, the file passes SQLite's integrity check (the open refuses a corrupt file), and the
// app sees the CLI's runs after a refresh.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Project } from '../../../src-main/project/store.ts';
import { apiHarness } from './harness.ts';
import { waitFor } from '../processes.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const spec = (name: string, n: number, evaluations: number) => ({
  name,
  instances: [{ name: `mo2-n${n}`, track: 'mo2', n }],
  solvers: [{ name: 'random' }, { name: 'nsga2', params: { populationSize: 20 } }],
  seeds: { count: 4, start: 1 },
  budget: { evaluations },
});

// The CLI starts first, with longer runs one at a time; the app's session starts once the CLI
// has stored a run and ends while the CLI still goes.
const APP_EVALUATIONS = 20_000;
const CLI_EVALUATIONS = 120_000;

let workspace = '';
let env: ReturnType<typeof apiHarness>;
beforeAll(() => {
  workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-concurrent-'));
  env = apiHarness(1, { workspace });
});
afterAll(() => {
  env.dispose();
  fs.rmSync(workspace, { recursive: true, force: true });
});

function cli(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'bin/saikoro.mjs'), ...args], { cwd: workspace, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += String(d)));
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

it('an app session and a CLI run on the same file at once: every run of both stored, the file intact', async () => {
  await env.api.createProject('shared.saikoro');
  await env.api.addExperiment(spec('by-app', 40, APP_EVALUATIONS));
  // The CLI's experiment is added by the CLI itself, while the app has the file open.
  fs.writeFileSync(path.join(workspace, 'by-cli.json'), JSON.stringify(spec('by-cli', 41, CLI_EVALUATIONS)));
  expect(await cli(['experiment', 'add', 'shared.saikoro', '--spec', 'by-cli.json'])).toMatchObject({ code: 0 });

  const byCli = cli(['experiment', 'run', 'shared.saikoro', 'by-cli', '--jobs', '1']);
  const cliDone = () => env.api.getProject().then((p) => p!.experiments.find((e) => e.name === 'by-cli')!.counts.done);
  await waitFor('the CLI to store a run', async () => (await cliDone()) >= 1, { withinMs: 60_000, intervalMs: 50 });
  await env.api.runExperiment('by-app', { jobs: 1 });
  // Notes from both sides while both write runs.
  const notes = Promise.all(
    [0, 1, 2, 3].map((i) => (i % 2 ? cli(['project', 'note', 'shared.saikoro', `from the CLI ${i}`]) : env.api.addNote(`from the app ${i}`))),
  );
  const ran = await byCli;
  expect(ran.code, ran.stderr).toBe(0);
  await notes;
  await waitFor('the app session to end', async () => (await env.api.getProject())!.experiments.find((e) => e.name === 'by-app')!.counts.done === 8, {
    withinMs: 120_000,
    intervalMs: 100,
  });

  const summary = (await env.api.getProject())!;
  expect(summary.experiments.map((e) => [e.name, e.counts.done, e.counts.failed, e.counts.missing])).toEqual([
    ['by-app', 8, 0, 0],
    ['by-cli', 8, 0, 0],
  ]);
  expect(summary.notes.map((n) => n.text).sort()).toEqual(['from the CLI 1', 'from the CLI 3', 'from the app 0', 'from the app 2']);
  const spans: Record<string, [number, number][]> = {};
  for (const name of ['by-app', 'by-cli']) {
    const rows = await env.api.listExperimentRuns(name);
    expect(rows.every((r) => r.status === 'done' && r.evaluations === (name === 'by-app' ? APP_EVALUATIONS : CLI_EVALUATIONS) && r.hv !== null)).toBe(true);
    spans[name] = rows.map((r) => [Date.parse(r.startedAt!), Date.parse(r.finishedAt!)]);
  }
  // The two really wrote at the same time: the app stored a run while the CLI's runs went on.
  const [cliFrom, cliTo] = [Math.min(...spans['by-cli'].map((s) => s[0])), Math.max(...spans['by-cli'].map((s) => s[1]))];
  expect(spans['by-app'].some(([, end]) => end > cliFrom && end < cliTo)).toBe(true);
  await env.api.closeProject();
  // Opening runs PRAGMA integrity_check and refuses a damaged file.
  const reopened = Project.open(path.join(workspace, 'shared.saikoro'));
  expect(
    reopened
      .experiments()
      .map((e) => e.name)
      .sort(),
  ).toEqual(['by-app', 'by-cli']);
  reopened.close();
}, 180_000);
