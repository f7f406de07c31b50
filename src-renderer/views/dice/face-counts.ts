import { CHI_WINDOWS } from '../../../src-shared/problems/dice/features.ts';

export interface FaceWindow {
  label: string;
  /** Percent window [from, to). */
  from: number;
  to: number;
  /** Counts of faces 1..6 in the window. */
  counts: number[];
  /** Rolls in the window. */
  total: number;
}

/** Face counts over the windows of F1..F5: positions floor(N*b/100) .. floor(N*e/100) - 1. */
export function faceWindows(faces: ArrayLike<number>): FaceWindow[] {
  const n = faces.length;
  return CHI_WINDOWS.map(([b, e], k) => {
    const counts = [0, 0, 0, 0, 0, 0];
    const start = Math.floor((n * b) / 100);
    const end = Math.floor((n * e) / 100);
    for (let i = start; i < end; i++) counts[faces[i] - 1]++;
    const label = k === 0 ? 'whole (F1)' : `${b}–${e} % (F${k + 1})`;
    return { label, from: b, to: e, counts, total: Math.max(0, end - start) };
  });
}

/** The chi-square of a face histogram against the uniform die (K = 6); 0 for no rolls. */
export function faceChiSquare(counts: readonly number[]): number {
  const total = counts.reduce((a, b) => a + b, 0);
  if (total === 0) return 0;
  const m = total / counts.length;
  return counts.reduce((s, c) => s + ((c - m) * (c - m)) / m, 0);
}
