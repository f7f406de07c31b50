// The stamp of out/cli (out/cli/build-stamp.json): what the build was made from, so that a
// checkout never runs a build older than its sources. It records the size and modification time
// of every file the build reads and the modification time of every folder they sit in.
//
// bin/saikoro.mjs checks it at every start with stampLooksCurrent: one stat per recorded file and
// folder, no folder listed, nothing hashed (about a millisecond). A file that is written gets a
// new modification time; a folder gets one when an entry is added to it, removed or renamed (an
// editor that saves by renaming a temporary file, a new or deleted source). Only when something
// differs does scripts/build-cli.mjs list the inputs again (inputsMatchStamp) to tell a real
// change from a folder touched with nothing changed.
//
// Only node:fs and node:path: this loads before every command in a checkout.
import fs from 'node:fs';
import path from 'node:path';

/** What the build reads: the sources it bundles, package.json (externals, version), the tsconfigs and its own scripts. */
export const INPUTS = [
  'src-main',
  'src-shared',
  'package.json',
  'tsconfig.base.json',
  'tsconfig.main.json',
  'scripts/build-cli.mjs',
  'scripts/cli-build-stamp.mjs',
];

/** The files of a build that a start needs; a build without them is missing, whatever its stamp says. */
const OUTPUTS = ['index.js', 'worker.js'];

export const stampFile = (root) => path.join(root, 'out', 'cli', 'build-stamp.json');

/**
 * The inputs as they are now: files as [path, size, mtimeMs] and folders as [path, mtimeMs],
 * paths relative to root with '/', in a fixed order (folders' entries sorted by name).
 */
export function scanInputs(root) {
  const files = [];
  const dirs = [];
  const visit = (rel) => {
    const abs = path.join(root, rel);
    const st = fs.statSync(abs, { throwIfNoEntry: false });
    if (!st) return;
    if (st.isDirectory()) {
      dirs.push([rel, st.mtimeMs]);
      for (const name of fs.readdirSync(abs).sort()) visit(path.posix.join(rel, name));
    } else {
      files.push([rel, st.size, st.mtimeMs]);
    }
  };
  for (const rel of INPUTS) visit(rel);
  return { files, dirs };
}

/** The stamp's content, or null when there is none or it is not one this script wrote. */
export function readStamp(root) {
  let stamp;
  try {
    stamp = JSON.parse(fs.readFileSync(stampFile(root), 'utf8'));
  } catch {
    return null;
  }
  const inputs = stamp?.inputs;
  return inputs && Array.isArray(inputs.files) && Array.isArray(inputs.dirs) ? stamp : null;
}

/** Writes the stamp for `inputs` (a scanInputs result) with a rename, so a reader sees the old stamp or the new one. */
export function writeStamp(root, inputs, builtAt) {
  const file = stampFile(root);
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify({ builtAt, inputs }) + '\n');
  fs.renameSync(tmp, file);
}

export const outputsPresent = (root) => OUTPUTS.every((name) => fs.existsSync(path.join(root, 'out', 'cli', name)));

/** True when the build's outputs are there and no recorded file or folder has changed since the stamp. */
export function stampLooksCurrent(root) {
  const stamp = readStamp(root);
  if (!stamp || !outputsPresent(root)) return false;
  for (const [rel, mtimeMs] of stamp.inputs.dirs) {
    if (fs.statSync(path.join(root, rel), { throwIfNoEntry: false })?.mtimeMs !== mtimeMs) return false;
  }
  for (const [rel, size, mtimeMs] of stamp.inputs.files) {
    const st = fs.statSync(path.join(root, rel), { throwIfNoEntry: false });
    if (!st || st.size !== size || st.mtimeMs !== mtimeMs) return false;
  }
  return true;
}

/** Whether the input files now are exactly those of the stamp (paths, sizes and times; folders' times aside). */
export function inputsMatchStamp(stamp, now) {
  const recorded = stamp.inputs.files;
  return recorded.length === now.files.length && recorded.every((entry, i) => entry.length === 3 && entry.every((v, j) => v === now.files[i][j]));
}
