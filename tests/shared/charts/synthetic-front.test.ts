// The benchmark's synthetic front: the same points for the same seed on every run (the page and
// the benchmark regenerate it independently and must agree), every run of every solver present,
// feasibility at the fraction asked, and the better solvers nearer the ideal point.
import { describe, expect, it } from 'vitest';
import { syntheticFront, SYNTHETIC_SOLVERS } from '../../../src-shared/charts/synthetic-front.ts';

describe('syntheticFront', () => {
  it('is determined by its seed', () => {
    const a = syntheticFront({ points: 5000, objectives: 3, seed: 4 });
    const b = syntheticFront({ points: 5000, objectives: 3, seed: 4 });
    const c = syntheticFront({ points: 5000, objectives: 3, seed: 5 });
    expect(Array.from(a.objectives)).toEqual(Array.from(b.objectives));
    expect(Array.from(a.feasible)).toEqual(Array.from(b.feasible));
    expect(Array.from(a.objectives)).not.toEqual(Array.from(c.objectives));
  });

  it('spreads the points over every run, with the infeasible fraction asked', () => {
    const f = syntheticFront({ points: 20_000, objectives: 5, seed: 1, infeasibleFraction: 0.1 });
    expect(f.count).toBe(20_000);
    expect(f.objectives.length).toBe(100_000);
    expect(f.runs.length).toBe(SYNTHETIC_SOLVERS.length * 5);
    const perRun = new Array(f.runs.length).fill(0);
    for (const r of f.run) perRun[r]++;
    expect(perRun.every((n) => n === 1000)).toBe(true);
    const infeasible = f.feasible.length - f.feasible.reduce((s, v) => s + v, 0);
    expect(infeasible / f.count).toBeGreaterThan(0.08);
    expect(infeasible / f.count).toBeLessThan(0.12);
    expect(f.objectives.every((v) => v > 0 && Number.isFinite(v))).toBe(true);
  });

  it('puts the first solver nearest the ideal point and the last farthest', () => {
    const f = syntheticFront({ points: 8000, objectives: 2, seed: 2 });
    const mean = (solver: string) => {
      let sum = 0;
      let n = 0;
      for (let i = 0; i < f.count; i++)
        if (f.runs[f.run[i]].solver === solver) {
          sum += f.objectives[2 * i] / f.nadir[0] + f.objectives[2 * i + 1] / f.nadir[1];
          n++;
        }
      return sum / n;
    };
    const means = SYNTHETIC_SOLVERS.map(mean);
    expect([...means].sort((a, b) => a - b)).toEqual(means);
  });

  it('refuses sizes it cannot make', () => {
    expect(() => syntheticFront({ points: -1 })).toThrow(/points/);
    expect(() => syntheticFront({ objectives: 1 })).toThrow(/objectives/);
  });
});
