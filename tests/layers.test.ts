import { sep } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without type declarations
import { FOLDER_ORDER, folderOf, importsIn, lintLayers, problemsIn } from '../scripts/lint-layers.mjs';

const path = (...parts: string[]) => parts.join(sep);
// Spelled in pieces so that this file does not itself look like an electron import.
const ELECTRON = ['elec', 'tron'].join('');
const ELECTRON_DIR = ['src-main', ELECTRON].join('/');

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
    expect(problemsIn(file, 'const w = window.innerWidth;')).toHaveLength(1);
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

describe('layering by path: relative imports resolve to the layer they reach', () => {
  it('finds every form of import: import, import type, export from, bare, dynamic, require, over several lines', () => {
    const text = [
      "import { a } from './a.ts';",
      "import type { B } from '../b.ts';",
      "export { c } from './c.ts';",
      "export * from './d.ts';",
      "export type { E } from './e.ts';",
      "import './f.ts';",
      "const g = await import('./g.ts');",
      "const h = require('./h.cjs');",
      'import {\n  i,\n  type I,\n} from "./i.ts";',
      "import j, { k } from './jk.ts'; import './l.ts';",
    ].join('\n');
    expect(importsIn(text)).toEqual(['./a.ts', '../b.ts', './c.ts', './d.ts', './e.ts', './f.ts', './g.ts', './h.cjs', './i.ts', './jk.ts', './l.ts']);
    // import.meta and a word that merely ends in "import" are not imports.
    expect(importsIn("const u = new URL('./worker.ts', import.meta.url); reimport('./x.ts');")).toEqual([]);
  });

  it('src-shared reaches neither src-main nor src-renderer, however it imports', () => {
    const file = path('src-shared', 'problems', 'nqueens', 'solve.ts');
    const host = '../../../src-main/host/run.ts';
    for (const text of [
      `import { x } from '${host}';`,
      `import type { RunRequest } from '${host}';`,
      `export { x } from '${host}';`,
      `export * from '${host}';`,
      `import '${host}';`,
      `const m = await import('${host}');`,
      `import {\n  x,\n} from '${host}';`,
    ]) {
      const problems = problemsIn(file, text);
      expect(problems, text).toHaveLength(1);
      expect(problems[0]).toContain('(src-main/host/run.ts), which reaches src-main');
    }
    expect(problemsIn(file, "import { App } from '../../../src-renderer/App.vue';")[0]).toContain('reaches src-renderer');
    // Within src-shared, and names that only look like another layer, pass.
    expect(problemsIn(file, "import { Random } from '../../random.ts';")).toEqual([]);
    expect(problemsIn(file, "import { resolveParams } from '../../core/params.ts';")).toEqual([]);
    expect(problemsIn(file, "import { x } from './src-main/host.ts';")).toEqual([]);
    expect(problemsIn(file, "import { x } from '../../../src-main-old/host.ts';")).toEqual([]);
  });

  it('src-renderer does not reach src-main, and may use src-shared', () => {
    const file = path('src-renderer', 'stores', 'runs.ts');
    expect(problemsIn(file, "import type { RunRequest } from '../../src-main/host/run.ts';")).toHaveLength(1);
    expect(problemsIn(path('src-renderer', 'App.vue'), '<script setup lang="ts">\nimport { x } from \'../src-main/app/events.ts\';\n</script>')).toHaveLength(
      1,
    );
    expect(problemsIn(file, "import type { SaikoroApi } from '../../src-shared/api.ts';")).toEqual([]);
    expect(problemsIn(file, "import { useApi } from '../api/index.ts';")).toEqual([]);
  });

  it('inside src-main, project/ does not reach host/ and bench/ does not reach cli/; cli/ reaches bench/', () => {
    expect(problemsIn(path('src-main', 'project', 'store.ts'), "import type { NqueensRunRequest } from '../host/run.ts';")[0]).toContain(
      'src-main/host/ from src-main/project/',
    );
    expect(problemsIn(path('src-main', 'bench', 'nqueens.ts'), "import { solveNqueens } from '../cli/commands/nqueens.ts';")[0]).toContain(
      'src-main/cli/ from src-main/bench/',
    );
    // host/ and project/ are peers in the folder order: host/ does not reach project/ either.
    expect(problemsIn(path('src-main', 'host', 'pool.ts'), "import { x } from '../project/store.ts';")[0]).toContain(
      'src-main/host may not import src-main/project, which is a peer of it',
    );
    expect(problemsIn(path('src-main', 'cli', 'commands', 'bench.ts'), "import { x } from '../../bench/registry.ts';")).toEqual([]);
    expect(problemsIn(path('src-main', 'project', 'store.ts'), "import { x } from './schema.ts';")).toEqual([]);
    expect(problemsIn(path('src-main', 'bench', 'nqueens.ts'), "import { x } from '../../src-shared/problems/nqueens/solve.ts';")).toEqual([]);
  });

  it('only src-main/electron/ reaches src-main/electron/ (it imports electron); tests never do', () => {
    const spawner = `import { electronSpawner } from '../${ELECTRON}/solver-spawner.ts';`;
    expect(problemsIn(path('src-main', 'cli', 'index.ts'), spawner)).toHaveLength(1);
    expect(problemsIn(path('src-main', ELECTRON, 'main.ts'), `import { electronSpawner } from './solver-spawner.ts';`)).toEqual([]);
    expect(problemsIn(path('src-main', ELECTRON, 'main.ts'), "import { SolverHost } from '../host/pool.ts';")).toEqual([]);
    expect(problemsIn(path('tests', 'main', 'a.test.ts'), `import { x } from '../../${ELECTRON_DIR}/main.ts';`)).toHaveLength(1);
    expect(problemsIn(path('tests', 'main', 'a.test.ts'), "import { x } from '../../src-main/host/pool.ts';")).toEqual([]);
  });
});

describe('the folder order inside src-shared (FOLDER_ORDER, as VS Code orders its layers)', () => {
  const order = FOLDER_ORDER['src-shared'] as (string | string[])[];

  it('a folder imports folders below it; an import going upward names both folders', () => {
    const request = path('src-shared', 'problems', 'nqueens', 'request.ts');
    // What the N-Queens request imported before issue 20: the parameter types from solvers/.
    const up = problemsIn(request, "import type { ParamValue } from '../../solvers/types.ts';");
    expect(up).toHaveLength(1);
    expect(up[0]).toContain('src-shared/problems/nqueens may not import src-shared/solvers, which is above it');
    expect(problemsIn(request, "import type { ParamValue } from '../../core/params.ts';")).toEqual([]);
    // The driver reaching the per-kind layer, and anything reaching api.ts (the top).
    expect(problemsIn(path('src-shared', 'core', 'driver.ts'), "import type { RunRequest } from '../runtime/kinds/index.ts';")[0]).toContain(
      'src-shared/core may not import src-shared/runtime',
    );
    expect(problemsIn(path('src-shared', 'metrics', 'hypervolume.ts'), "import type { SaikoroApi } from '../api.ts';")[0]).toContain(
      'src-shared/metrics may not import src-shared/api.ts',
    );
    // A metric reaching a problem (metrics <-> problems/dice was a cycle).
    expect(problemsIn(path('src-shared', 'metrics', 'x.ts'), "import { DiceEvaluator } from '../problems/dice/evaluate.ts';")).toHaveLength(1);
    // Downward, and within one folder (subfolders included), passes.
    expect(
      problemsIn(
        path('src-shared', 'runtime', 'kinds', 'dice.ts'),
        "import { drive } from '../../core/driver.ts';\nimport { SolverRun } from '../../solvers/solver-run.ts';\nimport type { RunApiTypes } from '../run-api.ts';",
      ),
    ).toEqual([]);
    expect(problemsIn(path('src-shared', 'solvers', 'so', 'ga.ts'), "import type { Solver } from '../types.ts';")).toEqual([]);
  });

  it('peers do not import each other; a listed subfolder is its own folder', () => {
    const peer = problemsIn(path('src-shared', 'problems', 'nqueens', 'x.ts'), "import { trackConfig } from '../dice/config.ts';");
    expect(peer).toHaveLength(1);
    expect(peer[0]).toContain('src-shared/problems/dice, which is a peer of it');
    expect(problemsIn(path('src-shared', 'random.ts'), "import { isRecord } from './json.ts';")[0]).toContain('a peer of it');
    expect(problemsIn(path('src-shared', 'solvers', 'registry.ts'), "import { ProgramRun } from './program/solver.ts';")[0]).toContain(
      'src-shared/solvers may not import src-shared/solvers/program',
    );
    expect(problemsIn(path('src-shared', 'solvers', 'program', 'solver.ts'), "import type { Solver } from '../types.ts';")).toEqual([]);
  });

  it('places every folder of src-shared, each once', () => {
    const entries = order.flat();
    expect(new Set(entries).size).toBe(entries.length);
    expect(folderOf('src-shared', 'solvers/so/ga.ts')).toBe('solvers');
    expect(folderOf('src-shared', 'solvers/program/solver.ts')).toBe('solvers/program');
    expect(folderOf('src-shared', 'api.ts')).toBe('api.ts');
    expect(folderOf('src-shared', 'widgets/x.ts')).toBeNull();
    expect(folderOf('src-shared', 'util.ts')).toBeNull();
    const unplaced = lintLayers().filter((p: string) => p.includes('is in no folder of the folder order'));
    expect(unplaced).toEqual([]);
  });
});

describe('the folder order inside src-main (FOLDER_ORDER)', () => {
  const order = FOLDER_ORDER['src-main'] as (string | string[])[];

  it('refuses the three folder cycles src-main had before issue 20, each named by its two folders', () => {
    // app <-> api: the wiring (app/core.ts) built the API; the services raised api/events.ts.
    const wiring = problemsIn(path('src-main', 'app', 'core.ts'), "import { createApi } from '../api/implementation.ts';");
    expect(wiring).toHaveLength(1);
    expect(wiring[0]).toContain('src-main/app may not import src-main/api, which is above it in the folder order of src-main');
    expect(problemsIn(path('src-main', 'app', 'run-service.ts'), "import type { ApiEventHub } from '../api/events.ts';")).toHaveLength(1);
    // app <-> experiments: the executor under experiments/ used the launcher.
    expect(
      problemsIn(
        path('src-main', 'experiments', 'executor.ts'),
        "import { Launcher } from '../app/launcher.ts';\nimport { planGridRun } from '../app/runs.ts';",
      ),
    ).toHaveLength(2);
    // app <-> report: the report used app/dice.ts for a constant.
    expect(problemsIn(path('src-main', 'report', 'build.ts'), "import { HV_NORMALISATION_IN_PROCESS_MAX_N } from '../app/dice.ts';")[0]).toContain(
      'src-main/report may not import src-main/app, which is above it',
    );
    // The same imports the other way round, as the code has them now, pass.
    expect(
      problemsIn(
        path('src-main', 'api', 'core.ts'),
        "import { createApi } from './implementation.ts';\nimport { RunService } from '../app/run-service.ts';\nimport { ApiEventHub } from '../app/events.ts';",
      ),
    ).toEqual([]);
    expect(
      problemsIn(
        path('src-main', 'app', 'experiment-executor.ts'),
        "import { gridRequest } from '../experiments/programs.ts';\nimport { nodeSpawner } from '../host/spawner.ts';",
      ),
    ).toEqual([]);
    expect(
      problemsIn(
        path('src-main', 'app', 'project-service.ts'),
        "import { buildReport } from '../report/index.ts';\nimport { Project } from '../project/store.ts';",
      ),
    ).toEqual([]);
  });

  it('peers do not import each other; the entry points sit on top; a top-level file is its own entry', () => {
    expect(problemsIn(path('src-main', 'report', 'x.ts'), "import { runExperiment } from '../experiments/runner.ts';")[0]).toContain(
      'src-main/experiments, which is a peer of it',
    );
    expect(problemsIn(path('src-main', 'server', 'x.ts'), "import { x } from '../desktop-shell.ts';")[0]).toContain(
      'src-main/desktop-shell.ts, which is a peer of it',
    );
    expect(problemsIn(path('src-main', 'server', 'app-server.ts'), "import { x } from '../bench/registry.ts';")[0]).toContain(
      'src-main/server may not import src-main/bench, which is above it',
    );
    expect(problemsIn(path('src-main', 'api', 'x.ts'), "import { x } from '../cli/index.ts';")).toHaveLength(1);
    expect(problemsIn(path('src-main', 'host', 'pool.ts'), "import { findChromium } from '../chromium.ts';")).toEqual([]);
    expect(problemsIn(path('src-main', 'chromium.ts'), "import { x } from './print-file.ts';")[0]).toContain(
      'src-main/chromium.ts may not import src-main/print-file.ts, which is a peer of it',
    );
    // Electron is the top beside the CLI: the existing rule names it, once.
    const up = problemsIn(path('src-main', 'cli', 'index.ts'), `import { x } from '../${ELECTRON}/main.ts';`);
    expect(up).toHaveLength(1);
    expect(up[0]).toContain('from outside it');
    expect(
      problemsIn(
        path('src-main', ELECTRON, 'main.ts'),
        "import { createAppCore } from '../api/core.ts';\nimport { x } from '../desktop-shell.ts';\nimport { y } from '../window-policy.ts';",
      ),
    ).toEqual([]);
    expect(
      problemsIn(
        path('src-main', 'cli', 'commands', 'bench.ts'),
        "import { x } from '../../bench/registry.ts';\nimport { y } from '../../server/web-server.ts';",
      ),
    ).toEqual([]);
  });

  it('places every folder and top-level file of src-main, each once', () => {
    const entries = order.flat();
    expect(new Set(entries).size).toBe(entries.length);
    expect(folderOf('src-main', 'cli/commands/solve.ts')).toBe('cli');
    expect(folderOf('src-main', 'desktop-shell.ts')).toBe('desktop-shell.ts');
    expect(folderOf('src-main', 'plugins/x.ts')).toBeNull();
    expect(folderOf('src-main', 'main.ts')).toBeNull();
    const unplaced = lintLayers().filter((p: string) => p.startsWith(`src-main${sep}`) && p.includes('is in no folder of the folder order'));
    expect(unplaced).toEqual([]);
  });
});

describe('the folder order inside src-renderer (FOLDER_ORDER)', () => {
  const order = FOLDER_ORDER['src-renderer'] as (string | string[])[];

  it('refuses the three folder cycles src-renderer had before issue 20, each named by its two folders', () => {
    // stores <-> views: the stores used the draft and the explorer's fronts from under views/.
    const draft = problemsIn(path('src-renderer', 'stores', 'experiment-editor.ts'), "import { checkDraft } from '../views/experiment/check-draft.ts';");
    expect(draft).toHaveLength(1);
    expect(draft[0]).toContain('src-renderer/stores may not import src-renderer/views, which is above it in the folder order of src-renderer');
    expect(
      problemsIn(
        path('src-renderer', 'stores', 'explore.ts'),
        "import { runLabel } from '../views/explore/front-data.ts';\nimport { groupPoints } from '../views/explore/groups.ts';",
      ),
    ).toHaveLength(2);
    // components <-> views: the shared tables used the dice view's labels.
    expect(problemsIn(path('src-renderer', 'components', 'FrontTable.vue'), "import { formatNumber } from '../views/dice/labels.ts';")[0]).toContain(
      'src-renderer/components may not import src-renderer/views, which is above it',
    );
    // stores -> routes.ts -> views: the route list loaded every view.
    expect(problemsIn(path('src-renderer', 'routes.ts'), "import X from './views/dice/DiceView.vue';")[0]).toContain(
      'src-renderer/routes.ts may not import src-renderer/views, which is above it',
    );
    expect(problemsIn(path('src-renderer', 'routes.ts'), "const c = () => import('./views/dice/DiceView.vue');")).toHaveLength(1);
    // The logic below the stores may not reach back up into them.
    expect(problemsIn(path('src-renderer', 'logic', 'explore', 'groups.ts'), "import { useExploreStore } from '../../stores/explore.ts';")[0]).toContain(
      'src-renderer/logic may not import src-renderer/stores, which is above it',
    );
    // The imports as the code has them now pass.
    expect(
      problemsIn(
        path('src-renderer', 'stores', 'explore.ts'),
        "import { runLabel } from '../logic/explore/front-data.ts';\nimport { useApi } from '../api/index.ts';",
      ),
    ).toEqual([]);
    expect(problemsIn(path('src-renderer', 'stores', 'shell.ts'), "import { findRoute } from '../routes.ts';")).toEqual([]);
    expect(
      problemsIn(
        path('src-renderer', 'components', 'FrontTable.vue'),
        "import { formatNumber } from '../logic/dice/labels.ts';\nimport { useVirtualRows } from '../composables/useVirtualRows.ts';",
      ),
    ).toEqual([]);
    expect(
      problemsIn(path('src-renderer', 'views', 'index.ts'), "import type { RouteId } from '../routes.ts';\nconst c = () => import('./dice/DiceView.vue');"),
    ).toEqual([]);
    expect(
      problemsIn(path('src-renderer', 'App.vue'), "import { viewComponents } from './views/index.ts';\nimport { useShellStore } from './stores/shell.ts';"),
    ).toEqual([]);
  });

  it('peers do not import each other; the shell and the entry sit on top', () => {
    expect(problemsIn(path('src-renderer', 'api', 'index.ts'), "import { init } from '../charts/echarts.ts';")[0]).toContain(
      'src-renderer/charts, which is a peer of it',
    );
    expect(problemsIn(path('src-renderer', 'routes.ts'), "import { useApi } from './api/index.ts';")[0]).toContain(
      'src-renderer/routes.ts may not import src-renderer/api, which is a peer of it',
    );
    expect(problemsIn(path('src-renderer', 'stores', 'shell.ts'), "import { useShortcuts } from '../composables/useShortcuts.ts';")[0]).toContain(
      'src-renderer/stores may not import src-renderer/composables, which is above it',
    );
    expect(problemsIn(path('src-renderer', 'views', 'dice', 'DiceView.vue'), "import App from '../../App.vue';")[0]).toContain(
      'src-renderer/views may not import src-renderer/App.vue, which is above it',
    );
    expect(problemsIn(path('src-renderer', 'App.vue'), "import { x } from './main.ts';")[0]).toContain(
      'src-renderer/App.vue may not import src-renderer/main.ts, which is above it',
    );
    expect(
      problemsIn(path('src-renderer', 'main.ts'), "import App from './App.vue';\nimport { resolveApi } from './api/index.ts';\nimport './styles/theme.css';"),
    ).toEqual([]);
  });

  it('places every folder and top-level file of src-renderer, each once', () => {
    const entries = order.flat();
    expect(new Set(entries).size).toBe(entries.length);
    expect(folderOf('src-renderer', 'logic/experiment/draft-paths.ts')).toBe('logic');
    expect(folderOf('src-renderer', 'views/index.ts')).toBe('views');
    expect(folderOf('src-renderer', 'routes.ts')).toBe('routes.ts');
    expect(folderOf('src-renderer', 'App.vue')).toBe('App.vue');
    expect(folderOf('src-renderer', 'widgets/x.ts')).toBeNull();
    expect(folderOf('src-renderer', 'Other.vue')).toBeNull();
    const unplaced = lintLayers().filter((p: string) => p.startsWith(`src-renderer${sep}`) && p.includes('is in no folder of the folder order'));
    expect(unplaced).toEqual([]);
    // Nothing in src-renderer breaks the order as the code stands.
    expect(lintLayers().filter((p: string) => p.startsWith(`src-renderer${sep}`))).toEqual([]);
  });
});
