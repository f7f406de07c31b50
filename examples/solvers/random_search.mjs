#!/usr/bin/env node
// Random search as a Saikoro solver, in plain Node with no dependencies: the protocol is JSON
// lines on stdin and stdout, so any language that can read and write lines can be a solver.
//
//   {"name": "random-node", "command": ["node", "examples/solvers/random_search.mjs", "--batch", "100"]}
//
// Protocol (docs/external-solvers.md): read Saikoro's first line (problem, budget, seed); write
// {"evaluate": [...]} lines and read one {"results": [...], "remaining": R} answer each; stop
// when an answer carries "stop" or stdin ends. {"log": "..."} lines go to the run's log.
import { createInterface } from 'node:readline';

const batchAt = process.argv.indexOf('--batch');
const batchSize = batchAt > 0 ? Number(process.argv[batchAt + 1]) : 100;
if (!Number.isInteger(batchSize) || batchSize < 1) {
  process.stderr.write('--batch must be a positive integer\n');
  process.exit(2);
}

const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
const receive = async () => {
  const { value, done } = await lines.next();
  return done ? null : JSON.parse(value);
};
// Writes to a pipe are synchronous in Node on Linux, so each line leaves at once.
const send = (message) => process.stdout.write(JSON.stringify(message) + '\n');

// splitmix32, seeded from the run's seed: the same seed gives the same run.
function generator(seed) {
  let state = (seed % 2 ** 32) >>> 0;
  return () => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return ((z ^ (z >>> 16)) >>> 0) / 2 ** 32;
  };
}

const first = await receive();
if (!first || first.protocol !== 1) {
  process.stderr.write(`expected Saikoro's first line (protocol 1), got ${JSON.stringify(first)}\n`);
  process.exit(1);
}
const { n, lower, upper, objectives } = first.problem;
const random = generator(first.seed);
const roll = () => lower + Math.floor(random() * (upper - lower + 1));

let best = Infinity;
let evaluated = 0;
let reason = 'closed';
for (;;) {
  const batch = Array.from({ length: batchSize }, () => Array.from({ length: n }, roll).join(''));
  send({ evaluate: batch });
  const answer = await receive();
  if (answer === null) break;
  for (const result of answer.results) {
    if (result.error === undefined) evaluated++;
    if (objectives === 1 && result.feasible && result.objective < best) best = result.objective;
  }
  if (answer.stop) {
    reason = answer.stop;
    break;
  }
}
const found = objectives > 1 ? '' : best < Infinity ? `; best feasible f = ${best}` : '; nothing feasible';
send({ log: `stopped (${reason}) after ${evaluated} evaluations${found}` });
process.exit(0);
