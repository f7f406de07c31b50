// `saikoro bench hv --quick` as a smoke test: the suite runs, reports one row per case, and
// its HV column is the exact hypervolume of the same seeded points.
import { describe, expect, it } from 'vitest';
import { hvBench } from '../../../src-main/bench/hv.ts';
import { renderTable } from '../../../src-main/bench/suite.ts';
import { hypervolume, normalizedReferencePoint, simplexPoints } from '../../../src-shared/metrics/hypervolume.ts';

const factorial = (m: number): number => (m <= 1 ? 1 : m * factorial(m - 1));

describe('bench hv', () => {
  it('runs quickly with --quick and reports exact values', async () => {
    const progress: string[] = [];
    const report = await hvBench.run({ quick: true, progress: (m) => progress.push(m) });
    const json = report.json as { cases: { n: number; m: number; medianMs: number; hypervolume: number }[] };
    expect(json.cases.map((c) => [c.n, c.m])).toEqual([[50, 3], [50, 5], [40, 7]]);
    for (const c of json.cases) {
      expect(c.hypervolume).toBe(hypervolume(simplexPoints(c.n, c.m, 1000 * c.m + c.n), normalizedReferencePoint(c.m)));
      // no simplex point dominates a point with sum < 1, a region of volume 1/M!
      expect(c.hypervolume).toBeLessThan(1.1 ** c.m - 1 / factorial(c.m));
      expect(c.hypervolume).toBeGreaterThan(0);
      expect(c.medianMs).toBeGreaterThanOrEqual(0);
    }
    expect(progress).toHaveLength(3);
    expect(renderTable(report.tables[0])).toContain('| points | M | median ms | min ms | HV |');
    expect(hvBench.byDefault).toBe(true);
  });
});
