// @vitest-environment happy-dom
// The run monitor against the real main side (API, solver host with worker processes, projects
// on a temporary workspace): a session reaches 100% with every row done and its result; a failed
// run shows its reason and Retry runs it again; a run paused and cancelled mid-session stays
// missing and Run then does only the missing one; a reload mid-session finds the runs still
// going; a run the CLI stores in the same file appears after Refresh.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import MonitorView from '../../../src-renderer/views/monitor/MonitorView.vue';
import { useProjectStore } from '../../../src-renderer/stores/project.ts';
import { resultText } from '../../../src-renderer/views/monitor/monitor.ts';
import { expandGrid } from '../../../src-shared/experiments/grid.ts';
import { prepareSpec } from '../../../src-main/app/experiments.ts';
import { diceHvNormalisation } from '../../../src-shared/problems/dice/hv-reference.ts';
import { addExperiment } from '../../../src-main/experiments/add.ts';
import { recordOf } from '../../../src-main/experiments/runner.ts';
import { Project } from '../../../src-main/project/store.ts';
import { realApp, type RealApp } from '../real-app.ts';
import { mountView, type Mounted } from '../project/mount.ts';
import { waitFor } from '../../main/processes.ts';
import { runCli } from '../../main/cli/io.ts';

// One instance, two solvers, three seeds, a small budget: runs of well under a second.
const SMALL = {
  name: 'small',
  instances: [{ name: 'mo2-n24', track: 'mo2', n: 24 }],
  solvers: [{ name: 'random' }, { name: 'nsga2', params: { populationSize: 20 } }],
  seeds: [1, 2, 3],
  budget: { evaluations: 600 },
};
// Runs of about a second (jobs 1), so a test can pause and cancel one while it goes.
const SLOW = {
  name: 'slow',
  instances: [{ name: 'so-n200', track: 'so', n: 200 }],
  solvers: [{ name: 'random' }],
  seeds: [1, 2, 3],
  budget: { evaluations: 40_000, wholeBudget: true },
};

let env: RealApp;
let view: Mounted | null = null;

beforeAll(() => {
  env = realApp({ parallelism: 2 });
});
afterAll(() => env.dispose());
/** The page goes away: the app unmounted and its stores' listeners detached (as a reload would). */
function unmount() {
  view?.unmount();
  view = null;
}
afterEach(unmount);

/** Mounts the monitor on #/monitor/<experiment> with a fresh Pinia, as a page load would. */
function mount(experiment: string) {
  view = mountView(MonitorView, env.api, `#/monitor/${experiment}`);
  return view.app.runWithContext(() => useProjectStore());
}

const q = (testid: string, root: ParentNode = document) => root.querySelector<HTMLElement>(`[data-testid="${testid}"]`);
const text = (testid: string, root: ParentNode | null = document) => (root ? q(testid, root) : null)?.textContent?.replace(/\s+/g, ' ').trim() ?? null;
const rows = () => [...document.querySelectorAll<HTMLElement>('[data-testid="monitor-runs"] tbody tr[data-state]')];
const states = () => rows().map((r) => r.dataset.state);
const rowOf = (id: string) => q(`run-${id}`);
const click = (el: HTMLElement | null) => {
  if (!el) throw new Error('no such element');
  el.click();
};

/**
 * Records every state each row shows, as it is drawn (a MutationObserver sees each render), for
 * the rows' histories: "missing", "running 42%", "done"...
 */
function recordRows() {
  const seen = new Map<string, string[]>();
  const observer = new MutationObserver(() => {
    for (const r of rows()) {
      const shown = `${r.dataset.state} ${text('run-progress', r) ?? ''}`.trim();
      const list = seen.get(r.dataset.testid!.slice('run-'.length)) ?? [];
      if (list.at(-1) !== shown) list.push(shown);
      seen.set(r.dataset.testid!.slice('run-'.length), list);
    }
  });
  observer.observe(q('monitor-runs')!, { subtree: true, childList: true, characterData: true, attributes: true });
  return () => (observer.disconnect(), seen);
}

async function openProject(file: string, specs: object[]) {
  await env.api.createProject(file);
  for (const spec of specs) await env.api.addExperiment(spec);
}

describe('run monitor', () => {
  it('a session reaches 100% and every row is done with its result', async () => {
    await openProject('monitor.saikoro', [SMALL]);
    mount('small');
    await waitFor('six missing rows', () => states().length === 6 && states().every((s) => s === 'missing'));
    expect(text('monitor-run')).toBe('Run 6 missing and failed');
    (q('monitor-jobs') as HTMLSelectElement).value = '2';
    q('monitor-jobs')!.dispatchEvent(new Event('change'));
    click(q('monitor-run'));
    const session = () => q('session-small');
    await waitFor('the session to finish', () => text('session-status', session()) === 'done', { withinMs: 60_000 });
    expect(text('session-percent', session()!)).toBe('100%');
    expect(text('session-counts', session()!)).toBe('6 of 6 runs');
    expect(text('session-eta', session()!)).toBe('finished');
    expect(q('session-small')!.textContent).toContain('2 jobs');
    await waitFor('every row done', () => states().length === 6 && states().every((s) => s === 'done'));
    // Each row shows what the file says of its run: HV and front size, evaluations, time.
    const listed = await env.api.listExperimentRuns('small');
    for (const run of listed) {
      const row = rowOf(run.id)!;
      expect(text('run-result', row)).toBe(resultText(run));
      expect(text('run-result', row)).toMatch(/^HV 0\.\d{1,4} · \d+ on the front$/);
      expect(text('run-evaluations', row)).toBe(String(run.evaluations));
      expect(text('run-time', row)).toMatch(/s$/);
    }
    expect(text('monitor-run')).toBe('All runs done');
    expect((q('monitor-run') as HTMLButtonElement).disabled).toBe(true);
  });

  it('a failed run shows its reason, and Retry runs the failed and missing runs again', async () => {
    // A project where an earlier session (the CLI's, say) stored a run as failed.
    const file = path.join(env.workspace, 'failed.saikoro');
    const spec = await prepareSpec(SMALL, env.workspace, async (config) => diceHvNormalisation(config));
    const project = Project.create(file);
    addExperiment(project, spec);
    const victim = expandGrid(spec)[4];
    const reason = 'worker exceeded its memory limit (64 MB resident)';
    project.putRun(recordOf(victim, { status: 'failed', result: null, error: reason, startedAt: new Date(Date.now() - 1000), finishedAt: new Date() }));
    project.close();
    await env.api.openProject('failed.saikoro');

    mount('small');
    await waitFor('the failed row', () => rowOf(victim.id)?.dataset.state === 'failed');
    expect(states().filter((s) => s === 'missing')).toHaveLength(5);
    expect(text('run-result', rowOf(victim.id)!)).toBe(reason);
    expect(q('monitor-failures')!.querySelector('strong')!.textContent).toBe('1 run failed');
    expect(q('monitor-failures')!.querySelector('li')!.textContent).toBe(reason);
    expect(text('monitor-run')).toBe('Run 6 missing and failed');
    click(q('run-retry', rowOf(victim.id)!));
    await waitFor('the retried session to finish', () => text('session-status', q('session-small')) === 'done', { withinMs: 60_000 });
    expect(text('session-counts', q('session-small')!)).toBe('6 of 6 runs');
    await waitFor('every row done', () => states().length === 6 && states().every((s) => s === 'done'));
    expect(text('run-result', rowOf(victim.id)!)).toMatch(/^HV /);
    expect(q('monitor-failures')).toBeNull();
  });

  it('a run paused and cancelled mid-session stays missing; Run then does only the missing run', async () => {
    await openProject('cancel.saikoro', [SLOW]);
    mount('slow');
    await waitFor('three rows', () => states().length === 3);
    (q('monitor-jobs') as HTMLSelectElement).value = '1';
    q('monitor-jobs')!.dispatchEvent(new Event('change'));
    const history = recordRows();
    click(q('monitor-run'));
    // The first run, going: its own progress bar, then Pause holds it.
    const going = await waitFor(
      'a running row with progress',
      () => rows().find((r) => r.dataset.state === 'running' && q('run-pause', r) && text('run-progress', r) !== null),
      { withinMs: 30_000 },
    );
    const id = going.dataset.testid!.slice('run-'.length);
    click(q('run-pause', going));
    await waitFor('the row paused', () => rowOf(id)?.dataset.state === 'paused');
    expect(text('run-pause', rowOf(id)!)).toBe('Resume');
    // The one run in flight paused: the session says so, and its time left waits for it (it counted down).
    await waitFor('the session paused', () => text('session-status', q('session-slow')) === 'paused');
    expect(text('session-eta', q('session-slow')!)).toMatch(/^paused: (about \S+ s left once resumed|nothing moves until a run is resumed)$/);
    click(q('run-cancel', rowOf(id)!));
    // Cancelled, it is missing again at once (it said "running 0%" with Pause and Cancel until the session ended).
    await waitFor('the cancelled row missing', () => rowOf(id)?.dataset.state === 'missing', { withinMs: 30_000 });
    expect(text('session-status', q('session-slow'))).toBe('running');
    expect([q('run-pause', rowOf(id)!), q('run-cancel', rowOf(id)!), q('run-progress', rowOf(id)!)]).toEqual([null, null, null]);
    await waitFor('the session to end', () => text('session-status', q('session-slow')) === 'ended · 1 not run', { withinMs: 60_000 });
    await waitFor('two done, the cancelled one missing', () => rowOf(id)?.dataset.state === 'missing' && states().filter((s) => s === 'done').length === 2);
    // A run that went and then ended never showed "running 0%" again on its way to done (it did for half a second).
    const seen = history();
    const finished = [...seen].filter(([other]) => other !== id);
    expect(finished).toHaveLength(2);
    for (const [, shown] of finished) {
      const going = shown.findIndex((s) => /^running [1-9]/.test(s));
      expect(going, shown.join(' → ')).toBeGreaterThanOrEqual(0);
      expect(
        shown.slice(going).filter((s) => s === 'running 0%'),
        shown.join(' → '),
      ).toEqual([]);
      expect(shown.at(-1)).toBe('done');
    }
    expect(seen.get(id)!.at(-1)).toBe('missing');
    expect(text('session-counts', q('session-slow')!)).toBe('2 of 3 runs');
    expect(text('session-eta', q('session-slow')!)).toBe('ended with 1 run not run (cancelled)');
    expect(text('monitor-run')).toBe('Run 1 missing and failed');

    click(q('monitor-run'));
    await waitFor('the second session to start', () => text('session-counts', q('session-slow')!)?.endsWith('of 1 run'));
    await waitFor('the second session to finish', () => text('session-status', q('session-slow')) === 'done', { withinMs: 60_000 });
    expect(text('session-counts', q('session-slow')!)).toBe('1 of 1 run');
    await waitFor('every row done', () => states().every((s) => s === 'done'));
  });

  it('a run waiting in the session says "queued"; with the last run cancelled the session is not "done" and Run offers it again, with no Refresh', async () => {
    await openProject('last.saikoro', [{ ...SLOW, name: 'last', seeds: [1, 2], budget: { evaluations: 400_000, wholeBudget: true } }]);
    const store = mount('last');
    await waitFor('two rows', () => states().length === 2);
    (q('monitor-jobs') as HTMLSelectElement).value = '1';
    q('monitor-jobs')!.dispatchEvent(new Event('change'));
    click(q('monitor-run'));
    const going = await waitFor('a running row', () => rows().find((r) => r.dataset.state === 'running' && q('run-cancel', r)), { withinMs: 30_000 });
    // The other run waits its turn in this session: "queued", not "missing" (the word of a run no session will run).
    const waiting = rows().find((r) => r !== going)!;
    expect(waiting.dataset.state).toBe('queued');
    expect(text('run-state', waiting)).toBe('queued');
    click(q('run-cancel', going));
    const second = await waitFor(
      'the second run going',
      () =>
        (waiting.isConnected ? waiting : rowOf(waiting.dataset.testid!.slice(4)))?.dataset.state === 'running' ? rowOf(waiting.dataset.testid!.slice(4)) : null,
      { withinMs: 30_000 },
    );
    // The project read while the second run goes (Refresh here; a run stored does the same): the
    // first, cancelled, is missing, the one in flight is not. The session's end must be read again
    // without Refresh (the counts of that moment stayed: "All runs done" or "Run 1 missing and
    // failed" until Refresh revealed the cancelled run).
    click(q('monitor-refresh'));
    await waitFor('the project read with one run missing and one in flight', () => {
      const counts = store.summary?.experiments.find((e) => e.name === 'last')?.counts;
      return counts?.missing === 1 && counts.running === 1;
    });
    click(q('run-cancel', second!));
    await waitFor(
      'the session to end',
      () => text('session-status', q('session-last')) !== 'running' && text('session-status', q('session-last')) !== 'stopping',
      { withinMs: 30_000 },
    );
    // Two runs cancelled, none run: the badge says so and is not the green of a finished session.
    expect(text('session-status', q('session-last'))).toBe('ended · 2 not run');
    expect(q('session-status', q('session-last')!)!.classList.contains('ok')).toBe(false);
    expect(text('session-eta', q('session-last')!)).toBe('ended with 2 runs not run (cancelled)');
    await waitFor('Run offers the two runs again', () => text('monitor-run') === 'Run 2 missing and failed');
    expect((q('monitor-run') as HTMLButtonElement).disabled).toBe(false);
    expect(states()).toEqual(['missing', 'missing']);
  });

  it('after a reload mid-session the monitor finds the session and its runs still going, with Pause and Cancel', async () => {
    await openProject('reload.saikoro', [{ ...SLOW, name: 'long', budget: { evaluations: 400_000, wholeBudget: true } }]);
    mount('long');
    await waitFor('three rows', () => states().length === 3);
    (q('monitor-jobs') as HTMLSelectElement).value = '1';
    q('monitor-jobs')!.dispatchEvent(new Event('change'));
    click(q('monitor-run'));
    await waitFor('a running row', () => states().includes('running'), { withinMs: 30_000 });

    // The page goes away and comes back: new stores, the same main side.
    unmount();
    document.body.innerHTML = '';
    mount('long');
    await waitFor('the running session', () => text('session-status', q('session-long')) === 'running');
    const going = await waitFor(
      'a running row with progress',
      () =>
        rows().find((r) => r.dataset.state === 'running' && q('run-pause', r) && q('run-cancel', r) && Number(text('run-progress', r)?.replace('%', '')) > 0),
      { withinMs: 30_000 },
    );
    const before = Number(text('run-evaluations', going)!.replace(/,/g, ''));
    await waitFor(
      'its evaluations to go on',
      () => Number(text('run-evaluations', rows().find((r) => r.dataset.state === 'running')!)?.replace(/,/g, '')) > before,
      { withinMs: 30_000 },
    );
    expect(text('session-eta', q('session-long')!)).toMatch(/^(time left: known once a run has moved|about .* left)$/);

    click(q('monitor-cancel-session'));
    await waitFor('the cancelled session', () => text('session-status', q('session-long')!) === 'cancelled', { withinMs: 30_000 });
    await waitFor('no run going', () => states().every((s) => s === 'missing' || s === 'done'));
  });

  it('runs the CLI stores in the same file appear after Refresh', async () => {
    await openProject('cli.saikoro', [{ ...SMALL, name: 'by-cli' }]);
    const store = mount('by-cli');
    await waitFor('six missing rows', () => states().length === 6 && states().every((s) => s === 'missing'));
    const ran = await runCli(['experiment', 'run', 'cli.saikoro', 'by-cli', '--inline'], { cwd: env.workspace });
    expect(ran.code, ran.stderr).toBe(0);
    // Nothing told the app: the rows still say missing until the file is read again.
    expect(states().every((s) => s === 'missing')).toBe(true);
    click(q('monitor-refresh'));
    await waitFor('the CLI runs shown', () => states().length === 6 && states().every((s) => s === 'done'));
    expect(store.experiment('by-cli')!.counts.done).toBe(6);
    expect(text('monitor-experiment')).toContain('by-cli (6/6 done)');
    expect(fs.existsSync(path.join(env.workspace, 'cli.saikoro'))).toBe(true);
  });
});
