// The band learner (src-shared/solvers/band-learner.ts): bands and weights recovered from
// answers of the real evaluator, what it settles by the prior, and its determinism.
import { describe, expect, it } from 'vitest';
import { DEFAULT_ALPHA, DEFAULT_BETA, DEFAULT_GAMMA, trackConfig, type DiceConfig, type TrackName } from '../../../src-shared/problems/dice/config.ts';
import { DiceEvaluator } from '../../../src-shared/problems/dice/evaluate.ts';
import { randomDiceConfig } from '../../../src-shared/problems/dice/random-config.ts';
import { BandLearner, leastWholeValues } from '../../../src-shared/solvers/band-learner.ts';
import { Random } from '../../../src-shared/random.ts';

/**
 * Uniform random sequences: at N = 50, the length the public bands were measured for, they put
 * every feature near its band (spec: the bands are Temsiririrkkul et al.'s for N = 50), with
 * the features varying nearly independently of each other.
 */
function varied(random: Random, n: number): Uint8Array {
  return Uint8Array.from({ length: n }, () => random.int(1, 6));
}

/** A learner fed `count` answers of the real evaluator under `config`, then refitted once. */
function learnt(config: DiceConfig, count: number, seed: number): { learner: BandLearner; features: number[][] } {
  const learner = new BandLearner(config.objectives, undefined, { stride: 1, recent: count, surprises: 0, history: 0, firstGap: Infinity, rounds: 20 });
  const evaluator = new DiceEvaluator(config);
  const random = Random.fromSeed(seed);
  const features: number[][] = [];
  for (let s = 0; s < count; s++) {
    const e = evaluator.evaluate(varied(random, config.n));
    learner.observe(e.features, e.objectives);
    features.push(e.features);
  }
  learner.refit();
  return { learner, features };
}

describe('band learner', () => {
  // Random configs as the competition draws them around the public one (bands moved, weights
  // redrawn), at N = 50 where such sequences put every feature near its band, on one objective
  // and on three; each fitted once from the public config on 600 answers.
  it('recovers the bands and weights from 600 answers on most random configs (so and mo3, N = 50)', () => {
    const outcomes: string[] = [];
    let recovered = 0;
    for (const track of ['so', 'mo3'] as TrackName[]) {
      for (let seed = 1; seed <= 10; seed++) {
        const config = randomDiceConfig(seed, track, 50);
        const { learner, features } = learnt(config, 600, 100 + seed);
        // What the answers pin down: a band end with at least 5 observed values on each side of
        // it within 1 (counts) or 0.5 (F1..F5), a weight with at least 10 values outside the
        // band. The answers are exact and a converged fit explains each to 1e-6 of it; the
        // prior's ridge (weight 1e-6) and rounding leave far less than 1e-3, while a band end
        // off by 1e-3 already moves the answers of the rows beyond it by 1e-3 gamma.
        let worst = 0;
        for (let i = 0; i < 15; i++) {
          if (!config.objectives.some((g) => g.includes(i + 1))) continue;
          const values = features.map((f) => f[i]);
          const near = i < 5 ? 0.5 : 1;
          const count = (lo: number, hi: number) => values.filter((v) => v >= lo && v <= hi).length;
          const pinned = (end: number) => count(end - near, end - 1e-9) >= 5 && count(end + 1e-9, end + near) >= 5;
          if (pinned(config.alpha[i])) worst = Math.max(worst, Math.abs(learner.alpha[i] - config.alpha[i]));
          if (pinned(config.beta[i])) worst = Math.max(worst, Math.abs(learner.beta[i] - config.beta[i]));
          if (values.filter((v) => v < config.alpha[i] || v > config.beta[i]).length >= 10)
            worst = Math.max(worst, Math.abs(learner.gamma[i] / config.gamma[i] - 1));
        }
        const ok = learner.exact && worst < 1e-3;
        if (ok) recovered++;
        outcomes.push(`${track} ${seed}: ${ok ? 'recovered' : `exact ${learner.exact}, worst ${worst.toExponential(2)}`}`);
      }
    }
    // Measured: 16 of 20 (so 8, mo3 8). Two stop just short of the 1e-6 (worst parameter off
    // by 1e-5), two in a local minimum of the fit (off by 7e-3 and 2.5e-2): one-feature-at-a-time
    // moves and the joint steps (which keep each band end among the same observations) cannot
    // leave it. See docs/solvers.md, Blind runs.
    expect(recovered, outcomes.join('; ')).toBeGreaterThanOrEqual(16);
  });

  it('aims right at every count value met 5 times or more, on all 20 of those configs', () => {
    // What a solver uses: whether a count is above (below) its band, at the values it meets.
    // At a value observed often (5 times or more) the answers decide it (up to the constant of
    // leastWholeValues), so the learnt aim bands must agree with the truth there.
    const wrong: string[] = [];
    for (const track of ['so', 'mo3'] as TrackName[]) {
      for (let seed = 1; seed <= 10; seed++) {
        const config = randomDiceConfig(seed, track, 50);
        const { learner, features } = learnt(config, 600, 100 + seed);
        for (let i = 5; i < 15; i++) {
          const [low, high] = leastWholeValues(config.alpha[i], config.beta[i]);
          const seen = new Map<number, number>();
          for (const f of features) seen.set(f[i], (seen.get(f[i]) ?? 0) + 1);
          for (const [v, times] of seen) {
            // A value met a few times only can be explained away by the other features.
            if (times < 5) continue;
            if (v > learner.aimBeta[i] !== v > high || v < learner.aimAlpha[i] !== v < low) wrong.push(`${track} ${seed} F${i + 1} = ${v} (${times} times)`);
          }
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('explains the answers it has not seen (same config, other sequences)', () => {
    const config = randomDiceConfig(1, 'so', 50);
    const { learner } = learnt(config, 600, 101);
    expect(learner.exact).toBe(true);
    const evaluator = new DiceEvaluator(config);
    const random = Random.fromSeed(8);
    let explained = 0;
    for (let s = 0; s < 200; s++) {
      const e = evaluator.evaluate(varied(random, 50));
      if (learner.explains(e.features, e.objectives)) explained++;
    }
    expect(explained).toBeGreaterThanOrEqual(195);
  });

  it('starts at the public config and keeps it while the answers agree with it', () => {
    const config = trackConfig('so', 50);
    const learner = new BandLearner(config.objectives, undefined, { firstGap: 8 });
    expect(Array.from(learner.alpha)).toEqual(DEFAULT_ALPHA);
    expect(Array.from(learner.beta)).toEqual(DEFAULT_BETA);
    expect(Array.from(learner.gamma)).toEqual(DEFAULT_GAMMA);
    const evaluator = new DiceEvaluator(config);
    const random = Random.fromSeed(2);
    for (let s = 0; s < 400; s++) {
      const e = evaluator.evaluate(varied(random, 50));
      learner.observe(e.features, e.objectives);
    }
    expect(learner.surprises).toBe(0);
    expect(learner.refits).toBe(0);
    expect(Array.from(learner.beta)).toEqual(DEFAULT_BETA);
  });

  it('splits what the answers cannot tell apart by the prior, keeping the fit', () => {
    // F6 and F7 always far above their bands (as at N = 840): only gamma_6 beta_6 + gamma_7 beta_7
    // reaches the answers. Both bands are moved up by 3 from the public ones; gamma_7 = 3.
    const config: DiceConfig = {
      ...trackConfig('so', 840),
      objectives: [[6, 7]],
      alpha: DEFAULT_ALPHA.map((a, i) => a + (i === 5 || i === 6 ? 3 : 0)),
      beta: DEFAULT_BETA.map((b, i) => b + (i === 5 || i === 6 ? 3 : 0)),
      gamma: DEFAULT_GAMMA.map((g, i) => (i === 6 ? 3 : g)),
    };
    // Uniform random sequences: F6 near 420 and F7 near 140, far above their bands.
    const learner = new BandLearner(config.objectives, undefined, { stride: 1, recent: 300, surprises: 0, history: 0, firstGap: Infinity, rounds: 20 });
    const evaluator = new DiceEvaluator(config);
    const random = Random.fromSeed(11);
    for (let s = 0; s < 300; s++) {
      const e = evaluator.evaluate(Uint8Array.from({ length: 840 }, () => random.int(1, 6)));
      learner.observe(e.features, e.objectives);
    }
    learner.refit();
    expect(learner.exact).toBe(true);
    // Explained to 1e-6 of answers near 500 (5e-4 each): the weights and the sum to about 1e-4.
    expect(learner.gamma[5]).toBeCloseTo(config.gamma[5], 3);
    expect(learner.gamma[6]).toBeCloseTo(config.gamma[6], 3);
    // What the answers see: gamma_6 beta_6 + gamma_7 beta_7.
    const sum = (g: ArrayLike<number>, b: ArrayLike<number>) => g[5] * b[5] + g[6] * b[6];
    expect(sum(learner.gamma, learner.beta) / sum(config.gamma, config.beta)).toBeCloseTo(1, 3);
    // Nearest to the prior (weights 1 / spread^2, spreads 3 and 3): the moves are in proportion
    // to gamma spread^2 (9 and 27), and make up 1 x 3 + 3 x 3 = 12 in the sum: 1.2 and 3.6.
    const moved = [learner.beta[5] - DEFAULT_BETA[5], learner.beta[6] - DEFAULT_BETA[6]];
    expect(moved[0]).toBeCloseTo(1.2, 2);
    expect(moved[1]).toBeCloseTo(3.6, 2);
  });

  it('is deterministic: the same answers in the same order give the same estimates', () => {
    const config = randomDiceConfig(9, 'so', 50);
    const a = learnt(config, 300, 5).learner;
    const b = learnt(config, 300, 5).learner;
    expect(Array.from(a.alpha)).toEqual(Array.from(b.alpha));
    expect(Array.from(a.beta)).toEqual(Array.from(b.beta));
    expect(Array.from(a.gamma)).toEqual(Array.from(b.gamma));
  });

  it('aims count features at the whole values of least error', () => {
    expect(leastWholeValues(0, 1)).toEqual([0, 1]);
    expect(leastWholeValues(2, 3)).toEqual([2, 3]);
    expect(leastWholeValues(1.2, 3.9)).toEqual([2, 3]);
    // No whole value inside: the nearer one, or both when as near (a band [2, 3] and a point at
    // 2.5 differ by a constant on whole values).
    expect(leastWholeValues(2.5, 2.5)).toEqual([2, 3]);
    expect(leastWholeValues(2.2, 2.4)).toEqual([2, 2]);
    expect(leastWholeValues(2.7, 2.9)).toEqual([3, 3]);
    // A fitted end within 0.01 of a whole value is that value.
    expect(leastWholeValues(0.003, 2 - 0.004)).toEqual([0, 2]);
    expect(leastWholeValues(0.02, 1.98)).toEqual([1, 1]);
    const config = randomDiceConfig(1, 'so', 50);
    const { learner } = learnt(config, 600, 101);
    for (let i = 5; i < 15; i++) {
      expect([learner.aimAlpha[i], learner.aimBeta[i]], `F${i + 1}`).toEqual(leastWholeValues(learner.alpha[i], learner.beta[i]));
    }
    for (let i = 0; i < 5; i++) expect([learner.aimAlpha[i], learner.aimBeta[i]]).toEqual([learner.alpha[i], learner.beta[i]]);
  });
});
