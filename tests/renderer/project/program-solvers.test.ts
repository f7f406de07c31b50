// @vitest-environment happy-dom
// Program solvers (issue 18) in the experiment editor, against the real main side: "+ Add a
// program" makes an entry {name, command} with the warning that it runs a program and the
// command line focused; the line is split as a shell would (a broken quote is named at the
// field and the draft cannot be saved); working folder and blind go into the spec; Save stores
// the program entry as experiment add would; choosing a built-in solver again drops the program
// fields; an app that does not run programs refuses the save at the command line.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import ExperimentView from '../../../src-renderer/views/experiment/ExperimentView.vue';
import { waitFor } from '../../main/processes.ts';
import { allowPrograms } from '../../../src-main/app/program-policy.ts';
import { byField, byTestId, click, errorFor, realAppForViews, select, settle, text, textOf, type } from './mount.ts';

const env = realAppForViews({ parallelism: 1, programs: allowPrograms() });

async function mount() {
  env.mount(ExperimentView, '#/experiment');
  await waitFor('the solver parameters', () => byField('solvers[0].params.strength'));
}
const spec = () => JSON.parse(byTestId<HTMLTextAreaElement>('spec-json')!.value) as Record<string, any>;

describe('experiment editor: a program as a solver', () => {
  it('adds a program entry with its warning, splits its command line, and saves it as experiment add stores it', async () => {
    await env.api.createProject('programs.saikoro');
    await mount();
    click(byTestId('add-program'));
    await settle();
    expect(spec().solvers).toEqual([{ name: 'barrier-ls' }, { name: 'my-solver', command: [] }]);
    const command = byField<HTMLInputElement>('solvers[1].command')!;
    expect(document.activeElement).toBe(command);
    // The warning is there, and the command line is described by it for a screen reader.
    expect(textOf('program-warning')).toContain('This runs a program on the machine Saikoro runs on');
    expect(command.getAttribute('aria-describedby')).toContain('solver-1-warning');
    expect(errorFor('solvers[1].command')).toMatch(/^must be a non-empty list of strings/);
    expect(byTestId<HTMLSelectElement>('solver-name-1')!.value).toBe(':program');

    type(command, "python3 'my ga.py");
    await settle();
    expect(errorFor('solvers[1].command')).toBe("unterminated ' (single quote) at character 9");
    expect(command.getAttribute('aria-invalid')).toBe('true');
    expect(textOf('problem-count')).not.toBe('✓ ready to save');

    type(command, "python3 'my ga.py' --pop 20");
    await settle();
    expect(errorFor('solvers[1].command')).toBeNull();
    type(byField('solvers[1].name'), 'my-ga');
    type(byField('solvers[1].cwd'), 'solvers');
    click(byTestId('blind-1'));
    await settle();
    expect(spec().solvers[1]).toEqual({ name: 'my-ga', command: ['python3', 'my ga.py', '--pop', '20'], cwd: 'solvers', blind: true });
    expect(textOf('problem-count')).toBe('✓ ready to save');

    type(byField('name'), 'with-program');
    await settle();
    // The program must exist where the spec says (the program gate resolves it when the experiment is added).
    fs.mkdirSync(path.join(env.workspace, 'solvers'), { recursive: true });
    fs.writeFileSync(path.join(env.workspace, 'solvers', 'my ga.py'), 'print(1)\n');
    click(byTestId('save'));
    await waitFor('the saved banner', () => byTestId('saved'));
    const stored = (await env.api.getProject())!.experiments.find((e) => e.name === 'with-program')!;
    expect(stored.spec.solvers[1]).toMatchObject({ name: 'my-ga', command: ['python3', 'my ga.py', '--pop', '20'], cwd: 'solvers', blind: true });
  });

  it('the JSON writes the command line back, and a built-in solver chosen again drops the program fields', async () => {
    await mount();
    click(byTestId('add-program'));
    await settle();
    const draft = spec();
    draft.solvers[1] = { name: 'node-rs', command: ['node', 'examples/solvers/random_search.mjs', '--batch', '64'] };
    type(byTestId<HTMLTextAreaElement>('spec-json'), JSON.stringify(draft, null, 2));
    await settle();
    expect(byField<HTMLInputElement>('solvers[1].command')!.value).toBe('node examples/solvers/random_search.mjs --batch 64');
    expect(byTestId<HTMLInputElement>('blind-1')!.checked).toBe(false);
    select(byTestId<HTMLSelectElement>('solver-name-1'), 'ga');
    await settle();
    expect(spec().solvers[1]).toEqual({ name: 'ga' });
    expect(byField('solvers[1].command')).toBeNull();
    expect(text(byTestId('program-warning'))).toBeNull();
    // Undo brings the program back.
    click(byTestId('undo'));
    await settle();
    expect(spec().solvers[1]).toEqual({ name: 'node-rs', command: ['node', 'examples/solvers/random_search.mjs', '--batch', '64'] });
  });
});

describe('experiment editor: an app that does not run programs', () => {
  const refusing = realAppForViews({ parallelism: 1 });

  it("refuses the save at the program's command line and keeps the draft", async () => {
    await refusing.api.createProject('refused.saikoro');
    refusing.mount(ExperimentView, '#/experiment');
    await waitFor('the solver parameters', () => byField('solvers[0].params.strength'));
    click(byTestId('add-program'));
    await settle();
    type(byField('solvers[1].command'), 'python3 my_ga.py');
    await settle();
    click(byTestId('save'));
    await waitFor('the refusal', () => errorFor('solvers[1].command'));
    expect(errorFor('solvers[1].command')).toBe(
      'Adding experiment "experiment-1": the solver my-solver (python3 my_ga.py) is a program, and this server does not run programs; this app instance does not run programs',
    );
    expect(textOf('refusal')).toContain('Not saved: solvers[1].command: Adding experiment');
    expect(spec().solvers[1]).toEqual({ name: 'my-solver', command: ['python3', 'my_ga.py'] });
    expect((await refusing.api.getProject())!.experiments).toEqual([]);
  });
});
