// Builds what `saikoro` runs under plain Node (the command-line tool, the web server, the solver
// worker) from the TypeScript sources into out/cli, with esbuild: two entries (index.js, the CLI;
// worker.js, the solver worker) and shared chunks, every command in a chunk of its own that loads
// when the command runs. npm packages stay external (package.json's dependencies).
//
// A stamp of the sources (out/cli/build-stamp.json, scripts/cli-build-stamp.mjs: the size and
// modification time of every source, the modification time of every folder) is written with each
// build; bin/saikoro.mjs compares it with the sources in a checkout and rebuilds when they
// differ, so a checkout never runs old code.
//
//   node scripts/build-cli.mjs         build now (as `npm run build` does)
//   node scripts/build-cli.mjs --ensure build only when out/cli is missing or stale
//   node scripts/build-cli.mjs --check  exit 1 and say so when out/cli is missing or stale
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { inputsMatchStamp, outputsPresent, readStamp, scanInputs, stampLooksCurrent, writeStamp } from './cli-build-stamp.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const CLI_OUT = path.join(ROOT, 'out', 'cli');
const LOCK_FILE = path.join(ROOT, 'out', '.cli-build.lock');

const ENTRIES = { index: 'src-main/cli/index.ts', worker: 'src-main/host/worker.ts' };

/**
 * The dice evaluator's window table (src-shared/problems/dice/features.ts), built here once by
 * the sources' own buildWindowTable, to go into the bundle as an array: building it at every
 * start cost a `saikoro rngbias` call more than the rest of its work.
 */
export async function computeWindowTable() {
  const { build } = await import('esbuild');
  const bundled = await build({
    absWorkingDir: ROOT,
    entryPoints: ['src-shared/problems/dice/features.ts'],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'neutral',
    logLevel: 'warning',
  });
  const features = await import(`data:text/javascript;base64,${Buffer.from(bundled.outputFiles[0].text).toString('base64')}`);
  return features.buildWindowTable();
}

/**
 * Why out/cli cannot be run as it is ('missing', 'stale'), or null when it is up to date. When
 * only a folder's time changed (a file made and removed again, as editors do), the sources are
 * those of the build: the stamp takes the folders' new times, so the next start's quick check
 * passes again.
 */
export function cliBuildState(root = ROOT) {
  if (stampLooksCurrent(root)) return null;
  const stamp = readStamp(root);
  if (!stamp || !outputsPresent(root)) return 'missing';
  const now = scanInputs(root);
  if (!inputsMatchStamp(stamp, now)) return 'stale';
  writeStamp(root, now, stamp.builtAt);
  return null;
}

/**
 * Builds into a fresh folder beside out/cli, then moves each file into out/cli with an atomic
 * rename and writes the stamp last: a process starting meanwhile sees the old build or the new
 * one, never half of one. Files of earlier builds are removed once they are ten minutes old (a
 * CLI started from the old build may still load its chunks until then); `all` removes them now.
 */
export async function buildCli({ pruneAll = false } = {}) {
  const { build } = await import('esbuild');
  // Scanned before building: a source saved during the build leaves the build stale.
  const inputs = scanInputs(ROOT);
  const windowTable = await computeWindowTable();
  fs.mkdirSync(CLI_OUT, { recursive: true });
  const staging = fs.mkdtempSync(path.join(ROOT, 'out', '.cli-build-'));
  try {
    await build({
      absWorkingDir: ROOT,
      entryPoints: ENTRIES,
      outdir: staging,
      // Flat: every file two levels below the package root, as its sources are (src-main/x/),
      // so paths built from import.meta.url ('../../package.json', out/renderer) hold for both.
      chunkNames: '[name]-[hash]',
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      packages: 'external',
      tsconfig: 'tsconfig.main.json',
      sourcemap: true,
      logLevel: 'warning',
      define: { 'globalThis.SAIKORO_WINDOW_TABLE': JSON.stringify(JSON.stringify(Array.from(windowTable))) },
    });
    const built = fs.readdirSync(staging);
    for (const name of built) fs.renameSync(path.join(staging, name), path.join(CLI_OUT, name));
    writeStamp(ROOT, inputs, new Date().toISOString());
    const keep = new Set([...built, 'build-stamp.json']);
    const cutoff = Date.now() - 10 * 60_000;
    for (const name of fs.readdirSync(CLI_OUT)) {
      if (keep.has(name)) continue;
      const file = path.join(CLI_OUT, name);
      if (pruneAll || fs.statSync(file).mtimeMs < cutoff) fs.rmSync(file, { force: true });
    }
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function lockHolderAlive() {
  try {
    const pid = Number(fs.readFileSync(LOCK_FILE, 'utf8'));
    if (!Number.isInteger(pid) || pid <= 0) return false;
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
}

/**
 * Rebuilds out/cli when it is missing or stale; says why it built (null when it did not). One
 * process builds at a time (out/.cli-build.lock); the others wait for it and use its build.
 */
export async function ensureCliBuilt({ onBuild } = {}) {
  const deadline = Date.now() + 5 * 60_000;
  for (;;) {
    const state = cliBuildState();
    if (state === null) return null;
    fs.mkdirSync(path.dirname(LOCK_FILE), { recursive: true });
    let fd;
    try {
      fd = fs.openSync(LOCK_FILE, 'wx');
    } catch (e) {
      if (e.code !== 'EEXIST') throw e;
      if (!lockHolderAlive()) fs.rmSync(LOCK_FILE, { force: true });
      else if (Date.now() > deadline) throw new Error(`waited 5 minutes for another build of out/cli (${LOCK_FILE}); remove that file if no build is running`);
      else await sleep(100);
      continue;
    }
    try {
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      if (cliBuildState() === null) return null;
      onBuild?.(state);
      await buildCli();
      return state;
    } finally {
      fs.rmSync(LOCK_FILE, { force: true });
    }
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  if (process.argv.includes('--check')) {
    const state = cliBuildState();
    if (state) {
      console.error(`out/cli is ${state}: run \`npm run build\``);
      process.exit(1);
    }
  } else if (process.argv.includes('--ensure')) {
    const why = await ensureCliBuilt();
    if (why) console.log(`built out/cli (it was ${why})`);
  } else {
    const started = Date.now();
    await buildCli({ pruneAll: true });
    console.log(`built out/cli (${Date.now() - started} ms)`);
  }
}
