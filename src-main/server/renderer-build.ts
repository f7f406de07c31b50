import { join } from 'node:path';
import vue from '@vitejs/plugin-vue';
import type { InlineConfig } from 'vite';
import { PROJECT_ROOT } from './renderer-dir.ts';

// The renderer's build with Vite (a development dependency). Where the build goes and whether it
// is stale: renderer-dir.ts.

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
