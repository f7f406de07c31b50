// The explorer's selection: the points inside a brushed region, checked against a direct count on
// the objective vectors (seeded random fronts, every shape of region), what hidden runs do to it,
// and its CSV and JSON read back field by field.
import { describe, expect, it } from 'vitest';
import { Random } from '../../../src-shared/random.ts';
import { allPoints, groupPoints } from '../../../src-renderer/logic/explore/groups.ts';
import {
  describeRanges,
  keepVisible,
  rectRanges,
  selectInRanges,
  selectionCsv,
  selectionJson,
  type ObjectiveRange,
} from '../../../src-renderer/logic/explore/selection.ts';
import { objectivesOf } from '../../../src-renderer/logic/explore/front-data.ts';
import { fromExperiment } from '../../../src-renderer/logic/explore/front-data.ts';
import { result, runResult, smallFront, solution, SPEC } from './fixtures.ts';

/** The oracle: every visible point, tested objective by objective from its plain vector. */
function bruteForce(data: ReturnType<typeof smallFront>, visible: Uint8Array, ranges: ObjectiveRange[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < data.count; i++) {
    if (!visible[i]) continue;
    const f = objectivesOf(data, i);
    if (ranges.every((r) => r.intervals.length === 0 || r.intervals.some(([lo, hi]) => f[r.objective] >= lo && f[r.objective] <= hi))) out.push(i);
  }
  return out;
}

describe('selectInRanges', () => {
  const data = smallFront(2000, 3, 11);
  const { visible } = groupPoints(data, allPoints(data), 'solver');

  it('selects exactly the visible points inside random rectangles and interval sets', () => {
    const random = Random.fromSeed(3);
    // An objective value of a random point: region ends fall on points as often as between them.
    const at = (k: number) => data.objectives[random.below(data.count) * 3 + k];
    const interval = (k: number): [number, number] => {
      const a = at(k);
      const b = at(k);
      return a <= b ? [a, b] : [b, a];
    };
    let nonEmpty = 0;
    for (let trial = 0; trial < 200; trial++) {
      const xi = random.below(3);
      const yi = (xi + 1 + random.below(2)) % 3;
      const ranges: ObjectiveRange[] =
        trial % 2 === 0
          ? rectRanges(xi, yi, interval(xi), interval(yi))
          : [
              { objective: 0, intervals: [interval(0), interval(0)] },
              { objective: 2, intervals: [[at(2), Infinity]] },
            ];
      const expected = bruteForce(data, visible, ranges);
      const got = Array.from(selectInRanges(data, visible, ranges));
      expect(got).toEqual(expected);
      if (expected.length) nonEmpty++;
    }
    expect(nonEmpty).toBeGreaterThan(50);
  });

  it('includes both ends of an interval', () => {
    const f0 = data.objectives[0];
    const f1 = data.objectives[1];
    const got = selectInRanges(data, visible, rectRanges(0, 1, [f0, f0], [f1, f1]));
    expect(Array.from(got)).toContain(0);
  });

  it('leaves hidden points out, and keepVisible drops the ones hidden since', () => {
    const solver = data.solvers[0];
    const hiddenOne = groupPoints(data, { ...allPoints(data), hidden: new Set([solver]) }, 'solver');
    const everything = rectRanges(0, 1, [-Infinity, Infinity], [-Infinity, Infinity]);
    const all = selectInRanges(data, visible, everything);
    const some = selectInRanges(data, hiddenOne.visible, everything);
    expect(all.length).toBe(data.count);
    // The solver's series holds its feasible points; its infeasible ones are in the infeasible series.
    const hidden = Array.from(data.run).filter((r, i) => data.runs[r].solver === solver && data.feasible[i]).length;
    expect(hidden).toBeGreaterThan(0);
    expect(some.length).toBe(data.count - hidden);
    const kept = keepVisible({ indices: all, source: 'scatter', ranges: everything }, hiddenOne.visible);
    expect(Array.from(kept.indices)).toEqual(Array.from(some));
  });
});

describe('rectRanges and describeRanges', () => {
  it('orders the ends and names the objectives', () => {
    const ranges = rectRanges(1, 0, [5, 2], [9, 7]);
    expect(ranges).toEqual([
      { objective: 1, intervals: [[2, 5]] },
      { objective: 0, intervals: [[7, 9]] },
    ]);
    const data = smallFront(10, 2);
    expect(describeRanges(data, ranges, String)).toBe('f2 in [2, 5]; f1 in [7, 9]');
  });
});

describe('the selection as CSV and JSON', () => {
  // Two runs of a stored experiment: a front, and a run whose best is infeasible.
  const data = fromExperiment(SPEC, 'mo2-n8', [
    runResult('aaa', 'nsga2', 1, result([solution('12345612', [0.1 + 0.2, 7]), solution('66666666', [2, 1 / 3])])),
    runResult('bbb', 'moead-ls', 2, result([], solution('11111111', [9, 9], false, 4.5))),
  ]);
  const indices = Int32Array.from([0, 1, 2]);

  it('CSV: a header, one row per solution, every value at full precision', () => {
    const csv = selectionCsv(data, indices);
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe('run,solver,seed,f1,f2,feasible,violation,x');
    expect(lines[1]).toBe('aaa,nsga2,1,0.30000000000000004,7,true,0,12345612');
    expect(lines[2].split(',').map(Number)[4]).toBe(1 / 3);
    expect(lines[3]).toBe('bbb,moead-ls,2,9,9,false,4.5,11111111');
    expect(lines.at(-1)).toBe('');
    expect(lines.length).toBe(5);
  });

  it('CSV quotes a field with a comma or a quote', () => {
    const odd = { ...data, runs: [{ id: 'a,"b"', solver: 'nsga2', seed: 1 }, data.runs[1]] };
    expect(
      selectionCsv(odd, Int32Array.from([0]))
        .split('\r\n')[1]
        .startsWith('"a,""b""",nsga2,1,'),
    ).toBe(true);
  });

  it('CSV neutralises a field a spreadsheet would run as a formula, and leaves numbers alone', () => {
    const odd = { ...data, runs: [{ id: '=HYPERLINK("http://evil.example")', solver: '@SUM(1)', seed: 1 }, data.runs[1]] };
    const line = selectionCsv(odd, Int32Array.from([0])).split('\r\n')[1];
    expect(line.startsWith(`"'=HYPERLINK(""http://evil.example"")",'@SUM(1),1,`)).toBe(true);
  });

  it('JSON: the source, the region and each solution with its run', () => {
    const ranges = rectRanges(0, 1, [0, 3], [0, 10]);
    const parsed = JSON.parse(selectionJson(data, { indices: Int32Array.from([1, 2]), source: 'scatter', ranges }));
    expect(parsed.source).toBe('study · mo2-n8');
    expect(parsed.count).toBe(2);
    expect(parsed.objectives).toEqual(['f1 (F1–F7)', 'f2 (F8–F15)']);
    expect(parsed.region).toEqual([
      { objective: 'f1', intervals: [[0, 3]] },
      { objective: 'f2', intervals: [[0, 10]] },
    ]);
    expect(parsed.solutions).toEqual([
      { run: 'aaa', label: 'nsga2 · seed 1', solver: 'nsga2', seed: 1, objectives: [2, 1 / 3], feasible: true, violation: 0, x: '66666666' },
      { run: 'bbb', label: 'moead-ls · seed 2', solver: 'moead-ls', seed: 2, objectives: [9, 9], feasible: false, violation: 4.5, x: '11111111' },
    ]);
  });
});
