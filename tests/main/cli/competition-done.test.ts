// Issue 26's "Done means", from the CLI: a competition of the five tracks at N = 840 with 5
// secret instances and four entrants (the built-in defaults, blind; a Python program; a Node
// program; a hostile program) runs whole, resumes after kill -9, and runs as two shards through
// the documented Slurm script (as its array tasks run outside Slurm) folded back with merge,
// with the same standings each time. The hostile entrant tries to read the competition file,
// reach the network, write outside its folder and leave children running: each attempt fails
// by its own report (its {"log"} lines, stored with its runs), nothing of it shows outside, and
// its runs are scored. Budget and seeds are small so that the 300 runs take a few minutes.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Project } from '../../../src-main/project/store.ts';
import { evaluateDice } from '../../../src-shared/problems/dice/evaluate.ts';
import { expandGrid } from '../../../src-shared/experiments/grid.ts';
import { requireTool } from '../../e2e/tools.ts';
import { killAll, processesWithArgument, waitFor } from '../processes.ts';
import { runCli } from './io.ts';

const REPO = path.resolve(import.meta.dirname, '../../..');
const HOSTILE = path.join(REPO, 'tests/fixtures/external/hostile-solver.mjs');
const TRACKS = ['so', 'mo2', 'mo3', 'mo5', 'mo7'];
const BUDGET = 300;
const ENTRANTS = ['defaults', 'python', 'node', 'hostile'];
const RUNS = TRACKS.length * 5 * ENTRANTS.length;
const COMMANDS: Record<string, string[]> = {
  python: ['python3', 'local_search.py', '--climbers', '10'],
  node: ['node', 'random_search.mjs', '--batch', '25'],
  hostile: ['node', 'run.mjs'],
};

const bwrap = requireTool('bubblewrap', '/usr/bin/bwrap', 'apt-get install bubblewrap');

let cwd = '';
let server: net.Server | null = null;
let connections = 0;
const token = `hostile-done-${process.pid}`;
const outside = path.join(fs.existsSync('/var/tmp') ? '/var/tmp' : os.homedir(), `saikoro-done-outside-${process.pid}.txt`);
const cli = (...argv: string[]) => runCli(argv, { cwd, env: process.env });

afterAll(() => {
  server?.close();
  killAll(processesWithArgument(token));
  fs.rmSync(outside, { force: true });
  if (cwd) fs.rmSync(cwd, { recursive: true, force: true });
});

/** The standings as `competition standings --json` prints them, without when and where they were made. */
async function standings(file: string) {
  const r = await cli('competition', 'standings', file, '--json');
  expect(r.code, r.stderr).toBe(0);
  const { generatedAt, file: _file, ...rest } = JSON.parse(r.stdout);
  expect(typeof generatedAt).toBe('string');
  return rest;
}

/** The attempts the hostile program reported in a run's log: name -> [done, detail]. */
function attempts(log: string): Record<string, [boolean, string]> {
  const found: Record<string, [boolean, string]> = {};
  for (const m of log.matchAll(/^attempt ([\w-]+): (done|failed) (.*)$/gm)) found[m[1]] = [m[2] === 'done', m[3]];
  return found;
}

/** No child of a hostile run outlives it (its PID namespace ends with it). */
async function noChildrenLeft(): Promise<void> {
  await waitFor('the hostile children to end', () => processesWithArgument(token).length === 0, { withinMs: 10_000 }).catch(() => undefined);
  expect(processesWithArgument(token)).toEqual([]);
}

let whole: Record<string, unknown> = {};

bwrap.describe('issue 26 done: a competition of the five tracks, four entrants, whole, after kill -9 and sharded', () => {
  beforeAll(async () => {
    if (!bwrap.present) return;
    cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-competition-done-'));
    server = net.createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as net.AddressInfo).port;

    // The entrants' folders: each holds only what its program needs.
    fs.mkdirSync(path.join(cwd, 'python'));
    fs.copyFileSync(path.join(REPO, 'examples/solvers/local_search.py'), path.join(cwd, 'python/local_search.py'));
    fs.copyFileSync(path.join(REPO, 'clients/python/saikoro_client.py'), path.join(cwd, 'python/saikoro_client.py'));
    fs.mkdirSync(path.join(cwd, 'node'));
    fs.copyFileSync(path.join(REPO, 'examples/solvers/random_search.mjs'), path.join(cwd, 'node/random_search.mjs'));
    // The hostile program reads its targets from its folder (an entrant's command has no environment of its own).
    fs.mkdirSync(path.join(cwd, 'hostile'));
    fs.copyFileSync(HOSTILE, path.join(cwd, 'hostile/hostile-solver.mjs'));
    const targets = { HOSTILE_PROJECT: path.join(cwd, 'whole.saikoro'), HOSTILE_PORT: String(port), HOSTILE_OUTSIDE: outside, HOSTILE_TOKEN: token };
    fs.writeFileSync(path.join(cwd, 'hostile/targets.json'), JSON.stringify(targets));
    fs.writeFileSync(
      path.join(cwd, 'hostile/run.mjs'),
      "import fs from 'node:fs';\nObject.assign(process.env, JSON.parse(fs.readFileSync('targets.json', 'utf8')));\nawait import('./hostile-solver.mjs');\n",
    );

    const made = await cli(
      'competition',
      'new',
      'whole.saikoro',
      '--tracks',
      TRACKS.join(','),
      '--n',
      '840',
      '--instances',
      '5',
      '--budget',
      String(BUDGET),
      '--seeds',
      '1',
      '--secret',
      'done-means-secret',
    );
    expect(made.code, made.stderr).toBe(0);
    for (const args of [
      ['--name', 'defaults', '--solver', 'default'],
      ...Object.entries(COMMANDS).map(([name, command]) => ['--name', name, '--dir', name, '--command', command.join(' ')]),
    ]) {
      const entered = await cli('competition', 'enter', 'whole.saikoro', ...args);
      expect(entered.code, entered.stderr).toBe(0);
    }
    // Three copies of the same competition: run whole, killed and resumed, sharded.
    for (const copy of ['killed.saikoro', 'sharded.saikoro']) fs.copyFileSync(path.join(cwd, 'whole.saikoro'), path.join(cwd, copy));
  }, 300_000);

  it('runs whole: every run scored, every program blind, the hostile entrant contained and scored', async () => {
    const ran = await cli('competition', 'run', 'whole.saikoro', '--jobs', '2');
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toBe(TRACKS.map((t) => `${t}: 20 runs: 0 finished before, 20 done now, 0 failed, 0 not run\n`).join(''));
    await noChildrenLeft();

    const project = Project.open(path.join(cwd, 'whole.saikoro'), { readOnly: true });
    const runs = project.runs();
    const grid = new Map(
      project
        .experiments()
        .flatMap((e) => expandGrid(e.spec))
        .map((g) => [g.id, g]),
    );
    project.close();
    expect(runs).toHaveLength(RUNS);
    for (const run of runs) {
      expect(run.status, `${run.instance} ${run.label}`).toBe('done');
      expect(run.evaluations).toBe(BUDGET);
      // Every best (one objective) is what the exact evaluator gives its sequence on the secret instance.
      const best = run.result!.best;
      if (run.instance.startsWith('so-') && best) expect(evaluateDice(best.x, grid.get(run.id)!.config).objectives).toEqual(best.objectives);
      // Blind: a built-in's run says so itself (part of its id), a program's in its program record.
      if (run.label === 'defaults') expect(run.blind).toBe(true);
      else expect(run.result!.program).toMatchObject({ blind: true, command: COMMANDS[run.label] });
    }

    // The hostile entrant: every attempt, in every run, failed by its own report.
    const hostile = runs.filter((r) => r.label === 'hostile');
    expect(hostile).toHaveLength(25);
    for (const run of hostile) {
      const tried = attempts(run.result!.log ?? '');
      expect(tried['read-project'], run.instance).toEqual([false, `${path.join(cwd, 'whole.saikoro')}: ENOENT`]);
      expect(tried.network).toEqual([false, 'ECONNREFUSED']);
      for (const [name, file] of [
        ['write-outside', outside],
        ['write-project', path.join(cwd, 'hostile-was-here.txt')],
      ]) {
        expect(tried[name][0], name).toBe(false);
        expect(tried[name][1]).toMatch(/: E(NOENT|ROFS|ACCES)$/);
        expect(tried[name][1].startsWith(`${file}: `)).toBe(true);
      }
      // Its children were started (and none is left: noChildrenLeft above).
      expect(tried.children[0]).toBe(true);
    }
    // Nothing of it shows outside: no connection, no file written.
    expect(connections).toBe(0);
    expect(fs.existsSync(outside)).toBe(false);
    expect(fs.readdirSync(cwd).sort()).toEqual(['hostile', 'killed.saikoro', 'node', 'python', 'sharded.saikoro', 'whole.saikoro']);

    // The standings: the four entrants ranked over the 25 problems, the hostile one scored on what it evaluated.
    whole = await standings('whole.saikoro');
    expect(whole).toMatchObject({ complete: true, runs: { total: RUNS, done: RUNS, failed: 0, missing: 0 }, contradictions: [] });
    const lines = whole.standings as {
      entrant: string;
      rank: number;
      score: number;
      problems: Record<string, { best: { evaluations: number | null } | null }>;
    }[];
    expect(lines.map((l) => l.entrant).sort()).toEqual([...ENTRANTS].sort());
    for (const line of lines) {
      expect(Object.keys(line.problems)).toHaveLength(25);
      expect(line.score).toBeGreaterThanOrEqual(1);
      expect(line.score).toBeLessThanOrEqual(ENTRANTS.length);
    }
    const hostileLine = lines.find((l) => l.entrant === 'hostile')!;
    expect(Object.values(hostileLine.problems).every((p) => p.best !== null)).toBe(true);
    // The ranks of the entrants average to the middle rank on every problem.
    expect(lines.reduce((s, l) => s + l.score, 0)).toBeCloseTo((ENTRANTS.length * (ENTRANTS.length + 1)) / 2, 9);
  }, 1_800_000);

  it("killed with SIGKILL mid-run and run again: resumes, and the standings are the whole run's", async () => {
    expect(whole.standings).toBeDefined();
    const child = spawn(process.execPath, [path.join(REPO, 'bin/saikoro.mjs'), 'competition', 'run', 'killed.saikoro', '--jobs', '2'], {
      cwd,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let finished = 0;
    await new Promise<void>((resolve, reject) => {
      createInterface({ input: child.stderr! }).on('line', (line) => {
        // Killed in the second track (so has 20 runs), with runs in flight.
        if (/^\[\w+ \d+\/20\] (done|FAILED)/.test(line) && ++finished === 27) child.kill('SIGKILL');
      });
      child.on('exit', (code, signal) =>
        signal === 'SIGKILL' ? resolve() : reject(new Error(`competition run ended by itself (${code}) after ${finished} runs`)),
      );
    });
    await noChildrenLeft();
    let project = Project.open(path.join(cwd, 'killed.saikoro'), { readOnly: true });
    const stored = project.runs().length;
    project.close();
    expect(stored).toBeGreaterThanOrEqual(27);
    expect(stored).toBeLessThan(RUNS);

    const resumed = await cli('competition', 'run', 'killed.saikoro', '--jobs', '2', '--json');
    expect(resumed.code, resumed.stderr).toBe(0);
    const summaries = JSON.parse(resumed.stdout) as { track: string; skipped: number; done: number; failed: number; remaining: number }[];
    expect(summaries.map((s) => s.track)).toEqual(TRACKS);
    expect(summaries[0]).toMatchObject({ skipped: 20, done: 0, failed: 0, remaining: 0 });
    expect(summaries.reduce((s, t) => s + t.skipped, 0)).toBe(stored);
    expect(summaries.reduce((s, t) => s + t.done, 0)).toBe(RUNS - stored);
    expect(summaries.every((s) => s.failed === 0 && s.remaining === 0)).toBe(true);
    await noChildrenLeft();
    project = Project.open(path.join(cwd, 'killed.saikoro'), { readOnly: true });
    expect(project.runs().filter((r) => r.status === 'done')).toHaveLength(RUNS);
    project.close();

    expect(await standings('killed.saikoro')).toEqual(whole);
  }, 1_800_000);

  it("runs as two shards through the Slurm script (as its array tasks run outside Slurm), merged: the standings are the whole run's", async () => {
    expect(whole.standings).toBeDefined();
    const script = path.join(REPO, 'docs/examples/slurm-experiment.sh');
    const task = (k: number) =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawn('bash', [script, 'sharded.saikoro', '2', 'results'], {
          cwd,
          env: { PATH: process.env.PATH, HOME: process.env.HOME, SAIKORO_HOME: REPO, SLURM_ARRAY_TASK_ID: String(k), SLURM_CPUS_PER_TASK: '2' },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
        child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
        child.on('close', (code) => resolve({ code, stdout, stderr }));
      });
    const shardRuns: number[] = [];
    for (const k of [1, 2]) {
      const r = await task(k);
      expect(r.code, r.stderr).toBe(0);
      // The script saw a competition: competition run, whose lines say "runs in shard" and "finished before".
      expect(r.stdout).toMatch(new RegExp(`^so: \\d+ runs in shard ${k}/2: 0 finished before, \\d+ done now, 0 failed, 0 not run$`, 'm'));
      await noChildrenLeft();
      const shard = Project.open(path.join(cwd, `results/sharded.shard-${k}-of-2.saikoro`), { readOnly: true });
      shardRuns.push(shard.runs().length);
      shard.close();
    }
    expect(shardRuns[0] + shardRuns[1]).toBe(RUNS);
    expect(Math.min(...shardRuns)).toBeGreaterThan(0);
    const merged = await cli('merge', 'sharded.saikoro', 'results/sharded.shard-1-of-2.saikoro', 'results/sharded.shard-2-of-2.saikoro');
    expect(merged.code, merged.stderr).toBe(0);
    for (const t of TRACKS) expect(merged.stdout).toContain(`${t}: all 20 runs done`);
    expect(await standings('sharded.saikoro')).toEqual(whole);
  }, 1_800_000);
});
