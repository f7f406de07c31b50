#!/usr/bin/env node
// Runs the TypeScript CLI through tsx's loader, so `npx saikoro` works straight after `npm ci`
// with no build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src-main/cli/index.ts');
process.exitCode = await main(process.argv.slice(2));
