#!/usr/bin/env node
// Runs the TypeScript CLI through tsx's loader, so `npx saikoro` works straight after `npm ci`
// with no build step.
import { register } from 'tsx/esm/api';

// A reader that stops early (`saikoro solvers | head`) closes the pipe: end quietly, as Unix
// tools do, instead of crashing on EPIPE.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

register();
const { main } = await import('../src-main/cli/index.ts');
process.exitCode = await main(process.argv.slice(2));
