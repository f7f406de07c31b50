// @vitest-environment happy-dom
// The N-Queens lab's sweep against the real main side: one run of the app (kind 'nqueens-sweep',
// planned and launched by the app layer, run in a worker process) with a progress bar while it
// runs, whose figures are those of each cell run alone (executeRunSync of the nqueens request of
// its N, parameters and seed, which is what the lab's Web Worker ran before). Cancel stops it, and
// closing the lab cancels a sweep still going.
import { describe, expect, it } from 'vitest';
import NqueensView from '../../../src-renderer/views/nqueens/NqueensView.vue';
import { planSweep, summarizeSweep, type SweepOutcome, type SweepSetting } from '../../../src-renderer/views/nqueens/sweep.ts';
import type { NqueensSweepResult, RunInfo, StartNqueensSweep } from '../../../src-shared/api.ts';
import { executeRunSync } from '../../../src-shared/runtime/kinds/index.ts';
import { waitFor } from '../../main/processes.ts';
import { byTestId, click, q, realAppForViews, settle, text, textOf, type } from '../project/mount.ts';

const env = realAppForViews({ parallelism: 1 });

const sweeps = (): RunInfo[] => env.runs.list().filter((r) => r.kind === 'nqueens-sweep');
const LAB_SETTINGS: SweepSetting[] = [
  { label: 'lab default', preset: 'default', overrides: {} },
  { label: 'slides', preset: 'slides', overrides: {} },
];

/** The reference: each cell of the request run alone, as an nqueens run. */
function cellByCell(request: StartNqueensSweep): SweepOutcome[] {
  return request.points.flatMap((p, i) =>
    Array.from({ length: request.seeds }, (_, k) => {
      const r = executeRunSync({ kind: 'nqueens', method: 'neural', n: p.n, params: p.params, seed: k + 1 });
      return {
        index: i * request.seeds + k,
        setting: p.setting,
        n: p.n,
        seed: k + 1,
        solved: r.solved,
        steps: r.steps,
        seconds: 0,
        ...(r.failure !== undefined ? { failure: r.failure } : {}),
      };
    }),
  );
}

const fmt = (x: number | null) => (x === null ? '–' : Number.isInteger(x) ? String(x) : x.toFixed(1));

describe("the lab's sweep", () => {
  it('is one run of the app, and shows the figures of each cell run alone', async () => {
    env.mount(NqueensView, '#/nqueens');
    await settle();
    type(byTestId<HTMLInputElement>('nq-sweep-ns'), '6, 8-16');
    type(byTestId<HTMLInputElement>('nq-sweep-seeds'), '5');
    click(byTestId('nq-sweep-run'));
    await waitFor('the sweep to finish', () => /^30 \/ 30 runs, \d+ solved$/.test(textOf('nq-sweep-count') ?? ''), { withinMs: 60_000 });
    // One run in the app's list (not 30), started with the lab's request.
    const request = planSweep([6, 8, 16], LAB_SETTINGS, 5);
    expect(sweeps()).toHaveLength(1);
    const [run] = sweeps();
    expect(run.status).toBe('done');
    expect(run.started).toMatchObject({ kind: 'nqueens-sweep', points: request.points, seeds: 5, cells: 30 });
    expect(env.runs.list().filter((r) => r.kind === 'nqueens' && r.started.kind === 'nqueens' && r.started.purpose !== 'baseline')).toEqual([]);
    // The same outcomes as each cell alone; the page's figures are their summary.
    const reference = cellByCell(request);
    const result = run.result as NqueensSweepResult;
    expect(result.outcomes.map(({ seconds: _s, ...o }) => o)).toEqual(reference.map(({ seconds: _s, ...o }) => o));
    const solved = reference.filter((o) => o.solved).length;
    expect(textOf('nq-sweep-count')).toBe(`30 / 30 runs, ${solved} solved`);
    expect(byTestId('nq-sweep-progress')!.getAttribute('aria-valuenow')).toBe('100');
    const expected = summarizeSweep(reference, 2)
      .flat()
      .sort((a, b) => a.n - b.n || a.setting - b.setting)
      .map((c) => [
        String(c.n),
        LAB_SETTINGS[c.setting].label,
        `${c.solved}/${c.runs}`,
        fmt(c.median),
        c.q1 === null ? '–' : `${fmt(c.q1)}–${fmt(c.q3)}`,
        Object.entries(c.failures)
          .map(([m, k]) => `${k} ${m}`)
          .join(', ') || '–',
      ]);
    const shown = [...document.querySelectorAll('[data-testid="nq-sweep-table"] tbody tr')].map((tr) => [...tr.querySelectorAll('td')].map((td) => text(td)));
    expect(shown).toEqual(expected);
    expect(q('.sweep-charts')).not.toBeNull();
  });

  it('shows its progress while it runs, and Cancel stops it with the runs it finished', async () => {
    env.mount(NqueensView, '#/nqueens');
    await settle();
    type(byTestId<HTMLInputElement>('nq-sweep-ns'), '40');
    type(byTestId<HTMLInputElement>('nq-sweep-seeds'), '200');
    const before = sweeps().length;
    click(byTestId('nq-sweep-run'));
    await waitFor(
      'a few runs done',
      () => {
        const m = /^(\d+) \/ 400 runs, \d+ solved…$/.exec(textOf('nq-sweep-count') ?? '');
        return m && Number(m[1]) >= 2;
      },
      { withinMs: 60_000 },
    );
    const shownPercent = Number(byTestId('nq-sweep-progress')!.getAttribute('aria-valuenow'));
    expect(shownPercent).toBeLessThan(100);
    click(byTestId('nq-sweep-cancel'));
    const run = await waitFor('the sweep to be cancelled', () => sweeps().find((r) => r.status === 'cancelled'), { withinMs: 30_000 });
    expect(sweeps()).toHaveLength(before + 1);
    await waitFor('Run sweep back', () => byTestId('nq-sweep-run'));
    const result = run.result as NqueensSweepResult;
    expect(result.outcomes.length).toBeGreaterThanOrEqual(2);
    expect(result.outcomes.length).toBeLessThan(400);
    await waitFor(
      'the count of the runs it finished',
      () => textOf('nq-sweep-count') === `${result.outcomes.length} / 400 runs, ${result.outcomes.filter((o) => o.solved).length} solved`,
    );
    // What it finished is what those cells give alone.
    const request = planSweep([40], LAB_SETTINGS, 200);
    const reference = cellByCell({ ...request, points: request.points.slice(0, Math.ceil(result.outcomes.length / 200)) }).slice(0, result.outcomes.length);
    expect(result.outcomes.map(({ seconds: _s, ...o }) => o)).toEqual(reference.map(({ seconds: _s, ...o }) => o));
  });

  it('a sweep still going when the lab closes is cancelled', async () => {
    const view = env.mount(NqueensView, '#/nqueens');
    await settle();
    type(byTestId<HTMLInputElement>('nq-sweep-ns'), '40');
    type(byTestId<HTMLInputElement>('nq-sweep-seeds'), '200');
    click(byTestId('nq-sweep-run'));
    const run = await waitFor('the sweep running', () => sweeps().find((r) => r.status === 'running'), { withinMs: 30_000 });
    view.unmount();
    await waitFor('the sweep to be cancelled', () => env.runs.get(run.runId)?.status === 'cancelled', { withinMs: 30_000 });
  });
});
