// The blind view of the dice problem (src-shared/problems/dice/blind.ts): the same answers as
// the sighted problem, and nothing of the bands and weights reachable from what a solver gets.
import { describe, expect, it } from 'vitest';
import { DEFAULT_ALPHA, DEFAULT_BETA, DEFAULT_GAMMA, trackConfig, type DiceConfig } from '../../../../src-shared/problems/dice/config.ts';
import { DiceEvaluator, PreparedConfig } from '../../../../src-shared/problems/dice/evaluate.ts';
import { DiceState } from '../../../../src-shared/problems/dice/incremental.ts';
import { DiceProblem, asDiceProblem } from '../../../../src-shared/problems/dice/problem.ts';
import { asBlindDiceProblem, blindDiceProblem, dicePublicInfo, publicConfig } from '../../../../src-shared/problems/dice/blind.ts';
import { Random } from '../../../../src-shared/random.ts';

/**
 * A config whose bands and weights are numbers no feature, chi, objective, constraint, scale or
 * quantile of the run can equal by chance (irrational offsets), so finding one of them in the
 * solver's reach means it leaked.
 */
function secretConfig(n: number, track: 'so' | 'mo3' = 'so'): DiceConfig {
  const base = trackConfig(track, n);
  return {
    ...base,
    alpha: DEFAULT_ALPHA.map((a, i) => a + Math.SQRT2 / (i + 3)),
    beta: DEFAULT_BETA.map((b, i) => b + 1 + Math.PI / (i + 5)),
    gamma: DEFAULT_GAMMA.map((g, i) => g * (1 + Math.E / (i + 7))),
  };
}

function secrets(config: DiceConfig): Set<number> {
  return new Set([...config.alpha, ...config.beta, ...config.gamma]);
}

function randomFaces(random: Random, n: number): Uint8Array {
  return Uint8Array.from({ length: n }, () => random.int(1, 6));
}

/**
 * Everything reachable from `roots` the way code holding them can reach it: own properties
 * (string and symbol keys, enumerable or not), getters (called on the object they were found
 * for), prototypes, and the elements of arrays and typed arrays. Returns the objects met and
 * every number seen. (#private fields and closures are not reachable from outside, by design;
 * this walk is what the rest of a program can do.)
 */
function reachable(roots: unknown[]): { objects: Set<object>; numbers: number[] } {
  const objects = new Set<object>();
  const numbers: number[] = [];
  const queue: { value: unknown; receiver?: object }[] = roots.map((value) => ({ value }));
  const visit = (value: unknown) => {
    if (typeof value === 'number') numbers.push(value);
    else if ((typeof value === 'object' && value !== null) || typeof value === 'function') queue.push({ value });
  };
  while (queue.length) {
    const { value } = queue.shift()!;
    const object = value as object;
    if (objects.has(object)) continue;
    objects.add(object);
    if (ArrayBuffer.isView(object) && !(object instanceof DataView)) {
      for (const v of Array.from(object as unknown as ArrayLike<number>)) numbers.push(Number(v));
    }
    // Own properties, and getters up the prototype chain called on this object.
    for (let at: object | null = object; at !== null; at = Object.getPrototypeOf(at)) {
      for (const key of Reflect.ownKeys(at)) {
        const descriptor = Reflect.getOwnPropertyDescriptor(at, key)!;
        if ('value' in descriptor) {
          if (at === object) visit(descriptor.value);
        } else if (descriptor.get) {
          visit(descriptor.get);
          try {
            visit(Reflect.get(at, key, object));
          } catch {
            // A built-in getter that needs another receiver (e.g. on a prototype).
          }
        }
      }
      visit(Object.getPrototypeOf(at));
    }
  }
  return { objects, numbers };
}

describe('the blind dice problem', () => {
  it('answers exactly as the sighted problem, full and incremental, on every track', () => {
    const random = Random.fromSeed(7);
    for (const track of ['so', 'mo3'] as const) {
      const config = secretConfig(60, track);
      const sighted = new DiceProblem(config);
      const blind = blindDiceProblem(new DiceProblem(config));
      expect([blind.n, blind.objectiveCount, blind.constraintCount, blind.lower, blind.upper]).toEqual([
        sighted.n,
        sighted.objectiveCount,
        sighted.constraintCount,
        1,
        6,
      ]);
      expect(Array.from(blind.constraintScales)).toEqual(Array.from(sighted.constraintScales));
      expect(blind.constraintLabels).toEqual(sighted.constraintLabels);
      const x = randomFaces(random, 60);
      const F = [new Float64Array(blind.objectiveCount), new Float64Array(blind.objectiveCount)];
      const G = [new Float64Array(blind.constraintCount), new Float64Array(blind.constraintCount)];
      sighted.evaluate(x, F[0], G[0]);
      blind.evaluate(x, F[1], G[1]);
      expect(Array.from(F[1])).toEqual(Array.from(F[0]));
      expect(Array.from(G[1])).toEqual(Array.from(G[0]));
      const a = sighted.createState(x);
      const b = blind.createState(x);
      const same = (label: string) => {
        for (const key of ['features', 'chi', 'objectives', 'constraints'] as const)
          expect(Array.from(b.values[key]), `${label} ${key}`).toEqual(Array.from(a.values[key]));
      };
      same('start');
      for (let t = 0; t < 300; t++) {
        const p = random.below(60);
        const q = random.below(60);
        const face = random.int(1, 6);
        const kind = t % 4;
        if (kind === 0) {
          const peekA = a.peekSet(p, face);
          const peekB = b.peekSet(p, face);
          for (const key of ['features', 'chi', 'objectives', 'constraints'] as const) expect(Array.from(peekB[key])).toEqual(Array.from(peekA[key]));
        } else if (kind === 1) {
          const peekA = a.peekSwap(p, q);
          const peekB = b.peekSwap(p, q);
          expect(Array.from(peekB.objectives)).toEqual(Array.from(peekA.objectives));
          expect(Array.from(peekB.features)).toEqual(Array.from(peekA.features));
        } else if (kind === 2) {
          a.set(p, face);
          b.set(p, face);
        } else {
          a.swap(p, q);
          b.swap(p, q);
        }
        expect(b.face(p)).toBe(a.face(p));
      }
      same('after 300 moves');
      expect(Array.from(b.sequence())).toEqual(Array.from(a.sequence()));
      const y = randomFaces(random, 60);
      a.reset(y);
      b.reset(y);
      same('after reset');
    }
  });

  it('shows features, chi, objectives and constraints, never the per-feature errors', () => {
    const blind = blindDiceProblem(new DiceProblem(secretConfig(40)));
    const state = blind.createState(randomFaces(Random.fromSeed(1), 40));
    expect(Object.keys(state.values).sort()).toEqual(['chi', 'constraints', 'features', 'objectives']);
    expect(Object.keys(state.peekSet(3, state.face(3) === 1 ? 2 : 1)).sort()).toEqual(['chi', 'constraints', 'features', 'objectives']);
    expect('report' in blind).toBe(false);
  });

  it('holds no band and no weight anywhere a solver can reach', () => {
    const config = secretConfig(50);
    const hidden = secrets(config);
    const blind = blindDiceProblem(new DiceProblem(config));
    const random = Random.fromSeed(3);
    const state = blind.createState(randomFaces(random, 50));
    // Every buffer a state has: the current values, a peek, and the values after commits.
    const peeked = state.peekSet(0, state.face(0) === 6 ? 5 : 6);
    state.set(1, state.face(1) === 6 ? 5 : 6);
    const afterSet = state.values;
    state.swap(2, 7);
    const roots = [blind, state, peeked, afterSet, state.values, dicePublicInfo(blind)];
    const { objects, numbers } = reachable(roots);
    const leaked = numbers.filter((v) => hidden.has(v));
    expect(leaked).toEqual([]);
    for (const o of objects) {
      expect(
        o instanceof DiceProblem || o instanceof DiceState || o instanceof PreparedConfig || o instanceof DiceEvaluator,
        `reached a ${o.constructor?.name}`,
      ).toBe(false);
    }
    expect(asDiceProblem(blind)).toBeNull();
    expect(asBlindDiceProblem(blind)).toBe(blind);
    // The walk reaches what is public (so it would have found the rest).
    expect(numbers).toContain(blind.constraintScales[3]);
    expect(numbers).toContain(dicePublicInfo(blind)!.upper[2]);
    expect(numbers).toContain(afterSet.objectives[0]);
  });

  it('the same walk finds the bands from a sighted problem and its state (the test can fail)', () => {
    const config = secretConfig(50);
    const hidden = secrets(config);
    const sighted = new DiceProblem(config);
    for (const root of [sighted, sighted.createState(randomFaces(Random.fromSeed(4), 50))]) {
      const { numbers } = reachable([root]);
      expect(new Set(numbers.filter((v) => hidden.has(v))).size).toBe(hidden.size);
    }
  });

  it('gives the public config as a frozen copy, and the same public info sighted or blind', () => {
    const config = secretConfig(30, 'mo3');
    const info = publicConfig(config);
    expect(info).toEqual({
      n: 30,
      objectives: config.objectives,
      constraints: config.constraints,
      lowerBounds: config.lowerBounds,
      upperBounds: config.upperBounds,
    });
    expect(Object.isFrozen(info) && Object.isFrozen(info.objectives) && Object.isFrozen(info.objectives[0])).toBe(true);
    expect(info.objectives).not.toBe(config.objectives);
    const sighted = dicePublicInfo(new DiceProblem(config))!;
    const blind = dicePublicInfo(blindDiceProblem(new DiceProblem(config)))!;
    expect(blind.config).toEqual(sighted.config);
    expect(Array.from(blind.lower)).toEqual(Array.from(new PreparedConfig(config).lower));
    expect(Array.from(blind.upper)).toEqual(Array.from(sighted.upper));
    expect(Object.keys(blind.config).sort()).toEqual(['constraints', 'lowerBounds', 'n', 'objectives', 'upperBounds']);
  });
});
