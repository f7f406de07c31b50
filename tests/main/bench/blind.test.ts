// The "blind" benchmark suite: its settings, its ratio, and a tiny run through the worker pool
// whose figures are checked against the in-process driver on the same hidden instances.
import { describe, expect, it } from 'vitest';
import { BENCH_SECRET, blindBenchOptions, blindRatio, renderBlindBench, runBlindBench } from '../../../src-main/bench/blind.ts';
import { suites } from '../../../src-main/bench/registry.ts';
import { problemConfig } from '../../../src-shared/competition/suite.ts';
import { scoreHypervolume } from '../../../src-shared/competition/score-reference.ts';
import { executeRunSync } from '../../../src-shared/runtime/kinds/index.ts';

describe('bench blind', () => {
  it('is registered, run only when named', () => {
    const entry = suites.find((s) => s.name === 'blind');
    expect(entry?.byDefault).toBe(false);
  });

  it('reads its settings from the environment, with small ones for --quick', () => {
    expect(blindBenchOptions({}, false)).toMatchObject({ tracks: ['so', 'mo2', 'mo3', 'mo5', 'mo7'], n: 840, instances: 5, budgets: [20000], seeds: 5 });
    expect(blindBenchOptions({}, true)).toMatchObject({ tracks: ['so', 'mo2'], n: 120, instances: 2, budgets: [2000], seeds: 2 });
    expect(
      blindBenchOptions(
        {
          SAIKORO_BENCH_TRACKS: 'mo3',
          SAIKORO_BENCH_N: '50',
          SAIKORO_BENCH_INSTANCES: '3',
          SAIKORO_BENCH_BUDGETS: '100,200',
          SAIKORO_BENCH_SEEDS: '4',
          SAIKORO_BENCH_PARALLEL: '1',
        },
        false,
      ),
    ).toEqual({
      tracks: ['mo3'],
      n: 50,
      instances: 3,
      budgets: [100, 200],
      seeds: 4,
      parallelism: 1,
    });
    expect(() => blindBenchOptions({ SAIKORO_BENCH_TRACKS: 'mo4' }, false)).toThrow(
      'SAIKORO_BENCH_TRACKS: unknown track "mo4" (known: so, mo2, mo3, mo5, mo7)',
    );
    expect(() => blindBenchOptions({ SAIKORO_BENCH_INSTANCES: '0' }, false)).toThrow('SAIKORO_BENCH_INSTANCES must be a positive integer, got "0"');
    expect(() => blindBenchOptions({ SAIKORO_BENCH_BUDGETS: 'x' }, false)).toThrow('SAIKORO_BENCH_BUDGETS: "x" is not a positive integer');
  });

  it('takes blind / sighted, with infeasible and empty cases', () => {
    expect(blindRatio(true, 220, 200)).toBeCloseTo(1.1, 12);
    expect(blindRatio(true, 200, Infinity)).toBe(0);
    expect(blindRatio(true, Infinity, 200)).toBe(Infinity);
    expect(blindRatio(true, Infinity, Infinity)).toBeNull();
    expect(blindRatio(true, 0, 0)).toBe(1);
    expect(blindRatio(false, 0.9, 1.0)).toBeCloseTo(0.9, 12);
    expect(blindRatio(false, 0, 0)).toBeNull();
  });

  it('runs sighted and blind through the worker pool and reports what the in-process driver gives', async () => {
    const options = { tracks: ['so' as const, 'mo2' as const], n: 60, instances: 2, budgets: [600], seeds: 2, parallelism: 2 };
    const messages: string[] = [];
    const result = await runBlindBench(options, (m) => messages.push(m));
    expect(messages[0]).toBe('blind: 16 runs on 2 worker(s)');
    expect(result.cells.map((c) => `${c.track} ${c.instance} ${c.solver}`)).toEqual([
      'so 1 barrier-ls',
      'so 2 barrier-ls',
      'mo2 1 barrier-mo',
      'mo2 2 barrier-mo',
    ]);
    for (const cell of result.cells) {
      const config = problemConfig(BENCH_SECRET, cell.track, 60, cell.instance);
      for (const run of [...cell.sighted, ...cell.blind]) {
        expect(run.status).toBe('done');
        const local = executeRunSync({
          kind: 'dice',
          solver: cell.solver,
          params: {},
          seed: run.seed,
          config,
          termination: { maxEvaluations: 600 },
          traceHypervolume: false,
          ...(run.blind ? { blind: true } : {}),
        });
        expect(run.evaluations).toBe(600);
        if (cell.track === 'so') expect(run.value).toBe(local.best!.feasible ? local.best!.objectives[0] : Infinity);
        else
          expect(run.value).toBe(
            scoreHypervolume(
              local.front.map((s) => s.objectives),
              'mo2',
              60,
            ),
          );
      }
      expect(cell.ratio).toBe(blindRatio(cell.track === 'so', cell.blindMedian, cell.sightedMedian));
    }
    const tables = renderBlindBench(result);
    expect(tables.map((t) => t.title)).toEqual([
      'SO, N = 60, 600 evaluations: barrier-ls blind against sighted on hidden instances',
      'M = 2, N = 60, 600 evaluations: barrier-mo blind against sighted on hidden instances',
    ]);
    expect(tables[0].rows.map((r) => r[0])).toEqual(['so-n60-i1', 'so-n60-i2']);
    expect(tables[1].columns).toEqual(['instance', 'median HV sighted', 'median HV blind', 'blind / sighted', 'wall s sighted', 'wall s blind']);
  });
});
