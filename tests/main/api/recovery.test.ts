// What recovery at open kept aside (issue 21) reaches the app: opening a project through the API
// whose journal is not a journal, or whose stale lock directory has something in it, answers
// with the notices (`recovered`, workspace-relative in web mode) and the sidecar is kept aside
// under a new name, never deleted; a clean open answers with none.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ProjectSummary } from '../../../src-shared/api.ts';
import { dispatchCall } from '../../../src-main/api/dispatch.ts';
import { runCli } from '../cli/io.ts';
import { apiHarness } from './harness.ts';

const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-workspace-'));
const harness = apiHarness(1, { workspace });
afterAll(() => {
  harness.dispose();
  fs.rmSync(workspace, { recursive: true, force: true });
});

async function call<T>(name: string, ...args: unknown[]): Promise<T> {
  const answer = await dispatchCall(harness.api, name, args);
  if (!answer.ok) throw Object.assign(new Error(answer.error.message), answer.error);
  return answer.value as T;
}

/** A project in `study/` with one note, made by the CLI; the names beside it. */
async function project(name: string) {
  fs.mkdirSync(path.join(workspace, 'study'), { recursive: true });
  const rel = `study/${name}.saikoro`;
  expect((await runCli(['project', 'new', rel], { cwd: workspace })).code).toBe(0);
  expect((await runCli(['project', 'note', rel, 'kept'], { cwd: workspace })).code).toBe(0);
  const beside = () =>
    fs
      .readdirSync(path.join(workspace, 'study'))
      .filter((n) => n !== `${name}.saikoro` && n.startsWith(`${name}.saikoro`) && !n.includes('.open.'))
      .sort();
  return { rel, file: path.join(workspace, rel), beside };
}

describe('opening through the API reports what recovery kept aside', () => {
  it('a journal that is not a journal: openProject answers the notice; the journal is kept aside, its bytes intact', async () => {
    const p = await project('journal');
    const garbage = Buffer.from("these bytes are somebody else's, not a rollback journal ".repeat(20));
    fs.writeFileSync(`${p.file}-journal`, garbage);
    const summary = await call<ProjectSummary>('openProject', p.rel);
    const kept = p.beside().filter((n) => n.includes('.kept-'));
    const [aside] = kept;
    expect(kept).toEqual([aside]);
    expect(aside).toMatch(/^journal\.saikoro-journal\.kept-\d{8}T\d{6}Z$/);
    expect(fs.readFileSync(path.join(workspace, 'study', aside))).toEqual(garbage);
    expect(summary.recovered).toEqual([`study/journal.saikoro-journal: not a rollback journal (no journal header); kept aside as ${aside}`]);
    expect(summary.notes.map((n) => n.text)).toEqual(['kept']);
    // The notices belong to this open: a later read of the same open project still has them.
    expect((await call<ProjectSummary>('getProject'))?.recovered).toEqual(summary.recovered);
    expect(JSON.stringify(summary)).not.toContain(workspace);
    // Opened again, there is nothing left to recover.
    expect((await call<ProjectSummary>('openProject', p.rel)).recovered).toEqual([]);
  });

  it('a stale lock directory with content: the notice names it; it is kept aside with its content', async () => {
    const p = await project('locked');
    fs.mkdirSync(`${p.file}.lock`);
    fs.writeFileSync(path.join(`${p.file}.lock`, 'notes.txt'), 'mine');
    const summary = await call<ProjectSummary>('openProject', p.rel);
    const [aside] = p.beside().filter((n) => n.includes('.kept-'));
    expect(aside).toMatch(/^locked\.saikoro\.lock\.kept-/);
    expect(fs.readFileSync(path.join(workspace, 'study', aside, 'notes.txt'), 'utf8')).toBe('mine');
    expect(summary.recovered).toEqual([
      `study/locked.saikoro.lock: a lock directory left by a process that has ended, with 1 file(s) in it; kept aside as ${aside}`,
    ]);
  });

  it('a project created or opened cleanly has no notices', async () => {
    expect((await call<ProjectSummary>('createProject', 'study/fresh.saikoro')).recovered).toEqual([]);
    await call('closeProject');
    expect((await call<ProjectSummary>('openProject', 'study/fresh.saikoro')).recovered).toEqual([]);
  });
});
