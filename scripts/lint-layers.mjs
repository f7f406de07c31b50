#!/usr/bin/env node
// Layer lint, in the spirit of VS Code's import-pattern rule: a file's layer comes from its
// path, and an import from a layer it may not use is rejected. Package imports are checked by
// name; relative imports are resolved to a project path and checked by where they land.
//   src-shared   : pure TypeScript. No node:*, Node built-ins, electron, vue, pinia, echarts, ws, DOM globals.
//                  Reaches neither src-main nor src-renderer.
//   src-renderer : browser. No node:*, Node built-ins, electron. Does not reach src-main.
//   src-main     : Node. Only src-main/electron/ imports electron or reaches src-main/electron/.
//                  src-main/project/ does not reach src-main/host/; src-main/bench/ does not reach src-main/cli/.
//   tests        : never import electron nor reach src-main/electron/.
// "Reach" means any import of a file there: `import`, `import type`, `export ... from`,
// a bare `import '...'`, `import('...')` and `require('...')`.
// Inside src-shared, src-main and src-renderer, the folders are in an order (FOLDER_ORDER below,
// as VS Code orders base, platform, editor, workbench): a file imports its own folder and the
// folders below it, never one above it nor a peer beside it, so the folders have no import
// cycle. Every file must be placed.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = join(fileURLToPath(import.meta.url), '..', '..');
const nodeBuiltins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
const isNode = (spec) => spec.startsWith('node:') || nodeBuiltins.has(spec.split('/')[0]);
const isElectron = (spec) => spec === 'electron' || spec.startsWith('electron/');
const uiLibs = ['vue', 'pinia', 'echarts', 'ws', 'node-sqlite3-wasm', 'tsx'];
const isUiOrHost = (spec) => uiLibs.some((l) => spec === l || spec.startsWith(l + '/'));
const domGlobals = /\b(window|document|localStorage|sessionStorage|navigator)\s*[.[]/;

/** Whether the project path `target` (posix) is `dir` or inside it. */
const within = (target, dir) => target === dir || target.startsWith(dir + '/');

/**
 * Each layer's rules. `packages` judges a package specifier, `paths` a relative import resolved
 * to a project path (posix, from the root); `file` is the importing file's posix path. Each
 * returns why the import is not allowed, or null.
 */
const rules = [
  {
    layer: 'src-shared',
    packages: (spec) => (isNode(spec) ? 'a Node module' : isElectron(spec) ? 'electron' : isUiOrHost(spec) ? `"${spec}" (UI or host library)` : null),
    paths: (target) => (within(target, 'src-main') ? 'src-main' : within(target, 'src-renderer') ? 'src-renderer' : null),
    dom: true,
  },
  {
    layer: 'src-renderer',
    packages: (spec) => (isNode(spec) ? 'a Node module' : isElectron(spec) ? 'electron' : null),
    paths: (target) => (within(target, 'src-main') ? 'src-main' : null),
  },
  {
    layer: 'src-main',
    packages: (spec, file) => (isElectron(spec) && !within(file, 'src-main/electron') ? 'electron outside src-main/electron/' : null),
    paths: (target, file) =>
      within(target, 'src-main/electron') && !within(file, 'src-main/electron')
        ? 'src-main/electron/ (it imports electron) from outside it'
        : within(file, 'src-main/project') && within(target, 'src-main/host')
          ? 'src-main/host/ from src-main/project/'
          : within(file, 'src-main/bench') && within(target, 'src-main/cli')
            ? 'src-main/cli/ from src-main/bench/'
            : null,
  },
  {
    layer: 'tests',
    packages: (spec) => (isElectron(spec) ? 'electron' : null),
    paths: (target) => (within(target, 'src-main/electron') ? 'src-main/electron/ (it imports electron)' : null),
  },
];

/**
 * The folders of a layer, lowest first. An entry is a folder (with its subfolders, unless one of
 * them is listed itself) or a file at the layer's top; the entries of one [...] are peers, which
 * may not import each other. A file may import only its own entry and the entries listed before
 * it. docs/CONTRIBUTING.md ("Folders of src-shared and their order", "Folders of src-main and
 * their order", "Folders of src-renderer and their order") says what each holds.
 */
export const FOLDER_ORDER = {
  'src-shared': [
    'base', // csv, disposables, field errors: imports nothing of the project
    ['json.ts', 'random.ts'], // JSON checks; the seeded generator
    'math', // special functions (gamma, chi-square)
    'stats', // statistical tests and summaries
    'metrics', // dominance, archives, hypervolume, indicators: know no problem
    'core', // the generic run core: Problem, termination, control, the driver, parameters
    ['problems/dice', 'problems/gametree', 'problems/nqueens'], // the problems, each on its own
    'solvers', // the dice solvers (ask/tell), their registry and the stopping policy
    'solvers/program', // a solver program behind the external-solver protocol
    'runtime', // the per-kind layer: kinds of run (runtime/kinds/), the run API, progress
    'experiments', // experiment specs, grids, comparisons
    'competition', // the competition's setting: suites of secret instances, scores, standings, runtime ECDFs
    'projects', // the project API's types
    'charts', // chart helpers shared by the renderer and the reports
    'api.ts', // the one typed API object: everything above
  ],
  'src-main': [
    ['chromium.ts', 'print-file.ts', 'window-policy.ts'], // plain helpers: finding Chromium, the PDF page file, the window's rules
    ['project', 'host'], // the project store; the solver host (workers, pool, protocol): neither reaches the other
    ['experiments', 'report'], // experiment files in a project (add, run, merge); reports of a project
    'app', // the application layer: what a run is, the launcher, RunService, ProjectService, the event hub
    'api', // the API over the app: its implementation, argument checks, dispatch, the wiring (core.ts)
    ['server', 'desktop-shell.ts'], // the web server; the desktop window's project handling (no electron import)
    'bench', // the benchmarks (they serve the app to measure it)
    ['cli', 'electron'], // the two entry points: the command line; the desktop app (the only importer of electron)
  ],
  'src-renderer': [
    ['api', 'charts', 'styles', 'routes.ts', 'env.d.ts'], // the API client; ECharts set up once; the CSS; the route list (ids, titles); Vite's types
    'logic', // plain logic of the views that stores use too: the experiment draft, the explorer's fronts and selection, dice labels
    'stores', // the Pinia stores
    'composables', // the composition helpers (charts, shortcuts, route argument, theme)
    'components', // the shared components
    'views', // the views, and views/index.ts: which component shows each route
    'App.vue', // the shell: navigation, the current view
    'main.ts', // the entry: mounts App.vue
  ],
};

/** Where a layer-relative path sits in its layer's order: its entry and that entry's level, or null. */
function placeOf(order, path) {
  let best = null;
  order.forEach((level, index) => {
    for (const entry of Array.isArray(level) ? level : [level]) {
      const hit = entry.endsWith('.ts') ? path === entry || path + '.ts' === entry : path === entry || path.startsWith(entry + '/');
      if (hit && (!best || entry.length > best.entry.length)) best = { entry, level: index };
    }
  });
  return best;
}

/** The entry of FOLDER_ORDER[layer] that holds a layer-relative path, or null when none does. */
export function folderOf(layer, path) {
  return placeOf(FOLDER_ORDER[layer] ?? [], path)?.entry ?? null;
}

/**
 * Why a file of `layer` at `from` (layer-relative) may not import `to`, or null. Paths outside
 * the order (not yet placed) are not judged here: lintLayers reports unplaced files.
 */
function folderOrderProblem(layer, from, to) {
  const order = FOLDER_ORDER[layer];
  if (!order) return null;
  const a = placeOf(order, from);
  const b = placeOf(order, to);
  if (!a || !b || a.entry === b.entry || b.level < a.level) return null;
  const where = b.level === a.level ? 'a peer of it' : 'above it';
  return `${layer}/${a.entry} may not import ${layer}/${b.entry}, which is ${where} in the folder order of ${layer} (FOLDER_ORDER in scripts/lint-layers.mjs)`;
}

function* walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* walk(path);
    else if (/\.(ts|vue|mts|js|mjs)$/.test(name)) yield path;
  }
}

// `import x from '...'`, `import type {...} from '...'`, `export ... from '...'` (over several
// lines too), a bare `import '...'`, `import('...')` and `require('...')`.
const importRe =
  /(?:^|[\s;])(?:import|export)\s[^'"`;]*?\sfrom\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)|\brequire\(\s*['"]([^'"]+)['"]\s*\)|(?:^|[\s;])import\s*['"]([^'"]+)['"]/gm;

/** The import specifiers in a file's text. */
export function importsIn(text) {
  return [...text.matchAll(importRe)].map((m) => m[1] ?? m[2] ?? m[3] ?? m[4]);
}

/** A relative specifier resolved against the importing file, as a posix path from the root. */
function resolveRelative(file, spec) {
  return posix.normalize(posix.join(posix.dirname(file), spec));
}

/** The problems in one file, given its path relative to the project root (with the OS separator). */
export function problemsIn(file, text) {
  const at = file.split(sep).join('/');
  const rule = rules.find((r) => at.startsWith(r.layer + '/'));
  if (!rule) return [];
  const problems = [];
  for (const spec of importsIn(text)) {
    if (spec.startsWith('./') || spec.startsWith('../')) {
      const target = resolveRelative(at, spec);
      const why = rule.paths(target, at);
      if (why) problems.push(`${file}: imports "${spec}" (${target}), which reaches ${why}; ${rule.layer} may not`);
      else if (within(target, rule.layer)) {
        const order = folderOrderProblem(rule.layer, at.slice(rule.layer.length + 1), target.slice(rule.layer.length + 1));
        if (order) problems.push(`${file}: imports "${spec}" (${target}): ${order}`);
      }
    } else {
      const why = rule.packages(spec, at);
      if (why) problems.push(`${file}: imports ${why} ("${spec}"), which ${rule.layer} may not use`);
    }
  }
  if (rule.dom) {
    text.split('\n').forEach((line, i) => {
      const code = line.trim();
      if (code.startsWith('//') || code.startsWith('/*') || code.startsWith('*')) return;
      if (domGlobals.test(line)) problems.push(`${file}:${i + 1}: uses a DOM global, which src-shared may not use`);
      if (/\bMath\.random\b/.test(line)) problems.push(`${file}:${i + 1}: calls Math.random; use the seeded generator (src-shared/random.ts)`);
    });
  }
  return problems;
}

export function lintLayers() {
  const problems = [];
  for (const rule of rules) {
    let files;
    try {
      files = [...walk(join(root, rule.layer))];
    } catch {
      continue;
    }
    for (const path of files) {
      const file = relative(root, path);
      problems.push(...problemsIn(file, readFileSync(path, 'utf8')));
      const order = FOLDER_ORDER[rule.layer];
      const inLayer = file
        .split(sep)
        .join('/')
        .slice(rule.layer.length + 1);
      if (order && !folderOf(rule.layer, inLayer))
        problems.push(`${file}: is in no folder of the folder order of ${rule.layer}; place its folder in FOLDER_ORDER (scripts/lint-layers.mjs)`);
    }
  }
  return problems;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const problems = lintLayers();
  for (const p of problems) console.error(p);
  console.error(problems.length ? `${problems.length} layering problem(s)` : 'layers: ok');
  process.exit(problems.length ? 1 : 0);
}
