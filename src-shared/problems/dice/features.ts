/**
 * The 15 cognitive-bias features F1..F15 of the EC-Comp 2020 dice problem (spec
 * `dice-eccomp2020.md`, Temsiririrkkul et al.), and the lookup tables that make them cheap.
 *
 * F1..F5 are chi-square values of face counts over five windows. F6..F15 count the start
 * positions i (0 <= i <= N - d) whose window x[i..i+d-1] matches a pattern. A start position's
 * window code is the base-6 number of up to 6 faces starting there; one table lookup gives a
 * packed word with 3 bits per pattern feature F6..F14 (0 or 1 each), so summing up to 7 words
 * never overflows a field. The top field holds, for a whole 6-face window, how many of faces
 * 1..5 equal face 0: F15 ("4 in 7") at i is then x[i] = x[i+6] and that count = 2.
 * Stopping at 6 faces keeps the table at 56k words (224 kB, inside a core's L2 cache); a
 * 7-face table (1.3 MB) made every lookup a cache miss at large N. That is what lets a single
 * change update all ten pattern features with a handful of lookups.
 */

export const CHI_FEATURES = 5; // F1..F5
export const PATTERN_FEATURES = 10; // F6..F15
export const MAX_PATTERN_LENGTH = 7;
/** Longest window the table covers; F15 (length 7) adds one comparison. */
export const TABLE_LENGTH = 6;
/** F6..F14 come from the table's fields; F15 is pattern feature 9. */
export const TABLE_FEATURES = 9;
export const FIELD_BITS = 3;
export const FIELD_MASK = 7;
/** Where the "inner faces equal to face 0" count of a 6-face window sits. */
export const INNER_SHIFT = FIELD_BITS * TABLE_FEATURES;
/** The fields that may be summed (F6..F14). */
export const ACC_MASK = (1 << INNER_SHIFT) - 1;
/** F15 at i, from x[i], x[i+6] and the inner count of the 6-face window at i. */
export const F15_INNER = 2;

/** Percent windows [b, e) of F1..F5. */
export const CHI_WINDOWS: ReadonlyArray<readonly [number, number]> = [
  [0, 100],
  [0, 30],
  [23, 53],
  [47, 77],
  [70, 100],
];

/** Pattern length d of F6..F15. */
export const PATTERN_LENGTH = [2, 2, 3, 4, 4, 5, 4, 5, 6, 7] as const;

/** Whether the first d faces of w match feature F(6+k). Faces are 0..5 here. */
export function matches(k: number, w: ArrayLike<number>): boolean {
  switch (k) {
    case 0: // F6: an odd and an even face side by side
      return ((w[0] + w[1]) & 1) === 1;
    case 1: // F7: two in a row
      return w[0] === w[1];
    case 2: // F8: three in a row
      return w[0] === w[1] && w[1] === w[2];
    case 3: // F9: four in a row
      return w[0] === w[1] && w[1] === w[2] && w[2] === w[3];
    case 4: // F10: two pairs
      return (
        (w[0] === w[1] && w[2] === w[3] && w[0] !== w[2]) ||
        (w[0] === w[2] && w[1] === w[3] && w[0] !== w[1]) ||
        (w[0] === w[3] && w[1] === w[2] && w[0] !== w[1])
      );
    case 5: {
      // F11: full house, two distinct faces appearing 2 and 3 times
      const a = w[0];
      let countA = 0;
      let b = -1;
      for (let j = 0; j < 5; j++) {
        if (w[j] === a) countA++;
        else if (b === -1) b = w[j];
        else if (w[j] !== b) return false;
      }
      return countA === 2 || countA === 3;
    }
    default: {
      // F12..F15: first = last, and exactly `inner` of the faces between equal them
      const d = PATTERN_LENGTH[k];
      const inner = k === 6 || k === 7 ? 1 : 2;
      if (w[0] !== w[d - 1]) return false;
      let same = 0;
      for (let j = 1; j < d - 1; j++) if (w[j] === w[0]) same++;
      return same === inner;
    }
  }
}

export const POW6 = Array.from({ length: 13 }, (_, i) => 6 ** i);

/**
 * Offsets of the per-length tables inside WINDOW_TABLE: a window of length L (1..6) with
 * code c (base 6, first face most significant, faces 0..5) lives at WINDOW_OFFSET[L] + c.
 */
export const WINDOW_OFFSET: number[] = [0];
for (let L = 1; L <= TABLE_LENGTH + 1; L++) WINDOW_OFFSET[L] = L === 1 ? 0 : WINDOW_OFFSET[L - 1] + POW6[L - 1];

/** Packed pattern fields (F6..F14, and the inner count for F15) for every window code of every length 1..6. */
export function buildWindowTable(): Uint32Array {
  const table = new Uint32Array(WINDOW_OFFSET[TABLE_LENGTH + 1]);
  const w = new Uint8Array(TABLE_LENGTH);
  for (let L = 1; L <= TABLE_LENGTH; L++) {
    for (let code = 0; code < POW6[L]; code++) {
      let c = code;
      for (let j = L - 1; j >= 0; j--) {
        w[j] = c % 6;
        c = (c - w[j]) / 6;
      }
      // A pattern of length d looks at the window's first d faces only, and the window one face
      // shorter (code / 6, rounded down) has the same first faces: its fields carry over, and only
      // the patterns of length L are tested here (a fifth of the matches).
      let packed = L > 1 ? table[WINDOW_OFFSET[L - 1] + Math.floor(code / 6)] : 0;
      for (let k = 0; k < TABLE_FEATURES; k++) if (PATTERN_LENGTH[k] === L && matches(k, w)) packed |= 1 << (FIELD_BITS * k);
      if (L === TABLE_LENGTH) {
        let inner = 0;
        for (let j = 1; j < TABLE_LENGTH; j++) if (w[j] === w[0]) inner++;
        packed |= inner << INNER_SHIFT;
      }
      table[WINDOW_OFFSET[L] + code] = packed;
    }
  }
  return table;
}

/**
 * The table as the CLI's build computed it (scripts/build-cli.mjs writes buildWindowTable()'s
 * result into the bundle, as JSON text: a string stays in this module's chunk, where an array
 * would join the chunk every command loads), undefined where the sources run as they are (tests,
 * the app). Building it takes longer than the rest of a one-sequence `saikoro rngbias` call (56k
 * windows, run once, so never compiled); parsing the text is a few milliseconds.
 */
const BUILT_WINDOW_TABLE = (globalThis as { SAIKORO_WINDOW_TABLE?: string }).SAIKORO_WINDOW_TABLE;

/** buildWindowTable()'s table: the one the build computed, or built now. */
export const WINDOW_TABLE: Uint32Array = BUILT_WINDOW_TABLE === undefined ? buildWindowTable() : Uint32Array.from(JSON.parse(BUILT_WINDOW_TABLE) as number[]);

/** Whether the 7 faces w match F15; the reference form that the table-based count must equal. */
export function matchesF15(w: ArrayLike<number>): boolean {
  return matches(9, w);
}

/** Window bounds [start, end) of the face-count window [b%, e%) for length n. */
export function chiWindow(n: number, b: number, e: number): [number, number] {
  const start = Math.floor((n * b) / 100);
  const end = Math.floor((n * e) / 100);
  return [start, Math.max(start, end)];
}

/**
 * Chi-square of a histogram with `items` items over `categories` categories, from the sum of
 * squared counts: sum (c - m)^2 / m = K * S2 / n - n. With no items the value is 0.
 */
export function chiSquareFromSquares(sumSquares: number, items: number, categories: number): number {
  return items === 0 ? 0 : (categories * sumSquares) / items - items;
}

/** The error of one feature against its band: gamma * max(alpha - F, F - beta, 0). */
export function featureError(value: number, alpha: number, beta: number, gamma: number): number {
  if (value < alpha) return gamma * (alpha - value);
  if (value > beta) return gamma * (value - beta);
  return 0;
}
