// The experiment editor's model: field paths, band and constraint edits that keep the spec
// clean, the JSON text both ways, and checkDraft (the main side's own checks, on the whole
// draft and on each part, so several fields are named at once).
import { describe, expect, it } from 'vitest';
import { checkDraft } from '../../../src-renderer/logic/experiment/check-draft.ts';
import { draftJson, jsonProblem, parseDraftJson } from '../../../src-renderer/logic/experiment/draft-json.ts';
import { getAt, nearestError, pathSegments, setAt, type Draft } from '../../../src-renderer/logic/experiment/draft-paths.ts';
import { parseNumberText } from '../../../src-renderer/views/experiment/field-text.ts';
import { setBand, setConstrained, setInstanceShape, setNormalisation, setPercentPoint } from '../../../src-renderer/logic/experiment/instance-edits.ts';
import { cloneAsDraft, inSpecOrder, newDraft } from '../../../src-renderer/logic/experiment/new-draft.ts';
import { solversThatFit } from '../../../src-renderer/views/experiment/solver-fit.ts';
import { validateSpec } from '../../../src-shared/experiments/spec.ts';
import { withNormalisations } from '../../../src-shared/experiments/normalisation.ts';
import { diceHvNormalisation } from '../../../src-shared/problems/dice/hv-reference.ts';
import { describeSolvers } from '../../../src-shared/solvers/registry.ts';
import { DEFAULT_ALPHA } from '../../../src-shared/problems/dice/config.ts';

describe('field paths', () => {
  it('reads and writes the paths SpecError names, copying only what is on the way', () => {
    expect(pathSegments('instances[0].config.alpha[3]')).toEqual(['instances', 0, 'config', 'alpha', 3]);
    const draft = newDraft();
    const next = setAt(draft, 'instances[0].config.gamma', [1]);
    expect(getAt(next, 'instances[0].config.gamma[0]')).toBe(1);
    expect(getAt(draft, 'instances[0].config')).toBeUndefined();
    expect(next.solvers).toBe(draft.solvers);
    expect(getAt(setAt(next, 'instances[0].n', undefined), 'instances[0]')).toEqual({ name: 'so-n50', track: 'so', config: { gamma: [1] } });
  });

  it('a number field keeps what is not a number, so the check can name it', () => {
    expect(parseNumberText(' 840 ')).toBe(840);
    expect(parseNumberText('1e3')).toBe(1000);
    expect(parseNumberText('5o')).toBe('5o');
    expect(parseNumberText('0x10')).toBe('0x10');
    expect(parseNumberText('')).toBeUndefined();
  });

  it('the error of a field, or of the nearest field around it that has one', () => {
    const errors = new Map([['instances[0].config.alpha', 'must have 15 entries, got 3']]);
    expect(nearestError(errors, 'instances[0].config.alpha[2]')).toEqual(['instances[0].config.alpha', 'must have 15 entries, got 3']);
    expect(nearestError(errors, 'instances[1].n')).toBeNull();
  });
});

describe('bands, constraints, normalisation', () => {
  it('editing one band writes the whole list; back at the default, the list (and an empty config) goes', () => {
    let d = setBand(newDraft(), 0, 'alpha', 3, 4);
    const alpha = [...DEFAULT_ALPHA];
    alpha[3] = 4;
    expect(getAt(d, 'instances[0].config')).toEqual({ alpha });
    d = setBand(d, 0, 'alpha', 3, DEFAULT_ALPHA[3]);
    expect(getAt(d, 'instances[0]')).toEqual({ name: 'so-n50', track: 'so', n: 50 });
  });

  it('block lengths on and off keep the other percent points; all twelve at 0.1 / 0.9 is the default again', () => {
    let d = setPercentPoint(newDraft(), 0, 'upperBounds', 4, 0.95);
    d = setConstrained(d, 0, 12, false);
    const config = getAt(d, 'instances[0].config') as { constraints: number[]; lowerBounds: number[]; upperBounds: number[] };
    expect(config.constraints).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(config.upperBounds[4]).toBe(0.95);
    expect(config.lowerBounds).toHaveLength(11);
    d = setConstrained(d, 0, 12, true);
    expect((getAt(d, 'instances[0].config.upperBounds') as number[])[11]).toBe(0.9);
    d = setPercentPoint(d, 0, 'upperBounds', 4, 0.9);
    expect(getAt(d, 'instances[0].config')).toBeUndefined();
  });

  it('an own normalisation has one ideal and nadir per objective', () => {
    const d = setNormalisation(setInstanceShape(newDraft(), 0, { track: 'mo3' }), 0, true);
    expect(getAt(d, 'instances[0].normalisation')).toEqual({ ideal: [0, 0, 0], nadir: [1, 1, 1] });
    expect(getAt(setNormalisation(d, 0, false), 'instances[0].normalisation')).toBeUndefined();
  });

  it('a name made from the track and N follows them; a name the user gave stays', () => {
    let d = setInstanceShape(newDraft(), 0, { track: 'mo2' });
    d = setInstanceShape(d, 0, { n: 840 });
    expect(getAt(d, 'instances[0]')).toEqual({ name: 'mo2-n840', track: 'mo2', n: 840 });
    d = setAt(d, 'instances[0].name', 'mine');
    expect(getAt(setInstanceShape(d, 0, { n: 100 }), 'instances[0].name')).toBe('mine');
  });
});

describe('the JSON text', () => {
  it('round-trips the draft, lists of plain values on one line', () => {
    const d = setBand(newDraft(), 0, 'gamma', 0, 7);
    const text = draftJson(d);
    expect(text).toContain('"gamma": [7, 3, 3, 3, 3, 1, 1, 3, 10, 4, 4, 4, 4, 4, 4]');
    expect(parseDraftJson(text)).toEqual({ draft: d });
  });

  it('a broken JSON text says the line and column', () => {
    // The comma after the brace, at offset 29: line 3, column 13.
    const text = '{\n  "name": "a",\n  "seeds": {,\n}';
    const parsed = parseDraftJson(text);
    expect('problem' in parsed && parsed.problem).toMatchObject({ line: 3, column: 13, offset: 29 });
    expect(jsonProblem('{"a": 1', new SyntaxError('JSON.parse: end of data after property value in object at line 1 column 8 of the JSON data'))).toEqual({
      message: 'end of data after property value in object',
      line: 1,
      column: 8,
      offset: 7,
    });
    expect(parseDraftJson('[1, 2]')).toEqual({ problem: { message: 'the spec must be a JSON object {…}', line: 1, column: 1, offset: 0 } });
  });
});

describe('checkDraft', () => {
  it('a new draft is valid: 1 × 1 × 10 = 10 runs, and the spec is what validateSpec gives', () => {
    const c = checkDraft(newDraft());
    expect(c.errors.size).toBe(0);
    expect(c.runs).toBe(10);
    expect(c.spec).toEqual(validateSpec(newDraft()));
  });

  it('names every wrong field at once, in the order of the form', () => {
    let d: Draft = newDraft();
    d = setAt(d, 'seeds.count', 0);
    d = setAt(d, 'instances[0].n', '5o');
    d = setAt(d, 'name', 'no spaces');
    d = setAt(d, 'solvers[0].params', { strength: -3 });
    d = setAt(d, 'budget.extra', 1);
    expect([...checkDraft(d).errors]).toEqual([
      ['name', 'must be 1-64 characters of letters, digits, . _ + - (starting with a letter or digit), got "no spaces"'],
      ['instances[0].n', 'must be an integer, got "5o"'],
      ['solvers[0].params.strength', 'solver barrier-ls: parameter strength must be >= 0 and <= 10000000, got -3'],
      ['seeds.count', 'must be at least 1, got 0'],
      ['budget.extra', 'is not a known field (known: evaluations, target, wholeBudget, stallEvaluations)'],
    ]);
    expect(checkDraft(d).spec).toBeNull();
  });

  it('the registry checks: a solver that does not fit an instance, a repeated name on its name field, too many runs', () => {
    const mo = setInstanceShape(newDraft(), 0, { track: 'mo3' });
    expect([...checkDraft(mo).errors]).toEqual([['solvers[0].name', 'solver barrier-ls is single-objective; instance mo3-n50 has 3 objectives']]);
    const twice = setAt(newDraft(), 'instances[1]', { name: 'so-n50' });
    expect([...checkDraft(twice).errors]).toEqual([['instances[1].name', 'name "so-n50" is used twice']]);
    const huge = setAt(setAt(newDraft(), 'solvers[1]', { name: 'tabu' }), 'seeds', { count: 60_000 });
    const c = checkDraft(huge);
    expect(c.runs).toBe(120_000);
    expect(c.errors.get('seeds.count')).toBe(
      '60000 seeds x 1 instance(s) x 2 solver(s) = 120000 runs; an experiment has at most 100000 runs (at most 50000 seeds here); split it into several experiments',
    );
  });

  it('the run count follows the shape even while a field is wrong', () => {
    let d = setAt(newDraft(), 'instances[1]', { name: 'b', track: 'so', n: 'x' });
    d = setAt(d, 'solvers[1]', { name: 'tabu' });
    d = setAt(d, 'solvers[2]', { name: 'annealing' });
    d = setAt(d, 'seeds', [1, 2, 3, 5]);
    const c = checkDraft(d);
    expect([c.instanceCount, c.solverCount, c.seedCount, c.runs]).toEqual([2, 3, 4, 24]);
    expect([...c.errors.keys()]).toEqual(['instances[1].n']);
  });
});

describe('cloning and solvers that fit', () => {
  it('a clone gets a free name and leaves out the normalisation experiment add computed, not one the user gave', () => {
    const spec = withNormalisations(
      validateSpec({
        name: 'mo',
        instances: [
          { name: 'a', track: 'mo2', n: 12 },
          { name: 'b', track: 'mo2', n: 12, normalisation: { ideal: [0, 0], nadir: [5, 5] } },
        ],
        solvers: [{ name: 'nsga2' }],
        seeds: [1],
        budget: { evaluations: 100 },
      }),
      diceHvNormalisation,
    );
    expect(spec.instances[0].normalisation?.method).toMatch(/^ideal 0; nadir = median objective of/);
    const clone = cloneAsDraft(spec, new Set(['mo', 'mo-copy']));
    expect(clone.name).toBe('mo-copy-2');
    // In the order the docs write a spec, whatever order the store keeps it in.
    expect(Object.keys(clone)).toEqual(['name', 'instances', 'solvers', 'seeds', 'budget']);
    expect(Object.keys(inSpecOrder({ budget: {}, seeds: [1], name: 'x', instances: [{ n: 1, track: 'so', name: 'a' }] }))).toEqual([
      'name',
      'instances',
      'seeds',
      'budget',
    ]);
    expect(Object.keys((inSpecOrder({ instances: [{ n: 1, track: 'so', name: 'a' }] }).instances as object[])[0])).toEqual(['name', 'track', 'n']);
    expect(getAt(clone, 'instances[0].normalisation')).toBeUndefined();
    expect(getAt(clone, 'instances[1].normalisation')).toEqual({ ideal: [0, 0], nadir: [5, 5] });
    expect(checkDraft(clone).errors.size).toBe(0);
  });

  it('offers the solvers that handle every instance', () => {
    const all = describeSolvers();
    expect(solversThatFit(all, [1]).map((s) => s.name)).toEqual(['random', 'ga', 'hill-climbing', 'steepest', 'annealing', 'tabu', 'ils', 'barrier-ls']);
    expect(solversThatFit(all, [3, 2]).map((s) => s.name)).toEqual(['random', 'nsga2', 'nsga3', 'moead-ls', 'barrier-mo']);
    expect(solversThatFit(all, [1, 3]).map((s) => s.name)).toEqual(['random']);
  });
});
