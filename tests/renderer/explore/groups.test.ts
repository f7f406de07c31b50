// The explorer's series groups: every shown point in exactly one series (its solver, its run, or
// the infeasible one), unchosen runs left out, hidden series kept, and the even stride sample.
import { describe, expect, it } from 'vitest';
import { allPoints, groupPoints, INFEASIBLE_SERIES, strideSample } from '../../../src-renderer/logic/explore/groups.ts';
import { objectivesOf } from '../../../src-renderer/logic/explore/front-data.ts';
import { smallFront } from './fixtures.ts';

describe('groupPoints', () => {
  const data = smallFront(1000, 3, 2);

  it('puts every point of a chosen run in exactly one series: its solver, or the infeasible one', () => {
    const { groups, visible, visibleCount } = groupPoints(data, allPoints(data), 'solver');
    expect(groups.map((g) => g.name)).toEqual([...data.solvers, INFEASIBLE_SERIES]);
    const seen = new Int32Array(data.count);
    for (const g of groups)
      for (const i of g.indices) {
        seen[i]++;
        expect(g.name).toBe(data.feasible[i] ? data.runs[data.run[i]].solver : INFEASIBLE_SERIES);
      }
    expect(seen.every((n) => n === 1)).toBe(true);
    expect(visibleCount).toBe(data.count);
    expect(visible.every((v) => v === 1)).toBe(true);
    // Each series's range of every objective, found while grouping, is that of its points.
    for (const g of groups)
      for (let k = 0; k < 3; k++) {
        const values = Array.from(g.indices, (i) => objectivesOf(data, i)[k]);
        expect([g.min[k], g.max[k]]).toEqual([Math.min(...values), Math.max(...values)]);
      }
  });

  it('leaves out the runs of unchosen solvers and seeds, and hides series without dropping them', () => {
    const filter = { solvers: new Set(data.solvers.slice(1)), seeds: new Set([1, 2]), hidden: new Set([data.solvers[1]]) };
    const { groups, visible } = groupPoints(data, filter, 'run');
    const chosen = (i: number) => filter.solvers.has(data.runs[data.run[i]].solver) && filter.seeds.has(data.runs[data.run[i]].seed);
    expect(groups.reduce((n, g) => n + g.indices.length, 0)).toBe(Array.from({ length: data.count }, (_, i) => i).filter(chosen).length);
    // Coloured by run: one series per chosen run, named by solver and seed.
    expect(groups.filter((g) => g.feasible).map((g) => g.name)).toEqual(
      data.runs.filter((r) => filter.solvers.has(r.solver) && filter.seeds.has(r.seed)).map((r) => `${r.solver} · seed ${r.seed}`),
    );
    for (let i = 0; i < data.count; i++) expect(visible[i]).toBe(chosen(i) ? 1 : 0);
  });

  it('strideSample keeps at most the limit, evenly, and everything below it', () => {
    const all = Int32Array.from({ length: 1000 }, (_, i) => i * 2);
    expect(strideSample(all, 2000)).toBe(all);
    const s = strideSample(all, 100);
    expect(s.length).toBe(100);
    expect(Array.from(s.slice(0, 3))).toEqual([0, 20, 40]);
  });
});
