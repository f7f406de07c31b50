/**
 * Full evaluation of a dice sequence: features, errors, objectives, chi-square constraints.
 * `DiceEvaluator` binds a config (its quantile bounds and scratch tables are built once) and
 * evaluates many sequences; `evaluateDice` is the one-shot convenience.
 */
import { blockQuantile } from './chi2.ts';
import { createCountTable, type CountTable } from './count-table.ts';
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
const BLOCK_SCRATCH = new Uint32Array(PAIR_LIMIT);

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

/** Face-count chi-square (K = 6) over faces[start, end). */
function faceChi(faces: Uint8Array, start: number, end: number, counts: Int32Array): number {
  counts.fill(0);
  for (let i = start; i < end; i++) counts[faces[i]]++;
  let s2 = 0;
  for (let f = 1; f <= 6; f++) s2 += counts[f] * counts[f];
  return chiSquareFromSquares(s2, end - start, 6);
}

/** Writes the pattern-feature counts F6..F15 of every start position into features[5..14]. */
function patternCounts(faces: Uint8Array, n: number, features: Float64Array): void {
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

export class DiceEvaluator {
  readonly prepared: PreparedConfig;
  private readonly tables: CountTable[];
  private readonly faceCounts = new Int32Array(7);
  private readonly scratch: DiceValues;
  /** Per constraint: the table's dense count array (written here directly), or null when hashed. */
  private readonly dense: (Int32Array | null)[];
  /** Block codes of one d, to reset the dense counts after counting. */
  private readonly blockCodes: Uint32Array;

  constructor(readonly config: DiceConfig) {
    this.prepared = new PreparedConfig(config);
    // Dense counts are reset from the block codes here, so clearing them costs nothing: up to
    // 6^6 categories (186 kB, inside L2) a dense table beats hashing at every N (measured at
    // N = 50 and 27720); at 6^7 (1.1 MB) it misses the cache and hashing wins.
    this.tables = config.constraints.map((d) => createCountTable(POW6[d], Math.floor(config.n / d), d <= FULL_DENSE_MAX_D));
    this.dense = this.tables.map((t) => t.denseCounts());
    this.scratch = createValues(config);
    this.blockCodes = new Uint32Array(config.n);
  }

  /** Evaluates faces 1..6 (length N, unchecked) into `out`. */
  evaluateInto(faces: Uint8Array, out: DiceValues): void {
    const p = this.prepared;
    const n = p.n;
    for (let w = 0; w < CHI_FEATURES; w++) out.features[w] = faceChi(faces, p.windows[2 * w], p.windows[2 * w + 1], this.faceCounts);
    patternCounts(faces, n, out.features);
    p.finishObjectives(out);
    for (let l = 0; l < p.blockLengths.length; l++) {
      const d = p.blockLengths[l];
      const blocks = Math.floor(n / d);
      const table = this.tables[l];
      const counts = this.dense[l];
      let sumSquares: number;
      if (blocks <= PAIR_LIMIT && counts === null) {
        // A handful of blocks from a large alphabet: sum c^2 = blocks + 2 * (pairs of equal
        // codes), counted directly instead of through a hash table.
        const codes = BLOCK_SCRATCH;
        let pairs = 0;
        for (let j = 0, at = 0; j < blocks; j++) {
          let code = 0;
          for (const end = at + d; at < end; at++) code = code * 6 + faces[at] - 1;
          for (let k = 0; k < j; k++) pairs += codes[k] === code ? 1 : 0;
          codes[j] = code;
        }
        sumSquares = blocks + 2 * pairs;
      } else if (counts !== null) {
        // Dense counts updated here directly; the codes are kept to reset exactly the
        // counts this evaluation touched.
        const codes = this.blockCodes;
        let s2 = 0;
        for (let j = 0, at = 0; j < blocks; j++) {
          let code = 0;
          for (const end = at + d; at < end; at++) code = code * 6 + faces[at] - 1;
          const c = counts[code];
          s2 += 2 * c + 1;
          counts[code] = c + 1;
          codes[j] = code;
        }
        for (let j = 0; j < blocks; j++) counts[codes[j]] = 0;
        sumSquares = s2;
      } else {
        table.clear();
        for (let j = 0, at = 0; j < blocks; j++) {
          let code = 0;
          for (const end = at + d; at < end; at++) code = code * 6 + faces[at] - 1;
          table.increment(code);
        }
        sumSquares = table.sumSquares;
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
