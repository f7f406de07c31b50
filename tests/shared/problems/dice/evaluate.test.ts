import { describe, expect, it } from 'vitest';
import { trackConfig } from '../../../../src-shared/problems/dice/config.ts';
import { DiceEvaluator, evaluateDice, SequenceError } from '../../../../src-shared/problems/dice/evaluate.ts';
import { closeConstraint, closeValue, goldenCases, goldenConfig } from './golden.ts';

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
