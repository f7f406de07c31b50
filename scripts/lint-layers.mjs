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

function* walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* walk(path);
    else if (/\.(ts|vue|mts|js|mjs)$/.test(name)) yield path;
  }
}

// `import x from '...'`, `import type {...} from '...'`, `export ... from '...'` (over several
// lines too), a bare `import '...'`, `import('...')` and `require('...')`.
const importRe = /(?:^|[\s;])(?:import|export)\s[^'"`;]*?\sfrom\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)|\brequire\(\s*['"]([^'"]+)['"]\s*\)|(?:^|[\s;])import\s*['"]([^'"]+)['"]/gm;

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
    try { files = [...walk(join(root, rule.layer))]; } catch { continue; }
    for (const path of files) problems.push(...problemsIn(relative(root, path), readFileSync(path, 'utf8')));
  }
  return problems;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const problems = lintLayers();
  for (const p of problems) console.error(p);
  console.error(problems.length ? `${problems.length} layering problem(s)` : 'layers: ok');
  process.exit(problems.length ? 1 : 0);
}
