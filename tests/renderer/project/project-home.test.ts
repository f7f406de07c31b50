// @vitest-environment happy-dom
// The project home against the real main side (API, solver host with worker processes, projects
// on a temporary workspace): the empty state lists the workspace's files and creates or opens
// one; a refused path is named; an experiment run from its row reaches its counts and its results
// are listed; notes are added; a run the CLI stores appears after Refresh; the list is keyboard
// navigable; the desktop app without a native dialog falls back to the in-page fields.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import ProjectView from '../../../src-renderer/views/project/ProjectView.vue';
import { formatBytes, resultText } from '../../../src-renderer/views/project/format.ts';
import { SCHEMA_VERSION } from '../../../src-main/project/schema.ts';
import { waitFor } from '../../main/processes.ts';
import { appear, byTestId, click, key, q, realAppForViews, select, settle, textOf, type } from './mount.ts';

// One instance, two solvers, two seeds, a small budget: runs of well under a second.
const SMALL = {
  name: 'small',
  description: 'random against ILS',
  instances: [{ name: 'so-n12', track: 'so', n: 12 }],
  solvers: [{ name: 'random' }, { name: 'ils' }],
  seeds: [1, 2],
  budget: { evaluations: 400, wholeBudget: true },
};
const OTHER = {
  name: 'other',
  instances: [{ name: 'mo2-n12', track: 'mo2', n: 12 }],
  solvers: [{ name: 'random' }],
  seeds: [1, 2],
  budget: { evaluations: 300 },
};

const SAIKORO = path.resolve(import.meta.dirname, '../../../bin/saikoro.mjs');
/** The command line as another process, in the workspace (as a user in a terminal beside the app). */
async function saikoro(args: string[]): Promise<{ code: number; stderr: string }> {
  try {
    const { stderr } = await promisify(execFile)(process.execPath, [SAIKORO, ...args], { cwd: env.workspace });
    return { code: 0, stderr };
  } catch (e) {
    const err = e as { code?: number; stderr?: string };
    return { code: err.code ?? -1, stderr: err.stderr ?? String(e) };
  }
}

const env = realAppForViews({ parallelism: 2 });

function mount(api = env.api) {
  env.mount(ProjectView, '#/project', api);
}

describe('project home: no project open', () => {
  it('shows the empty state with the workspace files (name, path, size) and opens one with a click', async () => {
    expect((await saikoro(['project', 'new', 'listed.saikoro'])).code).toBe(0);
    fs.mkdirSync(path.join(env.workspace, 'sub'), { recursive: true });
    expect((await saikoro(['project', 'new', 'sub/deeper.saikoro'])).code).toBe(0);
    mount();
    await appear('project-empty');
    expect(textOf('project-empty')).toContain('Create or open a project');
    const entry = await appear('open-listed.saikoro');
    const size = fs.statSync(path.join(env.workspace, 'listed.saikoro')).size;
    expect(entry.querySelector('.file-name')?.textContent).toBe('listed');
    expect(entry.querySelector('.file-meta')?.textContent).toContain(formatBytes(size));
    expect(byTestId('open-sub/deeper.saikoro')).not.toBeNull();
    click(entry);
    await waitFor('the project to open', () => byTestId('project-info'));
    expect(q('h1')?.textContent).toBe('listed');
    expect(textOf('project-info')).toContain('listed.saikoro');
    expect(textOf('project-info')).toContain(`v${SCHEMA_VERSION}`);
    expect((await env.api.getProject())?.path).toBe('listed.saikoro');
    expect(textOf('no-experiments')).toContain('No experiments yet');
  });

  it('creates a project in the workspace; a path outside it is refused and named, beside the field only', async () => {
    mount();
    const field = (await appear('new-path')) as HTMLInputElement;
    type(field, '../outside.saikoro');
    click(byTestId('create'));
    await waitFor('the refusal', () => byTestId('create-error'));
    expect(textOf('create-error')).toBe('path: "../outside.saikoro" is outside the workspace (paths are relative to it, and stay inside)');
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(byTestId('project-error')).toBeNull();
    type(field, 'made-here.saikoro');
    click(byTestId('create'));
    await waitFor('the new project', () => byTestId('project-info'));
    expect(fs.existsSync(path.join(env.workspace, 'made-here.saikoro'))).toBe(true);
    expect(q('h1')?.textContent).toBe('made-here');
  });

  it('the desktop app without a native dialog falls back to the same in-page fields', async () => {
    const desktop = { ...env.api, getAppInfo: async () => ({ ...(await env.api.getAppInfo()), runtime: 'electron' as const }) };
    mount(desktop);
    const pick = await appear('pick-create');
    expect(byTestId('new-path')).toBeNull();
    click(pick);
    await waitFor('the in-page field', () => byTestId('new-path'));
    expect(byTestId('open-path')).not.toBeNull();
  });
});

describe('project home: a project open', () => {
  it('runs an experiment from its row: the counts, the bar and the recent results follow', async () => {
    await env.api.createProject('run.saikoro');
    await env.api.addExperiment(SMALL);
    await env.api.addExperiment(OTHER);
    mount();
    await appear('experiment-small');
    expect(textOf('counts-small')).toBe('0 of 4 done · 4 missing');
    expect(textOf('run-small')).toBe('Run 4');
    type(byTestId('jobs') as HTMLInputElement, '2');
    click(byTestId('run-small'));
    await waitFor('every run done', () => textOf('counts-small') === '4 of 4 done', { withinMs: 60_000 });
    const bar = q('[data-testid="experiment-small"] [role="progressbar"]')!;
    expect(bar.getAttribute('aria-valuenow')).toBe('4');
    expect(bar.getAttribute('aria-valuemax')).toBe('4');
    expect(textOf('run-small')).toBe('All done');
    expect((byTestId('run-small') as HTMLButtonElement).disabled).toBe(true);
    await waitFor('the session to end', () => textOf('session-small')?.startsWith('Session done · 4 of 4 runs'));
    // The other experiment is untouched.
    expect(textOf('counts-other')).toBe('0 of 2 done · 2 missing');
    // Recent results: the four runs, each with what listExperimentRuns says of it.
    const runs = await env.api.listExperimentRuns('small');
    await waitFor('four recent results', () => q('[data-testid="recent-results"]')?.querySelectorAll('tbody tr').length === 4, { withinMs: 5000 });
    const rows = [...q('[data-testid="recent-results"]')!.querySelectorAll('tbody tr')].map((tr) =>
      [...tr.querySelectorAll('td')].map((td) => td.textContent!.trim()),
    );
    const expected = runs.map((r) => ['small', `${r.instance} · ${r.label} · seed ${r.seed}`, resultText(r)]);
    expect(rows.map((r) => [r[1], r[2], r[3]]).sort()).toEqual(expected.sort());
    expect(runs.every((r) => r.status === 'done' && r.best !== null)).toBe(true);
    expect(rows.every((r) => /^f = \d/.test(r[3]))).toBe(true);
  });

  it('adds notes to the project and to an experiment, newest first', async () => {
    await env.api.createProject('notes.saikoro');
    await env.api.addExperiment(SMALL);
    mount();
    await appear('note-text');
    type(byTestId('note-text') as HTMLTextAreaElement, 'first, about the project');
    await settle();
    click(byTestId('add-note'));
    await waitFor('the first note', () => byTestId('notes')?.querySelectorAll('li').length === 1);
    type(byTestId('note-text') as HTMLTextAreaElement, 'ILS wins at N = 12');
    select(byTestId('note-about') as HTMLSelectElement, 'small');
    await settle();
    click(byTestId('add-note'));
    await waitFor('the second note', () => byTestId('notes')?.querySelectorAll('li').length === 2);
    const items = [...byTestId('notes')!.querySelectorAll('li')];
    expect(items.map((li) => [li.querySelector('.about')?.textContent, li.querySelector('.note-text')?.textContent])).toEqual([
      ['small', 'ILS wins at N = 12'],
      ['project', 'first, about the project'],
    ]);
    expect((byTestId('note-text') as HTMLTextAreaElement).value).toBe('');
    const stored = (await env.api.getProject())!.notes;
    expect(stored.map((n) => [n.experiment, n.text])).toEqual([
      [null, 'first, about the project'],
      ['small', 'ILS wins at N = 12'],
    ]);
  });

  it('Refresh shows the runs the command line stored in the same file', async () => {
    await env.api.createProject('cli.saikoro');
    await env.api.addExperiment(OTHER);
    mount();
    await appear('experiment-other');
    expect(textOf('counts-other')).toBe('0 of 2 done · 2 missing');
    const cli = await saikoro(['experiment', 'run', 'cli.saikoro', 'other', '--jobs', '1', '--inline']);
    expect(cli).toMatchObject({ code: 0 });
    expect(cli.stderr).toContain('[other 2/2] done');
    // Nothing tells the app: the file changed under it.
    await settle();
    expect(textOf('counts-other')).toBe('0 of 2 done · 2 missing');
    click(byTestId('refresh'));
    await waitFor('the runs the CLI stored', () => textOf('counts-other') === '2 of 2 done');
    await waitFor('their results', () => q('[data-testid="recent-results"]')?.querySelectorAll('tbody tr').length === 2, { withinMs: 5000 });
  });

  it('keyboard: the arrow keys move through the experiments, Enter opens the monitor, n a new experiment, r refreshes', async () => {
    await env.api.createProject('keys.saikoro');
    await env.api.addExperiment(SMALL);
    await env.api.addExperiment(OTHER);
    let reads = 0;
    mount({ ...env.api, getProject: () => (reads++, env.api.getProject()) });
    const first = await appear('experiment-small');
    const before = reads;
    key('r');
    await waitFor('r to read the project again', () => reads === before + 1);
    key('e');
    expect(document.activeElement).toBe(first);
    key('ArrowDown', first);
    expect(document.activeElement).toBe(byTestId('experiment-other'));
    key('ArrowDown', document.activeElement!);
    expect(document.activeElement).toBe(byTestId('experiment-other'));
    key('Home', document.activeElement!);
    expect(document.activeElement).toBe(first);
    key('End', first);
    expect(document.activeElement).toBe(byTestId('experiment-other'));
    key('Enter', document.activeElement!);
    expect(window.location.hash).toBe('#/monitor/other');
    // A button inside a row keeps Enter for itself (it is a click there, not the row's).
    window.location.hash = '#/project';
    const viewSpec = byTestId('spec-small')!;
    viewSpec.focus();
    key('Enter', viewSpec);
    expect(window.location.hash).toBe('#/project');
    key('n');
    expect(window.location.hash).toBe('#/experiment');
    // Single keys are ignored while typing.
    window.location.hash = '#/project';
    key('n', byTestId('note-text')!);
    expect(window.location.hash).toBe('#/project');
  });

  it('Close returns to the empty state', async () => {
    await env.api.createProject('closing.saikoro');
    mount();
    click(await appear('close-project'));
    await waitFor('the empty state', () => byTestId('project-empty'));
    expect(await env.api.getProject()).toBeNull();
  });
});
