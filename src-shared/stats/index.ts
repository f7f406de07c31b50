export { summarize, median, mean, quantile, quantileOfSorted, type QuantileMethod, type Summary } from './summary.ts';
export { mannWhitney, mannWhitneyCounts, mannWhitneyExactCdf, type MannWhitneyResult } from './mann-whitney.ts';
export { a12, a12Magnitude, type EffectMagnitude } from './a12.ts';
export { holmAdjust } from './holm.ts';
export { friedman, friedmanPairwise, friedmanStatisticFromRanks, imanDavenport, type FriedmanResult, type PairwiseComparison } from './friedman.ts';
export { rankWithTies } from './ranks.ts';
export { cannotDiffer, floorSentence, runsNeeded, smallestHolmP, smallestRankSumP } from './attainable.ts';
