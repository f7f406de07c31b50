/**
 * Which positions take part in a pattern window of a feature that is above its band: a cheap
 * local test on the faces (no evaluation), used to aim moves at the windows that cost.
 * Feature numbering follows the spec: F6..F15 are pattern features k = 0..9 here.
 */
const LENGTH = [2, 2, 3, 4, 4, 5, 4, 5, 6, 7];

/** Whether faces x[i..i+d-1] match pattern feature k (F6 + k). */
export function matchesPattern(k: number, x: Uint8Array, i: number): boolean {
  const a = x[i];
  switch (k) {
    case 0:
      return ((a + x[i + 1]) & 1) === 1;
    case 1:
      return a === x[i + 1];
    case 2:
      return a === x[i + 1] && a === x[i + 2];
    case 3:
      return a === x[i + 1] && a === x[i + 2] && a === x[i + 3];
    case 4: {
      const b = x[i + 1];
      const c = x[i + 2];
      const d = x[i + 3];
      return (a === b && c === d && a !== c) || (a === c && b === d && a !== b) || (a === d && b === c && a !== b);
    }
    case 5: {
      let countA = 0;
      let b = -1;
      for (let j = i; j < i + 5; j++) {
        if (x[j] === a) countA++;
        else if (b === -1) b = x[j];
        else if (x[j] !== b) return false;
      }
      return countA === 2 || countA === 3;
    }
    default: {
      const d = LENGTH[k];
      if (a !== x[i + d - 1]) return false;
      let same = 0;
      for (let j = i + 1; j < i + d - 1; j++) if (x[j] === a) same++;
      return same === (k <= 7 ? 1 : 2);
    }
  }
}

/**
 * True when position p lies in a window matching one of the pattern features flagged in
 * `above` (bit k set: F6 + k is above its band).
 */
export function inCostlyWindow(x: Uint8Array, p: number, above: number): boolean {
  const n = x.length;
  for (let k = 0; k < 10; k++) {
    if (!(above & (1 << k))) continue;
    const d = LENGTH[k];
    const first = p - d + 1 > 0 ? p - d + 1 : 0;
    const last = p < n - d ? p : n - d;
    for (let i = first; i <= last; i++) if (matchesPattern(k, x, i)) return true;
  }
  return false;
}

/** Bit mask of the pattern features F6..F15 whose value exceeds beta. */
export function aboveBandMask(features: ArrayLike<number>, beta: ArrayLike<number>): number {
  let mask = 0;
  for (let k = 0; k < 10; k++) if (features[5 + k] > beta[5 + k]) mask |= 1 << k;
  return mask;
}
