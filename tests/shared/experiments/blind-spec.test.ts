// A blind experiment is blind as a whole ("blind": true at the top of the spec, docs/competition.md):
// every run, built-in or program, is blind, part of its id, and its request says so.
import { describe, expect, it } from 'vitest';
import { expandGrid, isBlindRun, requestOf, runId } from '../../../src-shared/experiments/grid.ts';
import { validateSpec } from '../../../src-shared/experiments/spec.ts';
import { canonicalJson } from '../../../src-shared/experiments/canonical-json.ts';
import { sha256Hex } from '../../../src-shared/experiments/sha256.ts';

const base = {
  name: 'b',
  instances: [{ name: 'so-n20', track: 'so', n: 20 }],
  solvers: [{ name: 'random' }, { name: 'my-ga', command: ['python3', 'ga.py'] }],
  seeds: { count: 2 },
  budget: { evaluations: 200 },
};

describe('the spec-level "blind"', () => {
  it('is stored only when true, and refuses a value that is not a boolean', () => {
    expect(validateSpec({ ...base, blind: true }).blind).toBe(true);
    expect('blind' in validateSpec({ ...base, blind: false })).toBe(false);
    expect('blind' in validateSpec(base)).toBe(false);
    expect(() => validateSpec({ ...base, blind: 'yes' })).toThrow(/^blind: must be true or false, got "yes"$/);
    expect(() => validateSpec({ ...base, blind: 1 })).toThrow(/^blind: must be true or false, got 1$/);
  });

  it('refuses a program entry that says "blind": false in a blind spec (blind as a whole, not per entry)', () => {
    const spec = { ...base, blind: true, solvers: [{ name: 'random' }, { name: 'my-ga', command: ['python3', 'ga.py'], blind: false }] };
    expect(() => validateSpec(spec)).toThrow(/^solvers\[1\]\.blind: cannot be false in a blind experiment/);
    // The same entry saying true, or nothing, is fine.
    expect(() => validateSpec({ ...spec, solvers: [{ name: 'my-ga', command: ['python3', 'ga.py'], blind: true }] })).not.toThrow();
  });

  it('makes every run blind: built-in ones by a blind key, programs by their blind program', () => {
    const sighted = expandGrid(validateSpec(base));
    const blind = expandGrid(validateSpec({ ...base, blind: true }));
    expect(blind).toHaveLength(4);
    for (const run of blind) expect(isBlindRun(run)).toBe(true);
    for (const run of sighted) expect(isBlindRun(run)).toBe(false);
    const builtIn = blind.filter((r) => r.solver === 'random');
    expect(builtIn.every((r) => r.blind === true && r.program === undefined)).toBe(true);
    const programs = blind.filter((r) => r.label === 'my-ga');
    expect(programs.every((r) => r.blind === undefined && r.program?.blind === true && r.launch?.blind === true)).toBe(true);
    // Each blind run is another run than its sighted self.
    for (let i = 0; i < 4; i++) expect(blind[i].id).not.toBe(sighted[i].id);
  });

  it('hashes blind into a built-in run id exactly as docs/projects.md says, and leaves sighted ids as they were', () => {
    const [sighted] = expandGrid(validateSpec(base));
    const [blind] = expandGrid(validateSpec({ ...base, blind: true }));
    const { config, params, seed, budget } = sighted;
    const fields = { v: 1, problem: 'dice', config, solver: 'random', params, seed, budget };
    expect(sighted.id).toBe(sha256Hex(canonicalJson(fields)).slice(0, 32));
    expect(blind.id).toBe(sha256Hex(canonicalJson({ ...fields, blind: true })).slice(0, 32));
    const { id, index, instance, label, launch, ...key } = blind;
    (void index, instance, label, launch);
    expect(runId(key)).toBe(id);
  });

  it('gives a program in a blind spec the ids of the same program marked blind in a sighted spec', () => {
    const perEntry = expandGrid(validateSpec({ ...base, solvers: [{ name: 'my-ga', command: ['python3', 'ga.py'], blind: true }] }));
    const whole = expandGrid(validateSpec({ ...base, blind: true, solvers: [{ name: 'my-ga', command: ['python3', 'ga.py'] }] }));
    expect(whole.map((r) => r.id)).toEqual(perEntry.map((r) => r.id));
  });

  it('puts "blind": true in the request of every blind run, and nothing in a sighted one', () => {
    const blind = expandGrid(validateSpec({ ...base, blind: true }));
    expect(requestOf(blind[0]).blind).toBe(true);
    expect(requestOf(blind[2])).toMatchObject({ blind: true, program: { blind: true } });
    const sighted = expandGrid(validateSpec(base));
    expect('blind' in requestOf(sighted[0])).toBe(false);
  });

  it('a hidden instance needs a blind spec; "hidden" is stored only when true', () => {
    const hidden = { ...base, solvers: [{ name: 'random' }], instances: [{ name: 'so-n20-i1', track: 'so', n: 20, hidden: true }] };
    expect(() => validateSpec(hidden)).toThrow(/^instances\[0\]\.hidden: a hidden instance needs a blind experiment/);
    expect(validateSpec({ ...hidden, blind: true }).instances[0].hidden).toBe(true);
    expect('hidden' in validateSpec({ ...hidden, instances: [{ name: 'x', hidden: false }] }).instances[0]).toBe(false);
    expect(() => validateSpec({ ...hidden, blind: true, instances: [{ name: 'x', hidden: 'no' }] })).toThrow(
      /^instances\[0\]\.hidden: must be true or false, got "no"$/,
    );
    // Hidden is not part of any run id: the instance's name and its being hidden are labels.
    const open = expandGrid(validateSpec({ ...hidden, blind: true, instances: [{ name: 'so-n20-i1', track: 'so', n: 20 }] }));
    expect(expandGrid(validateSpec({ ...hidden, blind: true })).map((r) => r.id)).toEqual(open.map((r) => r.id));
  });
});
