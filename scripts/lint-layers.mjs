#!/usr/bin/env node
// Layer lint, in the spirit of VS Code's import-pattern rule: a file's layer comes from its
// path, and an import from a layer it may not use is rejected.
//   src-shared   : pure TypeScript. No node:*, Node built-ins, electron, vue, pinia, echarts, ws, DOM globals.
//   src-renderer : browser. No node:*, Node built-ins, electron.
//   src-main     : Node. Only src-main/electron/ may import electron.
//   tests        : never import electron.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = join(fileURLToPath(import.meta.url), '..', '..');
const nodeBuiltins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
const isNode = (spec) => spec.startsWith('node:') || nodeBuiltins.has(spec.split('/')[0]);
const isElectron = (spec) => spec === 'electron' || spec.startsWith('electron/');
const uiLibs = ['vue', 'pinia', 'echarts', 'ws', 'node-sqlite3-wasm', 'tsx'];
const isUiOrHost = (spec) => uiLibs.some((l) => spec === l || spec.startsWith(l + '/'));
const domGlobals = /\b(window|document|localStorage|sessionStorage|navigator)\s*[.[]/;

const rules = [
  { layer: 'src-shared', check: (spec) => (isNode(spec) ? 'a Node module' : isElectron(spec) ? 'electron' : isUiOrHost(spec) ? `"${spec}" (UI or host library)` : null), dom: true },
  { layer: 'src-renderer', check: (spec) => (isNode(spec) ? 'a Node module' : isElectron(spec) ? 'electron' : null) },
  { layer: 'src-main', check: (spec, file) => (isElectron(spec) && !file.startsWith(`src-main${sep}electron${sep}`) ? 'electron outside src-main/electron/' : null) },
  { layer: 'tests', check: (spec) => (isElectron(spec) ? 'electron' : null) },
];

function* walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* walk(path);
    else if (/\.(ts|vue|mts|js|mjs)$/.test(name)) yield path;
  }
}

const importRe = /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|require\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s*['"]([^'"]+)['"]/gm;

/** The problems in one file, given its path relative to the project root (with the OS separator). */
export function problemsIn(file, text) {
  const rule = rules.find((r) => file.startsWith(r.layer + sep));
  if (!rule) return [];
  const problems = [];
  for (const m of text.matchAll(importRe)) {
    const spec = m[1] ?? m[2] ?? m[3] ?? m[4];
    const why = rule.check(spec, file);
    if (why) problems.push(`${file}: imports ${why} ("${spec}"), which ${rule.layer} may not use`);
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
