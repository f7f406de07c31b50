// Issue 19: Saikoro as a tool you install. The tarball of `npm pack`, installed with
// `npm install -g --prefix <tmp>`, run from a folder outside the checkout: every command works
// from the package alone (no sources, no devDependencies, no tsx, no Electron), with the same
// results as the sources give.
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installPackage, ROOT, type InstalledPackage } from './package.ts';
import { requireChromium } from './chromium.ts';
import { runCli } from '../main/cli/io.ts';
import { waitFor } from '../main/processes.ts';
import { printedUrl, stop } from './serve.ts';
import { commands } from '../../src-main/cli/commands/registry.ts';

const SAMPLE = '31552264665432613134314646226624645162511461153216';
const chromium = requireChromium();

let pkg: InstalledPackage;
let work: string;

/** Runs the installed `saikoro` in `work`, with a PATH that holds node and the prefix's bin only. */
function saikoro(args: string[], stdin = ''): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      pkg.bin,
      args,
      { cwd: work, env: { PATH: `${join(pkg.prefix, 'bin')}:/usr/bin:/bin`, HOME: work }, maxBuffer: 64 * 1024 * 1024, timeout: 300_000 },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') reject(error);
        else resolve({ code: error ? (error.code as number) : 0, stdout, stderr });
      },
    );
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
    for (const absent of ['src-main', 'src-shared', 'src-renderer', 'tests', 'scripts', 'out/preload', 'out/main/worker.js'])
      expect(existsSync(join(pkg.home, absent)), absent).toBe(false);
    expect(readdirSync(join(pkg.home, 'out', 'cli')).filter((f) => f.endsWith('.map'))).toEqual([]);
    for (const present of [
      'out/cli/index.js',
      'out/cli/worker.js',
      'out/renderer/index.html',
      'docs/examples/slurm-experiment.sh',
      'docs/projects.md',
      'docs/report.schema.json',
      'docs/images/first-study.png',
      'examples/solvers/local_search.py',
      'examples/solvers/deap_ga.py',
      'clients/python/saikoro_client.py',
      'clients/python/pyproject.toml',
      'clients/python/build_backend.py',
    ])
      expect(existsSync(join(pkg.home, present)), present).toBe(true);
    expect(existsSync(join(pkg.home, 'clients', 'python', '__pycache__'))).toBe(false);
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
      JSON.stringify({
        name: 'pkg',
        instances: [{ name: 'so-n30', track: 'so', n: 30 }],
        solvers: [{ name: 'random' }, { name: 'hill-climbing' }],
        seeds: { count: 3 },
        budget: { evaluations: 300 },
      }),
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
    const child: ChildProcess = spawn(pkg.bin, ['serve', '--port', '0', '--workspace', work], {
      cwd: work,
      env: { PATH: `${join(pkg.prefix, 'bin')}:/usr/bin:/bin`, HOME: work },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
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
        const r = await fetch(`${origin}/api/${name}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
          body: JSON.stringify(args),
        });
        const answer = (await r.json()) as { ok: boolean; value?: unknown; error?: { message: string } };
        if (!answer.ok) throw new Error(`${name}: ${answer.error?.message}`);
        return answer.value as Record<string, unknown>;
      };
      const started = await call('startRun', { config: { n: 50 }, seed: 3, evaluations: 2000, wholeBudget: true });
      const id = started.runId as string;
      const done = await waitFor(
        'the run to finish',
        async () => {
          const info = await call('getRun', id);
          return info.status === 'done' ? info : null;
        },
        { withinMs: 120_000, intervalMs: 200 },
      );
      expect((done.result as { evaluations: number }).evaluations).toBe(2000);
    } finally {
      await stop({ process: child });
    }
  }, 300_000);

  it('serve --rebuild says it has no sources to rebuild the UI from, without a stack trace', async () => {
    const r = await saikoro(['serve', '--rebuild', '--port', '0']);
    expect([r.code, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toBe(
      'saikoro serve: --rebuild: this saikoro is an installed package, without the sources to rebuild the web UI from; it serves the one it was packed with (leave out --rebuild)\n',
    );
  }, 120_000);
});

// Issue 27: from install to a first study, as the README says, with nothing but the package.
describe("the README's commands, from the installed package", () => {
  let home: string;
  beforeAll(() => {
    home = mkdtempSync(join(tmpdir(), 'saikoro-newcomer-'));
  });
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  it('--version, help pages from the installed docs, the client folder, every docs path a usage names', async () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(await ok(['--version'])).toBe(`saikoro ${version}\n`);
    const spec = await ok(['help', 'spec']);
    expect(spec.split('\n')[0]).toBe(`saikoro help spec: "Experiment spec (JSON)" in ${join(pkg.home, 'docs', 'projects.md')}`);
    expect(spec).toContain('| `budget.evaluations` |');
    expect(await ok(['client', '--path'])).toBe(join(pkg.home, 'clients', 'python') + '\n');
    expect(await ok(['help', 'slurm', '--path'])).toBe(join(pkg.home, 'docs', 'examples', 'slurm-experiment.sh') + '\n');
    for (const { name } of commands) {
      const usage = await ok([name, '--help']);
      for (const [file] of usage.matchAll(/\b(?:docs|examples|clients)\/[\w./-]*\w/g)) expect(existsSync(join(pkg.home, file)), `${name}: ${file}`).toBe(true);
      for (const [, topic] of usage.matchAll(/saikoro help ([a-z-]+)/g))
        expect((await saikoro(['help', topic])).code, `${name}: saikoro help ${topic}`).toBe(0);
    }
  }, 300_000);

  it('runs every sh block of the README in order: init, the study with its Python solver, compare, report, the CLI, the cluster, a DEAP solver, pip install of the client', async () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const blocks = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]);
    expect(blocks.length).toBeGreaterThanOrEqual(6);
    const cwdFile = join(home, '.cwd');
    writeFileSync(cwdFile, home);
    // What cannot run as written here, and what runs instead (each a shell function):
    // npm and npx are a checkout's (this test installed the packed tarball itself); serve runs
    // until Ctrl-C (it runs on a free port until it prints its address, then gets SIGTERM);
    // bench runs every suite for minutes (--quick); sbatch needs Slurm (each task of the
    // array runs here as the script runs outside Slurm, SLURM_ARRAY_TASK_ID=K bash script ...;
    // tests/main/cluster/slurm.test.ts submits it to a real Slurm); a competition's secret
    // (--secret -: the first line of stdin) comes from the test, and its suite is one instance,
    // one seed and 300 evaluations instead of 5, 5 and 20,000 (250 runs of 20,000 evaluations
    // at N = 840, the Python GA's among them, take longer than the whole suite).
    const preamble = `
set -euo pipefail
npm() { echo "(npm $*: done by the test)"; }
npx() { echo "(npx $*: a checkout's)"; }
saikoro() {
  case "$1" in
    serve)
      command saikoro "$@" --port 0 2> "$HOME/.serve.log" & local pid=$!
      for i in $(seq 600); do grep -q 'http://127.0.0.1' "$HOME/.serve.log" && break; kill -0 $pid 2>/dev/null || break; sleep 0.1; done
      grep -o 'http://127.0.0.1[^ ]*' "$HOME/.serve.log" || { cat "$HOME/.serve.log" >&2; kill $pid 2>/dev/null; return 1; }
      kill -TERM $pid; wait $pid;;
    bench) command saikoro "$@" --quick;;
    competition)
      local a=() prev=""
      for x in "$@"; do
        case "$prev" in --instances) x=1;; --budget) x=300;; --seeds) x=1;; esac
        a+=("$x"); prev="$x"
      done
      command saikoro "\${a[@]}" <<< "a secret of the test's";;
    *) command saikoro "$@";;
  esac
}
sbatch() {
  local range="" args=()
  for a in "$@"; do case "$a" in --array=*) range="\${a#--array=}";; *) args+=("$a");; esac; done
  range="\${range%%%*}"
  for k in $(seq "\${range%-*}" "\${range#*-}"); do SLURM_ARRAY_TASK_ID=$k bash "\${args[@]}"; done
}
mkdir -p ~/studies
cd "$(cat '${cwdFile}')"
`;
    const env = { PATH: `${join(pkg.prefix, 'bin')}:/usr/bin:/bin`, HOME: home, LANG: 'C.UTF-8' };
    const outputs: string[] = [];
    for (const [i, block] of blocks.entries()) {
      const r = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
        execFile(
          'bash',
          ['-c', `${preamble}\n${block}\npwd > '${cwdFile}'`],
          { cwd: home, env, maxBuffer: 64 * 1024 * 1024, timeout: 900_000 },
          (error, stdout, stderr) => resolve({ code: error ? ((error.code as number) ?? 1) : 0, stdout, stderr }),
        );
      });
      expect(r.code, `README block ${i + 1}:\n${block}\n--- stdout\n${r.stdout.slice(-3000)}\n--- stderr\n${r.stderr.slice(-3000)}`).toBe(0);
      outputs.push(r.stdout);
    }
    const study = join(home, 'study');
    const all = outputs.join('\n');
    // The competition's lines: both entrants ran every track's run (the DEAP GA blind, in the
    // sandbox, from its archived folder), and the standings rank them.
    for (const track of ['so', 'mo2', 'mo3', 'mo5', 'mo7']) expect(all).toContain(`${track}: 2 runs: 0 finished before, 2 done now, 0 failed, 0 not run`);
    expect(all).toMatch(/entered my-ga: program python3 deap_ga\.py, blind, in a copy of my-ga/);
    expect(all).toMatch(/^\| [12] +\| my-ga +\|/m);
    expect(all).toContain('revealed comp.saikoro: the secret matches the commitment');
    // init made the study; the run did all 80 runs, the Python solver's too.
    expect(all).toContain('made a first study in study/:');
    expect(all).toContain('first: 80 runs: 0 already done, 80 done now, 0 failed, 0 not run');
    // The spec the README shows is the one init wrote.
    const shown = /```json\n([\s\S]*?)```/.exec(readme)![1];
    expect(JSON.parse(shown)).toEqual(JSON.parse(readFileSync(join(study, 'study.json'), 'utf8')));
    // The solvers differ: every pair on both instances, as the README says.
    const inStudy = (args: string[]) =>
      new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
        execFile(pkg.bin, args, { cwd: study, env, maxBuffer: 64 * 1024 * 1024, timeout: 300_000 }, (error, stdout, stderr) =>
          resolve({ code: error ? ((error.code as number) ?? 1) : 0, stdout, stderr }),
        );
      });
    const comparison = JSON.parse((await inStudy(['compare', 'study.saikoro', 'first', '--metric', 'hv', '--json'])).stdout) as {
      instances: { instance: string; solvers: { label: string; summary: { median: number } | null }[]; pairs: { a: string; b: string; pHolm: number }[] }[];
    };
    expect(comparison.instances.map((i) => i.instance)).toEqual(['mo2-n200', 'mo3-n200']);
    for (const inst of comparison.instances) {
      expect(inst.pairs).toHaveLength(6);
      for (const pair of inst.pairs) expect(pair.pHolm, `${inst.instance}: ${pair.a} vs ${pair.b}`).toBeLessThan(0.05);
    }
    // The medians the README and docs/cli.md give are the ones this run gives (the runs are
    // reproducible: the same seeds give the same fronts on any machine).
    const medians = comparison.instances.map((inst) => Object.fromEntries(inst.solvers.map((s) => [s.label, s.summary!.median])));
    const said =
      /median normalised hypervolume is ([\d.]+) for random sampling, ([\d.]+) for the Python hill climbers, ([\d.]+) for NSGA-II and ([\d.]+) for barrier-mo/.exec(
        readme.replace(/\s+/g, ' '),
      );
    expect(said, "the README's sentence of medians").not.toBeNull();
    expect(said!.slice(1).map(Number)).toEqual(['random', 'local-search', 'nsga2', 'barrier-mo'].map((s) => Number(medians[0][s].toFixed(2))));
    const cliDoc = readFileSync(join(ROOT, 'docs', 'cli.md'), 'utf8');
    for (const [k, inst] of comparison.instances.entries()) {
      const row = new RegExp(`^\\| ${inst.instance} \\| ([\\d.]+) \\| ([\\d.]+) \\| ([\\d.]+) \\| ([\\d.]+) \\|$`, 'm').exec(cliDoc);
      expect(row, `docs/cli.md's row for ${inst.instance}`).not.toBeNull();
      expect(row!.slice(1).map(Number), inst.instance).toEqual(['random', 'nsga2', 'barrier-mo', 'local-search'].map((s) => Number(medians[k][s].toFixed(3))));
    }
    // The report, and its refusal to write over the project or the spec.
    expect(readFileSync(join(study, 'first.html'), 'utf8')).toMatch(/^<!doctype html>[\s\S]*first: Saikoro report/i);
    const project = readFileSync(join(study, 'study.saikoro'));
    const spec = readFileSync(join(study, 'study.json'));
    const overProject = await inStudy(['report', 'study.saikoro', 'first', '--out', 'study.saikoro']);
    expect([overProject.code, overProject.stderr.split('\n')[0]]).toEqual([
      2,
      'saikoro report: --out study.saikoro: a report cannot be a ".saikoro" file; the endings are .html .htm .pdf .csv .json .tex',
    ]);
    const overSpec = await inStudy(['report', 'study.saikoro', 'first', '--out', 'study.json']);
    expect([overSpec.code, overSpec.stderr]).toEqual([
      1,
      'saikoro report: --out study.json: exists and is not a file Saikoro wrote: not replaced (--force replaces it); nothing was written\n',
    ]);
    expect(readFileSync(join(study, 'study.saikoro')).equals(project)).toBe(true);
    expect(readFileSync(join(study, 'study.json')).equals(spec)).toBe(true);
    // The CLI block: CSV report, verify; the cluster block: the shards merged; the DEAP block.
    expect(existsSync(join(study, 'first-runs.csv'))).toBe(true);
    expect(all).toContain('runs re-run: all reproduce exactly');
    expect(
      readdirSync(join(study, 'results'))
        .filter((f) => f.endsWith('.saikoro'))
        .sort(),
    ).toEqual([1, 2, 3, 4].map((k) => `study.shard-${k}-of-4.saikoro`));
    expect(all).toContain('byo: 10 runs: 0 already done, 10 done now, 0 failed, 0 not run');
    expect(all).toMatch(/deap-ga/);
    // pip installed the client from the installed package into the venv, offline-capable.
    const imported = await new Promise<string>((resolve, reject) =>
      execFile(join(study, '.venv', 'bin', 'python'), ['-c', 'import saikoro_client; print(saikoro_client.__file__)'], { cwd: home }, (e, out) =>
        e ? reject(e) : resolve(out),
      ),
    );
    expect(imported.trim()).toMatch(/\/\.venv\/lib\/python3[.\d]*\/site-packages\/saikoro_client\.py$/);
    expect(readFileSync(imported.trim())).toEqual(readFileSync(join(pkg.home, 'clients', 'python', 'saikoro_client.py')));
  }, 1_800_000);
});
