// @vitest-environment happy-dom
// The experiment editor against the real main side: validation as you type names the field
// (at its input, as experiment add would say it); the form and the JSON follow each other both
// ways, and a broken JSON text says where; the run count; Save adds the experiment to the open
// project; a refused save shows the main side's reason at its field and keeps the draft; a
// stored experiment is shown read-only and cloned into a new draft, which Undo takes back.
import { describe, expect, it } from 'vitest';
import ExperimentView from '../../../src-renderer/views/experiment/ExperimentView.vue';
import { waitFor } from '../../main/processes.ts';
import { appear, byField, byTestId, click, errorFor, key, q, realAppForViews, select, settle, text, textOf, type } from './mount.ts';

const env = realAppForViews({ parallelism: 1 });

async function mount(hash = '#/experiment') {
  env.mount(ExperimentView, hash);
  // The solvers come from listSolvers: their parameters are fields once it answered.
  await waitFor('the solver parameters', () => byField('solvers[0].params.strength'));
}
const json = () => byTestId<HTMLTextAreaElement>('spec-json')!;
const spec = () => JSON.parse(json().value) as Record<string, any>;
async function typeField(field: string, value: string) {
  type(byField(field), value);
  await settle();
}
async function typeJson(value: string) {
  type(json(), value);
  await settle();
}

describe('experiment editor: checks as you type', () => {
  it('names the field at its input, several at once, as experiment add would', async () => {
    await mount();
    expect(textOf('problem-count')).toBe('✓ ready to save');
    await typeField('instances[0].n', '5o');
    expect(errorFor('instances[0].n')).toBe('must be an integer, got "5o"');
    expect(byField('instances[0].n')!.getAttribute('aria-invalid')).toBe('true');
    await typeField('solvers[0].params.strength', '-3');
    expect(errorFor('solvers[0].params.strength')).toBe('solver barrier-ls: parameter strength must be >= 0 and <= 10000000, got -3');
    await typeField('seeds.count', '0');
    expect(errorFor('seeds.count')).toBe('must be at least 1, got 0');
    expect(textOf('problem-count')).toBe('3 problems to fix');
    expect([...byTestId('problems')!.querySelectorAll('li')].map((li) => li.textContent!.replace(/\s+/g, ' ').trim())).toEqual([
      'instances[0].n: must be an integer, got "5o"',
      'solvers[0].params.strength: solver barrier-ls: parameter strength must be >= 0 and <= 10000000, got -3',
      'seeds.count: must be at least 1, got 0',
    ]);
    await typeField('instances[0].n', '60');
    await typeField('solvers[0].params.strength', '');
    await typeField('seeds.count', '4');
    expect(errorFor('instances[0].n')).toBeNull();
    expect(byField('instances[0].n')!.getAttribute('aria-invalid')).toBe('false');
    expect(textOf('problem-count')).toBe('✓ ready to save');
  });

  it('switching the instance to M = 2 swaps the single-objective default solver for the M = 2 default (it stayed, in error)', async () => {
    await mount();
    expect(spec().solvers).toEqual([{ name: 'barrier-ls' }]);
    select(byTestId<HTMLSelectElement>('instance-track-0'), 'mo2');
    await settle();
    expect(spec().solvers).toEqual([{ name: 'barrier-mo' }]);
    expect(byTestId<HTMLSelectElement>('solver-name-0')!.value).toBe('barrier-mo');
    expect(errorFor('solvers[0].name')).toBeNull();
    expect(textOf('problem-count')).toBe('✓ ready to save');
    // One undoable step, named.
    click(byTestId('undo'));
    await settle();
    expect([spec().instances[0].track, spec().solvers]).toEqual(['so', [{ name: 'barrier-ls' }]]);
  });

  it('a solver that does not fit the track, and a band outside its range, are named at their fields', async () => {
    await mount();
    // A solver with a label is the user's own choice: it stays, marked, with the spec's error.
    await typeField('solvers[0].label', 'mine');
    select(byTestId<HTMLSelectElement>('instance-track-0'), 'mo3');
    await settle();
    // The name the editor made follows the track; barrier-ls handles one objective only.
    expect(byField('instances[0].name')!.value).toBe('mo3-n50');
    expect(errorFor('solvers[0].name')).toBe('solver barrier-ls is single-objective; instance mo3-n50 has 3 objectives');
    // Only the solvers that handle M = 3 are offered (the one that does not fit stays, marked).
    expect([...byTestId<HTMLSelectElement>('solver-name-0')!.options].map((o) => o.value)).toEqual([
      'random',
      'nsga2',
      'nsga3',
      'moead-ls',
      'barrier-mo',
      'barrier-ls',
      ':program',
    ]);
    select(byTestId<HTMLSelectElement>('solver-name-0'), 'moead-ls');
    await settle();
    expect(errorFor('solvers[0].name')).toBeNull();
    await typeField('instances[0].config.alpha[3]', '9');
    expect(errorFor('instances[0].config.alpha[3]')).toBe('alpha[3]: must not exceed beta[3] (feature F4: 9 > 5)');
    expect(spec().instances[0].config.alpha).toEqual([2, 2, 2, 9, 2, 27, 5, 0, 0, 1, 0, 0, 1, 0, 0]);
    expect(q('details.block')!.hasAttribute('open')).toBe(true);
  });
});

describe('experiment editor: the JSON, both ways', () => {
  it('the form writes the JSON, the JSON writes the form, and a broken text says where', async () => {
    await mount();
    await typeField('name', 'grid-a');
    await typeField('seeds.count', '5');
    expect(spec().name).toBe('grid-a');
    expect(spec().seeds).toEqual({ count: 5, start: 1 });

    const edited = { ...spec(), instances: [{ name: 'long', track: 'so', n: 840 }], solvers: [{ name: 'ils' }, { name: 'tabu', params: { tenure: 7 } }] };
    await typeJson(JSON.stringify(edited, null, 2));
    expect(byField('instances[0].name')!.value).toBe('long');
    expect(byField('instances[0].n')!.value).toBe('840');
    expect(byTestId<HTMLSelectElement>('solver-name-1')!.value).toBe('tabu');
    expect(byField('solvers[1].params.tenure')!.value).toBe('7');
    expect(textOf('run-count')).toBe('1 instance × 2 solvers × 5 seeds = 10 runs');

    const broken = JSON.stringify(edited, null, 2).replace('"n": 840', '"n": 840,');
    await typeJson(broken);
    const line = broken.split('\n').findIndex((l) => l.includes('"n": 840,')) + 2;
    expect(text(q('[data-testid="json-problem"] > span'))).toMatch(
      new RegExp(`^Line ${line}, column 5: .+\\. The form keeps the last valid spec until the JSON parses\\.$`),
    );
    expect(textOf('problem-count')).toBe('1 problem to fix');
    // The form keeps the last valid spec, locked, while the text is what the user typed.
    expect(byField('instances[0].n')!.value).toBe('840');
    expect(byField('instances[0].n')!.hasAttribute('readonly')).toBe(true);
    expect(json().value).toBe(broken);
    await typeJson(broken.replace('"n": 840,', '"n": 841'));
    expect(byTestId('json-problem')).toBeNull();
    expect(byField('instances[0].n')!.value).toBe('841');
    expect(byField('instances[0].n')!.hasAttribute('readonly')).toBe(false);
  });

  it('the run count: instances × solvers × seeds, from a count or a list', async () => {
    await mount();
    click(byTestId('add-instance'));
    click(byTestId('add-solver'));
    await settle();
    click(byTestId('add-solver'));
    await settle();
    await typeField('seeds.count', '5');
    expect(textOf('run-count')).toBe('2 instances × 3 solvers × 5 seeds = 30 runs');
    // Five seeds can show a difference between three solvers (2 · 2/252 = 0.016 after Holm over the 2 comparisons with the baseline); four cannot (2 · 2/70 = 0.057).
    expect(byTestId('seeds-warning')).toBeNull();
    await typeField('seeds.count', '4');
    expect(textOf('seeds-warning')).toBe(
      'With 4 seeds, the rank-sum test cannot show a difference between solvers at p < 0.05: its smallest p is 0.0571 after Holm over the 2 comparisons of 3 solvers with the baseline, so every +/−/= mark of the comparison will be "=". Use at least 5 seeds.',
    );
    await typeField('seeds.count', '5');
    click(byTestId('seeds-list-mode'));
    await settle();
    expect(spec().seeds).toEqual([1, 2, 3, 4, 5]);
    await typeField('seeds', '1, 2, 3');
    expect(spec().seeds).toEqual([1, 2, 3]);
    expect(textOf('run-count')).toBe('2 instances × 3 solvers × 3 seeds = 18 runs');
    await typeField('seeds', '1, 2, 2');
    expect(textOf('run-count')).toBe('2 instances × 3 solvers × 3 seeds = 18 runs');
    expect(q('[data-field="seeds"]')!.closest('fieldset')!.textContent).toContain('seeds[2]: seed 2 is listed twice');
  });
});

describe('experiment editor: saving', () => {
  it('Save adds the experiment to the open project, as experiment add would store it', async () => {
    await env.api.createProject('editor-save.saikoro');
    await mount();
    await typeField('name', 'saved-one');
    await typeField('description', 'two solvers at N = 20');
    await typeField('instances[0].n', '20');
    click(byTestId('add-solver'));
    await settle();
    await typeField('seeds.count', '3');
    await typeField('budget.evaluations', '500');
    expect(textOf('run-count')).toBe('1 instance × 2 solvers × 3 seeds = 6 runs');
    // Two solvers, three seeds: 2 / C(6, 3) = 0.1 at best. A warning, not an error: it still saves.
    expect(textOf('seeds-warning')).toBe(
      'With 3 seeds, the rank-sum test cannot show a difference between solvers at p < 0.05: its smallest p is 0.1, so every +/−/= mark of the comparison will be "=". Use at least 4 seeds.',
    );
    click(byTestId('save'));
    await waitFor('the saved banner', () => byTestId('saved'));
    expect(text(q('[data-testid="saved"] > span'))).toBe('Added saved-one to editor-save: 6 runs, 6 to run.');
    const stored = (await env.api.getProject())!.experiments.find((e) => e.name === 'saved-one')!;
    expect(stored.counts).toEqual({ total: 6, done: 0, failed: 0, missing: 6, running: 0 });
    expect(stored.spec).toEqual({
      name: 'saved-one',
      description: 'two solvers at N = 20',
      instances: [{ name: 'so-n20', track: 'so', n: 20 }],
      solvers: [{ name: 'barrier-ls' }, { name: 'random' }],
      seeds: { count: 3, start: 1 },
      budget: { evaluations: 500 },
    });
    // Just saved, the name field does not warn that the name is taken (it did at once: "Choose
    // another name"); the confirmation is in the save bar, which stays at the top of the window.
    expect(byTestId('name-taken')).toBeNull();
    expect(byTestId('saved')!.closest('.save-bar')).not.toBeNull();
    // An edit after the save: the draft is no longer what was saved, and its name is taken.
    await typeField('description', 'two solvers at N = 20, again');
    expect(byTestId('saved')).toBeNull();
    expect(textOf('name-taken')).toContain('The project has an experiment named saved-one');
    await typeField('description', 'two solvers at N = 20');
    // The same spec again changes nothing.
    click(byTestId('save'));
    await waitFor('the unchanged banner', () => textOf('saved')?.startsWith('editor-save already has saved-one with this very spec'));
    // The project closes: the banner about it goes ("Added … Run it" stayed beside "No project is open").
    await env.api.closeProject();
    await waitFor('no project', () => textOf('save-note')?.startsWith('No project is open'));
    expect(byTestId('saved')).toBeNull();
    expect(byTestId('run-saved')).toBeNull();
  });

  it('a refused save shows the reason at its field and keeps the draft exactly as it was', async () => {
    await env.api.createProject('editor-refused.saikoro');
    await mount();
    // M = 7 with 30 divisions: 1,947,792 reference directions. Only the solver's setup (on the main side) knows.
    const draft = {
      name: 'too-many-directions',
      instances: [{ name: 'mo7-n20', track: 'mo7', n: 20 }],
      solvers: [{ name: 'nsga3', params: { divisions: 30 } }],
      seeds: [1, 2],
      budget: { evaluations: 1000 },
    };
    await typeJson(JSON.stringify(draft, null, 2));
    expect(textOf('problem-count')).toBe('✓ ready to save');
    const before = json().value;
    click(byTestId('save'));
    await waitFor('the refusal', () => byTestId('refusal'));
    expect(text(q('[data-testid="refusal"] > span'))).toBe(
      'Not saved: solvers[0].params.divisions: solver nsga3: parameter divisions gives 1947792 reference directions at M = 7; at most 100000 (instance mo7-n20). Your draft is unchanged.',
    );
    expect(errorFor('solvers[0].params.divisions')).toBe(
      'solver nsga3: parameter divisions gives 1947792 reference directions at M = 7; at most 100000 (instance mo7-n20)',
    );
    expect(json().value).toBe(before);
    expect(byField('solvers[0].params.divisions')!.value).toBe('30');
    expect((await env.api.getProject())!.experiments).toEqual([]);
    // Fixing the field clears the refusal; the save then goes through.
    await typeField('solvers[0].params.divisions', '4');
    expect(byTestId('refusal')).toBeNull();
    click(byTestId('save'));
    await waitFor('the saved banner', () => byTestId('saved'));
    expect((await env.api.getProject())!.experiments.map((e) => e.name)).toEqual(['too-many-directions']);
  });

  it('a different spec under a name the project has is refused, and the draft stays', async () => {
    await env.api.createProject('editor-clash.saikoro');
    await env.api.addExperiment({
      name: 'taken',
      instances: [{ name: 'so-n12', n: 12 }],
      solvers: [{ name: 'random' }],
      seeds: [1],
      budget: { evaluations: 50 },
    });
    await mount();
    await typeField('name', 'taken');
    expect(textOf('name-taken')).toContain('The project has an experiment named taken');
    click(byTestId('save'));
    await waitFor('the refusal', () => byTestId('refusal'));
    expect(textOf('refusal')).toContain('an experiment named "taken" already exists with a different spec; choose another name');
    expect(spec().name).toBe('taken');
    expect(spec().solvers).toEqual([{ name: 'barrier-ls' }]);
  });
});

describe('experiment editor: a stored experiment', () => {
  it('#/experiment/<name> shows its spec read-only; Clone makes a new draft of it, which Undo takes back', async () => {
    await env.api.createProject('editor-view.saikoro');
    await env.api.addExperiment({
      name: 'stored',
      instances: [{ name: 'mo2-n12', track: 'mo2', n: 12 }],
      solvers: [{ name: 'nsga2' }],
      seeds: { count: 3 },
      budget: { evaluations: 200 },
    });
    env.mount(ExperimentView, '#/experiment/stored');
    await appear('viewing');
    await waitFor('the stored spec', () => byField('instances[0].name')?.value === 'mo2-n12');
    expect(q('h1')!.textContent).toBe('Experiment stored');
    expect(byField('instances[0].name')!.hasAttribute('readonly')).toBe(true);
    expect(json().readOnly).toBe(true);
    expect(JSON.parse(json().value).instances[0].normalisation.method).toMatch(/^ideal 0; nadir = median objective/);
    // Shown in the order the docs write a spec (the store keeps sorted keys).
    expect(Object.keys(JSON.parse(json().value))).toEqual(['name', 'instances', 'solvers', 'seeds', 'budget']);
    expect(byTestId('save')).toBeNull();
    click(byTestId('clone'));
    await waitFor('the draft editor', () => byTestId('save'));
    expect(window.location.hash).toBe('#/experiment');
    expect(byField('name')!.value).toBe('stored-copy');
    expect(byField('instances[0].name')!.hasAttribute('readonly')).toBe(false);
    expect(spec().instances).toEqual([{ name: 'mo2-n12', track: 'mo2', n: 12 }]);
    expect(textOf('problem-count')).toBe('✓ ready to save');
    // Ctrl+Z outside a field takes the clone back: the draft before it (a new one) returns.
    key('z', window, { ctrlKey: true });
    await settle();
    expect(byField('name')!.value).toBe('experiment-1');
    expect(byTestId('undo')).toBeNull();
  });
});
