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
import { BlockTable, blockTableCapacities, countsDense } from './count-table.ts';
import { DiceEvaluator, PreparedConfig, createValues, type DiceEvaluation, type DiceValues } from './evaluate.ts';
import * as F from './features.ts';
import { toFaces, formatSequence } from './sequence.ts';

// Module-local copies: some loaders (tsx) turn imported bindings into getter calls, which
// costs more than the rest of a change on the hot path.
const {
  ACC_MASK,
  CHI_FEATURES,
  F15_INNER,
  FIELD_BITS,
  FIELD_MASK,
  INNER_SHIFT,
  PATTERN_FEATURES,
  TABLE_FEATURES,
  TABLE_LENGTH,
  WINDOW_OFFSET,
  WINDOW_TABLE,
  chiSquareFromSquares,
} = F;
const POW6 = Float64Array.from(F.POW6);
/** 6^0..6^11 as integers, for window-index arithmetic. */
const POW6_INT = Int32Array.from(F.POW6.slice(0, 12));
const F15 = TABLE_FEATURES; // pattern feature 9 is F15
const LAST = TABLE_LENGTH; // F15 compares x[i] with x[i + 6]
/** windowIndex of a whole (6-face) window minus this is the window's code. */
const WHOLE = WINDOW_OFFSET[TABLE_LENGTH];
/** Up to this many blocks, a d whose counts would be hashed keeps its codes and counts by scanning them. */
const SCAN_LIMIT = 16;
/** 1 / 6^k: floor((c + 0.5) / 6^k) drops the last k digits of a code c exactly (c < 2^26). */
const INV_POW6 = Float64Array.from(F.POW6, (v) => 1 / v);

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
  private readonly windowIndex: Uint16Array;
  private readonly patternCounts: Int32Array;
  /** Face counts of the F1..F5 windows, 7 slots per window (faces 1..6). */
  private readonly faceCounts: Int32Array;
  private readonly faceSquares: Float64Array;
  /** Per constraint l: d, the number of blocks floor(N / d), 1 / d, and the sum of squared block counts. */
  private readonly blockLength: Int32Array;
  private readonly blockCount: Int32Array;
  private readonly blockInverse: Float64Array;
  private readonly blockSquares: Float64Array;
  /**
   * The constraints whose counts are dense, and where each one's counts start in denseCounts:
   * small alphabets (d <= 5), and d = 6, 7 once there are at least 1/16 as many blocks as codes
   * (d = 6 from N = 17,496: at N = 27720 two reads of a 93 kB array beat the hashed table's
   * three dependent reads, +5% changes/s measured interleaved). Counts are 16-bit below
   * N = 65,536 (half the cache lines), 32-bit beyond. A block's code is read from windowIndex
   * (the 6-face window at the block's start holds its first faces), so nothing per block is
   * stored for them.
   */
  private readonly denseL: Int32Array;
  /**
   * Per dense constraint, 1 when it has at least 4 codes per block. There nearly every change
   * moves a block from a code of count 1 to one of count 0, which leaves S2 (and chi, g) as
   * they were, and applyBlocks skips the division; with denser counts that test went either
   * way and its mispredicted branch cost more than the division (measured interleaved: +2%
   * changes and peeks without it there). Hashed and scanned constraints are always sparse.
   */
  private readonly denseSparse: Uint8Array;
  private readonly denseBase: Int32Array;
  private readonly denseCounts: Int32Array | Uint16Array;
  /**
   * The constraints with a handful of blocks from a large alphabet (short sequences), where
   * each block's code is kept (from scanBase[k] in scanCodes, as int32) and a count is a scan
   * of them: cheaper than a table, and a commit only stores the new code.
   */
  private readonly scanL: Int32Array;
  private readonly scanBase: Int32Array;
  private readonly scanCodes: Int32Array;
  /** The constraints whose counts are hashed, and their tables (which know each block's slot). */
  private readonly hashedL: Int32Array;
  private readonly hashed: BlockTable[];

  constructor(config: DiceConfig, x: string | Uint8Array) {
    this.prepared = new PreparedConfig(config);
    const n = (this.n = config.n);
    this.faces = Uint8Array.from(toFaces(x, n));
    this.values = createValues(config);
    this.spare = createValues(config);
    this.probe = createValues(config);
    this.windowIndex = new Uint16Array(n);
    this.patternCounts = new Int32Array(PATTERN_FEATURES);
    this.faceCounts = new Int32Array(7 * CHI_FEATURES);
    this.faceSquares = new Float64Array(CHI_FEATURES);
    const L = config.constraints.length;
    this.blockLength = Int32Array.from(config.constraints);
    this.blockCount = Int32Array.from(config.constraints, (d) => Math.floor(n / d));
    this.blockInverse = Float64Array.from(config.constraints, (d) => 1 / d);
    this.blockSquares = new Float64Array(L);
    const dense: number[] = [];
    const scanned: number[] = [];
    const hashed: number[] = [];
    config.constraints.forEach((d, l) =>
      (countsDense(POW6[d], this.blockCount[l], POW6[d] <= 16 * this.blockCount[l]) ? dense : this.blockCount[l] <= SCAN_LIMIT ? scanned : hashed).push(l),
    );
    this.scanL = Int32Array.from(scanned);
    this.scanBase = new Int32Array(scanned.length);
    let codes = 0;
    scanned.forEach((l, k) => {
      this.scanBase[k] = codes;
      codes += this.blockCount[l];
    });
    this.scanCodes = new Int32Array(codes);
    this.denseL = Int32Array.from(dense);
    this.denseSparse = Uint8Array.from(dense, (l) => (POW6[config.constraints[l]] >= 4 * this.blockCount[l] ? 1 : 0));
    this.denseBase = new Int32Array(dense.length);
    let size = 0;
    dense.forEach((l, k) => {
      this.denseBase[k] = size;
      size += POW6[config.constraints[l]];
    });
    this.denseCounts = n < 65536 ? new Uint16Array(size) : new Int32Array(size);
    this.hashedL = Int32Array.from(hashed);
    const capacities = blockTableCapacities(hashed.map((l) => this.blockCount[l]));
    this.hashed = hashed.map((l, k) => new BlockTable(this.blockCount[l], capacities[k]));
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
    this.denseCounts.fill(0);
    this.denseL.forEach((l, k) => {
      const d = this.blockLength[l];
      const base = this.denseBase[k];
      let s2 = 0;
      for (let j = 0; j < this.blockCount[l]; j++) s2 += 2 * this.denseCounts[base + blockCode(faces, j * d, d)]++ + 1;
      this.blockSquares[l] = s2;
    });
    this.scanL.forEach((l, k) => {
      const d = this.blockLength[l];
      const base = this.scanBase[k];
      const blocks = this.blockCount[l];
      let pairs = 0;
      for (let j = 0; j < blocks; j++) {
        const code = blockCode(faces, j * d, d) | 0;
        for (let i = 0; i < j; i++) pairs += this.scanCodes[base + i] === code ? 1 : 0;
        this.scanCodes[base + j] = code;
      }
      this.blockSquares[l] = blocks + 2 * pairs;
    });
    this.hashedL.forEach((l, k) => {
      const d = this.blockLength[l];
      const table = this.hashed[k];
      table.clear();
      let s2 = 0;
      for (let j = 0; j < this.blockCount[l]; j++) {
        const at = table.enter(blockCode(faces, j * d, d) | 0);
        s2 += 2 * table.slots[at + 1]++ + 1;
        table.blockSlot[j] = at;
      }
      table.settle();
      this.blockSquares[l] = s2;
    });
    this.fillValues(this.values);
  }

  private fillValues(out: DiceValues): void {
    const { prepared } = this;
    for (let w = 0; w < CHI_FEATURES; w++)
      out.features[w] = chiSquareFromSquares(this.faceSquares[w], prepared.windows[2 * w + 1] - prepared.windows[2 * w], 6);
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
    // Without a branch: whether p lies in one of the four shorter windows is a coin toss, and
    // the mispredicted branch cost more than the division a window without p then gets (its
    // S2, so its chi, stays as it was; measured interleaved: +1% to +2.5%).
    const fc = this.faceCounts;
    const windows = prepared.windows;
    const squares = this.faceSquares;
    for (let w = 0; w < CHI_FEATURES; w++) {
      const start = windows[2 * w];
      const end = windows[2 * w + 1];
      const inside = (((p - start) | (end - 1 - p)) >>> 31) ^ 1; // start <= p < end
      const base = 7 * w;
      const s2 = squares[w] + inside * (2 * (fc[base + face] - fc[base + old]) + 2);
      features[w] = chiSquareFromSquares(s2, end - start, 6);
      if (commit) {
        fc[base + face] += inside;
        fc[base + old] -= inside;
        squares[w] = s2;
      }
    }

    // g_d first, while windowIndex still holds the old windows.
    this.applyBlocks(p, step, out, commit);
    if (p >= LAST && p < n - LAST) this.applyPatternsInside(p, face, old, features, commit);
    else this.applyPatterns(p, face, old, features, commit);
    prepared.finishObjectives(out);
    if (commit) faces[p] = face;
  }

  /**
   * F6..F15 after x[p] = face (was old), at any position. Reads and updates windowIndex for
   * the windows holding p.
   */
  private applyPatterns(p: number, face: number, old: number, features: Float64Array, commit: boolean): void {
    const { faces, n } = this;
    const step = face - old;
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
  }

  /**
   * applyPatterns for 6 <= p < N - 6, where every window in reach is whole: the six windows
   * holding p and the one ending just before it, unrolled and without a branch (an equality
   * a = b is ((a ^ b) - 1) >>> 31; F15's tests on faces went either way at random, and each
   * mispredicted one cost more than the lookups).
   */
  private applyPatternsInside(p: number, face: number, old: number, features: Float64Array, commit: boolean): void {
    const faces = this.faces;
    const wi = this.windowIndex;
    const T = WINDOW_TABLE;
    const step = face - old;
    // Windows starting at p - 5 .. p: p is their face 5 .. 0, weight 6^0 .. 6^5.
    const i0 = wi[p - 5];
    const i1 = wi[p - 4];
    const i2 = wi[p - 3];
    const i3 = wi[p - 2];
    const i4 = wi[p - 1];
    const i5 = wi[p];
    const j0 = i0 + step;
    const j1 = i1 + step * 6;
    const j2 = i2 + step * 36;
    const j3 = i3 + step * 216;
    const j4 = i4 + step * 1296;
    const j5 = i5 + step * 7776;
    const o0 = T[i0];
    const o1 = T[i1];
    const o2 = T[i2];
    const o3 = T[i3];
    const o4 = T[i4];
    const o5 = T[i5];
    const n0 = T[j0];
    const n1 = T[j1];
    const n2 = T[j2];
    const n3 = T[j3];
    const n4 = T[j4];
    const n5 = T[j5];
    const oldAcc = (o0 & ACC_MASK) + (o1 & ACC_MASK) + (o2 & ACC_MASK) + (o3 & ACC_MASK) + (o4 & ACC_MASK) + (o5 & ACC_MASK);
    const newAcc = (n0 & ACC_MASK) + (n1 & ACC_MASK) + (n2 & ACC_MASK) + (n3 & ACC_MASK) + (n4 & ACC_MASK) + (n5 & ACC_MASK);
    // F15 at i: x[i] = x[i + 6] and the window at i has 2 inner faces equal to x[i].
    // i = p - 6: its window (p - 6 .. p - 1) is unchanged; x[i + 6] = x[p] is what changes.
    const inner6 = ((((T[wi[p - 6]] >>> INNER_SHIFT) ^ F15_INNER) - 1) >>> 31) & 1;
    const first6 = faces[p - 6];
    // i = p - 5 .. p - 1: the faces compared stay, the inner count may change.
    const e0 = (((faces[p - 5] ^ faces[p + 1]) - 1) >>> 31) & 1;
    const e1 = (((faces[p - 4] ^ faces[p + 2]) - 1) >>> 31) & 1;
    const e2 = (((faces[p - 3] ^ faces[p + 3]) - 1) >>> 31) & 1;
    const e3 = (((faces[p - 2] ^ faces[p + 4]) - 1) >>> 31) & 1;
    const e4 = (((faces[p - 1] ^ faces[p + 5]) - 1) >>> 31) & 1;
    const last = faces[p + 6];
    const f15Before =
      ((((first6 ^ old) - 1) >>> 31) & inner6) +
      (e0 & ((((o0 >>> INNER_SHIFT) ^ F15_INNER) - 1) >>> 31)) +
      (e1 & ((((o1 >>> INNER_SHIFT) ^ F15_INNER) - 1) >>> 31)) +
      (e2 & ((((o2 >>> INNER_SHIFT) ^ F15_INNER) - 1) >>> 31)) +
      (e3 & ((((o3 >>> INNER_SHIFT) ^ F15_INNER) - 1) >>> 31)) +
      (e4 & ((((o4 >>> INNER_SHIFT) ^ F15_INNER) - 1) >>> 31)) +
      ((((old ^ last) - 1) >>> 31) & ((((o5 >>> INNER_SHIFT) ^ F15_INNER) - 1) >>> 31));
    const f15After =
      ((((first6 ^ face) - 1) >>> 31) & inner6) +
      (e0 & ((((n0 >>> INNER_SHIFT) ^ F15_INNER) - 1) >>> 31)) +
      (e1 & ((((n1 >>> INNER_SHIFT) ^ F15_INNER) - 1) >>> 31)) +
      (e2 & ((((n2 >>> INNER_SHIFT) ^ F15_INNER) - 1) >>> 31)) +
      (e3 & ((((n3 >>> INNER_SHIFT) ^ F15_INNER) - 1) >>> 31)) +
      (e4 & ((((n4 >>> INNER_SHIFT) ^ F15_INNER) - 1) >>> 31)) +
      ((((face ^ last) - 1) >>> 31) & ((((n5 >>> INNER_SHIFT) ^ F15_INNER) - 1) >>> 31));
    const pc = this.patternCounts;
    for (let k = 0; k < TABLE_FEATURES; k++) {
      const shift = FIELD_BITS * k;
      const count = pc[k] + ((newAcc >>> shift) & FIELD_MASK) - ((oldAcc >>> shift) & FIELD_MASK);
      features[CHI_FEATURES + k] = count;
      if (commit) pc[k] = count;
    }
    const f15 = pc[F15] + f15After - f15Before;
    features[CHI_FEATURES + F15] = f15;
    if (commit) {
      pc[F15] = f15;
      wi[p - 5] = j0;
      wi[p - 4] = j1;
      wi[p - 3] = j2;
      wi[p - 2] = j3;
      wi[p - 1] = j4;
      wi[p] = j5;
    }
  }

  /**
   * g_d after x[p] += step: one block per d, whose code changes by step * 6^k; S2 changes by
   * 2 (c_after - c_before) + 2, with c the counts before the change.
   */
  private applyBlocks(p: number, step: number, out: DiceValues, commit: boolean): void {
    const { prepared, faces, n } = this;
    const wi = this.windowIndex;
    const lengths = this.blockLength;
    const blocks = this.blockCount;
    const inverse = this.blockInverse;
    const squares = this.blockSquares;
    const { chi: chiOut, constraints: gOut } = out;
    const current = this.values;

    const denseL = this.denseL;
    const sparse = this.denseSparse;
    const counts = this.denseCounts;
    for (let k = 0; k < denseL.length; k++) {
      const l = denseL[k];
      const d = lengths[l];
      const j = ((p + 0.5) * inverse[l]) | 0; // floor(p / d), exactly
      if (j >= blocks[l]) {
        chiOut[l] = current.chi[l];
        gOut[l] = current.constraints[l];
        continue;
      }
      const start = j * d;
      // The block's code from the 6-face window(s) at its start; near the end, from the faces.
      let before: number;
      if (d <= TABLE_LENGTH) {
        before = start + TABLE_LENGTH <= n ? ((wi[start] - WHOLE + 0.5) * INV_POW6[TABLE_LENGTH - d]) | 0 : blockCode(faces, start, d);
      } else {
        before =
          start + 2 * TABLE_LENGTH <= n
            ? (wi[start] - WHOLE) * POW6_INT[d - TABLE_LENGTH] + (((wi[start + TABLE_LENGTH] - WHOLE + 0.5) * INV_POW6[2 * TABLE_LENGTH - d]) | 0)
            : blockCode(faces, start, d);
      }
      const after = before + step * POW6_INT[d - 1 - (p - start)];
      const base = this.denseBase[k];
      const countBefore = counts[base + before];
      const countAfter = counts[base + after];
      if (commit) {
        counts[base + before] = countBefore - 1;
        counts[base + after] = countAfter + 1;
      }
      if (sparse[k] === 1 && countAfter + 1 === countBefore) {
        // S2 is unchanged (the block leaves a code for one with one fewer): so are chi and g.
        chiOut[l] = current.chi[l];
        gOut[l] = current.constraints[l];
        continue;
      }
      const s2 = squares[l] + 2 * (countAfter - countBefore) + 2;
      const chi = chiSquareFromSquares(s2, blocks[l], POW6[d]);
      chiOut[l] = chi;
      gOut[l] = prepared.constraintValue(l, chi);
      if (commit) squares[l] = s2;
    }

    const scanL = this.scanL;
    const codes = this.scanCodes;
    for (let k = 0; k < scanL.length; k++) {
      const l = scanL[k];
      const d = lengths[l];
      const j = ((p + 0.5) * inverse[l]) | 0;
      const count = blocks[l];
      if (j >= count) {
        chiOut[l] = current.chi[l];
        gOut[l] = current.constraints[l];
        continue;
      }
      const base = this.scanBase[k];
      const before = codes[base + j];
      const after = (before + Math.imul(step, POW6_INT[d - 1 - (p - j * d)])) | 0;
      let countBefore = 0;
      let countAfter = 0;
      for (let i = base, end = base + count; i < end; i++) {
        const c = codes[i];
        countBefore += c === before ? 1 : 0;
        countAfter += c === after ? 1 : 0;
      }
      if (commit) codes[base + j] = after;
      if (countAfter + 1 === countBefore) {
        chiOut[l] = current.chi[l];
        gOut[l] = current.constraints[l];
        continue;
      }
      const s2 = squares[l] + 2 * (countAfter - countBefore) + 2;
      const chi = chiSquareFromSquares(s2, count, POW6[d]);
      chiOut[l] = chi;
      gOut[l] = prepared.constraintValue(l, chi);
      if (commit) squares[l] = s2;
    }

    const hashedL = this.hashedL;
    for (let k = 0; k < hashedL.length; k++) {
      const l = hashedL[k];
      const d = lengths[l];
      const j = ((p + 0.5) * inverse[l]) | 0;
      if (j >= blocks[l]) {
        chiOut[l] = current.chi[l];
        gOut[l] = current.constraints[l];
        continue;
      }
      // The block's slot gives its code and count; codes are int32 here (code | 0).
      const table = this.hashed[k];
      const slots = table.slots;
      const at = table.blockSlot[j];
      const before = slots[at];
      const countBefore = slots[at + 1];
      const after = (before + Math.imul(step, POW6_INT[d - 1 - (p - j * d)])) | 0;
      let countAfter: number;
      if (commit) {
        table.leave(at, countBefore);
        const to = table.enter(after);
        countAfter = slots[to + 1];
        slots[to + 1] = countAfter + 1;
        table.blockSlot[j] = to;
        table.settle();
      } else {
        const to = table.find(after);
        countAfter = to < 0 ? 0 : slots[to + 1];
      }
      if (countAfter + 1 === countBefore) {
        // S2 is unchanged (the block leaves a code for one with one fewer): so are chi and g.
        chiOut[l] = current.chi[l];
        gOut[l] = current.constraints[l];
        continue;
      }
      const s2 = squares[l] + 2 * (countAfter - countBefore) + 2;
      const chi = chiSquareFromSquares(s2, blocks[l], POW6[d]);
      chiOut[l] = chi;
      gOut[l] = prepared.constraintValue(l, chi);
      if (commit) squares[l] = s2;
    }
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
