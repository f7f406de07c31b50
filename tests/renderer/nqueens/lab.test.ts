import { describe, expect, it } from 'vitest';
import { CELL, cellStates, editedFields, kickSpans, NeuralPlayer, paramsFromForm, presetForm, type History } from '../../../src-renderer/views/nqueens/lab.ts';
import { historyOption, stepsOption, successOption } from '../../../src-renderer/views/nqueens/charts.ts';
import { parseNList, planSweep, summarizeSweep, type SweepOutcome, type SweepSetting } from '../../../src-renderer/views/nqueens/sweep.ts';
import { defaultNeuralParams, NeuralNet, runNeural } from '../../../src-shared/problems/nqueens/neural.ts';
import { frameworkParams } from '../../../src-shared/problems/nqueens/request.ts';
import { verifySolution } from '../../../src-shared/problems/nqueens/verify.ts';

describe('the parameter form', () => {
  it("round-trips the presets and applies the slides' weights per N", () => {
    const f = presetForm('slides', 15, 7);
    expect(f).toMatchObject({ n: 15, seed: 7, A: 0.6, B: 0.6, C: 1, kickValue: 4, kickEvery: '50', kickLength: 3, update: 'sync', clamp: 0 });
    const r = paramsFromForm(f);
    expect(r.ok && r.params).toMatchObject({ n: 15, A: 0.6, kick: { value: 4, every: 50, length: 3 }, update: 'sync' });
    const d = paramsFromForm(presetForm('default', 30, 1));
    expect(d.ok && d.params).toEqual(defaultNeuralParams(30));
  });

  it("tells the user's edits from the preset's values, N and seed aside", () => {
    const applied = presetForm('slides', 20, 1);
    expect(editedFields({ ...applied }, applied)).toEqual([]);
    // N and the seed are not parameters a preset sets.
    expect(editedFields({ ...applied, n: 50, seed: 9 }, applied)).toEqual([]);
    expect(editedFields({ ...applied, A: 0.7, kickEvery: 'auto' }, applied)).toEqual(['A', 'kickEvery']);
  });

  it('names the bad field', () => {
    const base = presetForm('default', 8, 1);
    expect(paramsFromForm({ ...base, n: 300 })).toMatchObject({ ok: false, field: 'n' });
    expect(paramsFromForm({ ...base, A: -1 })).toMatchObject({ ok: false, field: 'A', message: 'must be a positive number, got -1' });
    expect(paramsFromForm({ ...base, kickEvery: 'often' })).toMatchObject({ ok: false, field: 'kickEvery' });
    expect(paramsFromForm({ ...base, kickEvery: '4', kickLength: 4 })).toMatchObject({ ok: false, field: 'kickLength' });
    expect(paramsFromForm({ ...base, seed: 0.5 })).toMatchObject({ ok: false, field: 'seed' });
  });
});

describe('the player', () => {
  it('records one history row per step, equal to an independent run with the same seed', () => {
    const params = defaultNeuralParams(10);
    const player = new NeuralPlayer(params, 4);
    const net = new NeuralNet(params, 4);
    player.advance(7);
    const expected = [net.state, ...Array.from({ length: 7 }, () => net.step())];
    expect(player.history.step).toEqual(expected.map((s) => s.step));
    expect(player.history.queens).toEqual(expected.map((s) => s.queens));
    expect(player.history.conflicts).toEqual(expected.map((s) => s.conflicts));
    expect(player.history.energy).toEqual(expected.map((s) => s.energy));
  });

  it('stops when solved, with the same result as runNeural', () => {
    const params = defaultNeuralParams(12);
    const player = new NeuralPlayer(params, 2);
    player.advance(100_000);
    const r = runNeural(params, 2);
    expect(player.finished).toBe(true);
    expect(player.snapshot.solved).toBe(true);
    expect(player.snapshot.step).toBe(r.steps);
    expect(player.history.step.length).toBe(r.steps + 1);
    expect(verifySolution(player.net.queenList()!)).toBe(true);
  });
});

describe('cell states', () => {
  it('marks queens, and queens sharing a row, column or diagonal as conflicts', () => {
    const net = new NeuralNet(defaultNeuralParams(4), 1);
    const U = new Array(16).fill(-1);
    for (const [r, c] of [
      [0, 1],
      [1, 3],
      [2, 0],
      [3, 2],
    ])
      U[r * 4 + c] = 1; // a solution
    net.load(U);
    expect([...cellStates(net)].filter((x) => x === CELL.queen).length).toBe(4);
    expect(cellStates(net).includes(CELL.conflict)).toBe(false);
    U[0] = 1; // (0,0): shares row 0 with (0,1) and column 0 with (2,0); its diagonal is empty
    net.load(U);
    const s = cellStates(net);
    expect([s[0], s[1], s[2 * 4 + 0]]).toEqual([CELL.conflict, CELL.conflict, CELL.conflict]);
    expect([s[1 * 4 + 3], s[3 * 4 + 2]]).toEqual([CELL.queen, CELL.queen]);
    expect(s[5]).toBe(CELL.empty);
  });
});

describe('charts', () => {
  const h: History = {
    step: [0, 1, 2, 3, 4, 5],
    queens: [8, 6, 7, 8, 8, 8],
    conflicts: [9, 3, 2, 1, 1, 0],
    energy: [20, 6, 4, 2, 2, 0],
    kick: [false, true, true, false, true, false],
  };

  it('finds the kick spans', () => {
    expect(kickSpans(h)).toEqual([
      [1, 2],
      [4, 4],
    ]);
  });

  it('plots queens, conflicts and energy per step with kicks shaded', () => {
    const o = historyOption(h, 8) as { series: { name: string; data: number[][]; markArea?: { data: unknown[] } }[] };
    expect(o.series.map((s) => s.name)).toEqual(['queens', 'conflicts', 'energy']);
    expect(o.series[1].data).toEqual([
      [0, 9],
      [1, 3],
      [2, 2],
      [3, 1],
      [4, 1],
      [5, 0],
    ]);
    expect(o.series[0].markArea!.data).toEqual([
      [{ xAxis: 0.5 }, { xAxis: 2.5 }],
      [{ xAxis: 3.5 }, { xAxis: 4.5 }],
    ]);
  });
});

describe('the sweep', () => {
  const settings: SweepSetting[] = [
    { label: 'lab default', preset: 'default', overrides: {} },
    { label: 'slides, A = B = 0.6', preset: 'slides', overrides: { A: 0.6, B: 0.6 } },
  ];

  it("plans the sweep request: (N, setting) points, N first, each with the setting's parameters for N", () => {
    const request = planSweep([8, 15], settings, 3);
    expect(request.kind).toBe('nqueens-sweep');
    expect(request.seeds).toBe(3);
    expect(request.points.map((p) => [p.n, p.setting])).toEqual([
      [8, 0],
      [8, 1],
      [15, 0],
      [15, 1],
    ]);
    expect(request.points[0].params).toEqual(frameworkParams('neural', defaultNeuralParams(8)));
    expect(request.points[3].params).toMatchObject({ A: 0.6, B: 0.6, update: 'sync' });
    expect(() => planSweep([8], [{ label: 'bad', preset: 'default', overrides: { A: -1 } }], 1)).toThrow(/^A: /);
  });

  it('uses type-7 quantiles (numpy.percentile defaults)', () => {
    const solved = (steps: number[]): SweepOutcome[] => steps.map((s, i) => ({ index: i, setting: 0, n: 8, seed: i + 1, solved: true, steps: s, seconds: 0 }));
    // numpy.percentile([1, 2, 3, 4], [25, 50, 75]) = [1.75, 2.5, 3.25]; given out of order, as runs finish
    expect(summarizeSweep(solved([3, 1, 4, 2]), 1)[0][0]).toMatchObject({ q1: 1.75, median: 2.5, q3: 3.25 });
    expect(summarizeSweep(solved([5]), 1)[0][0]).toMatchObject({ q1: 5, median: 5, q3: 5 });
  });

  it('summarizes success rate, median and IQR of steps over solved runs, and failures by mode', () => {
    const o = (setting: number, n: number, seed: number, solved: boolean, steps: number, failure?: string): SweepOutcome => ({
      index: 0,
      setting,
      n,
      seed,
      solved,
      steps,
      seconds: 0,
      ...(failure ? { failure } : {}),
    });
    const outcomes = [
      o(0, 16, 1, true, 40),
      o(0, 8, 1, true, 10),
      o(0, 8, 2, true, 30),
      o(0, 8, 3, true, 20),
      o(0, 8, 4, false, 500, 'loop'),
      o(1, 8, 1, false, 500, 'oscillation'),
      o(1, 8, 2, false, 500, 'loop'),
    ];
    const cells = summarizeSweep(outcomes, 2);
    expect(cells[0].map((c) => c.n)).toEqual([8, 16]);
    expect(cells[0][0]).toEqual({ setting: 0, n: 8, runs: 4, solved: 3, successRate: 0.75, median: 20, q1: 15, q3: 25, failures: { loop: 1 } });
    expect(cells[1][0]).toMatchObject({ successRate: 0, median: null, q1: null, failures: { oscillation: 1, loop: 1 } });
    const success = successOption(cells, settings) as { series: { data: number[][] }[] };
    expect(success.series[0].data).toEqual([
      [8, 0.75],
      [16, 1],
    ]);
    const steps = stepsOption(cells, settings) as { series: { type: string; data: (number | null)[][] }[] };
    expect(steps.series[1]).toMatchObject({
      type: 'custom',
      data: [
        [8, 15, 25],
        [16, 40, 40],
      ],
    });
    expect(steps.series[3].data).toEqual([]); // nothing solved for the second setting
  });

  it('parses N lists and doubling ranges, naming the bad item', () => {
    expect(parseNList('8, 16 8-64', 1000)).toEqual([8, 16, 32, 64]);
    expect(parseNList('10-50', 1000)).toEqual([10, 20, 40, 50]);
    expect(() => parseNList('8, x', 1000)).toThrow('"x": each N must be an integer from 4 to 1000');
    expect(() => parseNList('2000', 1000)).toThrow(/"2000"/);
    expect(() => parseNList(' ', 1000)).toThrow(/at least one N/);
  });
});

describe('chart axes', () => {
  it('sizes the axis on the steps after the random start, rounded up, at least the floor', async () => {
    const { axisMax } = await import('../../../src-renderer/views/nqueens/charts.ts');
    expect(axisMax([[1500, 12, 9, 14]], 16)).toBe(20); // 14 * 1.15 = 16.1 -> floor 16 wins -> 20
    expect(axisMax([[5000, 400, 90, 80]], 16)).toBe(200); // 103.5 -> 200
    expect(axisMax([[3]], 8)).toBe(8);
  });
});
