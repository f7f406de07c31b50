/**
 * The incremental evaluator: a sequence with its evaluation, updated in O(1) per change.
 *
 * Changing position p touches, for every feature and constraint, a constant number of
 * things, whatever N is:
 *   - F1..F5: one face moves between two categories in each window holding p; the sum of
 *     squared counts changes by 2 (c_new - c_old) + 2, and chi = 6 S2 / n - n.
 *   - F6..F14: the (at most 6) windows starting in [p - 5, p]; each keeps its code as an index
 *     into WINDOW_TABLE, so the new index is old + (new - old) * 6^k and the packed pattern
 *     fields of old and new windows give every pattern count's change at once.
 *   - F15: the (at most 7) start positions in [p - 6, p], from x[i], x[i+6] and the inner
 *     count that the same table holds for the 6-face window at i.
 *   - g_d: one block per d; its code (read from the d faces) changes by (new - old) * 6^k,
 *     and the count table gives the change of S2 in two lookups.
 * `peekSet` / `peekSwap` answer "what would it be" without committing; `set` / `swap` commit.
 */
import type { DiceConfig } from './config.ts';
import { createCountTable, type CountTable } from './count-table.ts';
import { DiceEvaluator, PreparedConfig, createValues, type DiceEvaluation, type DiceValues } from './evaluate.ts';
import * as F from './features.ts';
import { toFaces, formatSequence } from './sequence.ts';

// Module-local copies: some loaders (tsx) turn imported bindings into getter calls, which
// costs more than the rest of a change on the hot path.
const { ACC_MASK, CHI_FEATURES, F15_INNER, FIELD_BITS, FIELD_MASK, INNER_SHIFT, PATTERN_FEATURES, TABLE_FEATURES, TABLE_LENGTH, WINDOW_OFFSET, WINDOW_TABLE, chiSquareFromSquares } = F;
const POW6 = Float64Array.from(F.POW6);
/** 6^0..6^11 as integers, for window-index arithmetic. */
const POW6_INT = Int32Array.from(F.POW6.slice(0, 12));
const F15 = TABLE_FEATURES; // pattern feature 9 is F15
const LAST = TABLE_LENGTH; // F15 compares x[i] with x[i + 6]
/** Longest sequence for which block codes are stored rather than read from the faces. */
const CODE_CACHE_LIMIT = 4096;
/** Up to this many blocks, a hashed d counts codes by scanning the stored ones. */
const SCAN_LIMIT = 16;

function copyValues(from: DiceValues, to: DiceValues): void {
  to.features.set(from.features);
  to.errors.set(from.errors);
  to.objectives.set(from.objectives);
  to.chi.set(from.chi);
  to.constraints.set(from.constraints);
}

/** The base-6 code of the d faces from `start` (faces 1..6, first face most significant). */
function blockCode(faces: Uint8Array, start: number, d: number): number {
  let code = 0;
  for (let t = start, end = start + d; t < end; t++) code = code * 6 + faces[t] - 1;
  return code;
}

export class DiceState {
  readonly prepared: PreparedConfig;
  readonly n: number;
  /** The current evaluation. Read-only for callers; replaced in place by commits. */
  values: DiceValues;
  private spare: DiceValues;
  private readonly probe: DiceValues;

  private readonly faces: Uint8Array;
  /** WINDOW_OFFSET[L] + code of the window of length L = min(6, N - i) starting at i. */
  private readonly windowIndex: Int32Array;
  private readonly patternCounts: Int32Array;
  /** Face counts of the F1..F5 windows, 7 slots per window (faces 1..6). */
  private readonly faceCounts: Int32Array;
  private readonly faceSquares: Float64Array;
  private readonly blockCount: Int32Array;
  private readonly tables: CountTable[];
  private readonly blockSquares: Float64Array;
  /**
   * Per constraint l: the code of every block (codes < 6^12 < 2^32), kept only for short
   * sequences (CODE_CACHE_LIMIT), where the arrays stay in L1. For long ones a stored code is
   * one more cache miss per d, and reading the d faces (one cache line) is cheaper.
   */
  private readonly codes: (Uint32Array | null)[];
  /** Per constraint l: the dense count array, updated here directly; null when hashed. */
  private readonly dense: (Int32Array | null)[];

  constructor(config: DiceConfig, x: string | Uint8Array) {
    this.prepared = new PreparedConfig(config);
    const n = (this.n = config.n);
    this.faces = Uint8Array.from(toFaces(x, n));
    this.values = createValues(config);
    this.spare = createValues(config);
    this.probe = createValues(config);
    this.windowIndex = new Int32Array(n);
    this.patternCounts = new Int32Array(PATTERN_FEATURES);
    this.faceCounts = new Int32Array(7 * CHI_FEATURES);
    this.faceSquares = new Float64Array(CHI_FEATURES);
    const L = config.constraints.length;
    this.blockCount = Int32Array.from(config.constraints, (d) => Math.floor(n / d));
    this.tables = config.constraints.map((d, l) => createCountTable(POW6[d], this.blockCount[l]));
    this.blockSquares = new Float64Array(L);
    this.codes = Array.from(this.blockCount, (b) => (n <= CODE_CACHE_LIMIT ? new Uint32Array(b) : null));
    this.dense = this.tables.map((t) => t.denseCounts());
    this.rebuild();
  }

  /** Recomputes every count from the faces (construction, and a check on drift). */
  private rebuild(): void {
    const { n, faces, prepared } = this;
    this.patternCounts.fill(0);
    for (let i = 0; i < n; i++) {
      const len = Math.min(TABLE_LENGTH, n - i);
      let code = 0;
      for (let j = i; j < i + len; j++) code = code * 6 + faces[j] - 1;
      const index = WINDOW_OFFSET[len] + code;
      this.windowIndex[i] = index;
      const packed = WINDOW_TABLE[index];
      for (let k = 0; k < TABLE_FEATURES; k++) this.patternCounts[k] += (packed >>> (FIELD_BITS * k)) & FIELD_MASK;
      if (i + LAST < n && faces[i] === faces[i + LAST] && packed >>> INNER_SHIFT === F15_INNER) this.patternCounts[F15]++;
    }
    this.faceCounts.fill(0);
    for (let w = 0; w < CHI_FEATURES; w++) {
      const start = prepared.windows[2 * w];
      const end = prepared.windows[2 * w + 1];
      for (let i = start; i < end; i++) this.faceCounts[7 * w + faces[i]]++;
      let s2 = 0;
      for (let f = 1; f <= 6; f++) s2 += this.faceCounts[7 * w + f] ** 2;
      this.faceSquares[w] = s2;
    }
    prepared.blockLengths.forEach((d, l) => {
      const table = this.tables[l];
      // Direct updates bypass the table's record of what to clear: clear the array itself.
      this.dense[l]?.fill(0);
      table.clear();
      const codes = this.codes[l];
      for (let j = 0; j < this.blockCount[l]; j++) {
        const code = blockCode(faces, j * d, d);
        if (codes !== null) codes[j] = code;
        table.increment(code);
      }
      this.blockSquares[l] = table.sumSquares;
    });
    this.fillValues(this.values);
  }

  private fillValues(out: DiceValues): void {
    const { prepared } = this;
    for (let w = 0; w < CHI_FEATURES; w++) out.features[w] = chiSquareFromSquares(this.faceSquares[w], prepared.windows[2 * w + 1] - prepared.windows[2 * w], 6);
    for (let k = 0; k < PATTERN_FEATURES; k++) out.features[CHI_FEATURES + k] = this.patternCounts[k];
    prepared.finishObjectives(out);
    for (let l = 0; l < prepared.blockLengths.length; l++) {
      const chi = chiSquareFromSquares(this.blockSquares[l], this.blockCount[l], POW6[prepared.blockLengths[l]]);
      out.chi[l] = chi;
      out.constraints[l] = prepared.constraintValue(l, chi);
    }
  }

  /** Faces 1..6 at position p. */
  face(p: number): number {
    return this.faces[p];
  }

  /** A copy of the sequence as faces 1..6. */
  sequence(): Uint8Array {
    return this.faces.slice();
  }

  toString(): string {
    return formatSequence(this.faces);
  }

  evaluation(): DiceEvaluation {
    return this.prepared.toEvaluation(this.values);
  }

  /**
   * The evaluation after x[p] = face, into `out`. With `commit`, the counts are updated too.
   * Callers make sure face differs from x[p] (both entry points check).
   */
  private apply(p: number, face: number, out: DiceValues, commit: boolean): void {
    const { prepared, faces, n } = this;
    const old = faces[p];
    const step = face - old;
    const { features } = out;

    // F1..F5
    const fc = this.faceCounts;
    for (let w = 0; w < CHI_FEATURES; w++) {
      const start = prepared.windows[2 * w];
      const end = prepared.windows[2 * w + 1];
      if (p < start || p >= end) {
        features[w] = this.values.features[w];
        continue;
      }
      const base = 7 * w;
      const s2 = this.faceSquares[w] + 2 * (fc[base + face] - fc[base + old]) + 2;
      features[w] = chiSquareFromSquares(s2, end - start, 6);
      if (commit) {
        fc[base + face]++;
        fc[base + old]--;
        this.faceSquares[w] = s2;
      }
    }

    // F15 first, while windowIndex still holds the old windows.
    const wi = this.windowIndex;
    let f15Change = 0;
    const last = p < n - LAST ? p : n - LAST - 1;
    for (let i = p >= LAST ? p - LAST : 0; i <= last; i++) {
      const index = wi[i];
      const before = faces[i] === faces[i + LAST] && WINDOW_TABLE[index] >>> INNER_SHIFT === F15_INNER;
      // Every window here is whole (i + 6 < N); it holds p unless i = p - 6.
      const next = i + LAST === p ? index : index + step * POW6_INT[TABLE_LENGTH - 1 - (p - i)];
      const first = i === p ? face : faces[i];
      const end = i + LAST === p ? face : faces[i + LAST];
      const after = first === end && WINDOW_TABLE[next] >>> INNER_SHIFT === F15_INNER;
      f15Change += (after ? 1 : 0) - (before ? 1 : 0);
    }

    // F6..F14
    let oldAcc = 0;
    let newAcc = 0;
    for (let i = p >= TABLE_LENGTH - 1 ? p - TABLE_LENGTH + 1 : 0; i <= p; i++) {
      const len = n - i < TABLE_LENGTH ? n - i : TABLE_LENGTH;
      const index = wi[i];
      const next = index + step * POW6_INT[len - 1 - (p - i)];
      oldAcc += WINDOW_TABLE[index] & ACC_MASK;
      newAcc += WINDOW_TABLE[next] & ACC_MASK;
      if (commit) wi[i] = next;
    }
    const pc = this.patternCounts;
    for (let k = 0; k < TABLE_FEATURES; k++) {
      const shift = FIELD_BITS * k;
      const count = pc[k] + ((newAcc >>> shift) & FIELD_MASK) - ((oldAcc >>> shift) & FIELD_MASK);
      features[CHI_FEATURES + k] = count;
      if (commit) pc[k] = count;
    }
    features[CHI_FEATURES + F15] = pc[F15] + f15Change;
    if (commit) pc[F15] += f15Change;
    prepared.finishObjectives(out);

    // g_d
    const lengths = prepared.blockLengths;
    for (let l = 0; l < lengths.length; l++) {
      const d = lengths[l];
      const j = (p / d) | 0;
      if (j >= this.blockCount[l]) {
        out.chi[l] = this.values.chi[l];
        out.constraints[l] = this.values.constraints[l];
        continue;
      }
      const codes = this.codes[l];
      const before = codes !== null ? codes[j] : blockCode(faces, j * d, d);
      const after = before + step * POW6[d - 1 - (p - j * d)];
      // S2 changes by 2 (c_after - c_before) + 2.
      const dense = this.dense[l];
      let change: number;
      if (dense !== null) {
        const countBefore = dense[before];
        const countAfter = dense[after];
        change = countAfter - countBefore;
        if (commit) {
          dense[before] = countBefore - 1;
          dense[after] = countAfter + 1;
        }
      } else if (codes !== null && codes.length <= SCAN_LIMIT) {
        // A handful of blocks (large d, short sequence): counting the two codes among the
        // stored ones is cheaper than two hash-table operations, and a commit only stores the
        // new code (the hash table is left as it was; rebuild() refills it).
        let countBefore = 0;
        let countAfter = 0;
        for (let k = 0; k < codes.length; k++) {
          const c = codes[k];
          countBefore += c === before ? 1 : 0;
          countAfter += c === after ? 1 : 0;
        }
        change = countAfter - countBefore;
      } else {
        const table = this.tables[l];
        // A commit learns both counts from its updates.
        change = commit ? table.increment(after) - table.decrement(before) : table.get(after) - table.get(before);
      }
      if (commit && codes !== null) codes[j] = after;
      const s2 = this.blockSquares[l] + 2 * change + 2;
      const chi = chiSquareFromSquares(s2, this.blockCount[l], POW6[d]);
      out.chi[l] = chi;
      out.constraints[l] = prepared.constraintValue(l, chi);
      if (commit) this.blockSquares[l] = s2;
    }
    if (commit) faces[p] = face;
  }

  private checkChange(p: number, face: number): void {
    if (!Number.isInteger(p) || p < 0 || p >= this.n) throw new RangeError(`position ${p} is outside the sequence (0..${this.n - 1})`);
    if (!Number.isInteger(face) || face < 1 || face > 6) throw new RangeError(`face ${face} is not a die face 1-6`);
  }

  /** Sets x[p] = face (1..6) and updates the evaluation. */
  set(p: number, face: number): void {
    this.checkChange(p, face);
    if (this.faces[p] === face) return;
    this.apply(p, face, this.spare, true);
    const previous = this.values;
    this.values = this.spare;
    this.spare = previous;
  }

  /** The evaluation if x[p] were `face`, without changing the state. The result is reused by the next peek. */
  peekSet(p: number, face: number): DiceValues {
    this.checkChange(p, face);
    if (this.faces[p] === face) copyValues(this.values, this.probe);
    else this.apply(p, face, this.probe, false);
    return this.probe;
  }

  /** Swaps x[p] and x[q]. */
  swap(p: number, q: number): void {
    const a = this.faces[p];
    const b = this.faces[q];
    this.checkChange(p, b);
    this.checkChange(q, a);
    if (a === b) return;
    this.set(p, b);
    this.set(q, a);
  }

  /** The evaluation if x[p] and x[q] were swapped, without changing the state. Reused by the next peek. */
  peekSwap(p: number, q: number): DiceValues {
    const a = this.faces[p];
    const b = this.faces[q];
    this.checkChange(p, b);
    this.checkChange(q, a);
    if (a === b) {
      copyValues(this.values, this.probe);
      return this.probe;
    }
    // Two interacting changes: commit the first, peek the second, undo the first.
    this.set(p, b);
    this.apply(q, a, this.probe, false);
    this.set(p, a);
    return this.probe;
  }

  /** Replaces the whole sequence (a full pass). */
  reset(x: string | Uint8Array): void {
    this.faces.set(toFaces(x, this.n));
    this.rebuild();
  }
}

/** A fresh full evaluation of the state's sequence, for checks. */
export function fullEvaluationOf(state: DiceState): DiceEvaluation {
  return new DiceEvaluator(state.prepared.config).evaluate(state.sequence());
}
