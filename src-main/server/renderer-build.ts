import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import vue from '@vitejs/plugin-vue';
import type { InlineConfig } from 'vite';

// A path, not new URL('../../', import.meta.url), which Vite rewrites into a page-relative URL when
// it transforms this file for a DOM test environment.
export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const DEFAULT_RENDERER_OUT = join(PROJECT_ROOT, 'out', 'renderer');

/**
 * The renderer's Vite settings, shared by electron.vite.config.ts (desktop build) and the web
 * server's on-demand build, so the two can never drift apart.
 */
export function rendererViteConfig(projectRoot = PROJECT_ROOT) {
  return {
    root: join(projectRoot, 'src-renderer'),
    // Relative asset URLs work from file:// (Electron) and from any web-server path alike.
    base: './',
    plugins: [vue()],
    build: {
      rolldownOptions: { input: join(projectRoot, 'src-renderer', 'index.html') },
      // ECharts (core, five chart types, canvas and SVG renderers) is one lazy chunk of about
      // 600 kB, loaded with the first chart; a desktop app and a local server can afford it.
      chunkSizeWarningLimit: 800,
      // electron-vite leaves the renderer unminified unless told.
      minify: true,
    },
  } satisfies InlineConfig;
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const st = statSync(path);
    newest = Math.max(newest, st.isDirectory() ? newestMtime(path) : st.mtimeMs);
  }
  return newest;
}

/** True when `outDir` has no index.html or is older than a source it is built from. */
export function rendererBuildIsStale(outDir: string, projectRoot = PROJECT_ROOT): boolean {
  const index = join(outDir, 'index.html');
  if (!existsSync(index)) return true;
  const built = statSync(index).mtimeMs;
  return ['src-renderer', 'src-shared'].some((d) => existsSync(join(projectRoot, d)) && newestMtime(join(projectRoot, d)) > built);
}

/** Builds the renderer into outDir with Vite's JS API. */
export async function buildRenderer(outDir: string, projectRoot = PROJECT_ROOT): Promise<void> {
  const { build } = await import('vite');
  const base = rendererViteConfig(projectRoot);
  await build({
    ...base,
    configFile: false,
    logLevel: 'warn',
    build: { ...base.build, outDir, emptyOutDir: true, reportCompressedSize: false },
  });
}

/** Builds the renderer when it is missing or stale (or always, with force); says whether it built. */
export async function ensureRendererBuilt(outDir: string, opts: { force?: boolean; projectRoot?: string; onBuild?: (outDir: string) => void } = {}): Promise<boolean> {
  if (!opts.force && !rendererBuildIsStale(outDir, opts.projectRoot)) return false;
  opts.onBuild?.(outDir);
  await buildRenderer(outDir, opts.projectRoot);
  return true;
}
