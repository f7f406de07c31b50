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
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Project } from '../../../src-main/project/store.ts';
import { requireTool } from '../../e2e/tools.ts';
import {
  REPO,
  RUNS,
  TRACKS,
  cliStandings,
  expectCompleteStandings,
  expectRunsScoredAndHostileContained,
  hostileTargets,
  makeDoneCompetition,
  type HostileTargets,
} from '../competition-done.ts';
import { runCli } from './io.ts';

const bwrap = requireTool('bubblewrap', '/usr/bin/bwrap', 'apt-get install bubblewrap');

let cwd = '';
let targets: HostileTargets | null = null;
const cli = (...argv: string[]) => runCli(argv, { cwd, env: process.env });
const standings = (file: string) => cliStandings(cli, file);
const noChildrenLeft = () => targets!.noChildrenLeft();

afterAll(() => {
  targets?.close();
  if (cwd) fs.rmSync(cwd, { recursive: true, force: true });
});

let whole: Record<string, unknown> = {};

bwrap.describe('issue 26 done: a competition of the five tracks, four entrants, whole, after kill -9 and sharded', () => {
  beforeAll(async () => {
    if (!bwrap.present) return;
    cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-competition-done-'));
    targets = await hostileTargets('done');
    await makeDoneCompetition(cli, cwd, 'whole.saikoro', targets);
    // Three copies of the same competition: run whole, killed and resumed, sharded.
    for (const copy of ['killed.saikoro', 'sharded.saikoro']) fs.copyFileSync(path.join(cwd, 'whole.saikoro'), path.join(cwd, copy));
  }, 300_000);

  it('runs whole: every run scored, every program blind, the hostile entrant contained and scored', async () => {
    const ran = await cli('competition', 'run', 'whole.saikoro', '--jobs', '2');
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toBe(TRACKS.map((t) => `${t}: 20 runs: 0 finished before, 20 done now, 0 failed, 0 not run\n`).join(''));
    await noChildrenLeft();

    expectRunsScoredAndHostileContained(path.join(cwd, 'whole.saikoro'), targets!);
    expect(fs.readdirSync(cwd).sort()).toEqual(['hostile', 'killed.saikoro', 'node', 'python', 'sharded.saikoro', 'whole.saikoro']);

    // The standings: the four entrants ranked over the 25 problems, the hostile one scored on what it evaluated.
    whole = await standings('whole.saikoro');
    expectCompleteStandings(whole);
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
