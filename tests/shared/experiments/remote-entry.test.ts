// A remote entrant's solver entry ({"name", "remote": true}): only in a blind spec, nothing else
// in it; its runs have ids of their own, are blind, and have no request (nothing runs them here).
import { describe, expect, it } from 'vitest';
import { SpecError, validateSpec } from '../../../src-shared/experiments/spec.ts';
import { expandGrid, isBlindRun, RemoteRunError, requestOf } from '../../../src-shared/experiments/grid.ts';

const base = { name: 'e', instances: [{ name: 'i', track: 'so', n: 30 }], seeds: { count: 2 }, budget: { evaluations: 50 }, blind: true };

describe('remote solver entries', () => {
  it('validates {"name", "remote": true} in a blind spec, and refuses it anywhere else or with more', () => {
    expect(validateSpec({ ...base, solvers: [{ name: 'alice', remote: true }] }).solvers).toEqual([{ name: 'alice', remote: true }]);
    const refused = (solvers: unknown[], extra: object = {}) => {
      try {
        validateSpec({ ...base, ...extra, solvers });
      } catch (e) {
        expect(e).toBeInstanceOf(SpecError);
        return (e as SpecError).message;
      }
      return 'accepted';
    };
    expect(refused([{ name: 'alice', remote: true }], { blind: false })).toMatch(/solvers\[0\]\.remote: a remote entrant needs a blind experiment/);
    expect(refused([{ name: 'alice', remote: false }])).toMatch(/solvers\[0\]\.remote: must be true \(a remote entrant\) or left out, got false/);
    expect(refused([{ name: 'alice', remote: true, command: ['x'] }])).toMatch(/solvers\[0\]\.command: is not a known field \(known: name, remote\)/);
    expect(refused([{ name: 'alice', remote: true, params: {} }])).toMatch(/solvers\[0\]\.params: is not a known field/);
    expect(refused([{ name: 'a b', remote: true }])).toMatch(/solvers\[0\]\.name/);
  });

  it("expands to blind runs with ids of their own and no request; a built-in solver's name is refused", () => {
    const runs = expandGrid(
      validateSpec({
        ...base,
        solvers: [
          { name: 'alice', remote: true },
          { name: 'bob', command: ['python3', 'x.py'] },
        ],
      }),
    );
    const remote = runs.filter((r) => r.remote);
    expect(remote.map((r) => [r.solver, r.label, r.seed, r.params, r.program, r.launch])).toEqual([
      ['alice', 'alice', 1, {}, undefined, undefined],
      ['alice', 'alice', 2, {}, undefined, undefined],
    ]);
    expect(remote.every((r) => isBlindRun(r))).toBe(true);
    expect(new Set(runs.map((r) => r.id)).size).toBe(4);
    expect(() => requestOf(remote[0])).toThrow(RemoteRunError);
    expect(() => requestOf(remote[0])).toThrow(/is remote entrant alice's: it is played over the network against saikoro serve --competition, never run here/);
    // The same entrant under the name of a program gives other runs (ids hash remote).
    const asProgram = expandGrid(validateSpec({ ...base, solvers: [{ name: 'alice', command: ['python3', 'x.py'] }] }));
    expect(asProgram[0].id).not.toBe(remote[0].id);
    expect(() => expandGrid(validateSpec({ ...base, solvers: [{ name: 'random', remote: true }] }))).toThrow(
      /"random" is a built-in solver's name; give the remote entrant another name/,
    );
  });
});
