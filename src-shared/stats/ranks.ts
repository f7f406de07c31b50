/** Ranks with ties: tied values share the mean of the ranks they span (mid-ranks). */
export interface Ranking {
  /** 1-based mid-ranks, in the order of the input. */
  ranks: number[];
  /** Sizes of the groups of tied values (groups of one omitted). */
  ties: number[];
}

export function rankWithTies(values: readonly number[]): Ranking {
  values.forEach((v, i) => {
    if (Number.isNaN(v)) throw new RangeError(`value ${i} is NaN`);
  });
  const order = values.map((_, i) => i).sort((a, b) => values[a] - values[b]);
  const ranks = new Array<number>(values.length);
  const ties: number[] = [];
  for (let start = 0; start < order.length; ) {
    let end = start + 1;
    while (end < order.length && values[order[end]] === values[order[start]]) end++;
    const midRank = (start + 1 + end) / 2;
    for (let k = start; k < end; k++) ranks[order[k]] = midRank;
    if (end - start > 1) ties.push(end - start);
    start = end;
  }
  return { ranks, ties };
}

/** Σ (t³ − t) over tie groups: the usual tie-correction term. */
export function tieSum(ties: readonly number[]): number {
  return ties.reduce((s, t) => s + t * t * t - t, 0);
}
