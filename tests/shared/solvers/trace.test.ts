// The convergence trace of M >= 4 runs carries the hypervolume on the 'doubling' schedule, and
// thinning the trace must not drop those points (it did: `saikoro solve --track mo7 ... --evals
// 600000 --out` had the indicator null on every point but the last, and the app's HV chart for
// M = 5 and 7 showed one point).
import { describe, expect, it } from 'vitest';
import { trackConfig } from '../../../src-shared/problems/dice/config.ts';
import { runOptionsFor } from '../../../src-shared/runtime/kinds/dice.ts';
import { createDiceProblem } from '../../../src-shared/problems/dice/problem.ts';
import { INDICATOR_FIRST_AT } from '../../../src-shared/solvers/solver-run.ts';
import { solveSync } from '../../helpers/solve.ts';

describe('the trace of an M = 7 run', () => {
  it('keeps every point that carries the hypervolume through thinning', () => {
    const config = trackConfig('mo7', 30);
    // A small trace limit makes the run thin its trace many times over 40,000 evaluations.
    const options = { ...runOptionsFor({ config }), traceLimit: 8 };
    expect(options.frontIndicatorSchedule).toBe('doubling');
    const result = solveSync(createDiceProblem(config), 'random', {}, 5, { maxEvaluations: 40_000 }, options);
    const carrying = result.trace.filter((t) => t.indicator !== null);
    // The schedule: the first point at or after 1000 evaluations, then the first after each
    // doubling of the evaluations at the last computation, and the final point.
    const expected: number[] = [];
    let next = INDICATOR_FIRST_AT;
    for (const t of result.trace) if (t.frontSize && t.evaluations >= next) (expected.push(t.evaluations), (next = 2 * t.evaluations));
    expect(carrying.length).toBeGreaterThanOrEqual(5);
    expect(carrying.map((t) => t.evaluations).slice(0, -1)).toEqual(expected.filter((e) => e !== result.evaluations));
    expect(carrying.at(-1)!.evaluations).toBe(result.evaluations);
    // Each is the hypervolume of a growing front: it never decreases.
    for (let i = 1; i < carrying.length; i++) expect(carrying[i].indicator!).toBeGreaterThanOrEqual(carrying[i - 1].indicator!);
    // Still thinned: the trace stays bounded.
    expect(result.trace.length).toBeLessThan(2 * 8 + carrying.length);
  });
});
