import { sep } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without type declarations
import { lintLayers, problemsIn } from '../scripts/lint-layers.mjs';

const path = (...parts: string[]) => parts.join(sep);
// Spelled in pieces so that this file does not itself look like an electron import.
const ELECTRON = ['elec', 'tron'].join('');

describe('layering (scripts/lint-layers.mjs, npm run lint)', () => {
  it('finds no violation in the project', () => {
    expect(lintLayers()).toEqual([]);
  });

  it('rejects Node, Electron, UI libraries, DOM globals and Math.random in src-shared', () => {
    const file = path('src-shared', 'x.ts');
    expect(problemsIn(file, "import { readFileSync } from 'node:fs';")).toHaveLength(1);
    expect(problemsIn(file, "import fs from 'fs';")).toHaveLength(1);
    expect(problemsIn(file, `import { app } from '${ELECTRON}';`)).toHaveLength(1);
    expect(problemsIn(file, "import { ref } from 'vue';")).toHaveLength(1);
    expect(problemsIn(file, "const w = window.innerWidth;")).toHaveLength(1);
    expect(problemsIn(file, 'const r = Math.random();')[0]).toMatch(/Math\.random/);
    expect(problemsIn(file, "import { Random } from '../random.ts';")).toEqual([]);
  });

  it('allows electron only under src-main/electron/ and never in tests or the renderer', () => {
    const importElectron = `import { BrowserWindow } from '${ELECTRON}';`;
    expect(problemsIn(path('src-main', 'electron', 'main.ts'), importElectron)).toEqual([]);
    expect(problemsIn(path('src-main', 'host', 'pool.ts'), importElectron)).toHaveLength(1);
    expect(problemsIn(path('src-renderer', 'App.vue'), importElectron)).toHaveLength(1);
    expect(problemsIn(path('src-renderer', 'main.ts'), "import { spawn } from 'node:child_process';")).toHaveLength(1);
    expect(problemsIn(path('tests', 'a.test.ts'), importElectron)).toHaveLength(1);
  });
});
