import { describe, expect, it } from 'vitest';
import { trackConfig } from '../../../src-shared/problems/dice/config.ts';
import { ParamError, describeParam, parseParamPairs, resolveParams } from '../../../src-shared/core/params.ts';
import { DiceProblem } from '../../../src-shared/problems/dice/problem.ts';
import { findSolver } from '../../../src-shared/solvers/registry.ts';
import { solveSync } from '../../helpers/solve.ts';

const problem = new DiceProblem(trackConfig('so', 50));
const ga = findSolver('ga');
const resolve = (given: Record<string, unknown>) => resolveParams('ga', ga.params, given, problem);

describe('solver parameters', () => {
  it('fills the textbook GA defaults (population 100, tournament 3, crossover 0.9, mutation 1/N)', () => {
    expect(resolve({})).toEqual({ populationSize: 100, tournamentSize: 3, crossoverRate: 0.9, mutationRate: 1 / 50, penalty: 100, elitism: 1 });
  });

  it('coerces strings from the command line', () => {
    expect(resolve(parseParamPairs(['populationSize=40', 'crossoverRate=0.5']))).toMatchObject({ populationSize: 40, crossoverRate: 0.5 });
    const hc = findSolver('hill-climbing');
    expect(resolveParams('hill-climbing', hc.params, { sideways: 'false', neighbourhood: 'swap' }, problem)).toMatchObject({
      sideways: false,
      neighbourhood: 'swap',
    });
  });

  it.each([
    [{ populationSize: 1 }, 'solver ga: parameter populationSize must be >= 2 and <= 100000, got 1'],
    [{ populationSize: 2.5 }, 'solver ga: parameter populationSize must be an integer, got 2.5'],
    [{ crossoverRate: 'lots' }, 'solver ga: parameter crossoverRate must be a number, got "lots"'],
    [{ mutationRate: 1.5 }, 'solver ga: parameter mutationRate must be >= 0 and <= 1, got 1.5'],
    [
      { mutationrate: 0.1 },
      'solver ga: parameter mutationrate is unknown (parameters of ga: populationSize, tournamentSize, crossoverRate, mutationRate, penalty, elitism)',
    ],
  ])('rejects %j with an error naming the parameter', (given, message) => {
    expect(() => resolve(given)).toThrow(ParamError);
    expect(() => resolve(given)).toThrow(message);
  });

  it('rejects bad choices, booleans and exclusive minimums', () => {
    const hc = findSolver('hill-climbing');
    expect(() => resolveParams('hill-climbing', hc.params, { neighbourhood: 'jump' }, problem)).toThrow(
      'parameter neighbourhood must be one of change, swap, both, got "jump"',
    );
    expect(() => resolveParams('hill-climbing', hc.params, { sideways: 'yes' }, problem)).toThrow('parameter sideways must be true or false, got "yes"');
    const sa = findSolver('annealing');
    expect(() => resolveParams('annealing', sa.params, { temperatureRatio: 0 }, problem)).toThrow('parameter temperatureRatio must be > 0 and <= 1, got 0');
    expect(() => parseParamPairs(['penalty'])).toThrow('must be written name=value');
    expect(() => parseParamPairs(['penalty=1', 'penalty=2'])).toThrow('parameter penalty is given twice');
  });

  it('validates before running', () => {
    expect(() => solveSync(problem, 'ga', { tournamentSize: 0 }, 1, { maxEvaluations: 10 })).toThrow('parameter tournamentSize must be >= 1');
  });

  it('describes problem-dependent defaults by their rule', () => {
    const mutation = ga.params.find((p) => p.name === 'mutationRate')!;
    expect(describeParam(mutation)).toMatchObject({ name: 'mutationRate', defaultText: '1/N', min: 0, max: 1 });
  });
});

describe('limits that keep a run finite', () => {
  const so = new DiceProblem(trackConfig('so', 30));
  it('tabu: a tenure past 10^7 is refused (its 32-bit counters); one above N runs', () => {
    expect(() => solveSync(so, 'tabu', { tenure: 1e7 + 1 }, 1, { maxEvaluations: 10 })).toThrow(
      'solver tabu: parameter tenure must be >= 0 and <= 10000000, got 10000001',
    );
    expect(solveSync(so, 'tabu', { tenure: 31 }, 1, { maxEvaluations: 10 }).evaluations).toBe(10);
  });
  it('ils: a strength past 10^7 is refused; one above N spends the budget and stops', () => {
    expect(() => solveSync(so, 'ils', { strength: 1e308 }, 1, { maxEvaluations: 10 })).toThrow(
      /solver ils: parameter strength must be (>= 0 and <= 10000000|an integer), got/,
    );
    expect(solveSync(so, 'ils', { strength: 31 }, 1, { maxEvaluations: 100 }).evaluations).toBe(100);
  });
});
