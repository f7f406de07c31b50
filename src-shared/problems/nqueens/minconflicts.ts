/**
 * Min-conflicts local search for N-Queens (Minton, Johnston, Philips and Laird 1992), in the
 * permutation form that makes very large N cheap (Sosic and Gu 1994).
 *
 * The queens form a permutation (queens[r] = column of the queen in row r), so rows and columns
 * never conflict and only the diagonals need counting: two Int32Arrays of 2N - 1 counters.
 *
 * 1. Greedy start: rows are filled in order; each takes a random still-unused column whose two
 *    diagonals are free, trying up to `greedyTries` columns (then the last one tried). This leaves
 *    only a handful of attacked queens, O(1) work per row.
 * 2. Repair: while a queen is attacked, take an attacked row i and move its queen to the column
 *    that gives the fewest conflicts, among the columns of `samples` random other rows (a move
 *    is a swap of two queens' columns, which keeps the permutation). Ties go to the earliest
 *    candidate drawn, i.e. at random. An improving swap is taken; an equal one (a sideways move
 *    on a plateau) too; a worsening one is taken only as noise with probability `noise`.
 * 3. After `restartAfter` moves without a new best conflict count, start again from a new greedy
 *    start (small N can have local minima; large N never gets there).
 *
 * A step is one repair attempt (a row examined). Success is confirmed by verifySolution().
 */
import { Random } from '../../random.ts';
import { verifySolution } from './verify.ts';

export interface MinConflictsParams {
  n: number;
  /** Partner rows examined per move (min over them; capped at N - 1). */
  samples: number;
  /** Random columns tried per row by the greedy start before giving up on a conflict-free one. */
  greedyTries: number;
  /** Probability of taking the best sampled swap even when it makes things worse. */
  noise: number;
  /** Moves without a new best before a fresh greedy start (0 = never restart). */
  restartAfter: number;
  /** Step limit (repair attempts, over all restarts). */
  maxSteps: number;
}

export interface MinConflictsProgress {
  steps: number;
  /** Attacking pairs (queens sharing a diagonal) right now. */
  conflicts: number;
  /** Queens currently under attack, as far as the work list knows (an upper bound). */
  pending: number;
  restarts: number;
}

export interface MinConflictsResult {
  solved: boolean;
  steps: number;
  /** Swaps performed. */
  moves: number;
  restarts: number;
  /** Conflicts left by the greedy start of the first try (0 = the start was a solution). */
  initialConflicts: number;
  /** The final placement (a solution when solved); queens[r] = column in row r. */
  queens: Int32Array;
  /** Attacking pairs in the final placement. */
  conflicts: number;
}

export const MAX_MINCONFLICTS_N = 50_000_000;

export function defaultMinConflictsParams(n: number): MinConflictsParams {
  return { n, samples: 32, greedyTries: 64, noise: 0.02, restartAfter: Math.max(1000, 20 * n), maxSteps: Math.max(100_000, 50 * n) };
}

/** Throws an Error naming the first bad field. */
export function validateMinConflictsParams(p: MinConflictsParams): void {
  const int = (name: string, v: unknown, min: number) => {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min) throw new Error(`${name}: must be an integer >= ${min}, got ${String(v)}`);
  };
  int('n', p.n, 1);
  if (p.n === 2 || p.n === 3) throw new Error(`n: N = ${p.n} has no solution (N must be 1 or at least 4)`);
  if (p.n > MAX_MINCONFLICTS_N) throw new Error(`n: at most ${MAX_MINCONFLICTS_N}, got ${p.n}`);
  int('samples', p.samples, 1);
  int('greedyTries', p.greedyTries, 1);
  if (typeof p.noise !== 'number' || !(p.noise >= 0 && p.noise <= 1)) throw new Error(`noise: must be a probability in [0, 1], got ${String(p.noise)}`);
  int('restartAfter', p.restartAfter, 0);
  int('maxSteps', p.maxSteps, 1);
}

/**
 * xoshiro128** (Blackman and Vigna), seeded from the project's Random. The hot loops draw tens
 * of millions of bounded integers for N = 10^7; this inline generator costs a few nanoseconds a
 * draw where the general-purpose one costs tens.
 */
class FastRandom {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seedFrom: Random) {
    this.a = seedFrom.int(1, 0x7fffffff);
    this.b = seedFrom.int(0, 0x7fffffff);
    this.c = seedFrom.int(0, 0x7fffffff);
    this.d = seedFrom.int(0, 0x7fffffff);
  }

  /** A uniform 32-bit unsigned integer. */
  next(): number {
    const result = Math.imul(rotl(Math.imul(this.b, 5), 7), 9);
    const t = this.b << 9;
    this.c ^= this.a;
    this.d ^= this.b;
    this.b ^= this.c;
    this.a ^= this.d;
    this.c ^= t;
    this.d = rotl(this.d, 11);
    return result >>> 0;
  }

  /** An integer in [0, n) for n <= 2^32 (multiply-shift; bias below n / 2^32). */
  below(n: number): number {
    return Math.floor(this.next() * INV_2_32 * n);
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() * INV_2_32 < p;
  }
}

const INV_2_32 = 1 / 4294967296;
const COUNT_LIMIT = 65535;

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}

export class MinConflicts {
  readonly params: MinConflictsParams;
  readonly n: number;
  readonly queens: Int32Array;
  /** Queens on diagonal r - c + n - 1 (16-bit: a quarter of the memory traffic of Int32 at N = 10^7). */
  readonly diag: Uint16Array;
  /** Queens on anti-diagonal r + c. */
  readonly anti: Uint16Array;
  private readonly rng: FastRandom;
  /** Rows that may be attacked (a stack; entries are re-checked when popped). */
  private work: Int32Array;
  private workSize = 0;
  private conflicts = 0;
  private best = Infinity;
  private sinceBest = 0;
  private steps = 0;
  private moves = 0;
  private restarts = 0;
  private verified: boolean | null = null;
  /** Conflicts left by the first greedy start (-1 until it has finished). */
  private firstStartConflicts = -1;
  /** The greedy start in progress: rows placed so far (n when none is in progress). */
  private startRow: number;
  /** Occupied diagonals as bit sets while a greedy start runs (see greedyStart). */
  private usedDiag = new Int32Array(0);
  private usedAnti = new Int32Array(0);

  /**
   * With `deferStart`, the first greedy start is left to continueStart(), so that a host can
   * run it in slices (at N = 10^7 it takes seconds) and cancel in between. The placement and
   * the random draws are the same either way.
   */
  constructor(params: MinConflictsParams, seed: number, options: { deferStart?: boolean } = {}) {
    validateMinConflictsParams(params);
    this.params = { ...params };
    const n = (this.n = params.n);
    this.queens = new Int32Array(n);
    this.diag = new Uint16Array(2 * n - 1);
    this.anti = new Uint16Array(2 * n - 1);
    this.work = new Int32Array(Math.max(16, Math.min(n, 1 << 16)));
    this.rng = new FastRandom(Random.fromSeed(seed));
    this.startRow = n;
    this.beginStart();
    if (!options.deferStart) this.continueStart(n);
  }

  /** Conflicts left by the first greedy start (the start must have finished). */
  get initialConflicts(): number {
    if (this.firstStartConflicts < 0) throw new Error('the greedy start has not finished (continueStart)');
    return this.firstStartConflicts;
  }

  /** Rows placed by the greedy start in progress (n once it has finished). */
  get placedRows(): number {
    return this.startRow;
  }

  /** Whether the first greedy start has finished (always, without deferStart). */
  get started(): boolean {
    return this.startRow === this.n;
  }

  /** Places up to `rows` more rows of the greedy start in progress; true once it has finished. */
  continueStart(rows: number): boolean {
    if (this.startRow < this.n) this.placeRows(Math.min(this.n, this.startRow + Math.max(1, rows)));
    return this.startRow === this.n;
  }

  /** Attacking pairs in the current placement. */
  get conflictCount(): number {
    return this.conflicts;
  }

  /** Solved, as confirmed by verifySolution() (computed once per solution). */
  get solved(): boolean {
    if (this.conflicts !== 0 || !this.started) return false;
    if (this.verified === null) this.verified = verifySolution(this.queens);
    return this.verified;
  }

  progress(): MinConflictsProgress {
    return { steps: this.steps, conflicts: this.conflicts, pending: this.workSize, restarts: this.restarts };
  }

  /** A fresh greedy start, whole (restarts). */
  private greedyStart(): void {
    this.beginStart();
    this.placeRows(this.n);
  }

  private beginStart(): void {
    const { n, queens, diag, anti } = this;
    diag.fill(0);
    anti.fill(0);
    this.workSize = 0;
    this.verified = null;
    for (let i = 0; i < n; i++) queens[i] = i;
    // Occupied diagonals as bit sets for the tries: they stay in cache where the counters
    // (2 x 2N x 16 bits) do not, and a try touches only them and the column list.
    this.usedDiag = new Int32Array((2 * n + 31) >>> 5);
    this.usedAnti = new Int32Array((2 * n + 31) >>> 5);
    this.conflicts = 0;
    this.startRow = 0;
  }

  /** Places rows startRow..end-1 of the greedy start; finishes it at end = n. */
  private placeRows(end: number): void {
    const { n, queens, diag, anti, rng, usedDiag, usedAnti } = this;
    const tries = this.params.greedyTries;
    const n1 = n - 1;
    let conflicts = this.conflicts;
    for (let r = this.startRow; r < end; r++) {
      let j = r;
      for (let t = 0; t < tries; t++) {
        j = r + rng.below(n - r);
        const c = queens[j];
        const d = r - c + n1;
        const a = r + c;
        if (((usedDiag[d >>> 5] >>> (d & 31)) & 1) === 0 && ((usedAnti[a >>> 5] >>> (a & 31)) & 1) === 0) break;
      }
      const c = queens[j];
      queens[j] = queens[r];
      queens[r] = c;
      const d = r - c + n1;
      const a = r + c;
      usedDiag[d >>> 5] |= 1 << (d & 31);
      usedAnti[a >>> 5] |= 1 << (a & 31);
      if (diag[d] >= COUNT_LIMIT || anti[a] >= COUNT_LIMIT) throw new Error(`greedyTries: ${tries} left a diagonal with ${COUNT_LIMIT} queens; raise it`);
      const hits = diag[d]++ + anti[a]++;
      // Each attacked pair formed here has this row as a member, so the list covers all of them.
      if (hits > 0) {
        conflicts += hits;
        this.push(r);
      }
    }
    this.conflicts = conflicts;
    this.startRow = end;
    if (end < n) return;
    this.usedDiag = this.usedAnti = new Int32Array(0);
    this.best = conflicts;
    this.sinceBest = 0;
    if (this.firstStartConflicts < 0) this.firstStartConflicts = conflicts;
  }

  private attacked(r: number): boolean {
    const c = this.queens[r];
    return this.diag[r - c + this.n - 1] > 1 || this.anti[r + c] > 1;
  }

  private push(r: number): void {
    if (this.workSize === this.work.length) {
      const bigger = new Int32Array(this.work.length * 2);
      bigger.set(this.work);
      this.work = bigger;
    }
    this.work[this.workSize++] = r;
  }

  /** Change in attacking pairs if the queens of rows i and j swapped columns. */
  private swapDelta(i: number, j: number): number {
    const { queens, diag, anti } = this;
    const n1 = this.n - 1;
    const ci = queens[i];
    const cj = queens[j];
    const d1 = i - ci + n1,
      a1 = i + ci,
      d2 = j - cj + n1,
      a2 = j + cj;
    const d3 = i - cj + n1,
      a3 = i + cj,
      d4 = j - ci + n1,
      a4 = j + ci;
    let before = --diag[d1] + --anti[a1];
    before += --diag[d2] + --anti[a2];
    let after = diag[d3]++ + anti[a3]++;
    after += diag[d4] + anti[a4];
    diag[d3]--;
    anti[a3]--;
    diag[d1]++;
    anti[a1]++;
    diag[d2]++;
    anti[a2]++;
    return after - before;
  }

  private swap(i: number, j: number, delta: number): void {
    const { queens, diag, anti } = this;
    const n1 = this.n - 1;
    const ci = queens[i];
    const cj = queens[j];
    diag[i - ci + n1]--;
    anti[i + ci]--;
    diag[j - cj + n1]--;
    anti[j + cj]--;
    queens[i] = cj;
    queens[j] = ci;
    diag[i - cj + n1]++;
    anti[i + cj]++;
    diag[j - ci + n1]++;
    anti[j + ci]++;
    this.conflicts += delta;
    this.moves++;
    // Any queen on the four lines the moved queens now occupy may have become attacked; only
    // i and j themselves are tracked (the others are found when their own line is re-examined
    // or by the rescan below).
    if (this.attacked(i)) this.push(i);
    if (this.attacked(j)) this.push(j);
  }

  /**
   * Does up to `budget` steps. Returns true when solved (verified), false when the budget or the
   * step limit ran out.
   */
  advance(budget: number): boolean {
    if (!this.started) throw new Error('the greedy start has not finished (continueStart)');
    const { n, rng } = this;
    const { samples, noise, restartAfter, maxSteps } = this.params;
    const k = Math.min(samples, n - 1);
    const stop = Math.min(maxSteps, this.steps + budget);
    while (this.conflicts > 0 && this.steps < stop) {
      if (this.workSize === 0) {
        // The list only tracks moved queens; a queen attacked by a newcomer is found here.
        for (let r = 0; r < n; r++) if (this.attacked(r)) this.push(r);
      }
      const pick = rng.below(this.workSize);
      const i = this.work[pick];
      if (!this.attacked(i)) {
        this.work[pick] = this.work[--this.workSize];
        continue;
      }
      this.steps++;
      let bestJ = -1;
      let bestDelta = Infinity;
      for (let s = 0; s < k; s++) {
        let j = rng.below(n - 1);
        if (j >= i) j++;
        const d = this.swapDelta(i, j);
        if (d < bestDelta) {
          bestDelta = d;
          bestJ = j;
        }
      }
      if ((bestDelta <= 0 || rng.chance(noise)) && this.fits(i, bestJ)) this.swap(i, bestJ, bestDelta);
      if (this.conflicts < this.best) {
        this.best = this.conflicts;
        this.sinceBest = 0;
      } else if (restartAfter > 0 && ++this.sinceBest >= restartAfter) {
        this.restarts++;
        this.greedyStart();
      }
    }
    return this.solved;
  }

  /** Whether swapping rows i and j keeps every diagonal counter below its 16-bit limit. */
  private fits(i: number, j: number): boolean {
    const { queens, diag, anti } = this;
    const n1 = this.n - 1;
    const ci = queens[i];
    const cj = queens[j];
    return diag[i - cj + n1] < COUNT_LIMIT - 1 && anti[i + cj] < COUNT_LIMIT - 1 && diag[j - ci + n1] < COUNT_LIMIT - 1 && anti[j + ci] < COUNT_LIMIT - 1;
  }

  run(onProgress?: (p: MinConflictsProgress) => boolean | void, every = 10_000): MinConflictsResult {
    const { maxSteps } = this.params;
    let solved = this.advance(every);
    while (!solved && this.steps < maxSteps) {
      if (onProgress && onProgress(this.progress()) === false) break;
      solved = this.advance(every);
    }
    return this.result();
  }

  result(): MinConflictsResult {
    return {
      solved: this.solved,
      steps: this.steps,
      moves: this.moves,
      restarts: this.restarts,
      initialConflicts: this.initialConflicts,
      queens: this.queens,
      conflicts: this.conflicts,
    };
  }
}

export function runMinConflicts(params: MinConflictsParams, seed: number): MinConflictsResult {
  return new MinConflicts(params, seed).run();
}
