import { describe, expect, it } from 'vitest';
import { configFromPartial } from '../../../src-shared/problems/dice/config.ts';
import { evaluateDice } from '../../../src-shared/problems/dice/evaluate.ts';
import { compareScalar, makeEvaluated, totalViolation } from '../../../src-shared/solvers/constraints.ts';
import { constraintScales } from '../../../src-shared/problems/dice/problem.ts';
import { DiceProblem } from '../../../src-shared/problems/dice/problem.ts';

describe('constraint normalisation', () => {
  it('divides g_d by 6^d / floor(N/d)', () => {
    const s = constraintScales(50, [1, 2, 12]);
    expect(s[0]).toBeCloseTo(6 / 50, 15);
    expect(s[1]).toBeCloseTo(36 / 25, 15);
    expect(s[2]).toBe(6 ** 12 / 4);
    // N < d: no block at all; the scale stays finite.
    expect(constraintScales(5, [12])[0]).toBe(6 ** 12);
  });

  it('measures one repeated block at d = 12 as about 2 squared-count units, not about 10^9', () => {
    // N = 24, d = 12: two blocks. Distinct blocks give chi = 6^12 - 2 (inside the band);
    // equal blocks give S2 = 4, chi = 2 * 6^12 - 2, far above q(0.9).
    const config = configFromPartial({ n: 24, constraints: [12] });
    const problem = new DiceProblem(config);
    const block = '123456654321';
    const repeated = evaluateDice(block + block, config);
    const distinct = evaluateDice(block + '123456654322', config);
    expect(distinct.constraints[0]).toBe(0);
    expect(repeated.constraints[0]).toBeGreaterThan(1e9);
    const v = totalViolation(repeated.constraints, problem.constraintScales);
    // g / (6^12 / 2) = 2 - 2 (q(0.9) - 6^12 + 2) / 6^12, and q(0.9) - 6^12 is about 1.28 sqrt(2 * 6^12).
    expect(v).toBeGreaterThan(1.999);
    expect(v).toBeLessThan(2);
  });

  it('sums the scaled violations of every constraint and is 0 exactly when feasible', () => {
    const scales = Float64Array.of(0.5, 4);
    expect(totalViolation([1, 2], scales)).toBe(2.5);
    expect(totalViolation([0, 0], scales)).toBe(0);
    const config = configFromPartial({ n: 50 });
    const problem = new DiceProblem(config);
    const constant = new Uint8Array(50).fill(3);
    const F = new Float64Array(1);
    const G = new Float64Array(12);
    problem.evaluate(constant, F, G);
    const e = makeEvaluated(problem, constant, F, G);
    expect(e.feasible).toBe(false);
    expect(e.violation).toBeCloseTo(totalViolation(evaluateDice(constant, config).constraints, problem.constraintScales), 12);
    // The reference's sample rand50.json is feasible (spec: all twelve constraints 0).
    const sample = '31552264665432613134314646226624645162511461153216';
    const x = Uint8Array.from(sample, (c) => Number(c));
    problem.evaluate(x, F, G);
    const s = makeEvaluated(problem, x, F, G);
    expect(s.feasible).toBe(true);
    expect(s.violation).toBe(0);
    expect(F[0]).toBeCloseTo(76.8, 9);
  });
});

describe('feasibility-first comparison', () => {
  it('prefers any feasible point to any infeasible one', () => {
    expect(compareScalar(1000, 0, 0, 1e-9)).toBeLessThan(0);
    expect(compareScalar(0, 1e-9, 1000, 0)).toBeGreaterThan(0);
  });

  it('orders infeasible points by total violation, ignoring f', () => {
    expect(compareScalar(500, 1, 0, 2)).toBeLessThan(0);
    expect(compareScalar(0, 3, 500, 2)).toBeGreaterThan(0);
  });

  it('orders feasible points by f, and ties compare equal', () => {
    expect(compareScalar(3, 0, 4, 0)).toBeLessThan(0);
    expect(compareScalar(4, 0, 3, 0)).toBeGreaterThan(0);
    expect(compareScalar(4, 0, 4, 0)).toBe(0);
    expect(compareScalar(9, 2, 1, 2)).toBe(0);
  });
});
