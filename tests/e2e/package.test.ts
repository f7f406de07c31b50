// Issue 19: Saikoro as a tool you install. The tarball of `npm pack`, installed with
// `npm install -g --prefix <tmp>`, run from a folder outside the checkout: every command works
// from the package alone (no sources, no devDependencies, no tsx, no Electron), with the same
// results as the sources give.
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installPackage, type InstalledPackage } from './package.ts';
import { requireChromium } from './chromium.ts';
import { runCli } from '../main/cli/io.ts';
import { waitFor } from '../main/processes.ts';
import { printedUrl, stop } from './serve.ts';

const SAMPLE = '31552264665432613134314646226624645162511461153216';
const chromium = requireChromium();

let pkg: InstalledPackage;
let work: string;

/** Runs the installed `saikoro` in `work`, with a PATH that holds node and the prefix's bin only. */
function saikoro(args: string[], stdin = ''): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = execFile(pkg.bin, args, { cwd: work, env: { PATH: `${join(pkg.prefix, 'bin')}:/usr/bin:/bin`, HOME: work }, maxBuffer: 64 * 1024 * 1024, timeout: 300_000 }, (error, stdout, stderr) => {
      if (error && typeof error.code !== 'number') reject(error);
      else resolve({ code: error ? (error.code as number) : 0, stdout, stderr });
    });
    child.stdin!.end(stdin);
  });
}

async function ok(args: string[], stdin = ''): Promise<string> {
  const r = await saikoro(args, stdin);
  if (r.code !== 0) throw new Error(`saikoro ${args.join(' ')}: exit ${r.code}\n${r.stderr}`);
  return r.stdout;
}

beforeAll(async () => {
  pkg = await installPackage();
  work = mkdtempSync(join(tmpdir(), 'saikoro-package-work-'));
}, 600_000);

afterAll(() => {
  for (const dir of [work, pkg ? join(pkg.prefix, '..') : '']) if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the installed package', () => {
  it('holds the built CLI and web UI, and neither sources nor development packages', () => {
    expect(readdirSync(pkg.home).sort()).toEqual(expect.arrayContaining(['bin', 'out', 'package.json', 'node_modules']));
    // out/main/index.js comes along as package.json's "main" (the desktop app's entry; npm always packs it).
    for (const absent of ['src-main', 'src-shared', 'src-renderer', 'tests', 'scripts', 'out/preload', 'out/main/worker.js']) expect(existsSync(join(pkg.home, absent)), absent).toBe(false);
    expect(readdirSync(join(pkg.home, 'out', 'cli')).filter((f) => f.endsWith('.map'))).toEqual([]);
    for (const present of ['out/cli/index.js', 'out/cli/worker.js', 'out/renderer/index.html', 'docs/examples/slurm-experiment.sh']) expect(existsSync(join(pkg.home, present)), present).toBe(true);
    const installed = readdirSync(join(pkg.home, 'node_modules'));
    for (const dev of ['electron', 'tsx', 'vite', 'vitest', 'vue', 'esbuild', 'typescript']) expect(installed, dev).not.toContain(dev);
    for (const dep of ['echarts', 'yaml', 'ws', 'node-sqlite3-wasm', 'playwright-core']) expect(installed, dep).toContain(dep);
  });

  it('rngbias: the reference sample gives 76.8', async () => {
    expect(JSON.parse(await ok(['rngbias'], JSON.stringify(SAMPLE)))).toEqual({ objective: 76.8, constraint: new Array(12).fill(0), error: null });
  }, 120_000);

  it('solve runs in a worker process and gives what the sources give for the same seed', async () => {
    const args = ['solve', '--track', 'mo2', '--n', '60', '--solver', 'nsga2', '--evals', '3000', '--seed', '5', '--json'];
    const installed = JSON.parse(await ok(args));
    const source = JSON.parse((await runCli(args, { env: process.env })).stdout);
    expect(installed.evaluations).toBe(3000);
    expect(installed.front.map((p: { x: string }) => p.x)).toEqual(source.front.map((p: { x: string }) => p.x));
    expect(installed.front.length).toBeGreaterThan(0);
  }, 300_000);

  it('experiment run + compare, and an HTML report (and a PDF one with the system Chromium)', async () => {
    writeFileSync(
      join(work, 'spec.json'),
      JSON.stringify({ name: 'pkg', instances: [{ name: 'so-n30', track: 'so', n: 30 }], solvers: [{ name: 'random' }, { name: 'hill-climbing' }], seeds: { count: 3 }, budget: { evaluations: 300 } }),
    );
    await ok(['project', 'new', 'study.saikoro']);
    await ok(['experiment', 'add', 'study.saikoro', '--spec', 'spec.json']);
    expect(await ok(['experiment', 'run', 'study.saikoro', '--jobs', '2'])).toContain('pkg: 6 runs: 0 already done, 6 done now, 0 failed, 0 not run');
    const comparison = JSON.parse(await ok(['compare', 'study.saikoro', 'pkg', '--metric', 'best', '--json']));
    const sourceComparison = JSON.parse((await runCli(['compare', 'study.saikoro', 'pkg', '--metric', 'best', '--json'], { cwd: work })).stdout);
    expect(comparison).toEqual(sourceComparison);
    expect(JSON.stringify(comparison)).toContain('hill-climbing');
    await ok(['report', 'study.saikoro', 'pkg', '--format', 'html', '--out', 'report.html']);
    const html = readFileSync(join(work, 'report.html'), 'utf8');
    expect(html).toMatch(/^<!doctype html>/i);
    expect(html).toContain('<svg');
    expect(html).toContain('hill-climbing');
    chromium.check();
    if (!chromium.present) return;
    await ok(['report', 'study.saikoro', 'pkg', '--out', 'report.pdf']);
    expect(readFileSync(join(work, 'report.pdf')).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  }, 600_000);

  it('serve: the built page loads with its token, and a run started through the API finishes', async () => {
    const child: ChildProcess = spawn(pkg.bin, ['serve', '--port', '0', '--workspace', work], { cwd: work, env: { PATH: `${join(pkg.prefix, 'bin')}:/usr/bin:/bin`, HOME: work }, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const { url, stderr } = await printedUrl(child);
      expect(stderr()).not.toMatch(/building the renderer/);
      const { origin, searchParams } = new URL(url);
      const token = searchParams.get('token')!;
      expect((await fetch(origin + '/')).status).toBe(401);
      // The first load with ?token= sets the cookie and sends the browser on to the page.
      const first = await fetch(url, { redirect: 'manual' });
      expect(first.status).toBe(303);
      const cookie = first.headers.get('set-cookie')!.split(';')[0];
      const page = await fetch(new URL(first.headers.get('location')!, origin), { headers: { cookie } });
      expect(page.status).toBe(200);
      const text = await page.text();
      const script = /<script[^>]+src="\.\/(assets\/[^"]+\.js)"/.exec(text)?.[1];
      expect(script, text.slice(0, 500)).toBeDefined();
      const asset = await fetch(`${origin}/${script}`, { headers: { Authorization: `Bearer ${token}` } });
      expect([asset.status, asset.headers.get('content-type')]).toEqual([200, 'text/javascript; charset=utf-8']);
      const call = async (name: string, ...args: unknown[]) => {
        const r = await fetch(`${origin}/api/${name}`, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` }, body: JSON.stringify(args) });
        const answer = (await r.json()) as { ok: boolean; value?: unknown; error?: { message: string } };
        if (!answer.ok) throw new Error(`${name}: ${answer.error?.message}`);
        return answer.value as Record<string, unknown>;
      };
      const started = await call('startRun', { config: { n: 50 }, seed: 3, evaluations: 2000, wholeBudget: true });
      const id = started.runId as string;
      const done = await waitFor('the run to finish', async () => {
        const info = await call('getRun', id);
        return info.status === 'done' ? info : null;
      }, { withinMs: 120_000, intervalMs: 200 });
      expect((done.result as { evaluations: number }).evaluations).toBe(2000);
    } finally {
      await stop({ process: child });
    }
  }, 300_000);
});
