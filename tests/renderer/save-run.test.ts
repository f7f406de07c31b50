// @vitest-environment happy-dom
// "Save to project" in Solve and in the N-Queens lab's worker card, against the real main side
// (worker processes, a project file in a temporary workspace): without an open project the
// view points to the project home; a finished dice run is stored as a one-run experiment whose
// one run is done with the run's own result, a second save writes nothing and says so; an
// N-Queens run becomes a lab run; a refused name is shown in the main side's words.
import { describe, expect, it } from 'vitest';
import { h } from 'vue';
import SolveView from '../../src-renderer/views/solve/SolveView.vue';
import WorkerRunCard from '../../src-renderer/views/nqueens/WorkerRunCard.vue';
import { useSolveStore } from '../../src-renderer/stores/solve.ts';
import type { SolverResult } from '../../src-shared/api.ts';
import { byTestId, click, realAppForViews, settle, textOf, type } from './project/mount.ts';
import { waitFor } from '../main/processes.ts';

const env = realAppForViews({ parallelism: 1 });

async function solveOnce(): Promise<{ runId: string; result: SolverResult }> {
  const view = env.mount(SolveView, '#/solve');
  const solve = view.app.runWithContext(() => useSolveStore());
  await waitFor('the solvers', () => solve.compatibleSolvers.length > 0);
  solve.track = 'mo2';
  solve.n = 30;
  solve.selectSolver('nsga2');
  solve.params = { populationSize: 20 };
  solve.evaluations = 2000;
  solve.seed = 7;
  await solve.start();
  const run = await waitFor('the run to end', () => (solve.current?.status === 'done' ? solve.current : null), { withinMs: 60_000 });
  await settle();
  return { runId: run.runId, result: run.result as SolverResult };
}

describe('Save to project', () => {
  it('without an open project, Solve points to the project home instead', async () => {
    await solveOnce();
    expect(byTestId('save-run-button')).toBeNull();
    expect(textOf('save-run-no-project')).toBe('Open a project to keep this run in it.');
    expect(byTestId('save-run-no-project')!.querySelector('a')!.getAttribute('href')).toBe('#/project');
  });

  it("a finished Solve run becomes a one-run experiment with the run's own result; saving again writes nothing", async () => {
    await env.api.createProject('saved.saikoro');
    const { result } = await solveOnce();
    await waitFor('the save button', () => byTestId('save-run-button'));
    expect(textOf('save-run-button')).toBe('Save to saved');
    type(byTestId<HTMLInputElement>('save-run-name'), 'my-front');
    click(byTestId('save-run-button'));
    await waitFor('the saved line', () => byTestId('save-run-saved'));
    expect(textOf('save-run-saved')).toBe('Saved in saved as experiment my-front. Show it');

    const project = (await env.api.getProject())!;
    const stored = project.experiments.find((e) => e.name === 'my-front')!;
    expect(stored.counts).toMatchObject({ total: 1, done: 1, missing: 0 });
    expect(stored.spec).toMatchObject({
      instances: [{ track: 'mo2', n: 30 }],
      solvers: [{ name: 'nsga2', params: { populationSize: 20 } }],
      seeds: [7],
      budget: { evaluations: 2000 },
    });
    const [row] = await env.api.listExperimentRuns('my-front');
    expect([row.status, row.seed, row.evaluations, row.frontSize]).toEqual(['done', 7, result.evaluations, result.front.length]);
    const [stored1] = await env.api.getExperimentResults('my-front');
    expect(stored1.result!.front.map((s) => s.x)).toEqual(result.front.map((s) => s.x));

    click(byTestId('save-run-button'));
    await waitFor('the already-stored line', () => textOf('save-run-saved')?.startsWith('Already'));
    expect(textOf('save-run-saved')).toBe('Already in saved as experiment my-front; nothing written. Show it');
    expect((await env.api.getProject())!.experiments).toHaveLength(1);
  });

  it("a refused name is shown in the main side's words and nothing is stored", async () => {
    await env.api.createProject('refused.saikoro');
    await solveOnce();
    await waitFor('the save button', () => byTestId('save-run-button'));
    type(byTestId<HTMLInputElement>('save-run-name'), 'bad name/with slash');
    click(byTestId('save-run-button'));
    await waitFor('the refusal', () => byTestId('save-run-error'));
    expect(textOf('save-run-error')).toMatch(/^Not saved: .*name/);
    expect((await env.api.getProject())!.experiments).toEqual([]);
  });

  it('a finished N-Queens worker run becomes a lab run', async () => {
    await env.api.createProject('lab.saikoro');
    env.mount({ render: () => h(WorkerRunCard, { labParams: null, labN: 8 }) }, '#/nqueens');
    await settle();
    type(byTestId<HTMLInputElement>('nqw-n'), '200');
    await settle();
    click(byTestId('nqw-start'));
    await waitFor('the run to be solved', () => textOf('nqw-outcome')?.startsWith('Solved'), { withinMs: 60_000 });
    await waitFor('the save button', () => byTestId('save-run-button'));
    expect(byTestId('save-run-name')).toBeNull();
    click(byTestId('save-run-button'));
    await waitFor('the saved line', () => byTestId('save-run-saved'));
    const { labRuns } = (await env.api.getProject())!;
    expect(labRuns).toHaveLength(1);
    expect(labRuns[0]).toMatchObject({ status: 'done' });
    expect(textOf('save-run-saved')).toBe(`Saved in lab as lab run ${labRuns[0].id.slice(0, 12)}.`);
  });
});
