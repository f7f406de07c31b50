import { describe, expect, it } from 'vitest';
import { nqueensBenchNs } from '../../../src-main/bench/nqueens.ts';

describe('saikoro bench nqueens: SAIKORO_BENCH_NQUEENS_N', () => {
  it('reads N values and ranges', () => {
    expect(nqueensBenchNs(undefined)).toBeUndefined();
    expect(nqueensBenchNs(' ')).toBeUndefined();
    expect(nqueensBenchNs('8,16')).toEqual([8, 16]);
    expect(nqueensBenchNs('8-11, 20')).toEqual([8, 9, 10, 11, 20]);
    expect(nqueensBenchNs('8-500')).toHaveLength(493);
  });

  it('names a bad entry', () => {
    expect(() => nqueensBenchNs('8-x')).toThrow('SAIKORO_BENCH_NQUEENS_N: "8-x" is not N or a range a-b with 4 <= a <= b <= 4000');
    expect(() => nqueensBenchNs('3')).toThrow(/"3" is not N/);
    expect(() => nqueensBenchNs('20-10')).toThrow(/"20-10"/);
  });
});
