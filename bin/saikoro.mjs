#!/usr/bin/env node
// Runs the built CLI (out/cli, JavaScript built from src-main by scripts/build-cli.mjs). In a
// checkout, where the sources sit beside it, it first checks that the build matches them and
// rebuilds it when it does not (after `git pull`, or an edit), so it never runs old code. An
// installed package has no sources: it runs the build it was packed with.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// A reader that stops early (`saikoro solvers | head`) closes the pipe: end quietly, as Unix
// tools do, instead of crashing on EPIPE.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

const root = new URL('..', import.meta.url);
const built = new URL('out/cli/index.js', root);
if (existsSync(new URL('src-main/cli/index.ts', root)) && existsSync(new URL('scripts/build-cli.mjs', root))) {
  // The quick check (a stat per source) passes on almost every start; the build script, and
  // esbuild, load only when it does not.
  const { stampLooksCurrent } = await import('../scripts/cli-build-stamp.mjs');
  if (!stampLooksCurrent(fileURLToPath(root))) {
    const { ensureCliBuilt } = await import('../scripts/build-cli.mjs');
    try {
      await ensureCliBuilt({ onBuild: (why) => process.stderr.write(`saikoro: the build in out/cli is ${why}; building it from the sources...\n`) });
    } catch (e) {
      process.stderr.write(`saikoro: cannot build out/cli from the sources (${e.message}); run \`npm ci\` or \`npm run build\`\n`);
      process.exit(1);
    }
  }
} else if (!existsSync(built)) {
  process.stderr.write(`saikoro: the built CLI is missing (${fileURLToPath(built)}); reinstall saikoro\n`);
  process.exit(1);
}
const { main } = await import(built.href);
process.exitCode = await main(process.argv.slice(2));
