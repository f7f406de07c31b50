import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import { rendererViteConfig } from './src-main/server/renderer-build.ts';

// electron-vite only auto-detects src/main, src/preload and src/renderer; every entry here is
// given explicitly. Output goes to out/main, out/preload and out/renderer.
const root = import.meta.dirname;

const mainEntries: Record<string, string> = {
  // out/main/index.js, the "main" of package.json.
  index: resolve(root, 'src-main/electron/main.ts'),
};
// ── Solver-host worker entry (added by the lead) ──────────────────────────────────────────
// The worker is a second main-process bundle, forked as a utility process. It is picked up
// here as soon as src-main/host/worker.ts exists and lands in out/main/worker.js.
const workerEntry = resolve(root, 'src-main/host/worker.ts');
if (existsSync(workerEntry)) mainEntries.worker = workerEntry;
// ───────────────────────────────────────────────────────────────────────────────────────────

export default defineConfig({
  main: {
    build: {
      rolldownOptions: { input: mainEntries },
    },
  },
  preload: {
    build: {
      rolldownOptions: {
        input: { index: resolve(root, 'src-main/electron/preload.ts') },
        // Sandboxed preloads cannot be ES modules: one self-contained CommonJS file.
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: rendererViteConfig(root),
});
