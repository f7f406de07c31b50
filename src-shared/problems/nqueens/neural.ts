/**
 * The hill-climbing neural network for N-Queens, after Takefuji's "8-queens" chapter as restated
 * in docs/nqueens.md (slides: shared/seeds/nqueens-neural-hillclimb.ja.txt).
 *
 * One neuron per square (r, c) with an energy (input potential) U and an output
 * V = [U > threshold]. One step updates every neuron once:
 *
 *   dU(r,c) = -A (rowQueens(r) + colQueens(c) - 2)
 *             -B (diagQueens(r,c) + antiDiagQueens(r,c))      (both diagonals, self excluded)
 *             +C h(r,c),   h = [row r empty] + [column c empty]  (2, 1 or 0)
 *   U(r,c) += dU(r,c)
 *
 * Row and column counts include the square itself. In 'sync' mode (the slides' reading) every
 * neuron computes dU from the same outputs and all outputs change together; in 'seq' mode the
 * neurons are visited one at a time (rows and columns in a fresh random order each sweep) and
 * each sees the outputs already changed in this sweep. C is replaced by the kick value during a
 * kick (see KickSchedule).
 *
 * Row, column and both diagonal counts are kept incrementally in Int32Arrays; a step is one pass
 * over the N*N neurons plus O(N) bookkeeping. A success is confirmed by verifySolution(), which
 * recounts from the queen list.
 */
import { Random } from '../../random.ts';
import { verifySolution } from './verify.ts';

export type UpdateMode = 'sync' | 'seq';

/**
 * When C is raised to `value`. With a number `every`, kicks last `length` steps and start at
 * steps every, 2*every, 3*every, ... (step numbers count from 1). With `every = 'auto'` a kick of
 * `length` steps starts as soon as the outputs repeat an earlier state (a loop was detected).
 * `length = 0` (or every = 0) means never kick.
 */
export interface KickSchedule {
  value: number;
  every: number | 'auto';
  length: number;
}

export interface NeuralParams {
  /** Board size N (>= 4; N = 2, 3 have no solution, N = 1 is trivial). */
  n: number;
  /** Weight of the row/column term. */
  A: number;
  /** Weight of the diagonal term. */
  B: number;
  /** Weight of the hill-climbing term outside kicks. */
  C: number;
  kick: KickSchedule;
  /** A neuron is raised (queen) when U > threshold. */
  threshold: number;
  update: UpdateMode;
  /** Step limit (one step = every neuron updated once). */
  maxSteps: number;
  /** Initial U is uniform in threshold ± initSpread, so about half the neurons start raised. */
  initSpread: number;
  /**
   * Bound on |U - threshold| (0 = unbounded, the slides' literal model). A bound keeps long-
   * suppressed neurons within reach, so they can come back (see docs/nqueens.md).
   */
  clamp: number;
}

export type FailureMode = 'oscillation' | 'loop' | 'stall' | 'wander';

export interface NeuralSnapshot {
  /** Steps done so far. */
  step: number;
  /** Raised neurons. */
  queens: number;
  /** Attacking pairs among raised neurons: sum over rows, columns and both diagonal families of k(k-1)/2. */
  conflicts: number;
  /** Rows plus columns that hold no queen. */
  emptyLines: number;
  /**
   * E = A/2 [sum_r (R_r - 1)^2 + sum_c (C_c - 1)^2] + B/2 [sum_d D_d (D_d - 1) + sum_a D'_a (D'_a - 1)],
   * R, C, D, D' the queens on each row, column, diagonal, anti-diagonal. E >= 0 and E = 0 exactly
   * at a solution; its slope in V(r,c) is, up to a constant 1/2 per line, minus the A and B part
   * of dU (the network's Lyapunov-style energy, without the hill-climbing term).
   */
  energy: number;
  /** Whether the step just done used the kick value for C. */
  kickActive: boolean;
  /** Neurons that changed output in the step just done. */
  flips: number;
  /** Period of the repetition of the outputs seen at this step (0 = none within the window). */
  cycle: number;
  solved: boolean;
}

export interface NeuralResult {
  solved: boolean;
  steps: number;
  /** queens[r] = column of the queen in row r when solved, else null. */
  queens: number[] | null;
  /** Why an unsolved run failed (from the last repetition seen), undefined when solved. */
  failure?: FailureMode;
  /** Steps during which a kick was active. */
  kickSteps: number;
}

/**
 * The lab's default: the slides' network with one-at-a-time updates, A = B = C = 1, kicks of
 * C = 4 for 3 steps whenever the outputs repeat, and |U - threshold| bounded by 3. Measured to
 * solve every N from 8 to 1000 (docs/nqueens.md, `saikoro bench nqueens`).
 */
export function defaultNeuralParams(n: number): NeuralParams {
  return {
    n,
    A: 1,
    B: 1,
    C: 1,
    kick: { value: 4, every: 'auto', length: 3 },
    threshold: 0,
    update: 'seq',
    maxSteps: Math.max(5000, 5 * n),
    initSpread: 1,
    clamp: 3,
  };
}

/** The slides' suggested weights for N: A = B = 1 for small N, lower (0.8, 0.6, 0.5) as N grows. */
export function slidesWeight(n: number): number {
  return n <= 10 ? 1 : n <= 14 ? 0.8 : n <= 20 ? 0.6 : 0.5;
}

/**
 * The slides taken literally: all neurons updated at once from the same outputs, unbounded U,
 * C = 1 with a burst of C = 4 for 3 steps every 50 steps, A = B = slidesWeight(N).
 */
export function slidesNeuralParams(n: number): NeuralParams {
  const w = slidesWeight(n);
  return { ...defaultNeuralParams(n), A: w, B: w, kick: { value: 4, every: 50, length: 3 }, update: 'sync', clamp: 0 };
}

/** Throws an Error naming the first bad field, e.g. "A: must be a positive number". */
export function validateNeuralParams(p: NeuralParams): void {
  const posNum = (name: string, v: unknown) => {
    if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) throw new Error(`${name}: must be a positive number, got ${String(v)}`);
  };
  const nonNegNum = (name: string, v: unknown) => {
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw new Error(`${name}: must be a non-negative number, got ${String(v)}`);
  };
  const int = (name: string, v: unknown, min: number) => {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min) throw new Error(`${name}: must be an integer >= ${min}, got ${String(v)}`);
  };
  int('n', p.n, 4);
  if (p.n > 4000) throw new Error(`n: the network needs N*N neurons; at most 4000, got ${p.n}`);
  posNum('A', p.A);
  posNum('B', p.B);
  nonNegNum('C', p.C);
  if (!p.kick || typeof p.kick !== 'object') throw new Error('kick: must be {value, every, length}');
  nonNegNum('kick.value', p.kick.value);
  if (p.kick.every !== 'auto') int('kick.every', p.kick.every, 0);
  int('kick.length', p.kick.length, 0);
  if (typeof p.kick.every === 'number' && p.kick.every > 0 && p.kick.length >= p.kick.every) {
    throw new Error(`kick.length: must be less than kick.every (${p.kick.every}), got ${p.kick.length}`);
  }
  if (typeof p.threshold !== 'number' || !Number.isFinite(p.threshold)) throw new Error(`threshold: must be a finite number, got ${String(p.threshold)}`);
  if (p.update !== 'sync' && p.update !== 'seq') throw new Error(`update: must be "sync" or "seq", got ${String(p.update)}`);
  int('maxSteps', p.maxSteps, 1);
  posNum('initSpread', p.initSpread);
  nonNegNum('clamp', p.clamp);
}

/** Hash keys for the state fingerprint (murmur3 finalizer of the cell index). */
function mix32(x: number): number {
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return (x ^ (x >>> 16)) | 0;
}

const CYCLE_WINDOW = 64;

export class NeuralNet {
  readonly params: NeuralParams;
  readonly n: number;
  /** Energies, row-major. */
  readonly U: Float64Array;
  /** Outputs (1 = queen), row-major. */
  readonly V: Uint8Array;
  readonly rowCount: Int32Array;
  readonly colCount: Int32Array;
  /** Index r - c + n - 1. */
  readonly diagCount: Int32Array;
  /** Index r + c. */
  readonly antiCount: Int32Array;
  private readonly rng: Random;
  private readonly flipBuf: Int32Array;
  private readonly colTerm: Float64Array;
  private readonly rowOrder: Int32Array;
  private readonly colOrder: Int32Array;
  private steps = 0;
  private kickLeft = 0;
  private kickSteps = 0;
  private h1 = 0;
  private h2 = 0;
  private readonly ring = new Float64Array(CYCLE_WINDOW);
  private readonly seen = new Map<number, number>();
  private lastCycle = 0;
  private lastCycleStep = 0;
  private solvedQueens: number[] | null = null;
  private last: NeuralSnapshot;

  constructor(params: NeuralParams, seed: number) {
    validateNeuralParams(params);
    this.params = { ...params, kick: { ...params.kick } };
    const n = (this.n = params.n);
    this.U = new Float64Array(n * n);
    this.V = new Uint8Array(n * n);
    this.rowCount = new Int32Array(n);
    this.colCount = new Int32Array(n);
    this.diagCount = new Int32Array(2 * n - 1);
    this.antiCount = new Int32Array(2 * n - 1);
    this.flipBuf = new Int32Array(n * n);
    this.colTerm = new Float64Array(n);
    this.rowOrder = Int32Array.from({ length: n }, (_, i) => i);
    this.colOrder = Int32Array.from({ length: n }, (_, i) => i);
    this.rng = Random.fromSeed(seed);
    const { threshold, initSpread } = params;
    for (let r = 0; r < n; r++) {
      for (let c = 0; c < n; c++) {
        const i = r * n + c;
        const u = threshold + (2 * this.rng.float() - 1) * initSpread;
        this.U[i] = u;
        if (u > threshold) this.raise(i, r, c);
      }
    }
    this.recordState();
    this.last = this.snapshot(0, false);
  }

  /**
   * Replaces every energy (row-major, N*N values) and recomputes the outputs and counters from
   * them; the step count and loop memory start again. For tests and for replaying a board.
   */
  load(energies: ArrayLike<number>): void {
    const { n } = this;
    if (energies.length !== n * n) throw new Error(`energies: expected ${n * n} values, got ${energies.length}`);
    this.V.fill(0);
    this.rowCount.fill(0);
    this.colCount.fill(0);
    this.diagCount.fill(0);
    this.antiCount.fill(0);
    this.h1 = this.h2 = 0;
    for (let i = 0; i < n * n; i++) {
      const u = energies[i];
      if (!Number.isFinite(u)) throw new Error(`energies[${i}]: must be a finite number, got ${u}`);
      this.U[i] = u;
      if (u > this.params.threshold) this.raise(i, (i / n) | 0, i % n);
    }
    this.steps = 0;
    this.kickLeft = 0;
    this.kickSteps = 0;
    this.lastCycle = 0;
    this.lastCycleStep = 0;
    this.seen.clear();
    this.solvedQueens = null;
    this.recordState();
    this.last = this.snapshot(0, false);
  }

  private raise(i: number, r: number, c: number): void {
    this.V[i] = 1;
    this.rowCount[r]++;
    this.colCount[c]++;
    this.diagCount[r - c + this.n - 1]++;
    this.antiCount[r + c]++;
    this.h1 ^= mix32(i);
    this.h2 ^= mix32(i ^ 0x5bd1e995);
  }

  private lower(i: number, r: number, c: number): void {
    this.V[i] = 0;
    this.rowCount[r]--;
    this.colCount[c]--;
    this.diagCount[r - c + this.n - 1]--;
    this.antiCount[r + c]--;
    this.h1 ^= mix32(i);
    this.h2 ^= mix32(i ^ 0x5bd1e995);
  }

  /** Remembers the current output fingerprint; returns the repetition period (0 if none). */
  private recordState(): number {
    const key = (this.h1 >>> 0) * 2097152 + ((this.h2 >>> 0) & 0x1fffff);
    const t = this.steps;
    const slot = t % CYCLE_WINDOW;
    if (t >= CYCLE_WINDOW) {
      const old = this.ring[slot];
      if (this.seen.get(old) === t - CYCLE_WINDOW) this.seen.delete(old);
    }
    const prev = this.seen.get(key);
    this.ring[slot] = key;
    this.seen.set(key, t);
    return prev === undefined ? 0 : t - prev;
  }

  get stepCount(): number {
    return this.steps;
  }

  get solved(): boolean {
    return this.solvedQueens !== null;
  }

  /** The latest snapshot (after construction: step 0). */
  get state(): NeuralSnapshot {
    return this.last;
  }

  /** Whether step number t (1-based) uses the kick value under a fixed schedule. */
  private scheduledKick(t: number): boolean {
    const { every, length } = this.params.kick;
    return typeof every === 'number' && every > 0 && length > 0 && t >= every && t % every < length;
  }

  /** One step: every neuron updated once. Does nothing once solved. */
  step(): NeuralSnapshot {
    if (this.solvedQueens) return this.last;
    const p = this.params;
    const t = this.steps + 1;
    let kick: boolean;
    if (p.kick.every === 'auto') {
      kick = this.kickLeft > 0;
      if (kick) this.kickLeft--;
    } else kick = this.scheduledKick(t);
    const C = kick ? p.kick.value : p.C;
    const flips = p.update === 'sync' ? this.syncSweep(C) : this.seqSweep(C);
    this.steps = t;
    if (kick) this.kickSteps++;
    const cycle = this.recordState();
    if (cycle > 0 && !kick) {
      this.lastCycle = cycle;
      this.lastCycleStep = t;
    }
    if (p.kick.every === 'auto' && cycle > 0 && !kick && this.kickLeft === 0) this.kickLeft = p.kick.length;
    this.last = this.snapshot(flips, kick, cycle);
    return this.last;
  }

  private syncSweep(C: number): number {
    const { n, U, V, rowCount, colCount, diagCount, antiCount, colTerm, flipBuf } = this;
    const { A, B, threshold, clamp } = this.params;
    const lo = clamp > 0 ? threshold - clamp : -Infinity;
    const hi = clamp > 0 ? threshold + clamp : Infinity;
    for (let c = 0; c < n; c++) {
      const k = colCount[c];
      colTerm[c] = -A * k + (k === 0 ? C : 0);
    }
    let flips = 0;
    for (let r = 0; r < n; r++) {
      const k = rowCount[r];
      const rowTerm = -A * (k - 2) + (k === 0 ? C : 0);
      const base = r * n;
      let d = r + n - 1;
      let a = r;
      for (let c = 0; c < n; c++, d--, a++) {
        const i = base + c;
        const v = V[i];
        let u = U[i] + rowTerm + colTerm[c] - B * (diagCount[d] + antiCount[a] - 2 * v);
        if (u < lo) u = lo;
        else if (u > hi) u = hi;
        U[i] = u;
        if ((u > threshold ? 1 : 0) !== v) flipBuf[flips++] = i;
      }
    }
    for (let f = 0; f < flips; f++) {
      const i = flipBuf[f];
      const r = (i / n) | 0;
      const c = i - r * n;
      if (V[i]) this.lower(i, r, c);
      else this.raise(i, r, c);
    }
    return flips;
  }

  private shuffle(a: Int32Array): void {
    for (let i = a.length - 1; i > 0; i--) {
      const j = this.rng.int(0, i);
      const x = a[i];
      a[i] = a[j];
      a[j] = x;
    }
  }

  private seqSweep(C: number): number {
    const { n, U, V, rowCount, colCount, diagCount, antiCount, rowOrder, colOrder } = this;
    const { A, B, threshold, clamp } = this.params;
    const lo = clamp > 0 ? threshold - clamp : -Infinity;
    const hi = clamp > 0 ? threshold + clamp : Infinity;
    this.shuffle(rowOrder);
    this.shuffle(colOrder);
    let flips = 0;
    for (let ri = 0; ri < n; ri++) {
      const r = rowOrder[ri];
      const base = r * n;
      for (let ci = 0; ci < n; ci++) {
        const c = colOrder[ci];
        const i = base + c;
        const v = V[i];
        const kr = rowCount[r];
        const kc = colCount[c];
        const d = r - c + n - 1;
        const a = r + c;
        const h = (kr === 0 ? 1 : 0) + (kc === 0 ? 1 : 0);
        let u = U[i] - A * (kr + kc - 2) - B * (diagCount[d] + antiCount[a] - 2 * v) + C * h;
        if (u < lo) u = lo;
        else if (u > hi) u = hi;
        U[i] = u;
        const nv = u > threshold ? 1 : 0;
        if (nv !== v) {
          flips++;
          if (nv) this.raise(i, r, c);
          else this.lower(i, r, c);
        }
      }
    }
    return flips;
  }

  private snapshot(flips: number, kickActive: boolean, cycle = 0): NeuralSnapshot {
    const { n, rowCount, colCount, diagCount, antiCount } = this;
    const { A, B } = this.params;
    let queens = 0;
    let pairs = 0;
    let empty = 0;
    let lineE = 0;
    let diagE = 0;
    let exact = true;
    for (let i = 0; i < n; i++) {
      const kr = rowCount[i];
      const kc = colCount[i];
      queens += kr;
      pairs += (kr * (kr - 1)) / 2 + (kc * (kc - 1)) / 2;
      if (kr === 0) empty++;
      if (kc === 0) empty++;
      lineE += (kr - 1) * (kr - 1) + (kc - 1) * (kc - 1);
      if (kr !== 1 || kc !== 1) exact = false;
    }
    for (let i = 0; i < 2 * n - 1; i++) {
      const kd = diagCount[i];
      const ka = antiCount[i];
      const dp = (kd * (kd - 1)) / 2 + (ka * (ka - 1)) / 2;
      pairs += dp;
      diagE += 2 * dp;
      if (kd > 1 || ka > 1) exact = false;
    }
    let solved = false;
    if (exact && queens === n) {
      const q = this.queenList();
      if (q && verifySolution(q)) {
        this.solvedQueens = q;
        solved = true;
      }
    }
    return {
      step: this.steps,
      queens,
      conflicts: pairs,
      emptyLines: empty,
      energy: (A / 2) * lineE + (B / 2) * diagE,
      kickActive,
      flips,
      cycle,
      solved,
    };
  }

  /** queens[r] = column of the first raised neuron in row r, or null if a row is empty or has two. */
  queenList(): number[] | null {
    const { n, V } = this;
    const q: number[] = [];
    for (let r = 0; r < n; r++) {
      let col = -1;
      for (let c = 0; c < n; c++) {
        if (V[r * n + c]) {
          if (col >= 0) return null;
          col = c;
        }
      }
      if (col < 0) return null;
      q.push(col);
    }
    return q;
  }

  /** Steps until solved or the step limit; `onStep` sees every snapshot (return false to stop). */
  run(onStep?: (s: NeuralSnapshot) => boolean | void): NeuralResult {
    while (!this.solvedQueens && this.steps < this.params.maxSteps) {
      const s = this.step();
      if (onStep && onStep(s) === false) break;
    }
    return this.result();
  }

  result(): NeuralResult {
    const solved = this.solvedQueens !== null;
    const out: NeuralResult = { solved, steps: this.steps, queens: this.solvedQueens ? [...this.solvedQueens] : null, kickSteps: this.kickSteps };
    if (!solved) out.failure = this.classify();
    return out;
  }

  /** The mode of the most recent repetition, if it was within the last CYCLE_WINDOW steps. */
  private classify(): FailureMode {
    const p = this.steps - this.lastCycleStep <= CYCLE_WINDOW ? this.lastCycle : 0;
    if (p === 0) return 'wander';
    if (p === 1) return 'stall';
    if (p === 2) return 'oscillation';
    return 'loop';
  }
}

/** Convenience: build a network and run it to completion. */
export function runNeural(params: NeuralParams, seed: number): NeuralResult {
  return new NeuralNet(params, seed).run();
}
