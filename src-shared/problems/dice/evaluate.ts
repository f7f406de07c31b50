/**
 * Full evaluation of a dice sequence: features, errors, objectives, chi-square constraints.
 * `DiceEvaluator` binds a config (its quantile bounds and scratch tables are built once) and
 * evaluates many sequences; `evaluateDice` is the one-shot convenience.
 */
import { blockQuantile } from './chi2.ts';
import type { DiceConfig } from './config.ts';
import * as F from './features.ts';
import { toFaces } from './sequence.ts';

// Module-local copies: some loaders (tsx) turn imported bindings into getter calls, which
// dominate a hot loop.
const {
  ACC_MASK,
  CHI_FEATURES,
  CHI_WINDOWS,
  F15_INNER,
  FIELD_BITS,
  FIELD_MASK,
  INNER_SHIFT,
  TABLE_FEATURES,
  TABLE_LENGTH,
  WINDOW_OFFSET,
  WINDOW_TABLE,
  chiSquareFromSquares,
  chiWindow,
  featureError,
} = F;
const POW6 = Float64Array.from(F.POW6);
/** 6^0..6^11 as integers (6^12 exceeds int32), for index arithmetic. */
const POW6_INT = Int32Array.from(F.POW6.slice(0, 12));
const PATTERN_SCRATCH = new Int32Array(TABLE_FEATURES);
/** Largest d whose counts the full evaluation keeps dense (see the constructor). */
const FULL_DENSE_MAX_D = 6;
/** Up to this many blocks of a hashed d, equal codes are counted pairwise. */
const PAIR_LIMIT = 16;

export { SequenceError, parseSequence, formatSequence } from './sequence.ts';

/** The evaluation of one sequence, as `saikoro eval` and the UI report it. */
export interface DiceEvaluation {
  features: number[];
  errors: number[];
  objectives: number[];
  /** g_d, in the order of config.constraints. */
  constraints: number[];
  /** chi_d, in the order of config.constraints. */
  chi: number[];
  /** [q(p_d), q(P_d)] per constrained d; null stands for an infinite bound. */
  bounds: [number | null, number | null][];
  feasible: boolean;
}

/** Typed-array form of an evaluation, filled in place on hot paths. */
export interface DiceValues {
  features: Float64Array;
  errors: Float64Array;
  objectives: Float64Array;
  chi: Float64Array;
  constraints: Float64Array;
}

export function createValues(config: DiceConfig): DiceValues {
  return {
    features: new Float64Array(15),
    errors: new Float64Array(15),
    objectives: new Float64Array(config.objectives.length),
    chi: new Float64Array(config.constraints.length),
    constraints: new Float64Array(config.constraints.length),
  };
}

/** The pieces of a config that every evaluation needs, prepared once. */
export class PreparedConfig {
  readonly n: number;
  readonly alpha: Float64Array;
  readonly beta: Float64Array;
  readonly gamma: Float64Array;
  /** 0-based feature indices per objective. */
  readonly groups: Int32Array[];
  readonly blockLengths: Int32Array;
  readonly lower: Float64Array;
  readonly upper: Float64Array;
  /** [start, end) of the F1..F5 windows. */
  readonly windows: Int32Array;

  constructor(readonly config: DiceConfig) {
    this.n = config.n;
    this.alpha = Float64Array.from(config.alpha);
    this.beta = Float64Array.from(config.beta);
    this.gamma = Float64Array.from(config.gamma);
    this.groups = config.objectives.map((g) => Int32Array.from(g, (f) => f - 1));
    this.blockLengths = Int32Array.from(config.constraints);
    this.lower = Float64Array.from(config.constraints, (d, i) => blockQuantile(d, config.lowerBounds[i]));
    this.upper = Float64Array.from(config.constraints, (d, i) => blockQuantile(d, config.upperBounds[i]));
    this.windows = new Int32Array(2 * CHI_FEATURES);
    CHI_WINDOWS.forEach(([b, e], w) => {
      const [start, end] = chiWindow(config.n, b, e);
      this.windows[2 * w] = start;
      this.windows[2 * w + 1] = end;
    });
  }

  /** Errors from features, then objectives from errors. */
  finishObjectives(values: DiceValues): void {
    const { features, errors, objectives } = values;
    for (let i = 0; i < 15; i++) errors[i] = featureError(features[i], this.alpha[i], this.beta[i], this.gamma[i]);
    for (let m = 0; m < this.groups.length; m++) {
      const g = this.groups[m];
      let sum = 0;
      for (let j = 0; j < g.length; j++) sum += errors[g[j]];
      objectives[m] = sum;
    }
  }

  /** g_d = max(q(p_d) - chi_d, chi_d - q(P_d), 0). */
  constraintValue(l: number, chi: number): number {
    const below = this.lower[l] - chi;
    if (below > 0) return below;
    const above = chi - this.upper[l];
    return above > 0 ? above : 0;
  }

  bounds(): [number | null, number | null][] {
    const finite = (q: number) => (Number.isFinite(q) ? q : null);
    return Array.from(this.blockLengths, (_, l) => [finite(this.lower[l]), finite(this.upper[l])]);
  }

  toEvaluation(values: DiceValues): DiceEvaluation {
    const constraints = Array.from(values.constraints);
    return {
      features: Array.from(values.features),
      errors: Array.from(values.errors),
      objectives: Array.from(values.objectives),
      constraints,
      chi: Array.from(values.chi),
      bounds: this.bounds(),
      feasible: constraints.every((g) => g <= 0),
    };
  }
}

/**
 * Writes the pattern-feature counts F6..F15 of every start position into features[5..14], and
 * the code of every whole 6-face window (start positions 0..n-6) into win6: the block codes of
 * d = 6 to 12 are made from them.
 */
function patternCounts(faces: Uint8Array, n: number, features: Float64Array, win6: Int32Array): void {
  const counts = PATTERN_SCRATCH;
  counts.fill(0);
  let f15 = 0;
  const full = n - TABLE_LENGTH; // last start position with a whole 6-face window
  if (full >= 0) {
    const top = POW6_INT[TABLE_LENGTH - 1];
    const base = WINDOW_OFFSET[TABLE_LENGTH];
    let code = 0;
    for (let j = 0; j < TABLE_LENGTH; j++) code = code * 6 + faces[j] - 1;
    // Start positions 0..full-1 have a 7th face x[i + 6], so F15 is checked there. The loop
    // is branch-free: equality tests become (v - 1) >>> 31 on a XOR, which is 1 only for 0
    // (a mispredicted branch per start position cost more than the rest of it). A field
    // holds at most 7, so the accumulator is emptied into the counts every 7 positions.
    let i = 0;
    while (i < full) {
      const stop = i + FIELD_MASK < full ? i + FIELD_MASK : full;
      let acc = 0;
      for (; i < stop; i++) {
        win6[i] = code;
        const packed = WINDOW_TABLE[base + code];
        acc += packed & ACC_MASK;
        const first = faces[i];
        const seventh = faces[i + TABLE_LENGTH];
        f15 += (((first ^ seventh) - 1) >>> 31) & ((((packed >>> INNER_SHIFT) ^ F15_INNER) - 1) >>> 31);
        // Drop the leading face by subtraction (integers throughout; no modulo).
        code = (code - (first - 1) * top) * 6 + seventh - 1;
      }
      for (let k = 0; k < TABLE_FEATURES; k++) counts[k] += (acc >>> (FIELD_BITS * k)) & FIELD_MASK;
    }
    win6[full] = code;
    const packed = WINDOW_TABLE[base + code]; // start position `full`: no 7th face
    for (let k = 0; k < TABLE_FEATURES; k++) counts[k] += (packed >>> (FIELD_BITS * k)) & FIELD_MASK;
  }
  // The last (at most 5) start positions have shorter windows.
  for (let i = full + 1 > 0 ? full + 1 : 0; i < n; i++) {
    let code = 0;
    for (let j = i; j < n; j++) code = code * 6 + faces[j] - 1;
    const packed = WINDOW_TABLE[WINDOW_OFFSET[n - i] + code];
    for (let k = 0; k < TABLE_FEATURES; k++) counts[k] += (packed >>> (FIELD_BITS * k)) & FIELD_MASK;
  }
  for (let k = 0; k < TABLE_FEATURES; k++) features[CHI_FEATURES + k] = counts[k];
  features[CHI_FEATURES + TABLE_FEATURES] = f15;
}

/** Bits per face of the face-count accumulator: 6 fields of 5 bits, emptied every 31 faces. */
const FACE_BITS = 5;
const FACE_RUN = (1 << FACE_BITS) - 1;
/** Fibonacci hashing of block codes (the top bits of code * 2^32 / phi). */
const HASH_MULTIPLIER = 0x9e3779b1;
/** A hashed d's block codes restart the stamps of the scratch hash before they overflow. */
const MAX_STAMP = 1 << 30;

export class DiceEvaluator {
  readonly prepared: PreparedConfig;
  /** The positions where F1..F5's windows start or end, ascending, each once (n among them). */
  private readonly marks: Int32Array;
  /** Per F1..F5 window: the index in marks of its start and of its end. */
  private readonly windowMarks: Int32Array;
  /** Face counts 1..6 at each mark (7 per mark; 0 unused). */
  private readonly snapshots: Int32Array;
  private readonly faceCounts = new Int32Array(7);
  private readonly scratch: DiceValues;
  /** Per constraint: dense counts by code (d <= 6; none for d = 1, which the face counts give), or null when hashed. */
  private readonly dense: (Int32Array | null)[];
  /** Codes of every whole 3-face and 6-face window, by start position. */
  private readonly win3: Int32Array;
  private readonly win6: Int32Array;
  /** One d's block codes (as int32: `code | 0`, one-to-one below 2^32). */
  private readonly blockCodes: Int32Array;
  /**
   * The hashed d's counts, one d at a time: slot i is [code, stamp, count, -] at 4i; a slot is
   * empty unless its stamp is the current one, so nothing is cleared between d's. At least two
   * slots per block.
   */
  private readonly hash: Int32Array;
  private readonly hashShift: number;
  private stamp = 0;

  constructor(readonly config: DiceConfig) {
    this.prepared = new PreparedConfig(config);
    const n = config.n;
    const p = this.prepared;
    this.marks = Int32Array.from(new Set([...p.windows, n])).sort();
    this.windowMarks = Int32Array.from(p.windows, (at) => this.marks.indexOf(at));
    this.snapshots = new Int32Array(7 * this.marks.length);
    // Dense counts are reset after counting (from the block codes, or all of them when the
    // alphabet is smaller than the blocks), so clearing them costs little: up to 6^6 categories
    // (186 kB) a dense array beats hashing at every N (measured at N = 50 and 27720); at 6^7
    // (1.1 MB) it misses the cache and hashing wins.
    this.dense = config.constraints.map((d) => (d > 1 && d <= FULL_DENSE_MAX_D ? new Int32Array(POW6[d]) : null));
    this.scratch = createValues(config);
    this.win3 = new Int32Array(Math.max(0, n - 2));
    this.win6 = new Int32Array(Math.max(0, n - 5));
    this.blockCodes = new Int32Array(n);
    const hashedBlocks = Math.max(0, ...config.constraints.map((d) => (d > FULL_DENSE_MAX_D ? Math.floor(n / d) : 0)));
    let capacity = 16;
    while (capacity < 2 * hashedBlocks) capacity *= 2;
    this.hash = new Int32Array(4 * capacity);
    this.hashShift = 32 - Math.log2(capacity);
  }

  /** F1..F5 from face counts at the marks (one pass over the faces); returns the sum of squared counts over all n faces (d = 1). */
  private faceChi(faces: Uint8Array, n: number, features: Float64Array): number {
    const { marks, snapshots, windowMarks } = this;
    const counts = this.faceCounts;
    counts.fill(0);
    let m = 0;
    let i = 0;
    for (;;) {
      while (m < marks.length && marks[m] === i) {
        for (let f = 1; f <= 6; f++) snapshots[7 * m + f] = counts[f];
        m++;
      }
      if (i >= n) break;
      // Up to 31 faces are counted in one integer (5 bits a face), then added to the counts.
      const next = m < marks.length ? marks[m] : n;
      const stop = i + FACE_RUN < next ? i + FACE_RUN : next;
      let acc = 0;
      for (; i < stop; i++) acc += 1 << (FACE_BITS * faces[i] - FACE_BITS);
      for (let f = 1; f <= 6; f++) counts[f] += (acc >>> (FACE_BITS * (f - 1))) & FACE_RUN;
    }
    for (let w = 0; w < CHI_FEATURES; w++) {
      const a = 7 * windowMarks[2 * w];
      const b = 7 * windowMarks[2 * w + 1];
      let s2 = 0;
      for (let f = 1; f <= 6; f++) {
        const c = snapshots[b + f] - snapshots[a + f];
        s2 += c * c;
      }
      features[w] = chiSquareFromSquares(s2, this.prepared.windows[2 * w + 1] - this.prepared.windows[2 * w], 6);
    }
    let total = 0;
    for (let f = 1; f <= 6; f++) total += counts[f] * counts[f];
    return total;
  }

  /** Writes the codes of the `blocks` blocks of length d (2..12) into blockCodes, from the window codes. */
  private codesOf(d: number, faces: Uint8Array, blocks: number): Int32Array {
    const codes = this.blockCodes;
    const { win3, win6 } = this;
    const rest = d > 6 ? d - 6 : d;
    const head = d > 6 ? POW6[rest] : 0;
    for (let j = 0, s = 0; j < blocks; j++, s += d) {
      // The first 6 faces from win6 (d > 6), then the rest (1..6 faces) from the windows and faces.
      const at = d > 6 ? s + 6 : s;
      let code: number;
      switch (rest) {
        case 1:
          code = faces[at] - 1;
          break;
        case 2:
          code = 6 * faces[at] + faces[at + 1] - 7;
          break;
        case 3:
          code = win3[at];
          break;
        case 4:
          code = 6 * win3[at] + faces[at + 3] - 1;
          break;
        case 5:
          code = 36 * win3[at] + 6 * faces[at + 3] + faces[at + 4] - 7;
          break;
        default:
          code = win6[at];
      }
      // Modulo 2^32 (Math.imul), which `| 0` would also make of the exact code (below 6^12 < 2^32).
      codes[j] = d > 6 ? (Math.imul(win6[s], head) + code) | 0 : code;
    }
    return codes;
  }

  /** Evaluates faces 1..6 (length N, unchecked) into `out`. */
  evaluateInto(faces: Uint8Array, out: DiceValues): void {
    const p = this.prepared;
    const n = p.n;
    const squaresOfFaces = this.faceChi(faces, n, out.features);
    patternCounts(faces, n, out.features, this.win6);
    const win3 = this.win3;
    for (let i = 0; i + 2 < n; i++) win3[i] = 36 * faces[i] + 6 * faces[i + 1] + faces[i + 2] - 43;
    p.finishObjectives(out);
    for (let l = 0; l < p.blockLengths.length; l++) {
      const d = p.blockLengths[l];
      const blocks = Math.floor(n / d);
      const counts = this.dense[l];
      let sumSquares: number;
      if (d === 1) sumSquares = squaresOfFaces;
      else if (counts !== null) {
        // Dense counts updated here directly, then reset: all of them when there are fewer
        // than blocks, else exactly those the codes touched.
        const codes = this.codesOf(d, faces, blocks);
        let s2 = 0;
        for (let j = 0; j < blocks; j++) {
          const code = codes[j];
          const c = counts[code];
          s2 += 2 * c + 1;
          counts[code] = c + 1;
        }
        if (counts.length <= blocks) counts.fill(0);
        else for (let j = 0; j < blocks; j++) counts[codes[j]] = 0;
        sumSquares = s2;
      } else if (blocks <= PAIR_LIMIT) {
        // A handful of blocks from a large alphabet: sum c^2 = blocks + 2 * (pairs of equal
        // codes), counted directly instead of through a hash table.
        const codes = this.codesOf(d, faces, blocks);
        let pairs = 0;
        for (let j = 1; j < blocks; j++) {
          const code = codes[j];
          for (let k = 0; k < j; k++) pairs += codes[k] === code ? 1 : 0;
        }
        sumSquares = blocks + 2 * pairs;
      } else {
        const codes = this.codesOf(d, faces, blocks);
        const hash = this.hash;
        const mask = hash.length - 1;
        const shift = this.hashShift;
        if (++this.stamp >= MAX_STAMP) {
          hash.fill(0);
          this.stamp = 1;
        }
        const stamp = this.stamp;
        let s2 = 0;
        for (let j = 0; j < blocks; j++) {
          const code = codes[j];
          for (let i = (Math.imul(code, HASH_MULTIPLIER) >>> shift) << 2; ; i = (i + 4) & mask) {
            if (hash[i + 1] !== stamp) {
              hash[i] = code;
              hash[i + 1] = stamp;
              hash[i + 2] = 1;
              s2 += 1;
              break;
            }
            if (hash[i] === code) {
              const c = hash[i + 2];
              hash[i + 2] = c + 1;
              s2 += 2 * c + 1;
              break;
            }
          }
        }
        sumSquares = s2;
      }
      const chi = chiSquareFromSquares(sumSquares, blocks, POW6[d]);
      out.chi[l] = chi;
      out.constraints[l] = p.constraintValue(l, chi);
    }
  }

  /** Evaluates a digit string or faces 1..6; throws SequenceError on a malformed sequence. */
  evaluate(x: string | Uint8Array): DiceEvaluation {
    this.evaluateInto(toFaces(x, this.prepared.n), this.scratch);
    return this.prepared.toEvaluation(this.scratch);
  }
}

/** One-shot evaluation. For many sequences under one config, reuse a DiceEvaluator. */
export function evaluateDice(x: string | Uint8Array, config: DiceConfig): DiceEvaluation {
  return new DiceEvaluator(config).evaluate(x);
}
