// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { evaluateDice } from '../../src-shared/problems/dice/evaluate.ts';
import { parseSequence } from '../../src-shared/problems/dice/sequence.ts';
import { trackConfig } from '../../src-shared/problems/dice/config.ts';
import { checkSequence, cleanSequence } from '../../src-renderer/stores/dice.ts';
import { bandPosition, constraintChartOption, constraintRows, featureChartOption, featureRows, powerOfTen } from '../../src-renderer/views/dice/charts.ts';
import { FEATURE_PANELS, niceCeil, niceInterval } from '../../src-shared/charts/axes.ts';
import { faceChiSquare, faceWindows } from '../../src-renderer/views/dice/face-counts.ts';
import { formatNumber, groupLabel } from '../../src-renderer/logic/dice/labels.ts';
import { routeIdFromHash } from '../../src-renderer/stores/shell.ts';
import { DEFAULT_ROUTE_ID } from '../../src-renderer/routes.ts';
import { DARK_PALETTE, LIGHT_PALETTE } from '../../src-shared/charts/palette.ts';

const SAMPLE = '31552264665432613134314646226624645162511461153216';

describe('sequence checks', () => {
  it('ignores spaces, line breaks, commas and quotes', () => {
    expect(cleanSequence(' "31552 26466"\n5432,6\t13 ')).toBe('315522646654326' + '13');
  });

  it('names the position of the first bad character (1-based in the message, 0-based in the field)', () => {
    expect(checkSequence('1234567', 7)).toEqual({ message: 'character "7" at position 7 is not a die face 1-6', position: 6 });
    expect(checkSequence('0', 1)).toEqual({ message: 'character "0" at position 1 is not a die face 1-6', position: 0 });
    // A bad character is reported before a wrong length.
    expect(checkSequence('12a', 50)?.position).toBe(2);
  });

  it('reports a wrong length with the sequence length, and accepts a good sequence', () => {
    expect(checkSequence('123', 50)).toEqual({ message: 'the sequence has 3 rolls, but N = 50', length: 3 });
    expect(checkSequence(SAMPLE, 50)).toBeNull();
    expect(checkSequence('', 50)).toBeNull();
  });
});

describe('face windows', () => {
  it('the chi-square of each window histogram equals the evaluator F1..F5 (cross-check)', () => {
    for (const x of [SAMPLE, '1'.repeat(7), '123456'.repeat(20) + '1', SAMPLE.repeat(3).slice(0, 97)]) {
      const evaluation = evaluateDice(x, trackConfig('so', x.length));
      const windows = faceWindows(parseSequence(x, x.length));
      windows.forEach((w, k) => expect(faceChiSquare(w.counts)).toBeCloseTo(evaluation.features[k], 9));
    }
  });

  it('counts the sample: faces (10, 8, 6, 8, 6, 12) over the whole sequence, 15 rolls in 0-30 %', () => {
    const [whole, first] = faceWindows(parseSequence(SAMPLE, 50));
    expect(whole.counts).toEqual([10, 8, 6, 8, 6, 12]);
    expect(whole.total).toBe(50);
    expect(first.total).toBe(15);
    expect(first.counts.reduce((a, b) => a + b, 0)).toBe(15);
    expect(faceChiSquare([0, 0, 0, 0, 0, 0])).toBe(0);
  });
});

describe('chart rows', () => {
  const config = trackConfig('so', 50);
  const evaluation = evaluateDice(SAMPLE, config);

  it('feature rows: value, band and error as the evaluator says; E = 0 exactly when in band', () => {
    const rows = featureRows(evaluation, config);
    expect(rows).toHaveLength(15);
    expect(rows[3]).toMatchObject({ feature: 4, alpha: 2, beta: 5, gamma: 3, inBand: false });
    expect(rows[3].value).toBeCloseTo(10.2, 12);
    expect(rows[3].error).toBeCloseTo(15.6, 12);
    for (const r of rows) expect(r.inBand).toBe(r.error === 0);
    expect(rows.reduce((s, r) => s + r.error, 0)).toBeCloseTo(76.8, 9);
  });

  it('constraint rows: 12 satisfied, each chi inside [q(p), q(P)]', () => {
    const rows = constraintRows(evaluation, config);
    expect(rows.map((r) => r.d)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    for (const r of rows) {
      expect(r.feasible).toBe(true);
      expect(r.chi).toBeGreaterThanOrEqual(r.lower);
      expect(r.chi).toBeLessThanOrEqual(r.upper!);
      const t = bandPosition(r)!;
      expect(t).toBeGreaterThanOrEqual(0);
      expect(t).toBeLessThanOrEqual(1);
    }
    // chi_1 = 3.28 against q(0.1) = 1.6103 and q(0.9) = 9.2364 for 5 degrees of freedom
    // (scipy chi2.ppf; any chi-square table).
    expect(rows[0].lower).toBeCloseTo(1.6103, 4);
    expect(rows[0].upper).toBeCloseTo(9.2364, 4);
  });

  it('a violated constraint lies outside its band', () => {
    const constant = '1'.repeat(50);
    const bad = constraintRows(evaluateDice(constant, config), config);
    expect(bad.every((r) => !r.feasible && r.g > 0)).toBe(true);
    expect(bandPosition(bad[0])!).toBeGreaterThan(1);
    expect(bandPosition({ chi: 1, lower: 0, upper: null })).toBeNull();
  });

  it('the feature chart has one panel per scale with all 15 features, and bars coloured by band in the palette given', () => {
    type Option = { grid: unknown[]; series: { type: string; data: { itemStyle?: { color: string } }[] }[]; xAxis: { data: string[] }[] };
    const rows = featureRows(evaluation, config);
    const option = featureChartOption(rows) as Option;
    expect(option.grid).toHaveLength(FEATURE_PANELS.length);
    expect(option.xAxis.flatMap((a) => a.data)).toEqual(Array.from({ length: 15 }, (_, i) => `F${i + 1}`));
    // The sample: 6 of 15 features in band (F1, F2, F7, F8, F9, F12).
    for (const [palette, o] of [
      [LIGHT_PALETTE, option],
      [DARK_PALETTE, featureChartOption(rows, DARK_PALETTE) as Option],
    ] as const) {
      const bars = o.series.filter((s) => s.type === 'bar').flatMap((s) => s.data);
      expect(bars.map((b) => b.itemStyle?.color === palette.ok)).toEqual(rows.map((r) => r.inBand));
      expect(bars.filter((b) => b.itemStyle?.color === palette.bad)).toHaveLength(9);
    }
  });
});

describe('constraint chart', () => {
  it('plots log10 chi_d on whole decades, every other decade labelled for a wide range', () => {
    const config = trackConfig('so', 50);
    const rows = constraintRows(evaluateDice(SAMPLE, config), config);
    const option = constraintChartOption(rows) as { yAxis: { min: number; max: number; interval: number }; series: { data: { value: number[] }[] }[] };
    // chi_1 = 3.28 ... chi_12 = 2.18e9: decades 10^0 .. 10^10, on even exponents.
    expect([option.yAxis.min, option.yAxis.max, option.yAxis.interval]).toEqual([0, 10, 2]);
    option.series[1].data.forEach((p, i) => expect(p.value[1]).toBeCloseTo(Math.log10(rows[i].chi), 12));
  });
});

describe('number formatting and axes', () => {
  it('formats numbers for tables', () => {
    expect(formatNumber(76.80000000000001)).toBe('76.8');
    expect(formatNumber(2176782332)).toBe('2.177e+9');
    expect(formatNumber(1284)).toBe('1,284');
    expect(formatNumber(null)).toBe('∞');
    expect(formatNumber(0)).toBe('0');
  });

  it('nice axis tops and ticks', () => {
    expect([0.7, 1, 3, 9.2, 11.7, 34.5].map(niceCeil)).toEqual([1, 1, 5, 10, 20, 50]);
    expect(niceCeil(2.2)).toBe(2.5);
    expect(niceInterval(20)).toBe(5);
    expect(niceInterval(10)).toBe(2);
    expect(niceInterval(2.5)).toBe(0.5);
    expect(powerOfTen(1000)).toBe('10³');
    expect(powerOfTen(0.01)).toBe('10⁻²');
    expect(powerOfTen(1)).toBe('1');
  });

  it('labels feature groups and routes', () => {
    expect(groupLabel([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15])).toBe('F1–F15');
    expect(groupLabel([1, 2])).toBe('F1, F2');
    expect(routeIdFromHash('#/dice')).toBe('dice');
    // Unknown or missing: the first view of the navigation (the project home).
    expect(routeIdFromHash('#/nowhere')).toBe(DEFAULT_ROUTE_ID);
    expect(routeIdFromHash('')).toBe(DEFAULT_ROUTE_ID);
  });
});
