import { describe, expect, it } from 'vitest';
import { trackConfig } from '../../../src-shared/problems/dice/config.ts';
import { evaluateDice } from '../../../src-shared/problems/dice/evaluate.ts';
import { DiceProblem } from '../../../src-shared/problems/dice/problem.ts';
import { solveSync } from '../../helpers/solve.ts';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

describe('the strong SO solver (ils)', () => {
  it('reaches a feasible f = 0 at N = 50 within a few hundred evaluations, far fewer than the textbook GA', () => {
    const problem = new DiceProblem(trackConfig('so', 50));
    const seeds = [1, 2, 3, 4, 5];
    const reach = (solver: string) =>
      seeds.map((seed) => {
        const r = solveSync(problem, solver, {}, seed, { maxEvaluations: 20_000, target: 0 });
        expect(r.stopReason).toBe('target');
        const full = evaluateDice(r.best!.x, problem.config);
        expect(full.objectives[0]).toBe(0);
        expect(full.feasible).toBe(true);
        return r.bestFoundAt!;
      });
    const ils = reach('ils');
    const ga = reach('ga');
    for (const e of ils) expect(e).toBeLessThanOrEqual(500);
    expect(median(ils) * 3).toBeLessThan(median(ga));
  });

  it('beats the textbook GA by a wide margin at N = 840 with equal evaluations', () => {
    const problem = new DiceProblem(trackConfig('so', 840));
    const best = (solver: string) => {
      const r = solveSync(problem, solver, {}, 1, { maxEvaluations: 5000 });
      expect(r.success).toBe(true);
      return r.best!.objectives[0];
    };
    expect(best('ils')).toBeLessThan(0.75 * best('ga'));
  });
});
