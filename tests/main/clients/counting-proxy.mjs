// A program that sits between Saikoro and a command solver and counts, independently of both,
// what crosses the pipe: the sequences the solver asks to evaluate and the evaluations Saikoro
// answers (results without "error"). Used by tests/main/clients/deap-experiment.test.ts to check
// that no run's budget is exceeded.
//
//   node counting-proxy.mjs OUT_DIR PROGRAM [ARGS...]
//
// After every answer it rewrites OUT_DIR/run-<seed>-<pid>.json:
//   {seed, budget, requested, answered, answers, stop}
// so a run whose host is killed mid-way leaves what it had counted.
import { spawn } from 'node:child_process';
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const [outDir, program, ...args] = process.argv.slice(2);
const child = spawn(program, args, { stdio: ['pipe', 'pipe', 'inherit'] });
const count = { seed: null, budget: null, requested: 0, answered: 0, answers: 0, stop: null };
let file = null;
// Written under another name and renamed into place, so a reader never sees half a file.
const save = () => {
  if (!file) return;
  writeFileSync(`${file}.tmp`, JSON.stringify(count));
  renameSync(`${file}.tmp`, file);
};

child.stdin.on('error', () => {});
createInterface({ input: process.stdin })
  .on('line', (line) => {
    const message = JSON.parse(line);
    if (message.protocol !== undefined) {
      count.seed = message.seed;
      count.budget = message.budget.evaluations;
      file = join(outDir, `run-${message.seed}-${process.pid}.json`);
    } else {
      count.answers++;
      count.answered += message.results.filter((r) => r.error === undefined).length;
      if (message.stop) count.stop = message.stop;
    }
    save();
    child.stdin.write(line + '\n');
  })
  .on('close', () => child.stdin.end());

createInterface({ input: child.stdout }).on('line', (line) => {
  const message = JSON.parse(line);
  if (Array.isArray(message.evaluate)) count.requested += message.evaluate.length;
  process.stdout.write(line + '\n');
});

for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => child.kill(signal));
child.on('close', (code, signal) => {
  save();
  process.exit(code ?? (signal ? 1 : 0));
});
