import { describe, expect, it } from 'vitest';
import { trackConfig } from '../../../../src-shared/problems/dice/config.ts';
import { DiceEvaluator, evaluateDice, SequenceError } from '../../../../src-shared/problems/dice/evaluate.ts';
import { chiSquareFromSquares, chiWindow, CHI_WINDOWS } from '../../../../src-shared/problems/dice/features.ts';
import { patternOccurrences } from '../../../../src-shared/problems/dice/patterns.ts';
import { Random } from '../../../../src-shared/random.ts';
import { closeConstraint, closeValue, goldenCases, goldenConfig } from './golden.ts';

/** Sum of squared counts of the items. */
function squares(items: Iterable<string | number>): number {
  const counts = new Map<string | number, number>();
  for (const item of items) counts.set(item, (counts.get(item) ?? 0) + 1);
  let s2 = 0;
  for (const c of counts.values()) s2 += c * c;
  return s2;
}

/**
 * F1..F15 and chi_d counted the plain way, one window and one block at a time (patterns by
 * patterns.ts's matchers, which share nothing with the evaluator's tables; blocks by their
 * faces as text), each chi from its sum of squares as the evaluator makes it.
 */
function countedPlainly(x: Uint8Array, constraints: readonly number[]): { features: number[]; chi: number[] } {
  const n = x.length;
  const features = CHI_WINDOWS.map(([b, e]) => {
    const [start, end] = chiWindow(n, b, e);
    return chiSquareFromSquares(squares(x.subarray(start, end)), end - start, 6);
  });
  for (let f = 6; f <= 15; f++) features.push(patternOccurrences(x, f).length);
  const chi = constraints.map((d) => {
    const blocks = Math.floor(n / d);
    const codes = Array.from({ length: blocks }, (_, j) => x.subarray(j * d, j * d + d).join(''));
    return chiSquareFromSquares(squares(codes), blocks, 6 ** d);
  });
  return { features, chi };
}

describe('full evaluation against the reference evaluator (tests/fixtures/eccomp2020-reference.jsonl)', () => {
  it('has all 718 golden cases, N from 1 to 27720', () => {
    expect(goldenCases.length).toBe(718);
    const lengths = goldenCases.map((c) => c.x.length);
    expect(Math.min(...lengths)).toBe(1);
    expect(Math.max(...lengths)).toBe(27720);
  });

  it('matches every feature, error, objective and constraint of every case', () => {
    const mismatches: string[] = [];
    for (const c of goldenCases) {
      const config = goldenConfig(c);
      const ours = evaluateDice(c.x, config);
      c.features.forEach((ref, i) => closeValue(ours.features[i], ref) || mismatches.push(`${c.id} F${i + 1}: ${ours.features[i]} vs ${ref}`));
      c.errors.forEach((ref, i) => closeValue(ours.errors[i], ref) || mismatches.push(`${c.id} E${i + 1}: ${ours.errors[i]} vs ${ref}`));
      expect(ours.objectives.length, c.id).toBe(c.objectives.length);
      c.objectives.forEach((ref, m) => closeValue(ours.objectives[m], ref) || mismatches.push(`${c.id} f${m + 1}: ${ours.objectives[m]} vs ${ref}`));
      expect(ours.constraints.length, c.id).toBe(c.constraints.length);
      c.constraints.forEach((ref, l) => {
        const d = config.constraints[l];
        if (!closeConstraint(ours.constraints[l], ref, d)) mismatches.push(`${c.id} g${d}: ${ours.constraints[l]} vs ${ref}`);
      });
    }
    expect(mismatches.slice(0, 20)).toEqual([]);
  });

  it('gives the reference sample rand50.json objective 76.8 and all twelve constraints 0', () => {
    const ev = evaluateDice('31552264665432613134314646226624645162511461153216', trackConfig('so', 50));
    expect(ev.objectives).toHaveLength(1);
    expect(ev.objectives[0]).toBeCloseTo(76.8, 12);
    expect(ev.constraints).toEqual(new Array(12).fill(0));
    expect(ev.feasible).toBe(true);
  });
});

describe('evaluation output', () => {
  it('reports chi_d and finite bounds, with null for an infinite upper bound', () => {
    const config = { ...trackConfig('so', 12), constraints: [1, 2], lowerBounds: [0, 0.1], upperBounds: [1, 0.9] };
    const ev = evaluateDice('123456654321', config);
    expect(ev.chi[0]).toBe(0); // every face twice in 12 blocks of 1
    expect(ev.bounds[0]).toEqual([0, null]);
    expect(ev.bounds[1][0]).toBeGreaterThan(0);
    expect(ev.bounds[1][1]).toBeGreaterThan(ev.bounds[1][0]!);
    // 6 blocks of 2, all distinct out of 36: chi = 36 * 6 / 6 - 6 = 30
    expect(ev.chi[1]).toBeCloseTo(30, 12);
  });

  it('counts patterns by hand on a small sequence', () => {
    // 1 1 1 1 2 2: pairs (11,11,11,12,22): odd-even 1 (1,2); doubles 4; triples 2 (111,111); quads 1 (1111)
    const ev = evaluateDice('111122', trackConfig('so', 6));
    expect(ev.features.slice(5, 9)).toEqual([1, 4, 2, 1]);
    // two pairs in windows of 4: 1111 no, 1112 no, 1122 yes
    expect(ev.features[9]).toBe(1);
    // full house in windows of 5: 11112 no, 11122 yes
    expect(ev.features[10]).toBe(1);
  });

  it('rejects a malformed sequence naming the problem and position', () => {
    const config = trackConfig('so', 5);
    expect(() => evaluateDice('1234', config)).toThrow(/4 characters, expected N = 5/);
    expect(() => evaluateDice('12374', config)).toThrow(SequenceError);
    expect(() => evaluateDice('12374', config)).toThrow(/"7" at position 4/);
    expect(() => evaluateDice('12 34', config)).toThrow(/position 3/);
  });

  it('counts every feature and every chi_d exactly as plain counting does (every d from 1 to 12, N = 1..40, 840, 1001, 5041)', () => {
    const random = Random.fromSeed(840);
    const sizes = [...Array.from({ length: 40 }, (_, i) => i + 1), 840, 1001, 5041];
    for (const n of sizes) {
      // Block lengths in a random order (some configs only a few of them): the evaluator's order is the config's.
      const all = random.shuffle(Array.from({ length: 12 }, (_, i) => i + 1));
      const constraints = n % 3 === 0 ? all.slice(0, 1 + random.below(12)) : all;
      const config = { ...trackConfig('mo2', n), constraints, lowerBounds: constraints.map(() => 0.1), upperBounds: constraints.map(() => 0.9) };
      const evaluator = new DiceEvaluator(config);
      for (let t = 0; t < (n > 1000 ? 6 : 20); t++) {
        // Uniform faces, few distinct faces (long runs, repeated blocks), or one face.
        const faces = t % 3 === 0 ? 1 : t % 3 === 1 ? 2 : 6;
        const x = Uint8Array.from({ length: n }, () => 1 + random.below(faces));
        const ours = evaluator.evaluate(x);
        const plain = countedPlainly(x, constraints);
        expect(ours.features, `N = ${n}, sequence ${t}`).toEqual(plain.features);
        expect(ours.chi, `N = ${n}, sequence ${t}`).toEqual(plain.chi);
      }
    }
  });

  it('gives the same answer when an evaluator is reused across sequences', () => {
    const config = trackConfig('mo3', 840);
    const evaluator = new DiceEvaluator(config);
    const sample = goldenCases.filter((c) => c.x.length === 840).slice(0, 5);
    for (const c of sample) {
      const again = evaluator.evaluate(c.x);
      expect(again).toEqual(evaluateDice(c.x, config));
    }
  });
});
