// The fixed normalisation of a competition's hypervolume per track and N (issue 26): computed
// here again by full evaluations of every reference instance (the code re-weighs features once
// computed), and checked against the default normalisation of the public instance.
import { describe, expect, it } from 'vitest';
import { diceConfig, trackConfig, type TrackName } from '../../../src-shared/problems/dice/config.ts';
import { evaluateDice } from '../../../src-shared/problems/dice/evaluate.ts';
import { diceHvNormalisation } from '../../../src-shared/problems/dice/hv-reference.ts';
import { Random } from '../../../src-shared/random.ts';
import { drawInstance } from '../../../src-shared/competition/suite.ts';
import { REFERENCE_DRAWS, REFERENCE_SECRET, scoreHypervolume, scoreReference } from '../../../src-shared/competition/score-reference.ts';

/** The median (mean of the two middle values) of each objective over the 1000 sequences of seed 2020, by full evaluation. */
function medians(track: TrackName, n: number, bands: { alpha: number[]; beta: number[]; gamma: number[] }): number[] {
  const config = diceConfig({ track, n, ...bands, constraints: [] });
  const random = Random.fromSeed(2020);
  const columns: number[][] = config.objectives.map(() => []);
  for (let s = 0; s < 1000; s++) {
    const x = Array.from({ length: n }, () => random.int(1, 6)).join('');
    evaluateDice(x, config).objectives.forEach((f, m) => columns[m].push(f));
  }
  return columns.map((c) => {
    const sorted = c.sort((a, b) => a - b);
    return (sorted[499] + sorted[500]) / 2;
  });
}

describe('the score reference of a track at N', () => {
  it.each([['mo3', 60] as const])('%s at N = %i: the largest random median over the public instance and the reference draws', (track, n) => {
    const expected = medians(track, n, {
      alpha: [2, 2, 2, 2, 2, 27, 5, 0, 0, 1, 0, 0, 1, 0, 0],
      beta: [5, 5, 5, 5, 5, 30, 8, 1, 0, 3, 0, 1, 2, 0, 0],
      gamma: [3, 3, 3, 3, 3, 1, 1, 3, 10, 4, 4, 4, 4, 4, 4],
    });
    // The public instance's medians are the default normalisation's nadir.
    expect(expected).toEqual(diceHvNormalisation(trackConfig(track, n)).nadir);
    for (let k = 1; k <= REFERENCE_DRAWS; k++)
      medians(track, n, drawInstance(REFERENCE_SECRET, n, k)).forEach((v, m) => (expected[m] = Math.max(expected[m], v)));
    const reference = scoreReference(track, n);
    expect(reference.nadir).toEqual(expected.map((v) => (v > 0 ? v : 1)));
    expect(reference.ideal).toEqual(expected.map(() => 0));
    expect(reference.reference).toEqual(expected.map(() => 1.1));
    expect(reference.method).toContain(REFERENCE_SECRET);
  });

  it('is the same object for the same track and N, and another for another N', () => {
    expect(scoreReference('mo2', 60)).toBe(scoreReference('mo2', 60));
    expect(scoreReference('mo2', 61).nadir).not.toEqual(scoreReference('mo2', 60).nadir);
  });

  it('scoreHypervolume: the front normalised by that nadir, against 1.1 in every objective', () => {
    const { nadir } = scoreReference('mo2', 60);
    const front = [
      [0.2 * nadir[0], 0.5 * nadir[1]],
      [0.6 * nadir[0], 0.1 * nadir[1]],
      [2 * nadir[0], 0],
    ];
    // (1.1 - 0.2)(1.1 - 0.5) + (1.1 - 0.6)(0.5 - 0.1); the third point is outside the box.
    expect(scoreHypervolume(front, 'mo2', 60)).toBeCloseTo(0.9 * 0.6 + 0.5 * 0.4, 12);
  });
});
