/**
 * Regularized incomplete gamma functions P(a, x) and Q(a, x) = 1 - P(a, x), with the pieces
 * they need (log1pmx, Stirling's Gamma*, erfc), accurate to a few ulps in relative terms for
 * the smaller of P and Q, from a ~ 1e-3 up to a ~ 1e15.
 *
 * Method (the dispatch follows DiDonato & Morris, ACM TOMS 12 (1986) 377-393, and Cephes
 * `igam.c`):
 * - a > 20 and x near a: Temme's uniform asymptotic expansion (N. M. Temme, SIAM J. Math.
 *   Anal. 10 (1979) 757-766; DLMF 8.12.3-8.12.10), with c_k(eta) from Taylor coefficients
 *   generated in exact arithmetic by scripts/gen-temme-coefficients.mjs. The naive
 *   x^a e^-x / Gamma(a) cancels catastrophically for large a (a ln x and x are ~1e9 while
 *   their difference is ~1); Temme's form only needs a * log1pmx(x/a - 1), which is exact
 *   to rounding.
 * - otherwise: the power series for P (x <= max(a, 1)) or Legendre's continued fraction for
 *   Q, evaluated with the modified Lentz algorithm (Numerical Recipes, 3rd ed., 6.2 / 5.2).
 * - the prefactor x^a e^-x / Gamma(a + 1) is always formed as
 *   exp(a log1pmx(x/a - 1)) / (sqrt(2 pi a) Gamma*(a)) (DiDonato & Morris, section 2), so
 *   no large logarithms are subtracted.
 */
import { TEMME_C } from './temme-coefficients.ts';

const EPS = Number.EPSILON;
const LN_SQRT_2PI = 0.5 * Math.log(2 * Math.PI);
const SQRT_PI = Math.sqrt(Math.PI);

/** ln(1 + x) - x, accurate in relative terms also for small |x| (x > -1). */
export function log1pmx(x: number): number {
  if (x > -0.5 && x < 1) {
    // ln(1 + x) = 2 atanh(t) with t = x / (2 + x), |t| <= 1/3; then 2t - x = -2t^2 / (1 - t).
    const t = x / (2 + x);
    const t2 = t * t;
    let power = t;
    let sum = 0;
    for (let k = 3; k < 80; k += 2) {
      power *= t2;
      const term = power / k;
      sum += term;
      if (Math.abs(term) <= EPS * Math.abs(sum)) break;
    }
    return (-2 * t2) / (1 - t) + 2 * sum;
  }
  return Math.log1p(x) - x;
}

// B_2m / (2m (2m - 1)) for m = 1..8: Stirling's series ln Gamma*(a) = sum of these / a^(2m-1).
const STIRLING = [1 / 12, -1 / 360, 1 / 1260, -1 / 1680, 1 / 1188, -691 / 360360, 1 / 156, -3617 / 122400];

/**
 * ln Gamma*(a), where Gamma(a) = sqrt(2 pi) a^(a - 1/2) e^-a Gamma*(a) (DLMF 5.11.3 /
 * DiDonato & Morris). Stirling's series for a >= 10 (error < 1e-17); below, shifted up by
 * the recurrence Gamma(a) = Gamma(a + n) / (a (a + 1) ... (a + n - 1)).
 */
export function lnGammaStar(a: number): number {
  if (!(a > 0)) return NaN;
  if (a >= 10) {
    const r = 1 / a;
    const r2 = r * r;
    let sum = 0;
    for (let m = STIRLING.length - 1; m >= 0; m--) sum = sum * r2 + STIRLING[m];
    return sum * r;
  }
  const n = Math.ceil(10 - a);
  const b = a + n;
  let logProduct = 0;
  let product = 1;
  for (let k = 0; k < n; k++) {
    product *= a + k;
    if (product > 1e280) {
      logProduct += Math.log(product);
      product = 1;
    }
  }
  logProduct += Math.log(product);
  return lnGammaStar(b) - n + (b - 0.5) * Math.log(b) - (a - 0.5) * Math.log(a) - logProduct;
}

/** ln Gamma(a) for a > 0. */
export function lnGamma(a: number): number {
  if (a < 10) return lnGamma(a + 1) - Math.log(a);
  return (a - 0.5) * Math.log(a) - a + LN_SQRT_2PI + lnGammaStar(a);
}

/** x^a e^-x / Gamma(a + 1), computed without cancellation (DiDonato & Morris, section 2). */
export function gammaPrefactor(a: number, x: number): number {
  if (x === 0) return 0;
  if (x === Infinity) return 0;
  // For x << a, 1 + (x - a)/a loses x's digits; ln(x/a) - (x/a - 1) is then exact enough.
  const t = x / a;
  const logTerm = t < 0.5 ? Math.log(t) - (t - 1) : log1pmx((x - a) / a);
  return Math.exp(a * logTerm - lnGammaStar(a)) / Math.sqrt(2 * Math.PI * a);
}

/** Density of the Gamma(a, 1) distribution at x: x^(a-1) e^-x / Gamma(a). */
export function gammaDensity(a: number, x: number): number {
  if (x === 0) return a < 1 ? Infinity : a === 1 ? 1 : 0;
  return (gammaPrefactor(a, x) * a) / x;
}

/** P(a, x) by its power series: prefactor * sum_n x^n / ((a+1)...(a+n)). Use for x <= max(a, 1). */
function seriesP(a: number, x: number): number {
  let term = 1;
  let sum = 1;
  for (let n = 1; n < 100_000; n++) {
    term *= x / (a + n);
    sum += term;
    if (term <= EPS * sum) break;
  }
  return gammaPrefactor(a, x) * sum;
}

/**
 * Legendre's continued fraction for Q(a, x) without its prefactor (modified Lentz; Numerical
 * Recipes 3rd ed., 6.2): Q(a, x) = x^a e^-x / Gamma(a) * cf(a, x). Converges for x > max(a, 1).
 */
function legendreFraction(a: number, x: number): number {
  const tiny = 1e-300;
  let b = x + 1 - a;
  let c = 1 / tiny;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < 100_000; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < tiny) d = tiny;
    c = b + an / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) <= EPS) break;
  }
  return h;
}

/** Q(a, x) by Legendre's continued fraction. Use for x > max(a, 1). */
function continuedFractionQ(a: number, x: number): number {
  // Q = x^a e^-x / Gamma(a) * cf = prefactor * a * cf.
  return gammaPrefactor(a, x) * a * legendreFraction(a, x);
}

/**
 * erfc(y) for y >= 0 with small relative error: the Taylor series of erf where erfc is not
 * small, otherwise the continued fraction of Q(1/2, y^2) = erfc(y).
 */
function erfcNonNegative(y: number): number {
  if (y < 0.8) {
    const y2 = y * y;
    let term = y;
    let sum = y;
    for (let n = 1; n < 60; n++) {
      term *= -y2 / n;
      const add = term / (2 * n + 1);
      sum += add;
      if (Math.abs(add) <= 0.1 * EPS * Math.abs(sum)) break;
    }
    return 1 - (2 / SQRT_PI) * sum;
  }
  if (y > 27) return 0;
  // Q(1/2, x) = x^(1/2) e^-x / Gamma(1/2) * CF = y e^(-y^2) / sqrt(pi) * CF.
  const h = legendreFraction(0.5, y * y);
  // e^(-y^2) with y^2 split exactly into hi + lo, so large y keeps its relative accuracy.
  const yHi = Math.fround(y);
  const yLo = y - yHi;
  const expY2 = Math.exp(-yHi * yHi) * Math.exp(-(2 * yHi + yLo) * yLo);
  return ((y * expY2) / SQRT_PI) * h;
}

/** The complementary error function, accurate in relative terms for all real y. */
export function erfc(y: number): number {
  if (Number.isNaN(y)) return NaN;
  return y >= 0 ? erfcNonNegative(y) : 2 - erfcNonNegative(-y);
}

/**
 * Temme's expansion (DLMF 8.12.3-8.12.4): returns Q(a, x) if upper, P(a, x) otherwise.
 * R = exp(-a eta^2 / 2) / sqrt(2 pi a) * sum_k c_k(eta) a^-k, summed until the terms are
 * negligible or (being asymptotic) start to grow.
 */
function temme(a: number, x: number, upper: boolean): number {
  const sigma = (x - a) / a;
  const halfEta2 = -log1pmx(sigma); // eta^2 / 2 >= 0
  const eta = sigma === 0 ? 0 : Math.sign(sigma) * Math.sqrt(2 * halfEta2);
  const sign = upper ? 1 : -1;
  const head = 0.5 * erfc(sign * eta * Math.sqrt(a / 2));
  let sum = 0;
  let aPower = 1;
  let previous = Infinity;
  for (let k = 0; k < TEMME_C.length; k++) {
    const coefficients = TEMME_C[k];
    let ck = 0;
    for (let n = coefficients.length - 1; n >= 0; n--) ck = ck * eta + coefficients[n];
    const term = ck * aPower;
    const size = Math.abs(term);
    if (size > previous) break;
    sum += term;
    if (size <= EPS * Math.abs(sum)) break;
    previous = size;
    aPower /= a;
  }
  return head + (sign * Math.exp(-a * halfEta2) * sum) / Math.sqrt(2 * Math.PI * a);
}

/** Where Temme's expansion is both accurate and needed (the region Cephes igam.c uses). */
function useTemme(a: number, x: number): boolean {
  if (a <= 20) return false;
  const relative = Math.abs(x - a) / a;
  return a < 200 ? relative < 0.3 : relative < 4.5 / Math.sqrt(a);
}

function checkArguments(a: number, x: number): void {
  if (!(a > 0) || !Number.isFinite(a)) throw new RangeError(`incomplete gamma: a must be finite and > 0, got ${a}`);
  if (!(x >= 0)) throw new RangeError(`incomplete gamma: x must be >= 0, got ${x}`);
}

/** The regularized lower incomplete gamma function P(a, x) = gamma(a, x) / Gamma(a). */
export function regularizedGammaP(a: number, x: number): number {
  checkArguments(a, x);
  if (x === 0) return 0;
  if (x === Infinity) return 1;
  if (useTemme(a, x)) return temme(a, x, false);
  if (x > 1 && x > a) return 1 - continuedFractionQ(a, x);
  return seriesP(a, x);
}

/** The regularized upper incomplete gamma function Q(a, x) = Gamma(a, x) / Gamma(a). */
export function regularizedGammaQ(a: number, x: number): number {
  checkArguments(a, x);
  if (x === 0) return 1;
  if (x === Infinity) return 0;
  if (useTemme(a, x)) return temme(a, x, true);
  if (x > 1 && x > a) return continuedFractionQ(a, x);
  return 1 - seriesP(a, x);
}
