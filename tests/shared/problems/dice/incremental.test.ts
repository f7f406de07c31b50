import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { describe, expect, it } from 'vitest';
import { TRACK_NAMES, trackConfig, type DiceConfig } from '../../../../src-shared/problems/dice/config.ts';
import { DiceEvaluator, type DiceEvaluation, type DiceValues } from '../../../../src-shared/problems/dice/evaluate.ts';
import { DiceState } from '../../../../src-shared/problems/dice/incremental.ts';
import { closeConstraint, closeValue, goldenCases, goldenConfig } from './golden.ts';

function expectClose(ours: DiceValues | DiceEvaluation, full: DiceEvaluation, config: DiceConfig, where: string): void {
  const bad: string[] = [];
  full.features.forEach((v, i) => closeValue(ours.features[i], v) || bad.push(`F${i + 1} ${ours.features[i]} vs ${v}`));
  full.errors.forEach((v, i) => closeValue(ours.errors[i], v) || bad.push(`E${i + 1} ${ours.errors[i]} vs ${v}`));
  full.objectives.forEach((v, m) => closeValue(ours.objectives[m], v) || bad.push(`f${m + 1} ${ours.objectives[m]} vs ${v}`));
  full.constraints.forEach(
    (v, l) => closeConstraint(ours.constraints[l], v, config.constraints[l]) || bad.push(`g${config.constraints[l]} ${ours.constraints[l]} vs ${v}`),
  );
  full.chi.forEach((v, l) => closeConstraint(ours.chi[l], v, config.constraints[l]) || bad.push(`chi${config.constraints[l]} ${ours.chi[l]} vs ${v}`));
  if (bad.length) expect.fail(`${where}: ${bad.slice(0, 5).join('; ')}`);
}

function randomFaces(rng: ReturnType<typeof xoroshiro128plus>, n: number): Uint8Array {
  return Uint8Array.from({ length: n }, () => uniformInt(rng, 1, 6));
}

describe('incremental evaluator', () => {
  it('starts equal to a full evaluation on every golden case of N <= 2520', () => {
    for (const c of goldenCases.filter((g) => g.x.length <= 2520)) {
      const config = goldenConfig(c);
      expectClose(new DiceState(config, c.x).values, new DiceEvaluator(config).evaluate(c.x), config, c.id);
    }
  });

  // N < 7 exercises windows shorter than every pattern; 50 the competition size; 840 a
  // large one with every d's blocks ending before N (840 = lcm(1..8)); 1001 leaves a tail;
  // 5041 is past the length up to which block codes are stored (they are read from the faces).
  const plan: Array<[number, number]> = [
    [1, 2_000],
    [3, 5_000],
    [6, 8_000],
    [7, 5_000],
    [50, 40_000],
    [840, 30_000],
    [1001, 12_000],
    [5041, 3_000],
  ];
  const total = plan.reduce((s, [, k]) => s + k, 0);

  it(`tracks ${total} random single-position changes and swaps exactly (N = ${plan.map(([n]) => n).join(', ')})`, () => {
    expect(total).toBeGreaterThanOrEqual(100_000);
    const rng = xoroshiro128plus(20201);
    let changes = 0;
    plan.forEach(([n, steps], caseIndex) => {
      const track = TRACK_NAMES[caseIndex % TRACK_NAMES.length];
      // Alternate default bounds with random percent points, including 0 and 1.
      const base = trackConfig(track, n);
      const pick = [0, 0.05, 0.1, 0.5, 0.9, 1];
      const lower = base.constraints.map(() => pick[uniformInt(rng, 0, 3)]);
      const config: DiceConfig =
        caseIndex % 2 ? { ...base, lowerBounds: lower, upperBounds: lower.map((p) => Math.max(p, pick[uniformInt(rng, 2, 5)])) } : base;
      const state = new DiceState(config, randomFaces(rng, n));
      const evaluator = new DiceEvaluator(config);
      for (let t = 0; t < steps; t++) {
        const p = uniformInt(rng, 0, n - 1);
        if (n > 1 && uniformInt(rng, 0, 3) === 0) {
          const q = uniformInt(rng, 0, n - 1);
          state.swap(p, q);
        } else {
          state.set(p, uniformInt(rng, 1, 6));
        }
        changes++;
        expectClose(state.values, evaluator.evaluate(state.sequence()), config, `N=${n} step ${t}`);
      }
    });
    expect(changes).toBe(total);
  });

  // Long sequences keep the counts of d = 6 in a dense array (46,656 codes for 4,620 blocks at
  // N = 27720, 16-bit counts) and, beyond N = 122,472, those of d = 7 too (32-bit counts past
  // N = 65,535): each layout against the full evaluation, after changes, swaps and peeks.
  it('tracks changes exactly where d = 6 and d = 7 counts are dense (N = 27720, 130000)', () => {
    const rng = xoroshiro128plus(27720);
    for (const [n, steps] of [
      [27_720, 4_000],
      [130_000, 1_500],
    ]) {
      const config = trackConfig('so', n);
      const state = new DiceState(config, randomFaces(rng, n));
      const evaluator = new DiceEvaluator(config);
      expectClose(state.values, evaluator.evaluate(state.sequence()), config, `N=${n} start`);
      for (let t = 1; t <= steps; t++) {
        // Positions near block starts and ends as well as anywhere.
        const p = t % 3 ? uniformInt(rng, 0, n - 1) : Math.min(n - 1, 42 * uniformInt(rng, 0, Math.floor(n / 42)) + (t % 2 ? 0 : 41));
        if (t % 5 === 0) {
          const q = uniformInt(rng, 0, n - 1);
          const changed = state.sequence();
          [changed[p], changed[q]] = [changed[q], changed[p]];
          if (t % 500 === 0) expectClose(state.peekSwap(p, q), evaluator.evaluate(changed), config, `N=${n} peek swap ${t}`);
          state.swap(p, q);
        } else {
          state.set(p, uniformInt(rng, 1, 6));
        }
        if (t % 250 === 0) expectClose(state.values, evaluator.evaluate(state.sequence()), config, `N=${n} step ${t}`);
      }
    }
  });

  it('peeks at single changes and swaps without committing them', () => {
    const rng = xoroshiro128plus(7);
    for (const n of [5, 50, 300, 4099]) {
      const config = trackConfig('mo7', n);
      const state = new DiceState(config, randomFaces(rng, n));
      const evaluator = new DiceEvaluator(config);
      for (let t = 0; t < (n > 1000 ? 600 : 3_000); t++) {
        const before = state.toString();
        const beforeValues = state.evaluation();
        const p = uniformInt(rng, 0, n - 1);
        let peeked: DiceValues;
        const changed = state.sequence();
        if (t % 2) {
          const q = uniformInt(rng, 0, n - 1);
          peeked = state.peekSwap(p, q);
          [changed[p], changed[q]] = [changed[q], changed[p]];
        } else {
          const face = uniformInt(rng, 1, 6);
          peeked = state.peekSet(p, face);
          changed[p] = face;
        }
        expectClose(peeked, evaluator.evaluate(changed), config, `N=${n} peek ${t}`);
        expect(state.toString()).toBe(before);
        expect(state.evaluation()).toEqual(beforeValues);
      }
    }
  });

  it('starts over from a new sequence with reset, then goes on tracking changes', () => {
    const rng = xoroshiro128plus(11);
    for (const n of [50, 4099]) {
      const config = trackConfig('so', n);
      const state = new DiceState(config, randomFaces(rng, n));
      const evaluator = new DiceEvaluator(config);
      for (let round = 0; round < 3; round++) {
        for (let t = 0; t < 200; t++) state.set(uniformInt(rng, 0, n - 1), uniformInt(rng, 1, 6));
        const fresh = randomFaces(rng, n);
        state.reset(fresh);
        expect(state.sequence()).toEqual(fresh);
        expectClose(state.values, evaluator.evaluate(fresh), config, `N=${n} reset ${round}`);
        for (let t = 0; t < 50; t++) state.set(uniformInt(rng, 0, n - 1), uniformInt(rng, 1, 6));
        expectClose(state.values, evaluator.evaluate(state.sequence()), config, `N=${n} after reset ${round}`);
      }
    }
  });

  it('rejects positions and faces out of range', () => {
    const state = new DiceState(trackConfig('so', 10), '1234561234');
    expect(() => state.set(10, 1)).toThrow(/position 10 is outside/);
    expect(() => state.set(0, 7)).toThrow(/face 7/);
    expect(() => state.peekSwap(-1, 2)).toThrow(/position -1/);
  });
});
