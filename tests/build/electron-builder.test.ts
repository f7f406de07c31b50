// The desktop app's packaging (build/electron-builder.yml) against what `electron-vite build`
// makes: the entry package.json names, the files the Electron main side loads at run time, and
// the files electron-builder is told to pack and to unpack from the archive all exist after a
// build. (electron-builder itself is not a dependency; see the file's header.)
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
let dir: string;
/** Where the build went: a project-relative path under out/ mapped into the temporary folder. */
const built = (path: string) => join(dir, path);

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)).split('\\').join('/'));
}

/** electron-builder's glob, as far as this config uses it: `**` any depth, `*` within a name. */
function globMatcher(pattern: string): RegExp {
  const body = pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*\*\/?/g, '\0').replace(/\*/g, '[^/]*').replace(/\0/g, '.*');
  return new RegExp(`^${body}$`);
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'saikoro-desktop-build-'));
  execFileSync(process.execPath, [join(ROOT, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build', '--outDir', join(dir, 'out'), '--logLevel', 'warn'], { cwd: ROOT, stdio: 'pipe' });
}, 300_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('build/electron-builder.yml and the electron-vite build', () => {
  const config = parse(readFileSync(join(ROOT, 'build', 'electron-builder.yml'), 'utf8')) as { files: string[]; asarUnpack: string[] };
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { main: string };

  it("the package's main (the Electron entry) is built", () => {
    expect(pkg.main).toMatch(/^out\//);
    expect(existsSync(built(pkg.main)), pkg.main).toBe(true);
  });

  it('every file the main side loads beside itself (preload, renderer, worker) is built', () => {
    const loaded: string[] = [];
    for (const source of ['src-main/electron/main.ts', 'src-main/electron/solver-spawner.ts']) {
      const text = readFileSync(join(ROOT, source), 'utf8');
      for (const m of text.matchAll(/new URL\('([^']+)', import\.meta\.url\)/g)) loaded.push(new URL(m[1], 'file:///out/main/index.js').pathname.slice(1));
    }
    expect(loaded).toEqual(expect.arrayContaining(['out/preload/index.cjs', 'out/renderer/index.html', 'out/main/worker.js']));
    for (const file of loaded) expect(existsSync(built(file)), file).toBe(true);
  });

  it('every out/ pattern it packs or unpacks matches a built file', () => {
    const files = filesUnder(join(dir, 'out'));
    const patterns = [...config.files, ...config.asarUnpack].filter((p) => p.startsWith('out/'));
    expect(patterns.length).toBeGreaterThan(1);
    for (const p of patterns) expect(files.some((f) => globMatcher(p).test(f)), p).toBe(true);
    expect(config.files).toContain('package.json');
  });
});
