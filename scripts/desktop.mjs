#!/usr/bin/env node
// The desktop app: `npm start` (electron-vite preview) and `npm run dev` (electron-vite dev).
//
// Since Electron 45, `npm install` no longer downloads Electron's binary: its package fetches it
// on first use or with its own installer (node_modules/electron/install.js, the
// `install-electron` command). electron-vite looks for the binary before anything would fetch
// it, and stops with "Electron uninstall". So this script looks first (path.txt and the file it
// names, as Electron's own index.js does), runs Electron's installer when the binary is missing
// (with the environment as given: ELECTRON_MIRROR, electron_config_cache, proxies), and then
// starts electron-vite with the binary's path in ELECTRON_EXEC_PATH.
//
// Electron 45's packages ask for Node 22.12 or newer; their installer also runs on the Node
// 20.19 and later that the rest of Saikoro needs (those load ES modules with require()). A
// failed install says so, with the Node in use.
//
//   node scripts/desktop.mjs preview|dev [electron-vite options...]
//
// Paths start at the working directory (npm runs scripts in the package's folder), not at this
// file, so a copy of the package (a test's) uses its own node_modules/electron.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** The Node that Electron 45's packages ask for (their "engines"). */
export const ELECTRON_NODE = '22.12.0';

const newer = (version, than) => {
  const a = version.replace(/^v/, '').split('.').map(Number);
  const b = than.split('.').map(Number);
  for (let i = 0; i < 3; i++) if ((a[i] ?? 0) !== b[i]) return (a[i] ?? 0) > b[i];
  return true;
};

/** Whether this Node is one Electron's packages ask for. */
export const nodeIsElectrons = (version = process.versions.node) => newer(version, ELECTRON_NODE);

/** The electron package's folder, as the package at `root` resolves it. */
export function electronFolder(root) {
  return path.dirname(createRequire(path.join(root, 'package.json')).resolve('electron/package.json'));
}

/** Where Electron's binary is, and whether it is there (path.txt names it inside dist/). */
export function electronBinary(folder) {
  let name = null;
  try {
    name = fs.readFileSync(path.join(folder, 'path.txt'), 'utf8').trim();
  } catch {
    // not installed
  }
  const file = name ? path.join(folder, 'dist', name) : null;
  return { file, present: file !== null && fs.existsSync(file) };
}

/**
 * The binary's path: there already, or fetched now by Electron's installer. Throws with what to
 * do when it cannot be fetched.
 */
export function ensureElectronBinary({ root = process.cwd(), env = process.env, log = (line) => process.stderr.write(line + '\n') } = {}) {
  const folder = electronFolder(root);
  const found = electronBinary(folder);
  if (found.present) return found.file;
  const installer = path.join(folder, 'install.js');
  log(
    `saikoro: Electron's binary is not installed (npm install no longer downloads it since Electron 45); fetching it with ${path.relative(root, installer)}...`,
  );
  const run = spawnSync(process.execPath, [installer], { cwd: folder, env, stdio: ['ignore', 'inherit', 'inherit'] });
  const after = electronBinary(folder);
  if (run.status === 0 && after.present) return after.file;
  const node = nodeIsElectrons()
    ? ''
    : ` Electron ${readVersion(folder)} asks for Node ${ELECTRON_NODE} or newer; this is Node ${process.versions.node}: if the installer failed on that, use a newer Node for the desktop app (the command line and the web UI, npm run web, need only Node 20.19).`;
  throw new Error(
    `could not install Electron's binary (the installer ${run.error ? `did not start: ${run.error.message}` : `exited with status ${run.status}`}).${node} Run \`node ${path.relative(root, installer)}\` to see why; behind a proxy or without access to GitHub, set ELECTRON_MIRROR (https://www.electronjs.org/docs/latest/tutorial/installation).`,
  );
}

function readVersion(folder) {
  try {
    return JSON.parse(fs.readFileSync(path.join(folder, 'package.json'), 'utf8')).version;
  } catch {
    return '';
  }
}

/** Runs electron-vite `mode` with the binary's path given; returns its exit status. */
export function startDesktop(mode, args, { root = process.cwd(), env = process.env } = {}) {
  const binary = ensureElectronBinary({ root, env });
  // Its command, as package.json's "bin" names it (the package exports no bin/ path).
  const manifest = createRequire(path.join(root, 'package.json')).resolve('electron-vite/package.json');
  const cli = path.join(path.dirname(manifest), JSON.parse(fs.readFileSync(manifest, 'utf8')).bin['electron-vite']);
  const run = spawnSync(process.execPath, [cli, mode, ...args], { cwd: root, env: { ...env, ELECTRON_EXEC_PATH: binary }, stdio: 'inherit' });
  if (run.error) throw run.error;
  return run.status ?? 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(fs.realpathSync(process.argv[1])).href) {
  const [mode, ...args] = process.argv.slice(2);
  if (mode !== 'preview' && mode !== 'dev') {
    process.stderr.write('usage: node scripts/desktop.mjs preview|dev [electron-vite options...]\n');
    process.exit(2);
  }
  try {
    process.exitCode = startDesktop(mode, args);
  } catch (e) {
    process.stderr.write(`saikoro: ${e.message}\n`);
    process.exitCode = 1;
  }
}
