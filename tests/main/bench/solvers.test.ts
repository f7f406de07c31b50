// The "solvers" benchmark suite: its statistics, its settings, and a tiny run through the worker
// pool whose figures are checked against the in-process driver.
import { describe, expect, it } from 'vitest';
import { benchConfig, benchOptions, leadRatio, quantileWithInfinity, renderSolverBench, runSolverBench } from '../../../src-main/bench/solvers.ts';
import { randomDiceConfig } from '../../../src-shared/problems/dice/random-config.ts';
import { DEFAULT_SOLVERS } from '../../../src-shared/solvers/registry.ts';
import { trackConfig } from '../../../src-shared/problems/dice/config.ts';
import { diceHvNormalisation, normalisedHypervolume } from '../../../src-shared/problems/dice/hv-reference.ts';
import { executeRunSync } from '../../../src-shared/runtime/kinds/index.ts';

describe('bench solvers', () => {
  it('takes quartiles as R type 7, with +Infinity for censored or infeasible runs', () => {
    // R: quantile(c(1, 2, 3, 4), c(0.25, 0.5, 0.75)) gives 1.75 2.50 3.25.
    expect([0.25, 0.5, 0.75].map((p) => quantileWithInfinity([4, 1, 3, 2], p))).toEqual([1.75, 2.5, 3.25]);
    expect(quantileWithInfinity([1, 2, 3, Infinity], 0.5)).toBe(2.5);
    expect(quantileWithInfinity([1, 2, 3, Infinity], 0.75)).toBe(Infinity);
    expect(quantileWithInfinity([Infinity, Infinity, 1], 0.5)).toBe(Infinity);
    expect(quantileWithInfinity([Infinity, Infinity], 0.5)).toBe(Infinity);
    expect(quantileWithInfinity([7], 0.25)).toBe(7);
  });

  it('reads its settings from the environment, with small ones for --quick', () => {
    expect(benchOptions({}, false)).toMatchObject({
      seeds: 10,
      budgets: [20000, 1000000],
      seconds: [10],
      cap: 1000000,
      cases: ['so50', 'so840', 'so2520', 'mo2', 'mo3', 'so840time', 'mo2time'],
      configs: 10,
      solvers: null,
    });
    expect(benchOptions({}, true)).toMatchObject({ seeds: 2, budgets: [2000], seconds: [1], cap: 5000, configs: 2 });
    expect(benchOptions({ SAIKORO_BENCH_CASES: 'random-so840,random-mo3', SAIKORO_BENCH_CONFIGS: '4' }, false)).toMatchObject({
      cases: ['random-so840', 'random-mo3'],
      configs: 4,
    });
    expect(() => benchOptions({ SAIKORO_BENCH_CONFIGS: '-1' }, false)).toThrow('SAIKORO_BENCH_CONFIGS must be a positive integer');
    const env = {
      SAIKORO_BENCH_SEEDS: '3',
      SAIKORO_BENCH_BUDGETS: '100, 200',
      SAIKORO_BENCH_CASES: 'mo2',
      SAIKORO_BENCH_SOLVERS: 'random',
      SAIKORO_BENCH_PARALLEL: '1',
    };
    expect(benchOptions(env, false)).toEqual({
      seeds: 3,
      budgets: [100, 200],
      seconds: [10],
      cap: 1000000,
      cases: ['mo2'],
      configs: 10,
      solvers: ['random'],
      parallelism: 1,
    });
    expect(() => benchOptions({ SAIKORO_BENCH_SEEDS: '0' }, false)).toThrow('SAIKORO_BENCH_SEEDS must be a positive integer, got "0"');
    expect(() => benchOptions({ SAIKORO_BENCH_CASES: 'so51' }, false)).toThrow('unknown case "so51"');
    expect(() => benchOptions({ SAIKORO_BENCH_SOLVERS: 'magic' }, false)).toThrow('unknown solver "magic"');
    expect(() => benchOptions({ SAIKORO_BENCH_BUDGETS: '1e3x' }, false)).toThrow('"1e3x" is not a positive integer');
  });

  it('runs each case through the worker pool and reports the same figures as the in-process driver', async () => {
    const options = {
      seeds: 2,
      budgets: [300],
      seconds: [0.3],
      cap: 3000,
      cases: ['so50' as const, 'mo2' as const, 'so840time' as const],
      configs: 1,
      solvers: ['random', 'ga', 'nsga2'],
      parallelism: 2,
    };
    const messages: string[] = [];
    const result = await runSolverBench(options, (m) => messages.push(m));
    expect(messages[0]).toBe('solvers: 12 runs on 2 worker(s)');
    expect(result.cells.map((c) => `${c.case} ${c.solver}`)).toEqual(['so50 random', 'so50 ga', 'mo2 random', 'mo2 nsga2', 'so840time random', 'so840time ga']);

    const norm = diceHvNormalisation(trackConfig('mo2', 840));
    expect(result.normalisation.mo2).toEqual(norm);
    for (const cell of result.cells) {
      expect(cell.runs.map((r) => r.seed)).toEqual([1, 2]);
      for (const run of cell.runs) {
        expect(run.status).toBe('done');
        if (cell.case === 'so840time') {
          // Equal wall time: each run used its 0.3 s (the clock is checked between steps).
          expect(run.seconds).toBeGreaterThanOrEqual(0.3);
          expect(run.evaluations).toBeGreaterThan(0);
        } else if (cell.case === 'so50') {
          const local = executeRunSync({
            kind: 'dice',
            solver: cell.solver,
            params: {},
            seed: run.seed,
            config: trackConfig('so', 50),
            termination: { maxEvaluations: 3000, target: 0 },
          });
          const hit = local.best?.feasible && local.best.objectives[0] === 0 ? local.bestFoundAt! : Infinity;
          expect(run.value).toBe(hit);
          expect(run.evaluations).toBe(local.evaluations);
        } else {
          const local = executeRunSync({
            kind: 'dice',
            solver: cell.solver,
            params: {},
            seed: run.seed,
            config: trackConfig('mo2', 840),
            termination: { maxEvaluations: 300 },
            traceHypervolume: false,
          });
          expect(run.value).toBe(
            normalisedHypervolume(
              local.front.map((s) => s.objectives),
              norm,
            ),
          );
          expect(run.frontSize).toBe(local.front.length);
          expect(run.value).toBeLessThanOrEqual(1.1 * 1.1);
        }
      }
      expect(cell.median).toBe(
        quantileWithInfinity(
          cell.runs.map((r) => r.value),
          0.5,
        ),
      );
    }

    const tables = renderSolverBench(result);
    expect(tables.map((t) => t.title)).toEqual([
      'SO, N = 50: evaluations to the first feasible solution with f = 0',
      'M = 2, N = 840: hypervolume of the final feasible front',
      'SO, N = 840, equal wall time: best feasible f',
    ]);
    expect(tables[2].columns).toEqual(['solver', 'role', 'median f @ 0.3 s', 'IQR f', 'feasible runs', 'median evaluations']);
    expect(tables[0].rows.map((r) => r.slice(0, 2))).toEqual([
      ['random', 'baseline'],
      ['ga', 'baseline'],
    ]);
    expect(tables[1].columns).toEqual(['solver', 'role', 'median HV @ 300', 'IQR HV', 'non-empty fronts', 'median wall s']);
    expect(tables[1].notes!.join('\n')).toContain(`nadir = (${norm.nadir.map((v) => Math.round(v)).join(', ')})`);
  });

  it('compares the default solver with the baseline on the default config and on random ones', async () => {
    const strong = DEFAULT_SOLVERS.so;
    const options = {
      seeds: 2,
      budgets: [300],
      seconds: [1],
      cap: 3000,
      cases: ['random-so840' as const],
      configs: 2,
      solvers: ['ga', strong],
      parallelism: 2,
    };
    const result = await runSolverBench(options, () => {});
    expect(result.cells.map((c) => `${c.config} ${c.solver}`)).toEqual(['0 ga', `0 ${strong}`, '1 ga', `1 ${strong}`, '2 ga', `2 ${strong}`]);
    expect(benchConfig('random-so840', 0)).toEqual(trackConfig('so', 840));
    expect(benchConfig('random-so840', 2)).toEqual(randomDiceConfig(2, 'so', 840));
    for (const cell of result.cells) {
      const local = executeRunSync({
        kind: 'dice',
        solver: cell.solver,
        params: {},
        seed: 1,
        config: benchConfig('random-so840', cell.config),
        termination: { maxEvaluations: 300, target: 0 },
      });
      expect(cell.runs[0].value).toBe(local.best!.feasible ? local.best!.objectives[0] : Infinity);
    }
    const [table] = renderSolverBench(result);
    expect(table.title).toBe('SO, N = 840, random configs: best feasible f, 300 evaluations');
    expect(table.columns).toEqual(['config', 'constrained d (p-P)', 'median f ga', `median f ${strong}`, `${strong} / ga`]);
    expect(table.rows.map((r) => r[0])).toEqual(['0 (default)', 1, 2]);
    table.rows.forEach((row, k) => {
      const at = (s: string) => result.cells.find((c) => c.config === k && c.solver === s)!.median;
      expect(row[4]).toBe(leadRatio('best-f', at(strong), at('ga'))!.toFixed(3));
    });
    expect(table.rows[0][1]).toBe(Array.from({ length: 12 }, (_, i) => `${i + 1}:0.1-0.9`).join(' '));
    expect(table.notes!.join('\n')).toMatch(
      /Default config: \d\.\d{3}\. Random configs: median \d\.\d{3}, from \d\.\d{3} to \d\.\d{3}; at least as far ahead as on the default config on \d of 2\./,
    );
  });

  it('takes the lead as a ratio, lower f or higher HV being better, with infeasible and empty cases', () => {
    expect(leadRatio('best-f', 200, 400)).toBe(0.5);
    expect(leadRatio('best-f', 200, Infinity)).toBe(0);
    expect(leadRatio('best-f', Infinity, 400)).toBe(Infinity);
    expect(leadRatio('best-f', Infinity, Infinity)).toBeNull();
    expect(leadRatio('best-f', 0, 0)).toBeNull();
    expect(leadRatio('hv', 0.8, 0.4)).toBe(2);
    expect(leadRatio('hv', 0.8, 0)).toBe(Infinity);
    expect(leadRatio('hv', 0, 0)).toBeNull();
  });
});
