// Recomputes the lower bound of docs/solvers.md ("A lower bound") for the default bands at any N,
// showing every ingredient: the chi-square quantiles (src-shared/problems/dice/chi2.ts), the
// largest sums of squared block counts they allow, and the least sums that A costly pair blocks
// and b doubly costly triple blocks force.
//
//   npx tsx scripts/lower-bound.ts            N = 840
//   npx tsx scripts/lower-bound.ts 840 2520   several N
import { trackConfig } from '../src-shared/problems/dice/config.ts';
import { leastS2, leastSquares, lowerBound } from '../src-shared/problems/dice/lower-bound.ts';

const ns = process.argv.slice(2).map(Number);
for (const n of ns.length ? ns : [840]) {
  const config = trackConfig('so', n);
  const b = lowerBound(config);
  console.log(`N = ${n}`);
  if (b.d2) {
    const { blocks, q, largestS2, aMin } = b.d2;
    console.log(`  d = 2: ${blocks} blocks, q(0.9; 35) = ${q}`);
    console.log(
      `         chi_2 <= q  <=>  S2 <= ${blocks} (${blocks} + q) / 36 = ${(blocks * (blocks + q)) / 36}, so S2 <= ${largestS2} (S2 has the parity of ${blocks})`,
    );
    for (let A = Math.max(0, aMin - 2); A <= Math.min(blocks, aMin + 1); A++) {
      const args: number[] = [];
      for (let a = 0; a <= A; a++) if (leastSquares(a, 18) + leastSquares(A - a, 6) + leastSquares(blocks - A, 12) === leastS2(A, blocks)) args.push(a);
      const splits = args.map((a) => `a = ${a} mixed and e = ${A - a} equal`).join(', or ');
      console.log(`         A = ${A} costly blocks: least S2 = ${leastS2(A, blocks)} (${splits})${leastS2(A, blocks) > largestS2 ? ' > allowed' : ''}`);
    }
    console.log(`         so at least ${aMin} of the pairs at even positions are costly`);
  } else console.log('  d = 2: not constrained from above');
  if (b.d3) {
    const { blocks, q, largestS3, bMin } = b.d3;
    console.log(`  d = 3: ${blocks} blocks, q(0.9; 215) = ${q}`);
    console.log(`         S3 <= ${blocks} (${blocks} + q) / 216 = ${(blocks * (blocks + q)) / 216}, so S3 <= ${largestS3}`);
    for (let x = Math.max(0, bMin - 1); x <= Math.min(blocks, bMin + 1); x++) {
      const s = leastSquares(blocks - x, 120) + leastSquares(x, 96);
      console.log(`         b = ${x} blocks with both pairs costly: least S3 = h(${blocks - x}, 120) + h(${x}, 96) = ${s}${s > largestS3 ? ' > allowed' : ''}`);
    }
    console.log(`         so at least ${bMin} costly pair${bMin === 1 ? '' : 's'} at odd positions`);
  } else console.log('  d = 3: not constrained from above');
  console.log(`  F6 + F7 >= ${b.costlyPairs}, so f >= E6 + E7 >= ${b.costlyPairs} - ${config.beta[5]} - ${config.beta[6]} = ${b.f}`);
}
