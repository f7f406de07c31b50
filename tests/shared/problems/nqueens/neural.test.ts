import { describe, expect, it } from 'vitest';
import {
  defaultNeuralParams,
  NeuralNet,
  runNeural,
  slidesNeuralParams,
  slidesWeight,
  validateNeuralParams,
  type NeuralParams,
} from '../../../../src-shared/problems/nqueens/neural.ts';
import { verifySolution } from '../../../../src-shared/problems/nqueens/verify.ts';
import { Random } from '../../../../src-shared/random.ts';

/** The slides' dU for square (r, c), recounted from the outputs with no shared state. */
function naiveDeltaU(V: ArrayLike<number>, n: number, r: number, c: number, A: number, B: number, C: number): number {
  let row = 0,
    col = 0,
    diag = 0;
  for (let k = 0; k < n; k++) {
    row += V[r * n + k];
    col += V[k * n + c];
  }
  for (let rr = 0; rr < n; rr++) {
    if (rr === r) continue;
    const c1 = c + (rr - r);
    const c2 = c - (rr - r);
    if (c1 >= 0 && c1 < n) diag += V[rr * n + c1];
    if (c2 >= 0 && c2 < n) diag += V[rr * n + c2];
  }
  const h = (row === 0 ? 1 : 0) + (col === 0 ? 1 : 0);
  return -A * (row + col - 2) - B * diag + C * h;
}

function recount(net: NeuralNet) {
  const n = net.n;
  const rows = new Array(n).fill(0),
    cols = new Array(n).fill(0),
    diag = new Array(2 * n - 1).fill(0),
    anti = new Array(2 * n - 1).fill(0);
  for (let r = 0; r < n; r++)
    for (let c = 0; c < n; c++)
      if (net.V[r * n + c]) {
        rows[r]++;
        cols[c]++;
        diag[r - c + n - 1]++;
        anti[r + c]++;
      }
  return { rows, cols, diag, anti };
}

const noKick = { value: 4, every: 0, length: 0 };

describe('the neural network step', () => {
  it("changes every U by the slides' dU in synchronous mode (random boards, several A, B, C)", () => {
    const random = Random.fromSeed(7);
    for (const [n, A, B, C] of [
      [5, 1, 1, 1],
      [8, 0.8, 0.6, 2],
      [11, 0.5, 1.5, 0],
    ] as const) {
      const net = new NeuralNet({ ...defaultNeuralParams(n), A, B, C, update: 'sync', clamp: 0, kick: noKick }, 1);
      // A board with a mix of empty, single and crowded lines.
      net.load(Array.from({ length: n * n }, () => (random.chance(0.3) ? 0.5 : -0.5)));
      const V = Uint8Array.from(net.V);
      const U = Float64Array.from(net.U);
      net.step();
      for (let r = 0; r < n; r++) {
        for (let c = 0; c < n; c++) {
          const i = r * n + c;
          expect(net.U[i] - U[i]).toBeCloseTo(naiveDeltaU(V, n, r, c, A, B, C), 12);
          expect(net.V[i]).toBe(net.U[i] > 0 ? 1 : 0);
        }
      }
    }
  });

  it('gives dU = 0 on the queens of a solution and dU < 0 or 0 elsewhere, so a solution is a fixed point', () => {
    const q = [1, 3, 0, 2];
    expect(verifySolution(q)).toBe(true);
    const V = new Uint8Array(16);
    q.forEach((c, r) => (V[r * 4 + c] = 1));
    for (let r = 0; r < 4; r++)
      for (let c = 0; c < 4; c++) {
        const d = naiveDeltaU(V, 4, r, c, 1, 1, 1);
        if (V[r * 4 + c]) expect(d).toBe(0);
        else expect(d).toBeLessThanOrEqual(0);
      }
    // The slides' cases: an empty row and column give h = 2 and push U up by 2A + 2C.
    expect(naiveDeltaU(new Uint8Array(16), 4, 0, 0, 1, 1, 1)).toBe(4);
  });

  it('keeps the incremental row, column and diagonal counts equal to a recount, in both modes', () => {
    for (const update of ['sync', 'seq'] as const) {
      const net = new NeuralNet({ ...defaultNeuralParams(12), update, maxSteps: 60 }, 3);
      for (let t = 0; t < 60 && !net.solved; t++) {
        const s = net.step();
        const k = recount(net);
        expect([...net.rowCount]).toEqual(k.rows);
        expect([...net.colCount]).toEqual(k.cols);
        expect([...net.diagCount]).toEqual(k.diag);
        expect([...net.antiCount]).toEqual(k.anti);
        expect(s.queens).toBe(k.rows.reduce((a, b) => a + b, 0));
        expect(s.energy === 0).toBe(s.solved);
      }
    }
  });

  it('starts with about half of the neurons raised', () => {
    const net = new NeuralNet(defaultNeuralParams(100), 11);
    expect(net.state.queens / 10000).toBeGreaterThan(0.47);
    expect(net.state.queens / 10000).toBeLessThan(0.53);
  });
});

describe('solving', () => {
  it('solves N = 8..50 for five seeds each with the default (sequential) parameters, boards verified', () => {
    for (const n of [8, 9, 10, 12, 16, 20, 30, 50]) {
      for (let seed = 1; seed <= 5; seed++) {
        const r = runNeural(defaultNeuralParams(n), seed);
        expect(r.solved, `N=${n} seed=${seed} (${r.failure})`).toBe(true);
        expect(verifySolution(r.queens!)).toBe(true);
        expect(r.queens!.length).toBe(n);
        expect(r.steps).toBeGreaterThan(0);
      }
    }
  });

  it("solves some synchronous runs with the slides' parameters (N = 8, seeds 1..10: at least 5 verified solutions)", () => {
    let solved = 0;
    for (let seed = 1; seed <= 10; seed++) {
      const r = runNeural({ ...slidesNeuralParams(8), maxSteps: 3000 }, seed);
      if (r.solved) {
        solved++;
        expect(verifySolution(r.queens!)).toBe(true);
      } else expect(['loop', 'oscillation', 'stall', 'wander']).toContain(r.failure);
    }
    expect(solved).toBeGreaterThanOrEqual(5);
  });

  it('is deterministic by seed, and different seeds take different paths', () => {
    const p = defaultNeuralParams(16);
    const a = runNeural(p, 42);
    const b = runNeural(p, 42);
    expect(b).toEqual(a);
    const trace = (seed: number) => {
      const net = new NeuralNet(p, seed);
      return Array.from({ length: 5 }, () => net.step().queens);
    };
    expect(trace(42)).toEqual(trace(42));
    expect(trace(43)).not.toEqual(trace(42));
  });
});

describe('failure modes and kicks', () => {
  it('reports a full-board synchronous flip-flop as an oscillation (period 2)', () => {
    // All U equal and bounded: every neuron sees the same counts, so the whole board rises and
    // falls together, the slides' "energy swings far down and up" at its most extreme.
    const p: NeuralParams = { ...defaultNeuralParams(10), update: 'sync', clamp: 3, kick: noKick, maxSteps: 40 };
    const net = new NeuralNet(p, 1);
    net.load(new Array(100).fill(0.5));
    const queens = Array.from({ length: 6 }, () => net.step().queens);
    expect(queens).toEqual([0, 100, 0, 100, 0, 100]);
    const r = net.run();
    expect(r.solved).toBe(false);
    expect(r.failure).toBe('oscillation');
    expect(r.steps).toBe(40);
  });

  it('reports a board whose outputs stop changing short of a solution as a stall (period 1)', () => {
    // Three non-attacking queens; every other square far below the threshold and C = 0, so
    // the empty row and column need hundreds of steps to bring a neuron up.
    const p: NeuralParams = { ...defaultNeuralParams(4), update: 'sync', clamp: 0, C: 0, kick: noKick, maxSteps: 10 };
    const net = new NeuralNet(p, 1);
    const U = new Array(16).fill(-1000);
    for (const [r, c] of [
      [0, 1],
      [1, 3],
      [3, 2],
    ])
      U[r * 4 + c] = 5;
    net.load(U);
    const r = net.run();
    expect(net.state.queens).toBe(3);
    expect(r).toMatchObject({ solved: false, steps: 10, failure: 'stall' });
  });

  it('applies a fixed kick schedule at steps every, every+1, ... every+length-1', () => {
    const p: NeuralParams = { ...defaultNeuralParams(10), update: 'sync', clamp: 3, kick: { value: 4, every: 10, length: 3 }, maxSteps: 35 };
    const net = new NeuralNet(p, 1);
    net.load(new Array(100).fill(0.5));
    const kicked: number[] = [];
    net.run((s) => void (s.kickActive && kicked.push(s.step)));
    expect(kicked).toEqual([10, 11, 12, 20, 21, 22, 30, 31, 32]);
    expect(net.result().kickSteps).toBe(9);
  });

  it('kicks for `length` steps after a repeated state when every = "auto"', () => {
    const p: NeuralParams = { ...defaultNeuralParams(10), update: 'sync', clamp: 3, kick: { value: 4, every: 'auto', length: 2 }, maxSteps: 8 };
    const net = new NeuralNet(p, 1);
    net.load(new Array(100).fill(0.5));
    const kicks = Array.from({ length: 6 }, () => net.step().kickActive);
    // States: 0 queens (step 1), full (2: repeats step 0 -> loop seen), then 2 kick steps.
    expect(kicks).toEqual([false, false, true, true, false, true]);
  });
});

describe('parameters', () => {
  it('names the bad field', () => {
    const base = defaultNeuralParams(8);
    expect(() => validateNeuralParams({ ...base, n: 3 })).toThrow(/^n: /);
    expect(() => validateNeuralParams({ ...base, A: -1 })).toThrow(/^A: /);
    expect(() => validateNeuralParams({ ...base, B: Number.NaN })).toThrow(/^B: /);
    expect(() => validateNeuralParams({ ...base, kick: { value: 4, every: 5, length: 5 } })).toThrow(/^kick.length: /);
    expect(() => validateNeuralParams({ ...base, update: 'async' as never })).toThrow(/^update: /);
    expect(() => validateNeuralParams({ ...base, maxSteps: 0 })).toThrow(/^maxSteps: /);
    expect(() => new NeuralNet(base, 1.5)).toThrow(/seed/);
  });

  it("follows the slides' weights: 1 for small N, lower as N grows, 0.6 at N = 15", () => {
    expect(slidesWeight(8)).toBe(1);
    expect(slidesWeight(15)).toBe(0.6);
    expect(slidesWeight(100)).toBe(0.5);
    expect(slidesNeuralParams(15)).toMatchObject({ A: 0.6, B: 0.6, C: 1, update: 'sync', kick: { value: 4 } });
  });
});
