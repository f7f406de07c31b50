/**
 * WINDOW_TABLE against the pattern tests it packs: every window of every length 1..6, each of
 * F6..F14's fields set exactly when its pattern matches the window's first d faces, and the
 * inner count of F15 at length 6. The table is built by carrying the shorter window's fields
 * over, so a slip there shows here, window by window.
 */
import { describe, expect, it } from 'vitest';
import {
  FIELD_BITS,
  FIELD_MASK,
  INNER_SHIFT,
  matches,
  PATTERN_LENGTH,
  POW6,
  TABLE_FEATURES,
  TABLE_LENGTH,
  WINDOW_OFFSET,
  WINDOW_TABLE,
} from '../../../../src-shared/problems/dice/features.ts';

describe('WINDOW_TABLE', () => {
  it('holds, for every window code, the fields of the patterns that fit in it and match', () => {
    let checked = 0;
    let set = 0;
    for (let L = 1; L <= TABLE_LENGTH; L++) {
      for (let code = 0; code < POW6[L]; code++) {
        const w = code.toString(6).padStart(L, '0').split('').map(Number);
        const packed = WINDOW_TABLE[WINDOW_OFFSET[L] + code];
        for (let k = 0; k < TABLE_FEATURES; k++) {
          const expected = PATTERN_LENGTH[k] <= L && matches(k, w) ? 1 : 0;
          expect((packed >>> (FIELD_BITS * k)) & FIELD_MASK).toBe(expected);
          set += expected;
        }
        const inner = L === TABLE_LENGTH ? w.slice(1).filter((f) => f === w[0]).length : 0;
        expect(packed >>> INNER_SHIFT).toBe(inner);
        checked++;
      }
    }
    expect(checked).toBe(WINDOW_TABLE.length);
    // Not a table of zeros: at length 2 alone, 18 pairs have an odd sum and 6 are equal.
    expect(set).toBeGreaterThan(24);
  });
});
