import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// Where the built renderer is, and whether it is up to date. Apart from renderer-build.ts, which
// holds the Vite settings and imports Vite: an installed package has the built renderer and no
// Vite, and the CLI's start-up should not pay for Vite either.

// A path, not new URL('../../', import.meta.url), which Vite rewrites into a page-relative URL when
// it transforms this file for a DOM test environment. Two levels up from src-main/server/ and
// from the built out/cli/ alike.
export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const DEFAULT_RENDERER_OUT = join(PROJECT_ROOT, 'out', 'renderer');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const st = statSync(path);
    newest = Math.max(newest, st.isDirectory() ? newestMtime(path) : st.mtimeMs);
  }
  return newest;
}

/**
 * True when `outDir` has no index.html or is older than a source it is built from. An installed
 * package has no sources: there only a missing index.html counts.
 */
export function rendererBuildIsStale(outDir: string, projectRoot = PROJECT_ROOT): boolean {
  const index = join(outDir, 'index.html');
  if (!existsSync(index)) return true;
  const built = statSync(index).mtimeMs;
  return ['src-renderer', 'src-shared'].some((d) => existsSync(join(projectRoot, d)) && newestMtime(join(projectRoot, d)) > built);
}

/**
 * A build asked for where there are no sources to build from: an installed package (it serves
 * the web UI it was packed with). `rebuild`: the build was asked for (--rebuild), not needed.
 */
export class RendererSourcesMissingError extends Error {
  constructor(
    readonly outDir: string,
    readonly rebuild: boolean,
  ) {
    super(
      rebuild
        ? 'this saikoro is an installed package, without the sources to rebuild the web UI from; it serves the one it was packed with (leave out --rebuild)'
        : `no built web UI in ${outDir}, and no sources to build it from: reinstall saikoro, or run \`npm run build\` in a checkout`,
    );
    this.name = 'RendererSourcesMissingError';
  }
}

/** Builds the renderer when it is missing or stale (or always, with force); says whether it built. */
export async function ensureRendererBuilt(
  outDir: string,
  opts: { force?: boolean; projectRoot?: string; onBuild?: (outDir: string) => void } = {},
): Promise<boolean> {
  if (!opts.force && !rendererBuildIsStale(outDir, opts.projectRoot)) return false;
  const projectRoot = opts.projectRoot ?? PROJECT_ROOT;
  if (!existsSync(join(projectRoot, 'src-renderer', 'index.html')))
    throw new RendererSourcesMissingError(outDir, opts.force === true && existsSync(join(outDir, 'index.html')));
  opts.onBuild?.(outDir);
  const { buildRenderer } = await import('./renderer-build.ts');
  await buildRenderer(outDir, projectRoot);
  return true;
}
