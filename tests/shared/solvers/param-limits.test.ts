import { describe, expect, it } from 'vitest';
import { trackConfig } from '../../../src-shared/problems/dice/config.ts';
import { expandGridWithSetups } from '../../../src-shared/experiments/grid.ts';
import { SpecError, validateSpec } from '../../../src-shared/experiments/spec.ts';
import { ParamError, parseParamPairs, resolveParams } from '../../../src-shared/core/params.ts';
import { DiceProblem } from '../../../src-shared/problems/dice/problem.ts';
import { checkSolverSetup, findSolver } from '../../../src-shared/solvers/registry.ts';

const problem = new DiceProblem(trackConfig('so', 50));
const ga = findSolver('ga');

describe('--param names that are not parameters', () => {
  it('__proto__=1 is an unknown parameter, not silently dropped', () => {
    const given = parseParamPairs(['__proto__=1']);
    expect(Object.keys(given)).toEqual(['__proto__']);
    expect(() => resolveParams('ga', ga.params, given, problem)).toThrow(ParamError);
    expect(() => resolveParams('ga', ga.params, given, problem)).toThrow(/^solver ga: parameter __proto__ is unknown \(parameters of ga: /);
  });

  it.each(['constructor=1', 'toString=1', 'hasOwnProperty=1'])('%s is unknown too', (pair) => {
    expect(() => resolveParams('ga', ga.params, parseParamPairs([pair]), problem)).toThrow(/is unknown/);
  });

  it('the same from a spec file: {"__proto__": 1} in params', () => {
    const spec = validateSpec(
      JSON.parse(
        '{"name": "p", "instances": [{"name": "a", "n": 20}], "solvers": [{"name": "ga", "params": {"__proto__": 1}}], "seeds": [1], "budget": {"evaluations": 10}}',
      ),
    );
    expect(() => expandGridWithSetups(spec)).toThrow(/^solvers\[0\]\.params\.__proto__: solver ga: parameter __proto__ is unknown/);
  });
});

describe('parameters out of range relative to each other', () => {
  const setup = (given: Record<string, unknown>) => () => checkSolverSetup(ga, problem, resolveParams('ga', ga.params, given, problem));

  it('GA elitism must be below the population (1e308 with 100 was accepted and clamped)', () => {
    expect(setup({ elitism: 1e308 })).toThrow(new ParamError('ga', 'elitism', 'must be less than populationSize (100), got 1e+308'));
    expect(setup({ elitism: 100 })).toThrow(/parameter elitism must be less than populationSize \(100\), got 100/);
    expect(setup({ elitism: 10, populationSize: 10 })).toThrow(/must be less than populationSize \(10\)/);
    expect(setup({ elitism: 99 })).not.toThrow();
    expect(setup({ elitism: 0 })).not.toThrow();
  });

  it('is refused at experiment add, naming the field', () => {
    const spec = validateSpec({
      name: 'e',
      instances: [{ name: 'a', n: 20 }],
      solvers: [{ name: 'ga', params: { elitism: 1e308 } }],
      seeds: [1],
      budget: { evaluations: 10 },
    });
    expect(() => expandGridWithSetups(spec)).toThrow(SpecError);
    expect(() => expandGridWithSetups(spec)).toThrow(
      'solvers[0].params.elitism: solver ga: parameter elitism must be less than populationSize (100), got 1e+308 (instance a)',
    );
  });
});
