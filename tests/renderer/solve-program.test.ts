// @vitest-environment happy-dom
// The Solve view with a program as the solver (issue 18), against the real main side: the
// warning that it runs a program, the command line split as a shell would (a broken quote named
// at the field before anything is sent), its name from the script; a program the app will not
// run is refused at the command field and nothing starts; an allowed one runs to the end
// (examples/solvers/random_search.mjs, plain Node) and its best re-evaluates exactly.
import { describe, expect, it } from 'vitest';
import { dirname, join } from 'node:path';
import SolveView from '../../src-renderer/views/solve/SolveView.vue';
import { formatNumber } from '../../src-renderer/logic/dice/labels.ts';
import { allowPrograms } from '../../src-main/app/program-policy.ts';
import { trackConfig } from '../../src-shared/problems/dice/config.ts';
import { evaluateDice } from '../../src-shared/problems/dice/evaluate.ts';
import { formatCommand } from '../../src-shared/solvers/program/protocol.ts';
import { waitFor } from '../main/processes.ts';
import { byTestId, click, key, realAppForViews, select, settle, text, textOf, type } from './project/mount.ts';

const SCRIPT = join(import.meta.dirname, '../../examples/solvers/random_search.mjs');
const COMMAND = formatCommand([process.execPath, SCRIPT, '--batch', '50']);

async function chooseProgram() {
  await waitFor('the solvers', () => byTestId<HTMLSelectElement>('solve-solver')!.options.length > 2);
  select(byTestId<HTMLSelectElement>('solve-solver'), ':program');
  await settle();
}

describe('Solve view: a program the app does not run', () => {
  const env = realAppForViews({ parallelism: 1 });

  it('shows the warning, splits the command line at the field, and shows the refusal there', async () => {
    env.mount(SolveView, '#/solve');
    await chooseProgram();
    expect(textOf('program-warning')).toContain('This runs a program on the machine Saikoro runs on');
    const command = byTestId<HTMLInputElement>('solve-command')!;
    expect(command.getAttribute('aria-describedby')).toContain('solve-program-warning');

    type(command, "python3 'my ga.py");
    await settle();
    expect(textOf('solve-error-program.command')).toBe("unterminated ' (single quote) at character 9");
    expect(command.getAttribute('aria-invalid')).toBe('true');

    type(command, COMMAND);
    await settle();
    expect(textOf('solve-error-program.command')).toBeNull();
    expect(byTestId<HTMLInputElement>('solve-program-name')!.placeholder).toBe('random_search');
    click(byTestId('solve-start'));
    await waitFor('the refusal', () => textOf('solve-error-program.command'));
    expect(textOf('solve-error-program.command')).toMatch(
      /^Starting this run: the solver random_search \(.*random_search\.mjs --batch 50\) is a program, and this server does not run programs; /,
    );
    expect(command.getAttribute('aria-invalid')).toBe('true');
    expect(text(byTestId('solve-status'))).toBe('Not started');
    expect(await env.api.listRuns()).toEqual([]);
  });
});

describe('Solve view: a program the app runs', () => {
  const env = realAppForViews({ parallelism: 1, programs: allowPrograms() });

  it('runs it to the end from the keyboard; the best shown is its exact evaluation', async () => {
    env.mount(SolveView, '#/solve');
    await chooseProgram();
    type(byTestId<HTMLInputElement>('solve-command'), COMMAND);
    type(byTestId<HTMLInputElement>('solve-program-name'), 'node-random');
    // Its own folder (a sandbox shows a program a copy of its folder, and the checkout is too big for one).
    type(byTestId<HTMLInputElement>('solve-program-cwd'), dirname(SCRIPT));
    type(byTestId<HTMLInputElement>('solve-evaluations'), '300');
    click(byTestId('solve-whole-budget'));
    await settle();
    key('Enter', byTestId('solve-command')!, { ctrlKey: true });
    await waitFor('the run to end', () => text(byTestId('solve-status')) === 'Done', { withinMs: 60_000 });
    const [run] = await env.api.listRuns();
    const info = (await env.api.getRun(run.runId))!;
    expect(info.started).toMatchObject({ kind: 'dice', solver: 'node-random', program: { command: [process.execPath, SCRIPT, '--batch', '50'] } });
    const result = info.result as { evaluations: number; best: { x: string; objectives: number[] } };
    expect(result.evaluations).toBe(300);
    expect(result.best.objectives).toEqual(evaluateDice(result.best.x, trackConfig('so', 50)).objectives);
    expect(textOf('solve-best')).toBe(`f = ${formatNumber(result.best.objectives[0])}`);
  });
});
