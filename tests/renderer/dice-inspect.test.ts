// The inspector's pure helpers: transitions against a direct count, objective shares, where
// chi_d sits against its band, the diff of two sequences and of their evaluations, the edit of
// one roll in typed text, and the chart options built from them.
import { describe, expect, it } from 'vitest';
import { evaluateDice } from '../../src-shared/problems/dice/evaluate.ts';
import { trackConfig, type DiceConfig } from '../../src-shared/problems/dice/config.ts';
import { Random } from '../../src-shared/random.ts';
import { LIGHT_PALETTE } from '../../src-shared/charts/palette.ts';
import { cleanSequence, differingPositions, replaceRoll } from '../../src-renderer/stores/dice.ts';
import { bandScale, evaluationDiff, faceTotals, facesOf, objectiveShares, sequenceDiff, transitionCounts } from '../../src-renderer/views/dice/inspect.ts';
import {
  bandReading,
  bandTicks,
  constraintPositionOption,
  constraintRows,
  featureChartOption,
  featureRows,
  formatBandValue,
  objectiveShareOption,
} from '../../src-renderer/views/dice/charts.ts';
import { formatNumber } from '../../src-renderer/logic/dice/labels.ts';

const SAMPLE = '31552264665432613134314646226624645162511461153216';
const randomSequence = (rng: Random, n: number) => Array.from({ length: n }, () => String(rng.int(1, 6))).join('');

/** Occurrences of `needle` in `text`, overlapping ones included. */
function countSubstring(text: string, needle: string): number {
  let count = 0;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) count++;
  return count;
}

describe('transitions', () => {
  it('count a followed by b as often as the two-face string "ab" occurs (random sequences and the sample)', () => {
    const rng = Random.fromSeed(11);
    for (const x of [SAMPLE, '1', '11', '111111', ...Array.from({ length: 40 }, () => randomSequence(rng, rng.int(1, 900)))]) {
      const counts = transitionCounts(facesOf(x));
      for (let a = 1; a <= 6; a++)
        for (let b = 1; b <= 6; b++) expect(counts[a - 1][b - 1], `${a}${b} in ${x.slice(0, 20)}…`).toBe(countSubstring(x, `${a}${b}`));
      expect(counts.flat().reduce((s, c) => s + c, 0)).toBe(Math.max(0, x.length - 1));
    }
  });

  it('the sample by hand: 6 then 6 twice (rolls 9 and 29), 1 then 1 twice (rolls 40 and 44)', () => {
    const counts = transitionCounts(facesOf(SAMPLE));
    expect(counts[5][5]).toBe(2);
    expect(counts[0][0]).toBe(2);
    expect(faceTotals(facesOf(SAMPLE))).toEqual([10, 8, 6, 8, 6, 12]);
  });
});

describe('objective shares', () => {
  it('split each objective into the errors of its group; the shares of a non-zero objective sum to 1', () => {
    for (const track of ['so', 'mo2', 'mo3', 'mo5', 'mo7'] as const) {
      const config = trackConfig(track, 50);
      const evaluation = evaluateDice(SAMPLE, config);
      const shares = objectiveShares(evaluation, config);
      expect(shares).toHaveLength(config.objectives.length);
      shares.forEach((s, m) => {
        expect(s.value).toBe(evaluation.objectives[m]);
        expect(s.parts.map((p) => p.feature)).toEqual(config.objectives[m]);
        s.parts.forEach((p) => expect(p.error).toBe(evaluation.errors[p.feature - 1]));
        const total = s.parts.reduce((t, p) => t + p.share, 0);
        if (s.value > 0) expect(total).toBeCloseTo(1, 12);
        else expect(total).toBe(0);
      });
    }
  });

  it('the sample, single objective: F4 gives 15.6 of 76.8', () => {
    const config = trackConfig('so', 50);
    const [f] = objectiveShares(evaluateDice(SAMPLE, config), config);
    const f4 = f.parts.find((p) => p.feature === 4)!;
    expect(f4.error).toBeCloseTo(15.6, 12);
    expect(f4.share).toBeCloseTo(15.6 / 76.8, 12);
  });

  it('the chart: one 100 % bar per objective, one series per feature holding its share in percent', () => {
    const config = trackConfig('mo7', 50);
    const evaluation = evaluateDice(SAMPLE, config);
    const shares = objectiveShares(evaluation, config);
    const option = objectiveShareOption(shares, LIGHT_PALETTE) as { yAxis: { data: string[] }; series: { name: string; data: (number | string)[] }[] };
    expect(option.yAxis.data).toHaveLength(7);
    expect(option.yAxis.data[0]).toMatch(/^f1 = /);
    expect(option.series.map((s) => s.name)).toEqual(Array.from({ length: 15 }, (_, i) => `F${i + 1}`));
    shares.forEach((s, m) => {
      const sum = option.series.reduce((t, series) => t + (typeof series.data[m] === 'number' ? (series.data[m] as number) : 0), 0);
      expect(sum).toBeCloseTo(s.value > 0 ? 100 : 0, 9);
    });
    // F4 (objective 2 = {F3, F4} in M = 7) holds E4 / f2 of that bar.
    expect(option.series[3].data[1]).toBeCloseTo((evaluation.errors[3] / evaluation.objectives[1]) * 100, 9);
  });
});

describe('constraints against their bands', () => {
  it('at d >= 9 chi, q(p) and q(P) read alike to 6 digits; the position in the band and the distances tell them apart', () => {
    const config = trackConfig('so', 50);
    const evaluation = evaluateDice(SAMPLE, config);
    const rows = constraintRows(evaluation, config);
    const d12 = rows.find((r) => r.d === 12)!;
    // What the table showed: three equal strings.
    expect([d12.chi, d12.lower, d12.upper!].map(formatNumber)).toEqual(['2.177e+9', '2.177e+9', '2.177e+9']);
    // The evaluator's numbers for the sample (chi_12 = 2,176,782,332 in [2,176,697,776.67, 2,176,866,894.18]).
    expect([d12.chi, Math.round(d12.lower), Math.round(d12.upper!)]).toEqual([2176782332, 2176697777, 2176866894]);
    expect([d12.chi, d12.lower, d12.upper!].map(formatBandValue)).toEqual(['2,176,782,332', '2,176,697,777', '2,176,866,894']);
    const t = (d12.chi - d12.lower) / (d12.upper! - d12.lower);
    expect(t).toBeCloseTo(0.5, 2);
    expect(bandReading(d12)).toEqual({
      percent: `${Number((t * 100).toPrecision(3))} %`,
      distances: `${Math.round(d12.chi - d12.lower).toLocaleString('en-US')} above q(p) · ${Math.round(d12.upper! - d12.chi).toLocaleString('en-US')} below q(P)`,
    });
    expect(bandReading(d12)).toEqual({ percent: '50 %', distances: '84,555 above q(p) · 84,562 below q(P)' });
    // Every d of the sample: the percentage is (chi − q(p)) / (q(P) − q(p)).
    for (const r of rows)
      expect(Number(bandReading(r).percent!.replace(' %', ''))).toBeCloseTo(Number((((r.chi - r.lower) / (r.upper! - r.lower)) * 100).toPrecision(3)), 9);
  });
  it('outside the band it says how far, and without an upper bound how far above q(p)', () => {
    expect(bandReading({ chi: 5, lower: 10, upper: 20 })).toEqual({ percent: '−50 %', distances: '5 below q(p)' });
    expect(bandReading({ chi: 40_000, lower: 10, upper: 20 })).toEqual({ percent: '400,000 %', distances: '39,980 above q(P)' });
    // Just inside or just outside an end never reads as the end itself.
    expect(bandReading({ chi: 19_999.9, lower: 10_000, upper: 20_000 }).percent).toBe('99.999 %');
    expect(bandReading({ chi: 20_000.1, lower: 10_000, upper: 20_000 }).percent).toBe('100.001 %');
    expect(bandReading({ chi: 20_000, lower: 10_000, upper: 20_000 }).percent).toBe('100 %');
    expect(bandReading({ chi: 7.25, lower: 0, upper: null })).toEqual({ percent: null, distances: '7.25 above q(p); no upper bound' });
  });

  it('bandScale: 0 and 1 at the bounds, linear inside, log of band widths outside', () => {
    expect(bandScale({ chi: 10, lower: 10, upper: 20 })).toBe(0);
    expect(bandScale({ chi: 20, lower: 10, upper: 20 })).toBe(1);
    expect(bandScale({ chi: 12.5, lower: 10, upper: 20 })).toBeCloseTo(0.25, 12);
    expect(bandScale({ chi: 30, lower: 10, upper: 20 })).toBeCloseTo(1 + Math.log10(2), 12); // one width above
    expect(bandScale({ chi: 20 + 10 * 999, lower: 10, upper: 20 })).toBeCloseTo(4, 12); // 999 widths above
    expect(bandScale({ chi: 0, lower: 10, upper: 20 })).toBeCloseTo(-Math.log10(2), 12); // one width below
    // No upper bound: inside at 0.5, below measured in units of the lower bound.
    expect(bandScale({ chi: 5, lower: 0, upper: null })).toBe(0.5);
    expect(bandScale({ chi: 0, lower: 4, upper: null })).toBeCloseTo(-Math.log10(2), 12);
  });

  it('the chart places every d by bandScale, says pass or fail in words and shape, and labels the band ends', () => {
    const config = trackConfig('so', 50);
    // Ten 1s in front: d = 1..5 fail, d = 6..12 pass.
    const x = '1'.repeat(10) + SAMPLE.slice(10);
    const evaluation = evaluateDice(x, config);
    const rows = constraintRows(evaluation, config);
    type Point = { value: [number, number]; symbol: string; label: { formatter: string } };
    const option = constraintPositionOption(rows, LIGHT_PALETTE) as { series: { data: Point[] }[]; yAxis: { min: number; max: number } };
    const points = option.series[0].data;
    expect(points).toHaveLength(12);
    points.forEach((p, i) => {
      expect(p.value[1]).toBe(bandScale(rows[i]));
      expect(p.label.formatter).toBe(evaluation.constraints[i] <= 0 ? 'pass' : 'fail');
      expect(p.symbol).toBe(evaluation.constraints[i] <= 0 ? 'circle' : 'triangle');
      expect(p.value[1]).toBeGreaterThan(option.yAxis.min);
      expect(p.value[1]).toBeLessThan(option.yAxis.max);
    });
    expect(points.some((p) => p.label.formatter === 'fail')).toBe(true);
    expect(points.some((p) => p.label.formatter === 'pass')).toBe(true);
    const ticks = bandTicks(-2, 4);
    expect(ticks.find((t) => t.value === 0)?.label).toBe('q(p)');
    expect(ticks.find((t) => t.value === 1)?.label).toBe('q(P)');
    expect(ticks.find((t) => Math.abs(t.value - (1 + Math.log10(101))) < 1e-12)?.label).toBe('+10²×');
  });
});

describe('diff', () => {
  it('aligns two sequences roll by roll: the positions that differ, and the rolls only one has', () => {
    expect(sequenceDiff('123456', '123456')).toEqual({ changed: [], common: 6, extra: 0, longer: null });
    expect(sequenceDiff('123456', '153452')).toEqual({ changed: [1, 5], common: 6, extra: 0, longer: null });
    expect(sequenceDiff('1234', '12')).toEqual({ changed: [], common: 2, extra: 2, longer: 'a' });
    expect(sequenceDiff('1', '234')).toEqual({ changed: [0], common: 1, extra: 2, longer: 'b' });
  });

  it('holds the two evaluations side by side: deltas b - a, and a change marked exactly where a value or a status differs', () => {
    const config = trackConfig('mo3', 50);
    const b = SAMPLE.slice(0, 10) + '6' + SAMPLE.slice(11);
    const ea = evaluateDice(SAMPLE, config);
    const eb = evaluateDice(b, config);
    const diff = evaluationDiff(ea, config, eb, config);
    diff.objectives.forEach((r, m) => {
      expect([r.a, r.b]).toEqual([ea.objectives[m], eb.objectives[m]]);
      expect(r.delta).toBe(eb.objectives[m] - ea.objectives[m]);
      expect(r.changed).toBe(ea.objectives[m] !== eb.objectives[m]);
    });
    diff.features.forEach((r, i) => expect(r.changed).toBe(ea.features[i] !== eb.features[i]));
    expect(diff.features.filter((r) => r.changed).length).toBeGreaterThan(0);
    diff.constraints.forEach((r, l) => {
      expect(r.d).toBe(l + 1);
      expect([r.a, r.b]).toEqual([ea.chi[l], eb.chi[l]]);
      expect([r.okA, r.okB]).toEqual([ea.constraints[l] <= 0, eb.constraints[l] <= 0]);
    });
    // The same sequence: nothing changed.
    const same = evaluationDiff(ea, config, ea, config);
    expect([...same.objectives, ...same.features, ...same.constraints].some((r) => r.changed)).toBe(false);
  });

  it('matches constraints by d when B has its own N and so its own blocks', () => {
    const a: DiceConfig = trackConfig('so', 50);
    const b: DiceConfig = { ...a, n: 60 };
    const diff = evaluationDiff(evaluateDice(SAMPLE, a), a, evaluateDice(SAMPLE + SAMPLE.slice(0, 10), b), b);
    expect(diff.constraints.map((r) => r.d)).toEqual(a.constraints);
  });
});

describe('editing typed text', () => {
  it('replaces roll p where it sits in the text, keeping spaces, line breaks and quotes', () => {
    expect(replaceRoll('"315 52\n26"', 0, 6)).toBe('"615 52\n26"');
    expect(replaceRoll('"315 52\n26"', 3, 1)).toBe('"315 12\n26"');
    expect(replaceRoll('"315 52\n26"', 6, 4)).toBe('"315 52\n24"');
    expect(replaceRoll('315', 3, 4)).toBe('315');
    const rng = Random.fromSeed(3);
    for (let t = 0; t < 200; t++) {
      const x = randomSequence(rng, rng.int(1, 60));
      const text = x.replace(/(.{5})/g, '$1 ');
      const p = rng.int(0, x.length - 1);
      const face = rng.int(1, 6);
      expect(cleanSequence(replaceRoll(text, p, face))).toBe(x.slice(0, p) + face + x.slice(p + 1));
    }
  });

  it('lists differing positions up to a limit', () => {
    expect(differingPositions('111111', '121121', 10)).toEqual([1, 4]);
    expect(differingPositions('111111', '222222', 3)).toEqual([0, 1, 2]);
  });

  it('the feature chart outlines the picked feature', () => {
    const config = trackConfig('so', 50);
    const rows = featureRows(evaluateDice(SAMPLE, config), config);
    type Bar = { itemStyle: { borderColor?: string } };
    const option = featureChartOption(rows, LIGHT_PALETTE, 7) as { series: { type: string; data: Bar[] }[] };
    const bars = option.series.filter((s) => s.type === 'bar').flatMap((s) => s.data);
    expect(bars.map((b) => b.itemStyle.borderColor === LIGHT_PALETTE.accent)).toEqual(rows.map((r) => r.feature === 7));
  });
});
