/**
 * Places for the tests of files in hostile places (tests/main/cli/project-places.test.ts,
 * tests/main/report/full-disk.test.ts): a fresh folder per case under a root, a real tmpfs of
 * a given size where this process may mount one (root; CI runs as root), and a way to fill a
 * file system. The mounts are unmounted after each test.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, expect } from 'vitest';

export interface ScratchPlaces {
  /** A new empty folder under the root. */
  folder(): string;
  /** A tmpfs of `size` (mount's size=, e.g. '1m') at a new folder, or null when this process may not mount. */
  tmpfs(size: string): string | null;
}

/** Folders under `root()` (read when a folder is made, so a beforeAll may set it). Call at a test file's top level. */
export function scratchPlaces(root: () => string): ScratchPlaces {
  const mounts: string[] = [];
  let cases = 0;
  afterEach(() => {
    for (const m of mounts.splice(0)) spawnSync('umount', ['-l', m]);
  });
  const folder = () => {
    const dir = path.join(root(), `case-${++cases}`);
    fs.mkdirSync(dir);
    return dir;
  };
  const tmpfs = (size: string) => {
    if (process.getuid?.() !== 0) return null;
    const dir = folder();
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'ignore' });
    } catch {
      return null;
    }
    mounts.push(dir);
    return dir;
  };
  return { folder, tmpfs };
}

/**
 * Fills the file system holding `dir` with a file `filler` in 4 KiB blocks until the write
 * fails, which must be ENOSPC; with `toTheByte`, then single bytes until not one more fits.
 */
export function fill(dir: string, options: { toTheByte?: boolean } = {}): void {
  const fd = fs.openSync(path.join(dir, 'filler'), 'w');
  try {
    for (;;) fs.writeSync(fd, Buffer.alloc(4096));
  } catch (e) {
    expect((e as NodeJS.ErrnoException).code).toBe('ENOSPC');
  } finally {
    fs.closeSync(fd);
  }
  if (!options.toTheByte) return;
  const fd1 = fs.openSync(path.join(dir, 'filler'), 'a');
  try {
    for (;;) fs.writeSync(fd1, Buffer.alloc(1));
  } catch {
    // full
  } finally {
    fs.closeSync(fd1);
  }
}
