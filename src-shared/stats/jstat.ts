/**
 * The one place that imports jstat (CommonJS, no type declarations). Everything else in
 * src-shared/stats uses these typed functions, so the dependency can be swapped here.
 */
// @ts-expect-error jstat ships no types; only the functions below are used.
import jStatModule from 'jstat';

interface JStat {
  normal: { cdf(x: number, mean: number, sd: number): number };
  chisquare: { cdf(x: number, dof: number): number };
  centralF: { cdf(x: number, df1: number, df2: number): number };
}
const jStat = jStatModule as JStat;

/** P(Z <= z) for a standard normal Z. */
export function normalCdf(z: number): number {
  return jStat.normal.cdf(z, 0, 1);
}

/** Two-sided p-value of a standard normal statistic: P(|Z| >= |z|). */
export function normalTwoSided(z: number): number {
  return Math.min(1, 2 * (1 - normalCdf(Math.abs(z))));
}

/** Upper tail P(X >= x) of a chi-square with dof degrees of freedom. */
export function chiSquareUpper(x: number, dof: number): number {
  if (x <= 0) return 1;
  return Math.max(0, 1 - jStat.chisquare.cdf(x, dof));
}

/** Upper tail P(X >= x) of an F(df1, df2) distribution. */
export function fUpper(x: number, df1: number, df2: number): number {
  if (x <= 0) return 1;
  return Math.max(0, 1 - jStat.centralF.cdf(x, df1, df2));
}
