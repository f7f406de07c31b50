// The checks a stored result must pass (records.ts on read, result-audit.ts in merge) against
// honest results: every line of the regression fixture (every dice solver, recorded on an
// earlier commit, so an evaluator since changed in the last bit would show here) and a fresh
// run of every registered solver on every track. Then the same results forged one field at a
// time, each refused with the field named.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import * as check from '../../../src-main/project/records.ts';
import { resultProblem } from '../../../src-shared/experiments/result-audit.ts';
import { TRACK_NAMES, trackConfig, type TrackName } from '../../../src-shared/problems/dice/config.ts';
import { solversFor } from '../../../src-shared/solvers/registry.ts';
import { executeRunSync } from '../../../src-shared/runtime/kinds/index.ts';
import type { SolverResult } from '../../../src-shared/solvers/types.ts';

interface Line {
  kind: string;
  track: TrackName;
  n: number;
  solver: string;
  seed: number;
  termination: { maxEvaluations: number };
  result: SolverResult;
}

const fixture = fs
  .readFileSync(path.join(import.meta.dirname, '../../fixtures/regression/solver-results.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l) as Line)
  .filter((l) => l.kind === 'dice');

function accepted(track: TrackName, n: number, evaluations: number, result: SolverResult): void {
  const config = trackConfig(track, n);
  expect(() => check.solverResult('result_json', JSON.parse(JSON.stringify(result)), config)).not.toThrow();
  expect(resultProblem(config, { evaluations }, result)).toBeNull();
}

describe('honest results pass', () => {
  it(`every dice line of the regression fixture (${fixture.length})`, () => {
    expect(fixture.length).toBeGreaterThan(40);
    for (const line of fixture) accepted(line.track, line.n, line.termination.maxEvaluations, line.result);
  });

  it.each(TRACK_NAMES)('a fresh run of every solver for %s', (track) => {
    const config = trackConfig(track, 30);
    const names = solversFor(config.objectives.length).map((s) => s.name);
    expect(names.length).toBeGreaterThan(2);
    for (const name of names)
      accepted(track, 30, 400, executeRunSync({ kind: 'dice', solver: name, params: {}, seed: 7, config, termination: { maxEvaluations: 400 } }));
  });
});

describe('forged results are refused, naming the field', () => {
  const so = fixture.find((l) => l.track === 'so' && l.result.best)!;
  const mo = fixture.find((l) => l.track === 'mo3' && l.solver === 'nsga2')!;
  const weak = fixture.find((l) => l.track === 'mo3' && l.solver === 'random')!;
  const forge = (line: Line, edit: (r: SolverResult) => void): string | null => {
    const result = structuredClone(line.result);
    edit(result);
    const config = trackConfig(line.track, line.n);
    try {
      check.solverResult('result_json', result, config);
    } catch (e) {
      return (e as Error).message;
    }
    return resultProblem(config, { evaluations: line.termination.maxEvaluations }, result);
  };

  it.each([
    [
      'a better best objective',
      () => forge(so, (r) => (r.best!.objectives[0] = r.best!.objectives[0] + 1)),
      /^result\.best\.objectives\[0\]: stored \d+, the sequence evaluates to \d+$/,
    ],
    [
      'a best constraint value zeroed',
      () => forge(so, (r) => ((r.best!.x = '1'.repeat(so.n)), (r.best!.objectives = [0]))),
      /^result\.best\.objectives\[0\]: stored 0/,
    ],
    ['a front point moved', () => forge(mo, (r) => (r.front[1].objectives = [...r.front[0].objectives])), /^result\.front\[1\]\.objectives\[\d\]: stored/],
    [
      'a front point marked feasible with a violation',
      () => forge(mo, (r) => (r.front[0].violation = 1)),
      /^result_json\.front\[0\]\.feasible: is true, but the violation is 1$/,
    ],
    [
      'more evaluations than the budget',
      () => forge(so, (r) => ((r.evaluations = so.termination.maxEvaluations + 1), (r.trace = []))),
      /^result\.evaluations: \d+ is more than the budget of \d+$/,
    ],
    [
      'a best found after the last evaluation',
      () => forge(so, (r) => (r.bestFoundAt = r.evaluations + 1)),
      /^result_json\.bestFoundAt: is \d+, after the run's last evaluation \(\d+\)$/,
    ],
    [
      'a best sequence with a 7 in it',
      () => forge(so, (r) => (r.best!.x = `7${r.best!.x.slice(1)}`)),
      /^result_json\.best\.x: character "7" at position 1 is not a die face 1-6$/,
    ],
    ['a negative constraint value', () => forge(so, (r) => (r.best!.constraints[0] = -1)), /^result_json\.best\.constraints\[0\]: must be at least 0, got -1$/],
  ])('%s', (_, run, message) => {
    const problem = run();
    if (message === null) expect(problem).toBeNull();
    else expect(problem).toMatch(message);
  });

  it('a real, honestly evaluated point that another front point dominates is not on a front', () => {
    // A point of random search's front (same config) that NSGA-II's front dominates.
    const dominated = weak.result.front.find((p) =>
      mo.result.front.some((q) => q.objectives.every((v, k) => v <= p.objectives[k]) && q.objectives.some((v, k) => v < p.objectives[k])),
    );
    expect(dominated).toBeDefined();
    expect(forge(mo, (r) => r.front.push(structuredClone(dominated!)))).toMatch(
      new RegExp(`^result\\.front\\[${mo.result.front.length}\\]: is dominated by result\\.front\\[\\d+\\], so it is not on a front$`),
    );
    // The same point twice is not a domination (equal points do not dominate each other): a
    // result stored before front logs passes; with its log, the front is not the log's.
    expect(forge(mo, (r) => (r.front.push(structuredClone(r.front[0])), delete r.frontLog))).toBeNull();
    expect(forge(mo, (r) => r.front.push(structuredClone(r.front[0])))).toMatch(
      /^result\.frontLog: gives a front of \d+ points at the run's end that is not the stored front/,
    );
  });

  it.each([
    [
      'a trace whose last improvement is not the best',
      () => forge(so, (r) => (r.trace.at(-1)!.best = r.trace.at(-1)!.best! + 1)),
      /^result\.trace\[\d+\]: ends at f = \d+ \(violation 0\), not at the best solution's \d+/,
    ],
    [
      'a best found earlier than the trace says',
      () => forge(so, (r) => (r.bestFoundAt = r.bestFoundAt! - 1)),
      /^result\.bestFoundAt: \d+ is not where the trace first reaches the best$/,
    ],
    [
      'a first feasible solution earlier than the trace says',
      () => forge(so, (r) => ((r.firstFeasibleAt = 1), (r.trace = r.trace.filter((t) => t.evaluations !== 1)))),
      /^result\.firstFeasibleAt: 1, but the trace's first feasible point is at \d+$/,
    ],
    ['a trace that stops before the run', () => forge(so, (r) => r.trace.pop()), /^result\.trace: ends at \d+, not at the run's last evaluation \(\d+\)$/],
    [
      'a front log missing an insertion of the final front',
      () => forge(mo, (r) => r.frontLog!.insertions.pop()),
      /^result\.frontLog: gives a front of \d+ points at the run's end that is not the stored front \(\d+ points\)$/,
    ],
    ['a front log with an insertion moved', () => forge(mo, (r) => (r.frontLog!.insertions.at(-1)![1] -= 0.5)), /^result\.frontLog: gives a front/],
    [
      'a front log out of order',
      () => forge(mo, (r) => (r.frontLog!.insertions[1][0] = r.frontLog!.insertions[0][0] - 1)),
      /^result_json\.frontLog\.insertions\[1\]\[0\]: is -?\d+, /,
    ],
    [
      'a front log row of the wrong length',
      () => forge(mo, (r) => r.frontLog!.insertions[0].push(1)),
      /^result_json\.frontLog\.insertions\[0\]: must be \[evaluation, f_1, \.\.\., f_3\], got 5 values$/,
    ],
    [
      'a front log on a single-objective result',
      () => forge(so, (r) => (r.frontLog = { insertions: [], compacted: null })),
      /^result_json\.frontLog: is only kept for several objectives/,
    ],
    [
      'a front log compacted on an unknown ladder',
      () => forge(mo, (r) => (r.frontLog!.compacted = { exactUntil: 5, perDecade: 3 })),
      /^result_json\.frontLog\.compacted\.perDecade: must be one of 20, 10, 5, 2, 1, got 3$/,
    ],
  ])('the record: %s', (_, run, message) => {
    expect(run()).toMatch(message);
  });
});
