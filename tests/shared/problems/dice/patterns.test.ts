// The inspector's pattern positions against the evaluator: for every pattern feature F6..F15
// the number of occurrences equals F_i as evaluateDice counts it (its packed window tables share
// no code with patterns.ts), on seeded random sequences of many lengths and face mixes, and on
// hand-worked cases.
import { describe, expect, it } from 'vitest';
import { trackConfig } from '../../../../src-shared/problems/dice/config.ts';
import { DiceEvaluator } from '../../../../src-shared/problems/dice/evaluate.ts';
import { parseSequence } from '../../../../src-shared/problems/dice/sequence.ts';
import {
  faceWindowOf,
  featureHighlight,
  isPatternFeature,
  matchesPattern,
  patternFaces,
  patternLength,
  patternOccurrences,
} from '../../../../src-shared/problems/dice/patterns.ts';
import { Random } from '../../../../src-shared/random.ts';

const PATTERN_FEATURES = [6, 7, 8, 9, 10, 11, 12, 13, 14, 15];
const faces = (x: string) => parseSequence(x, x.length);
const starts = (x: string, feature: number) => Array.from(patternOccurrences(faces(x), feature));

/** Rolls drawn from a few faces only, so that runs, pairs and full houses are common. */
function randomFaces(rng: Random, n: number, alphabet: number): Uint8Array {
  const pool = rng.shuffle([1, 2, 3, 4, 5, 6]).slice(0, alphabet);
  return Uint8Array.from({ length: n }, () => rng.pick(pool));
}

describe('pattern occurrences equal the evaluator', () => {
  it('on 3,000 seeded random sequences (N = 1..2520, 1 to 6 distinct faces)', () => {
    const rng = Random.fromSeed(2020);
    const lengths = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 20, 50, 97, 100, 840, 1001, 2520];
    let checked = 0;
    for (let t = 0; t < 3000; t++) {
      const n = t < 1500 ? rng.pick(lengths) : rng.int(1, 300);
      const x = randomFaces(rng, n, rng.int(1, 6));
      const evaluation = new DiceEvaluator(trackConfig('so', n)).evaluate(x);
      for (const f of PATTERN_FEATURES) {
        const occurrences = patternOccurrences(x, f);
        if (occurrences.length !== evaluation.features[f - 1]) {
          expect.fail(
            `F${f} on ${String.fromCharCode(...Array.from(x, (c) => 48 + c))}: ${occurrences.length} occurrences, the evaluator counts ${evaluation.features[f - 1]}`,
          );
        }
        checked++;
      }
    }
    expect(checked).toBe(30_000);
  });

  it('occurrences are ascending start positions whose window fits, and every window they skip does not match', () => {
    const rng = Random.fromSeed(7);
    for (let t = 0; t < 200; t++) {
      const x = randomFaces(rng, rng.int(1, 120), rng.int(1, 4));
      for (const f of PATTERN_FEATURES) {
        const d = patternLength(f);
        const found = new Set(patternOccurrences(x, f));
        for (let i = 0; i + d <= x.length; i++) expect(matchesPattern(f, x, i)).toBe(found.has(i));
        for (const i of found) expect(i + d).toBeLessThanOrEqual(x.length);
      }
    }
  });
});

describe('hand-worked cases', () => {
  it('runs: 1111 holds three pairs, two triples, one quadruple', () => {
    expect(starts('1111', 7)).toEqual([0, 1, 2]);
    expect(starts('1111', 8)).toEqual([0, 1]);
    expect(starts('1111', 9)).toEqual([0]);
    expect(starts('1112', 9)).toEqual([]);
  });

  it('odd-even neighbours: 1234 has three, 1313 none, 2112 two', () => {
    expect(starts('1234', 6)).toEqual([0, 1, 2]);
    expect(starts('1313', 6)).toEqual([]);
    expect(starts('2112', 6)).toEqual([0, 2]);
  });

  it('two pairs: aabb, abab and abba count; aaaa and aabc do not', () => {
    expect(starts('1122', 10)).toEqual([0]);
    expect(starts('1212', 10)).toEqual([0]);
    expect(starts('1221', 10)).toEqual([0]);
    expect(starts('1111', 10)).toEqual([]);
    expect(starts('1123', 10)).toEqual([]);
    // Overlapping windows: 11221 -> 1122 (at 0) and 1221 (at 1).
    expect(starts('11221', 10)).toEqual([0, 1]);
  });

  it('full house: any arrangement of three of one face and two of another', () => {
    expect(starts('11122', 11)).toEqual([0]);
    expect(starts('12121', 11)).toEqual([0]);
    expect(starts('21112', 11)).toEqual([0]);
    expect(starts('11112', 11)).toEqual([]);
    expect(starts('11223', 11)).toEqual([]);
  });

  it('3 in 4, 3 in 5, 4 in 6, 4 in 7: first = last and the right number of inner faces equal to them', () => {
    expect(starts('1121', 12)).toEqual([0]);
    expect(starts('1111', 12)).toEqual([]); // both inner faces equal: four, not three
    expect(starts('1231', 12)).toEqual([]);
    expect(starts('12131', 13)).toEqual([0]);
    expect(starts('11231', 13)).toEqual([0]);
    expect(starts('11131', 13)).toEqual([]);
    expect(starts('112131', 14)).toEqual([0]);
    expect(starts('121312', 14)).toEqual([]); // first != last
    expect(starts('1211341', 15)).toEqual([0]);
    expect(starts('1211311', 15)).toEqual([]);
  });

  it('the faces that make a pattern: the whole window up to F11, the equal faces from F12', () => {
    expect(patternFaces(10, faces('1221'), 0)).toEqual([0, 1, 2, 3]);
    expect(patternFaces(12, faces('1121'), 0)).toEqual([0, 1, 3]);
    expect(patternFaces(15, faces('51211341'), 1)).toEqual([1, 3, 4, 7]);
  });

  it('the reference sample: as many occurrences as its features', () => {
    const x = '31552264665432613134314646226624645162511461153216';
    const evaluation = new DiceEvaluator(trackConfig('so', 50)).evaluate(x);
    expect(PATTERN_FEATURES.map((f) => starts(x, f).length)).toEqual(evaluation.features.slice(5));
    // 55 at 2, 22 at 4, 66 at 8, 22 at 26, 66 at 28, 11 at 39, 11 at 43.
    expect(starts(x, 7)).toEqual([2, 4, 8, 26, 28, 39, 43]);
  });
});

describe('highlights', () => {
  it('marks every position an occurrence covers, with the number of occurrences covering it', () => {
    const h = featureHighlight(faces('111211'), 7);
    expect(Array.from(h.starts)).toEqual([0, 1, 4]);
    expect(Array.from(h.cover)).toEqual([1, 2, 1, 0, 1, 1]);
    expect(Array.from(h.key)).toEqual([1, 1, 1, 0, 1, 1]);
    expect(h.window).toBeNull();
  });

  it('F1..F5 mark their percent window: floor(N b / 100) up to floor(N e / 100)', () => {
    expect(faceWindowOf(1, 50)).toEqual([0, 50]);
    expect(faceWindowOf(2, 50)).toEqual([0, 15]);
    expect(faceWindowOf(3, 50)).toEqual([11, 26]);
    expect(faceWindowOf(4, 50)).toEqual([23, 38]);
    expect(faceWindowOf(5, 50)).toEqual([35, 50]);
    const h = featureHighlight(faces('1'.repeat(50)), 3);
    expect(h.window).toEqual([11, 26]);
    expect(h.starts).toHaveLength(0);
    expect(Array.from(h.key).indexOf(1)).toBe(11);
    expect(Array.from(h.key).lastIndexOf(1)).toBe(25);
  });

  it('knows which features count patterns', () => {
    expect([1, 5, 6, 15].map(isPatternFeature)).toEqual([false, false, true, true]);
    expect(() => patternLength(3)).toThrow(/not a pattern feature/);
    expect(() => faceWindowOf(6, 10)).toThrow(/not a face-count feature/);
  });
});
