/**
 * Holm's step-down adjustment (S. Holm, "A Simple Sequentially Rejective Multiple Test
 * Procedure", Scand. J. Statist. 6:65-70, 1979). With p sorted ascending, the i-th (0-based)
 * adjusted value is max over k <= i of min(1, (m − k)·p_(k)). Returned in the input order.
 */
export function holmAdjust(pValues: readonly number[]): number[] {
  const m = pValues.length;
  pValues.forEach((p, i) => {
    if (!(p >= 0 && p <= 1)) throw new RangeError(`holmAdjust: p-value ${i} must be in [0, 1], got ${p}`);
  });
  const order = pValues.map((_, i) => i).sort((a, b) => pValues[a] - pValues[b]);
  const adjusted = new Array<number>(m);
  let running = 0;
  order.forEach((index, k) => {
    running = Math.max(running, Math.min(1, (m - k) * pValues[index]));
    adjusted[index] = running;
  });
  return adjusted;
}
