// Every run of the app and the CLI goes through the launcher (src-main/app/launcher.ts): no
// module of src-main outside src-main/app/ constructs a solver host, names it, or executes a
// run request itself (the worker, which the host runs, executes what it is sent), and no module
// of src-renderer executes a request or runs a Web Worker of its own (the page starts runs of
// the app through the API: the N-Queens lab's sweep is a kind of run). A static check over the
// sources, as tests/layers.test.ts checks the layering.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Launcher, runInProcess, runInProcessSync } from '../../../src-main/app/launcher.ts';
import { planNqueensRun } from '../../../src-main/app/nqueens.ts';
import { nodeSpawner } from '../../../src-main/host/spawner.ts';
import { RunController } from '../../../src-shared/core/control.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const posix = (file: string) => relative(ROOT, file).split(sep).join('/');

/** Where a file starts runs other than through the launcher (empty when it does not). */
export function runStartsIn(file: string, text: string): string[] {
  if (file.startsWith('src-main/app/') || file.startsWith('src-main/host/')) {
    // Inside the app core only the launcher owns a host; inside the host only the worker executes.
    const problems: string[] = [];
    if (file.startsWith('src-main/app/') && file !== 'src-main/app/launcher.ts' && /\bSolverHost\b/.test(text))
      problems.push(`${file}: names SolverHost (only src-main/app/launcher.ts owns a host)`);
    if (file.startsWith('src-main/host/') && file !== 'src-main/host/worker.ts' && /\bexecuteRun(Sync)?\b/.test(text))
      problems.push(`${file}: executes a run request (only the worker does, inside the host)`);
    return problems;
  }
  const problems: string[] = [];
  if (/\bSolverHost\b/.test(text)) problems.push(`${file}: names SolverHost (start runs with src-main/app/launcher.ts)`);
  if (/\bexecuteRun(Sync)?\b/.test(text)) problems.push(`${file}: executes a run request itself (use the launcher's runInProcess)`);
  if (/\bhost\/pool\.ts['"]/.test(text) && /import\s+(type\s+)?\{[^}]*\bHostRun\b/.test(text))
    problems.push(`${file}: imports HostRun (a launched run is a LaunchedRun)`);
  if (file.startsWith('src-renderer/') && /\bnew (Shared)?Worker\(/.test(text))
    problems.push(`${file}: runs a Web Worker of its own (start a run of the app through the API)`);
  return problems;
}

/**
 * Where a file runs a solver around the one entry (executeRun, which the worker and runInProcess
 * call): the second solver API runSolver / runSolverSync (deleted in issue 20), or a run driven
 * by hand. Only the driver itself and the kinds of run (the folder of executeRun) drive runs.
 */
export function secondWaysIn(file: string, text: string, homes: { driver: string; kinds: string }): string[] {
  const problems: string[] = [];
  if (/\brunSolver(Sync)?\b/.test(text))
    problems.push(`${file}: names runSolver (deleted: plan the run in src-main/app/ and start it with the launcher; from src-shared, executeRun)`);
  // bench external times the protocol against a SolverRun on a problem that times its own evaluations;
  // a competition server's remote run steps the dice kind's own run (diceRunKind.create, the same
  // run a program entrant gets, its pipe replaced by the network) because it reads that live run's
  // result between requests (an entrant's best so far) and replays a killed server's requests into it.
  const code = text.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
  const drives = /\b(drive|driveSync)\(|\bnew SolverRun\(/.test(code);
  if (drives && file !== homes.driver && !file.startsWith(`${homes.kinds}/`) && file !== 'src-main/bench/external.ts' && file !== 'src-main/app/remote-run.ts')
    problems.push(`${file}: drives a run itself (go through executeRun, or the launcher)`);
  return problems;
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : /\.(ts|vue|mts)$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

describe('one launcher for every run', () => {
  it('no module of src-main outside src-main/app/, nor of src-renderer, starts a host run or executes a request', () => {
    const files = [...sources(join(ROOT, 'src-main')), ...sources(join(ROOT, 'src-renderer'))];
    expect(files.length).toBeGreaterThan(100);
    expect(files.flatMap((f) => runStartsIn(posix(f), readFileSync(f, 'utf8')))).toEqual([]);
  });

  it('there is one way to run a solver: no runSolver, and no run driven outside the driver and the kinds of run', () => {
    const files = ['src-shared', 'src-main', 'src-renderer', 'scripts'].flatMap((d) => sources(join(ROOT, d)));
    const defining = (re: RegExp) => posix(files.find((f) => re.test(readFileSync(f, 'utf8')))!);
    const homes = { driver: defining(/export function driveSync\b/), kinds: dirname(defining(/export async function executeRun\b/)) };
    expect(files.flatMap((f) => secondWaysIn(posix(f), readFileSync(f, 'utf8'), homes))).toEqual([]);
    // Nor do the docs teach it.
    const docs = [
      'README.md',
      ...readdirSync(join(ROOT, 'docs'))
        .filter((f) => f.endsWith('.md'))
        .map((f) => `docs/${f}`),
    ];
    expect(docs.length).toBeGreaterThan(10);
    expect(docs.filter((f) => /\brunSolver(Sync)?\b/.test(readFileSync(join(ROOT, f), 'utf8')))).toEqual([]);
    expect(secondWaysIn('src-main/cli/commands/x.ts', 'const r = await runSolver(problem, name, {}, 1, t);', homes)).toHaveLength(1);
    expect(secondWaysIn('scripts/x.ts', "import { runSolverSync } from '../src-shared/solvers/run.ts';", homes)).toHaveLength(1);
    expect(secondWaysIn('src-shared/problems/x.ts', 'return driveSync(run, run.termination);', homes)).toHaveLength(1);
    expect(secondWaysIn(`${dirname(homes.driver)}/x.ts`, 'return driveSync(run, run.termination);', homes)).toHaveLength(1);
    expect(secondWaysIn('src-main/app/x.ts', 'const run = new SolverRun(problem, solver, {}, 1, t);', homes)).toHaveLength(1);
    expect(secondWaysIn('src-shared/x.ts', '/**\n * run = new SolverRun(problem, solver)\n */', homes)).toEqual([]);
    expect(secondWaysIn(`${homes.kinds}/x.ts`, 'return drive(run, termination, options);', homes)).toEqual([]);
    expect(secondWaysIn('src-main/bench/solvers.ts', 'await runSolverBench(options, progress);', homes)).toEqual([]);
  });

  it('the app is wired once: only src-main/api/core.ts constructs the RunService and the ProjectService', () => {
    const files = sources(join(ROOT, 'src-main')).map(posix);
    const wiring = files.filter((f) => /new (RunService|ProjectService)\(/.test(readFileSync(join(ROOT, f), 'utf8')));
    expect(wiring).toEqual(['src-main/api/core.ts']);
  });

  it('the check finds a host, a direct execution and a HostRun outside the app core', () => {
    expect(runStartsIn('src-main/cli/commands/x.ts', "import { SolverHost } from '../../host/pool.ts';\nnew SolverHost({ spawn });")).toHaveLength(1);
    expect(runStartsIn('src-main/bench/x.ts', "import { executeRunSync } from '../../src-shared/runtime/kinds/index.ts';")).toHaveLength(1);
    expect(runStartsIn('src-main/api/x.ts', "import type { HostRun } from '../host/pool.ts';")).toHaveLength(1);
    expect(runStartsIn('src-main/app/dice.ts', 'const h = new SolverHost(o);')).toHaveLength(1);
    expect(runStartsIn('src-main/app/launcher.ts', 'this.host = new SolverHost(options);')).toEqual([]);
    expect(runStartsIn('src-main/host/worker.ts', 'await executeRun(request)')).toEqual([]);
    expect(runStartsIn('src-main/host/pool.ts', 'executeRunSync(request)')).toHaveLength(1);
    expect(runStartsIn('src-renderer/views/nqueens/sweep.ts', "import { executeRunSync } from '../../../src-shared/runtime/kinds/index.ts';")).toHaveLength(1);
    expect(
      runStartsIn('src-renderer/views/nqueens/useSweep.ts', "const w = new Worker(new URL('./sweep.worker.ts', import.meta.url), { type: 'module' });"),
    ).toHaveLength(1);
    expect(runStartsIn('src-renderer/views/nqueens/useSweep.ts', 'const s = await runs.start(request);')).toEqual([]);
  });

  it('a plan gives the same result in a worker and in this process', async () => {
    const plan = planNqueensRun({ kind: 'nqueens', method: 'minconflicts', n: 300, seed: 5 });
    const launcher = new Launcher({ spawn: nodeSpawner(), parallelism: 1 });
    try {
      const inWorker = await launcher.start(plan).outcome;
      const inProcess = await runInProcess(plan);
      const inProcessSync = runInProcessSync(plan);
      expect(inWorker.status).toBe('done');
      expect(inWorker.result!.solved).toBe(true);
      const timeless = (o: typeof inWorker) => ({ ...o, result: { ...o.result!, seconds: 0 } });
      expect(timeless(inProcess)).toEqual(timeless(inWorker));
      expect(timeless(inProcessSync)).toEqual(timeless(inWorker));
    } finally {
      launcher.dispose();
    }
  });

  it('in process, a cancel is an outcome with the result so far and a failure is one with the reason', async () => {
    const control = new RunController();
    control.cancel();
    const cancelled = await runInProcess(planNqueensRun({ kind: 'nqueens', method: 'neural', n: 30, seed: 1 }), { control });
    expect(cancelled).toMatchObject({ status: 'cancelled', reason: 'cancelled', result: { stopReason: 'cancelled', solved: false } });
    const plan = planNqueensRun({ kind: 'nqueens', method: 'minconflicts', n: 10, seed: 1 });
    const failed = runInProcessSync({ request: { ...plan.request, n: -1 } });
    expect(failed).toEqual({ status: 'failed', result: null, reason: 'nqueens: n must be a positive integer, got -1' });
  });
});
