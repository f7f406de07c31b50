/**
 * Where each feature comes from in a sequence: the start positions of the windows that count
 * towards a pattern feature F6..F15, the faces inside them that make the pattern, and the
 * window of a face-count feature F1..F5. This is what the inspector highlights when a feature is
 * picked.
 *
 * The matchers below restate the spec's definitions (dice-eccomp2020.md) in terms of face
 * counts inside the window, one window at a time. They share nothing with the packed tables of
 * features.ts and evaluate.ts, so the two can be held against each other: the number of
 * occurrences of F_i is F_i as evaluateDice counts it (tests/shared/problems/dice/patterns.test.ts).
 * Faces are 1..6 here, as in a parsed sequence.
 */
import { CHI_WINDOWS, chiWindow } from './features.ts';

/** Pattern length d of F6..F15, indexed by feature number. */
const LENGTH_OF: Readonly<Record<number, number>> = { 6: 2, 7: 2, 8: 3, 9: 4, 10: 4, 11: 5, 12: 4, 13: 5, 14: 6, 15: 7 };

/** Whether feature F_feature counts occurrences of a pattern (F6..F15), rather than a χ² of face counts (F1..F5). */
export function isPatternFeature(feature: number): boolean {
  return feature in LENGTH_OF;
}

/** The window length d of a pattern feature F6..F15. */
export function patternLength(feature: number): number {
  const d = LENGTH_OF[feature];
  if (d === undefined) throw new RangeError(`F${feature} is not a pattern feature (F6..F15)`);
  return d;
}

/** How many of the d faces from `start` equal `face`. */
function countOf(faces: ArrayLike<number>, start: number, d: number, face: number): number {
  let c = 0;
  for (let j = start; j < start + d; j++) if (faces[j] === face) c++;
  return c;
}

/** The distinct faces of the d faces from `start`, with how often each occurs. */
function multiplicities(faces: ArrayLike<number>, start: number, d: number): number[] {
  const counts = [0, 0, 0, 0, 0, 0, 0];
  for (let j = start; j < start + d; j++) counts[faces[j]]++;
  return counts.filter((c) => c > 0).sort((a, b) => a - b);
}

/**
 * Whether the window x[start .. start + d - 1] matches F_feature (6..15), d its pattern length.
 * The caller makes sure the window fits in the sequence.
 */
export function matchesPattern(feature: number, faces: ArrayLike<number>, start: number): boolean {
  const d = patternLength(feature);
  const first = faces[start];
  const last = faces[start + d - 1];
  switch (feature) {
    case 6: // an odd face beside an even one
      return first % 2 !== last % 2;
    case 7: // two in a row
    case 8: // three in a row
    case 9: // four in a row
      return countOf(faces, start, d, first) === d;
    case 10: {
      // two pairs: two distinct faces, each twice (aabb, abab, abba)
      const m = multiplicities(faces, start, d);
      return m.length === 2 && m[0] === 2 && m[1] === 2;
    }
    case 11: {
      // full house: two distinct faces, one twice and one three times
      const m = multiplicities(faces, start, d);
      return m.length === 2 && m[0] === 2 && m[1] === 3;
    }
    default: {
      // F12 "3 in 4", F13 "3 in 5": first = last and one inner face equal to them (three in all);
      // F14 "4 in 6", F15 "4 in 7": first = last and two inner faces equal to them (four in all).
      const all = feature === 12 || feature === 13 ? 3 : 4;
      return first === last && countOf(faces, start, d, first) === all;
    }
  }
}

/** The 0-based start positions i (0 <= i <= N - d) whose window matches F_feature (6..15), ascending. */
export function patternOccurrences(faces: ArrayLike<number>, feature: number): Int32Array {
  const d = patternLength(feature);
  const out: number[] = [];
  for (let i = 0; i + d <= faces.length; i++) if (matchesPattern(feature, faces, i)) out.push(i);
  return Int32Array.from(out);
}

/**
 * The positions inside an occurrence that make the pattern: every face of a run, a pair of
 * neighbours, two pairs or a full house; the first, the last and the inner faces equal to them
 * for F12..F15 (the other inner faces only fill the gap).
 */
export function patternFaces(feature: number, faces: ArrayLike<number>, start: number): number[] {
  const d = patternLength(feature);
  const positions = Array.from({ length: d }, (_, j) => start + j);
  if (feature < 12) return positions;
  return positions.filter((p) => faces[p] === faces[start]);
}

/** The rolls [start, end) whose face counts make F1..F5 (their percent window of the sequence). */
export function faceWindowOf(feature: number, n: number): [number, number] {
  const percent = CHI_WINDOWS[feature - 1];
  if (feature < 1 || feature > CHI_WINDOWS.length || !percent) throw new RangeError(`F${feature} is not a face-count feature (F1..F5)`);
  return chiWindow(n, percent[0], percent[1]);
}

/** What the inspector marks for one picked feature. */
export interface FeatureHighlight {
  feature: number;
  /** Start positions of the occurrences (F6..F15); empty for F1..F5. */
  starts: Int32Array;
  /** Pattern length d (F6..F15), or the window's length (F1..F5). */
  length: number;
  /** Per position: how many occurrences' windows hold it (F6..F15); 1 inside the face-count window (F1..F5). */
  cover: Uint16Array;
  /** Per position: 1 where the face makes the pattern of some occurrence (F6..F15), or lies in the window (F1..F5). */
  key: Uint8Array;
  /** The face-count window [start, end) of F1..F5; null for F6..F15. */
  window: [number, number] | null;
}

/** Occurrences and per-position marks of F_feature (1..15) in a sequence of faces 1..6. */
export function featureHighlight(faces: ArrayLike<number>, feature: number): FeatureHighlight {
  const n = faces.length;
  const cover = new Uint16Array(n);
  const key = new Uint8Array(n);
  if (!isPatternFeature(feature)) {
    const span = faceWindowOf(feature, n);
    cover.fill(1, span[0], span[1]);
    key.fill(1, span[0], span[1]);
    return { feature, starts: new Int32Array(0), length: span[1] - span[0], cover, key, window: span };
  }
  const d = patternLength(feature);
  const starts = patternOccurrences(faces, feature);
  for (const s of starts) {
    for (let j = s; j < s + d; j++) cover[j] = Math.min(cover[j] + 1, 0xffff);
    for (const p of patternFaces(feature, faces, s)) key[p] = 1;
  }
  return { feature, starts, length: d, cover, key, window: null };
}
