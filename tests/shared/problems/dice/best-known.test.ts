// Every best known solution (tests/fixtures/best-known.json) against the evaluator: feasible,
// with the stored objectives, a front that is mutually non-dominated, and within the lower
// bound; and docs/best-known.md shows exactly the table made from the file.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { dominates } from '../../../../src-shared/metrics/dominance.ts';
import { diceHvNormalisation, normalisedHypervolume } from '../../../../src-shared/problems/dice/hv-reference.ts';
import { bestKnownTable, type BestKnown } from '../../../../src-shared/problems/dice/best-known.ts';
import { trackConfig } from '../../../../src-shared/problems/dice/config.ts';
import { evaluateDice } from '../../../../src-shared/problems/dice/evaluate.ts';
import { hvUpperBound, lowerBound } from '../../../../src-shared/problems/dice/lower-bound.ts';

const data = JSON.parse(readFileSync(new URL('../../../fixtures/best-known.json', import.meta.url), 'utf8')) as BestKnown;

describe('best known solutions', () => {
  it('cover SO at N = 50, 840 and 2520, and M = 2 and 3 at N = 840', () => {
    const have = data.entries.map((e) => `${e.track} ${e.n}`);
    for (const want of ['so 50', 'so 840', 'so 2520', 'mo2 840', 'mo3 840']) expect(have).toContain(want);
  });

  it.each(data.entries.map((e) => [`${e.track} N = ${e.n}`, e] as const))('%s: feasible, the stored objectives, within the bound', (_name, entry) => {
    const config = trackConfig(entry.track, entry.n);
    expect(entry.points.length).toBeGreaterThan(0);
    for (const p of entry.points) {
      expect(p.x).toMatch(new RegExp(`^[1-6]{${entry.n}}$`));
      const full = evaluateDice(p.x, config);
      expect(full.feasible).toBe(true);
      expect(p.objectives).toEqual(full.objectives);
    }
    if (entry.track === 'so') {
      expect(entry.points).toHaveLength(1);
      expect(entry.points[0].objectives[0]).toBeGreaterThanOrEqual(lowerBound(config).f);
    } else {
      for (const p of entry.points) for (const q of entry.points) expect(dominates(q.objectives, p.objectives)).toBe(false);
      const norm = diceHvNormalisation(config);
      const hv = normalisedHypervolume(
        entry.points.map((p) => p.objectives),
        norm,
      );
      expect(hv).toBeGreaterThan(0);
      expect(hv).toBeLessThanOrEqual(hvUpperBound(config, norm));
    }
  });

  it('are the table of docs/best-known.md', () => {
    const doc = readFileSync(new URL('../../../../docs/best-known.md', import.meta.url), 'utf8');
    expect(doc).toContain(bestKnownTable(data));
  });
});
