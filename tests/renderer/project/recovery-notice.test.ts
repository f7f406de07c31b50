// @vitest-environment happy-dom
// The project home against the real main side: opening a project whose journal is not a journal
// (recovery keeps it aside, issue 21) shows what was kept aside as a dismissible status notice;
// dismissed, it stays away through a refresh, and a project the main side opens (the desktop's
// File menu) shows its own; a clean open shows none.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import ProjectView from '../../../src-renderer/views/project/ProjectView.vue';
import { waitFor } from '../../main/processes.ts';
import { runCli } from '../../main/cli/io.ts';
import { appear, byTestId, click, q, realAppForViews, settle, textOf } from './mount.ts';

const env = realAppForViews({ parallelism: 1 });

async function made(name: string): Promise<string> {
  expect((await runCli(['project', 'new', name], { cwd: env.workspace })).code).toBe(0);
  return path.join(env.workspace, name);
}

describe('project home: what recovery kept aside', () => {
  it('shows the notice after opening a project with a garbage journal; Dismiss hides it, a refresh does not bring it back', async () => {
    const file = await made('garbled.saikoro');
    fs.writeFileSync(`${file}-journal`, Buffer.from('not a rollback journal at all '.repeat(30)));
    env.mount(ProjectView, '#/project');
    click(await appear('open-garbled.saikoro'));
    const notice = await appear('project-recovered');
    const [aside] = fs.readdirSync(env.workspace).filter((n) => n.startsWith('garbled.saikoro-journal.kept-'));
    expect(aside).toMatch(/^garbled\.saikoro-journal\.kept-\d{8}T\d{6}Z$/);
    expect(notice.getAttribute('role')).toBe('status');
    expect(textOf('project-recovered')).toContain(`garbled.saikoro-journal: not a rollback journal (no journal header); kept aside as ${aside}`);
    expect(textOf('project-recovered')).not.toContain(env.workspace);
    expect(byTestId('project-info')).not.toBeNull();
    click(byTestId('dismiss-recovered'));
    await waitFor('the notice to go', () => byTestId('project-recovered') === null);
    click(byTestId('refresh'));
    await settle();
    await waitFor('the refresh to end', () => !byTestId('refresh')?.hasAttribute('disabled'));
    expect(byTestId('project-recovered')).toBeNull();
    // Opened on the main side (as the desktop's File menu does): its notice shows though the last was dismissed.
    const other = await made('other.saikoro');
    fs.mkdirSync(`${other}.lock`);
    fs.writeFileSync(path.join(`${other}.lock`, 'left.txt'), 'x');
    await env.api.openProject('other.saikoro');
    await waitFor('the new notice', () =>
      byTestId('project-recovered')?.textContent?.includes('other.saikoro.lock: a lock directory left by a process that has ended'),
    );
    expect(q('h1')?.textContent).toBe('other');
  });

  it('a clean open shows no notice', async () => {
    await made('clean.saikoro');
    env.mount(ProjectView, '#/project');
    click(await appear('open-clean.saikoro'));
    await appear('project-info');
    await settle();
    expect(byTestId('project-recovered')).toBeNull();
  });
});
