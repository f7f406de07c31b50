#!/usr/bin/env node
// Generates src-shared/math/temme-coefficients.ts: the Taylor coefficients in eta of the
// functions c_k(eta) in Temme's uniform asymptotic expansion of the incomplete gamma
// function (N. M. Temme, SIAM J. Math. Anal. 10 (1979) 757-766; DLMF 8.12.3-8.12.10):
//
//   Q(a, x) = erfc(eta sqrt(a/2)) / 2 + R,   P(a, x) = erfc(-eta sqrt(a/2)) / 2 - R,
//   R ~ exp(-a eta^2 / 2) / sqrt(2 pi a) * sum_k c_k(eta) a^-k,
//   eta^2 / 2 = mu - ln(1 + mu),  mu = x/a - 1,  sign(eta) = sign(mu),
//   c_0 = 1/mu - 1/eta,   c_k = (1/eta) c_{k-1}'(eta) + (-1)^k g_k / mu,
//
// with g_k the coefficients of Stirling's series Gamma*(a) = sum_k g_k a^-k (DLMF 5.11.3).
// Everything is done in exact rational arithmetic (BigInt) and rounded once at the end.
// Usage: node scripts/gen-temme-coefficients.mjs > src-shared/math/temme-coefficients.ts
const K = 25; // number of functions c_0 .. c_{K-1}
const N = 25; // Taylor coefficients kept per function

const babs = (n) => (n < 0n ? -n : n);
function gcd(a, b) {
  a = babs(a);
  b = babs(b);
  while (b) [a, b] = [b, a % b];
  return a;
}
class Q {
  constructor(n, d = 1n) {
    if (d < 0n) {
      n = -n;
      d = -d;
    }
    const g = gcd(n, d) || 1n;
    this.n = n / g;
    this.d = d / g;
  }
  static of(n, d = 1) {
    return new Q(BigInt(n), BigInt(d));
  }
  add(o) {
    return new Q(this.n * o.d + o.n * this.d, this.d * o.d);
  }
  sub(o) {
    return new Q(this.n * o.d - o.n * this.d, this.d * o.d);
  }
  mul(o) {
    return new Q(this.n * o.n, this.d * o.d);
  }
  div(o) {
    return new Q(this.n * o.d, this.d * o.n);
  }
  neg() {
    return new Q(-this.n, this.d);
  }
  isZero() {
    return this.n === 0n;
  }
  // Correctly rounded enough: scale to 40 significant digits with BigInt, then parse.
  toNumber() {
    if (this.n === 0n) return 0;
    const neg = this.n < 0n;
    const n = babs(this.n);
    const digits = 40n;
    let e = BigInt(n.toString().length - this.d.toString().length) - digits;
    const scaled = e >= 0n ? n / (this.d * 10n ** e) : (n * 10n ** -e) / this.d;
    const s = `${neg ? '-' : ''}${scaled}e${e}`;
    return Number(s);
  }
}
const ZERO = Q.of(0);
const ONE = Q.of(1);

// Series reversion by Lagrange: eta = mu * h(mu)^(1/2) with h(mu) = 2 (mu - ln(1+mu)) / mu^2,
// so [eta^n] mu = (1/n) [mu^(n-1)] h(mu)^(-n/2).
const M = N + 2 * (K - 1) + 2; // degree of mu(eta) needed
const h = Array.from({ length: M + 1 }, (_, j) => Q.of(2 * (j % 2 ? -1 : 1), j + 2));
function power(series, alpha, deg) {
  // g = series^alpha with series[0] = 1 (J. C. P. Miller's recurrence).
  const g = [ONE];
  for (let m = 1; m <= deg; m++) {
    let s = ZERO;
    for (let j = 1; j <= m; j++)
      s = s.add(
        alpha
          .add(ONE)
          .mul(Q.of(j))
          .sub(Q.of(m))
          .mul(series[j])
          .mul(g[m - j]),
      );
    g.push(s.div(Q.of(m)));
  }
  return g;
}
const mu = [ZERO]; // mu[n] = [eta^n] mu(eta)
for (let n = 1; n <= M; n++) mu.push(power(h, Q.of(-n, 2), n - 1)[n - 1].div(Q.of(n)));

// 1/mu = (1/eta) * u(eta), u = 1 / (mu / eta).
const v = mu.slice(1); // mu/eta, v[0] = 1
const u = [ONE];
for (let m = 1; m < v.length; m++) {
  let s = ZERO;
  for (let j = 1; j <= m; j++) s = s.add(v[j].mul(u[m - j]));
  u.push(s.neg());
}
// Coefficients of 1/mu: power eta^(j-1) has coefficient u[j].

// Stirling's series coefficients g_k of Gamma*(a) = exp(sum_m B_2m / (2m (2m-1) a^(2m-1))).
function bernoulli(nmax) {
  const B = [ONE];
  for (let m = 1; m <= nmax; m++) {
    let s = ZERO;
    let binom = 1n; // binom(m+1, j)
    for (let j = 0; j < m; j++) {
      s = s.add(new Q(binom).mul(B[j]));
      binom = (binom * BigInt(m + 1 - j)) / BigInt(j + 1);
    }
    B.push(s.neg().div(Q.of(m + 1)));
  }
  return B;
}
const B = bernoulli(2 * K + 2);
const L = [ZERO];
for (let j = 1; j <= K; j++) L.push(j % 2 ? B[j + 1].div(Q.of((j + 1) * j)) : ZERO);
const g = [ONE];
for (let k = 1; k <= K; k++) {
  let s = ZERO;
  for (let j = 1; j <= k; j++)
    s = s.add(
      Q.of(j)
        .mul(L[j])
        .mul(g[k - j]),
    );
  g.push(s.div(Q.of(k)));
}

// c_k as arrays of Taylor coefficients.
let c = [];
for (let j = 1; j < u.length; j++) c.push(u[j]); // c_0 = sum_{j>=1} u_j eta^(j-1)
const table = [];
for (let k = 0; k < K; k++) {
  if (k > 0) {
    // (1/eta) c' : sum_n n a_n eta^(n-2); the eta^-1 term must cancel with (-1)^k g_k / eta.
    const gk = k % 2 ? g[k].neg() : g[k];
    const residue = c[1].add(gk);
    if (!residue.isZero()) throw new Error(`c_${k}: 1/eta term does not cancel`);
    const next = [];
    for (let n = 2; n < c.length; n++) {
      let t = Q.of(n).mul(c[n]);
      // (-1)^k g_k / mu contributes gk * u[j] at eta^(j-1); here power n-2 => j = n-1.
      if (n - 1 < u.length) t = t.add(gk.mul(u[n - 1]));
      next.push(t);
    }
    c = next;
  }
  if (c.length < N) throw new Error('not enough terms');
  table.push(c.slice(0, N).map((q) => q.toNumber()));
}

const fmt = (x) => {
  const s = x.toExponential(16);
  return s;
};
const out = [];
out.push('// Generated by scripts/gen-temme-coefficients.mjs; do not edit.');
out.push("// TEMME_C[k][n] is the coefficient of eta^n in c_k(eta), Temme's uniform asymptotic expansion");
out.push('// of the incomplete gamma function (Temme 1979; DLMF 8.12.9-8.12.10), from exact rationals.');
out.push('export const TEMME_C: readonly (readonly number[])[] = [');
for (const row of table) out.push(`  [${row.map(fmt).join(', ')}],`);
out.push('];');
process.stdout.write(out.join('\n') + '\n');
