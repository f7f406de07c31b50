/**
 * `saikoro bench hv`: exact hypervolume (WFG) timings on the hardest kind of input, n points
 * uniform on the unit simplex (all mutually non-dominated), against (1.1, ..., 1.1).
 */
import { performance } from 'node:perf_hooks';
import { hypervolume, normalisedReferencePoint, simplexPoints } from '../../src-shared/metrics/hypervolume.ts';
import { quantileOfSorted } from '../../src-shared/stats/summary.ts';
import type { BenchSuite, BenchTable } from './suite.ts';

const FULL_CASES: [number, number][] = [
  [200, 2],
  [200, 3],
  [200, 5],
  [100, 7],
  [200, 7],
  [300, 7],
];
const QUICK_CASES: [number, number][] = [
  [50, 3],
  [50, 5],
  [40, 7],
];

interface Row {
  n: number;
  m: number;
  medianMs: number;
  minMs: number;
  hypervolume: number;
}

/** The n seeded points on the unit simplex that the row for (n, M) measures. */
export function benchPoints(n: number, m: number): number[][] {
  return simplexPoints(n, m, 1000 * m + n);
}

function timeCase(n: number, m: number, repeats: number): Row {
  const points = benchPoints(n, m);
  const ref = normalisedReferencePoint(m);
  let value = hypervolume(points, ref); // warm-up (JIT)
  const times: number[] = [];
  for (let r = 0; r < repeats; r++) {
    const t0 = performance.now();
    value = hypervolume(points, ref);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { n, m, medianMs: quantileOfSorted(times, 0.5), minMs: times[0], hypervolume: value };
}

export const hvBench: BenchSuite = {
  async run(context) {
    const cases = context.quick ? QUICK_CASES : FULL_CASES;
    const repeats = context.quick ? 1 : 5;
    const rows: Row[] = [];
    for (const [n, m] of cases) {
      context.progress(`hv: ${n} points, M = ${m}`);
      rows.push(timeCase(n, m, repeats));
    }
    const table: BenchTable = {
      title: 'Exact hypervolume (WFG, While/Bradstreet/Barone 2012)',
      columns: ['points', 'M', 'median ms', 'min ms', 'HV'],
      rows: rows.map((r) => [r.n, r.m, r.medianMs, r.minMs, r.hypervolume.toFixed(6)]),
      notes: [
        `Points uniform on the simplex sum f = 1 (every point non-dominated), reference (1.1, ..., 1.1); ${repeats} timed run(s) after one warm-up; single thread.`,
      ],
    };
    return { tables: [table], json: { cases: rows } };
  },
};
