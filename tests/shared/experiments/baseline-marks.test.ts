// The +/−/= marks against a baseline: one rule (src-shared/experiments/baseline-marks.ts) under
// the report's tables and the Compare view, checked against values computed without this code:
// scipy's exact Mann-Whitney p-values and Holm's procedure written out in
// tests/fixtures/marks/baseline-marks-scipy.py. Ten runs per solver, so the marks can be + and −;
// solver C is + when Holm runs over the comparisons with the baseline and = over all pairs, so a
// view or report that used the other family fails here.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareExperiment, type StoredRun } from '../../../src-shared/experiments/compare.ts';
import { baselineMarks, markRule } from '../../../src-shared/experiments/baseline-marks.ts';
import { expandGrid } from '../../../src-shared/experiments/grid.ts';
import { validateSpec } from '../../../src-shared/experiments/spec.ts';
import type { SolverResult } from '../../../src-shared/solvers/types.ts';
import { metricTable } from '../../../src-main/report/build.ts';
import { baselineTable, markTotals, unreachableNotes } from '../../../src-renderer/views/compare/compare.ts';

interface Fixture {
  baseline: string;
  samples: Record<string, number[]>;
  p: Record<string, number>;
  pHolmAllPairs: Record<string, number>;
  pHolmVsBaseline: Record<string, number>;
  a12VsBaseline: Record<string, number>;
  marksVsBaseline: Record<string, '+' | '-' | '='>;
  marksAllPairs: Record<string, '+' | '-' | '='>;
}
const fixture = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '../../fixtures/marks/baseline-marks-scipy.json'), 'utf8')) as Fixture;
const labels = Object.keys(fixture.samples);
const seeds = fixture.samples[labels[0]].map((_, k) => k + 1);

const spec = validateSpec({
  name: 'marks',
  instances: [{ name: 'so-n20', track: 'so', n: 20 }],
  // Each its own batch size, so their runs (hashed from what runs, not the label) differ.
  solvers: labels.map((label, k) => ({ name: 'random', label, params: { batch: 10 + k } })),
  seeds,
  budget: { evaluations: 100 },
});

/** Each run's best f is the fixture's sample value of its solver and seed. */
function stored(): Map<string, StoredRun> {
  const map = new Map<string, StoredRun>();
  for (const run of expandGrid(spec)) {
    const best = fixture.samples[run.label][seeds.indexOf(run.seed)];
    const result = { front: [], best: { x: '1', objectives: [best], constraints: [], feasible: true, violation: 0 } } as unknown as SolverResult;
    map.set(run.id, { id: run.id, result });
  }
  return map;
}

describe('the +/−/= marks against a baseline, against scipy and a written-out Holm', () => {
  const comparison = compareExperiment(spec, stored(), 'best');
  const [instance] = comparison.instances;
  const others = labels.filter((l) => l !== fixture.baseline);

  it("compare's pair p-values are scipy's (exact test, ten runs each)", () => {
    expect(instance.pairs.map((p) => `${p.a}|${p.b}`)).toEqual(Object.keys(fixture.p));
    for (const pair of instance.pairs) {
      expect(pair.method).toBe('exact');
      expect(pair.p).toBeCloseTo(fixture.p[`${pair.a}|${pair.b}`], 14);
      // compare's own pHolm is over all pairs.
      expect(pair.pHolm).toBeCloseTo(fixture.pHolmAllPairs[`${pair.a}|${pair.b}`], 14);
    }
  });

  it('the rule: Holm over the comparisons with the baseline, the direction from A12; C tells the two families apart', () => {
    const marks = baselineMarks(instance, fixture.baseline);
    expect(marks.map((m) => m.label)).toEqual(labels);
    expect(marks[0]).toMatchObject({ label: 'A', pair: null, pHolm: null, a12: null, mark: null, comparisons: 4 });
    for (const m of marks.slice(1)) {
      expect(m.pHolm!).toBeCloseTo(fixture.pHolmVsBaseline[m.label], 14);
      expect(m.a12!).toBeCloseTo(fixture.a12VsBaseline[m.label], 14);
      expect(m.cannotDiffer).toBe(false);
    }
    expect(Object.fromEntries(marks.slice(1).map((m) => [m.label, m.mark]))).toEqual(fixture.marksVsBaseline);
    // Every mark occurs, and the other family would mark C otherwise.
    expect(new Set(Object.values(fixture.marksVsBaseline))).toEqual(new Set(['+', '-', '=']));
    expect(fixture.marksVsBaseline.C).toBe('+');
    expect(fixture.marksAllPairs.C).toBe('=');
  });

  it("the report's table and the Compare view mark the same runs the same, and both say which family", () => {
    const report = metricTable(comparison, fixture.baseline).rows[0].cells;
    const view = baselineTable(comparison, fixture.baseline)[0].cells;
    expect(report.map((c) => c.solver)).toEqual(labels);
    expect(view.map((c) => c.label)).toEqual(labels);
    const expected = Object.fromEntries(others.map((l) => [l, fixture.marksVsBaseline[l]]));
    expect(Object.fromEntries(report.slice(1).map((c) => [c.solver, c.vsBaseline]))).toEqual(expected);
    // The view prints − (U+2212) for -.
    expect(Object.fromEntries(view.slice(1).map((c) => [c.label, c.mark === '−' ? '-' : c.mark]))).toEqual(expected);
    for (const [k, label] of others.entries()) {
      expect(report[k + 1].pHolm!).toBeCloseTo(fixture.pHolmVsBaseline[label], 14);
      expect(view[k + 1].pHolm!).toBeCloseTo(fixture.pHolmVsBaseline[label], 14);
    }
    expect(report[0].vsBaseline).toBeNull();
    expect(view[0].mark).toBeNull();
    expect(markTotals(baselineTable(comparison, 'A'), labels)).toEqual({
      A: { '+': 0, '−': 0, '=': 0 },
      B: { '+': 1, '−': 0, '=': 0 },
      C: { '+': 1, '−': 0, '=': 0 },
      D: { '+': 0, '−': 1, '=': 0 },
      E: { '+': 0, '−': 0, '=': 1 },
    });
    expect(markRule('A')).toContain("Holm-adjusted over the instance's comparisons with A (not over all pairs)");
  });

  it('with 3 of the ten runs each, no mark can differ and both notes count the comparisons with the baseline', () => {
    const three = validateSpec({ ...spec, seeds: seeds.slice(0, 3) });
    const c = compareExperiment(three, stored(), 'best');
    const rows = baselineTable(c, 'A');
    expect(rows[0].cells.map((cell) => cell.mark)).toEqual([null, '=', '=', '=', '=']);
    // 2 / C(6, 3) = 0.1, times 4 comparisons with A = 0.4; 5 runs each reach 4 · 2 / C(10, 5) = 0.032 (4 runs: 4 · 2 / C(8, 4) = 0.114).
    expect(unreachableNotes(c, rows, 'A')).toEqual([
      'With 3 runs per solver, the rank-sum test cannot reach p < 0.05 (its smallest p is 0.1, 0.4 after Holm over 4 comparisons with A), so every mark on so-n20 is "=" whatever the runs found. 5 runs per solver (seeds) can show a difference at 0.05.',
    ]);
    expect(metricTable(c, 'A').fewRuns).toBe(
      'With 3 runs per solver, the rank-sum test cannot reach p < 0.05 (its smallest p is 0.1, 0.4 after Holm over 4 comparisons with A), so every mark on so-n20 is = whatever the runs found; 5 runs per solver can show a difference.',
    );
  });
});
