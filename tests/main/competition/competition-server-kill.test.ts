// saikoro serve --competition killed with SIGKILL mid-competition and started again (issue 29):
// nothing answered is lost and nothing is counted twice. Killed between two requests, the
// restarted server counts exactly what it had answered, and its standings are the same; killed
// with a request in flight, it counts that request once or not at all (stored before its answer
// is sent), and the entrant, told what is left by the hello, resumes. In the end every run
// equals the local run of the same program with the same seed.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Project } from '../../../src-main/project/store.ts';
import { competitionGrid } from '../../../src-main/app/competition-service.ts';
import { competitionOf } from '../../../src-main/app/competition.ts';
import { runCli } from '../cli/io.ts';
import { waitFor } from '../processes.ts';
import { comparable, localRun, NODE_LOCAL, playRandomSearch, ROOT, Socket, wsUrl, type Hello } from './remote-helpers.ts';

let cwd: string;
let token: string;
let server: { child: ChildProcess; origin: string; organiser: string } | null = null;
const cli = (...argv: string[]) => runCli(argv, { cwd });
const BUDGET = 2000;

/** saikoro serve --competition in its own process; resolves once it prints its address. */
function serve(): Promise<{ child: ChildProcess; origin: string; organiser: string; stderr: () => string }> {
  const child = spawn(
    process.execPath,
    [path.join(ROOT, 'bin/saikoro.mjs'), 'serve', '--competition', 'k.saikoro', '--port', '0', '--no-build', '--renderer-dir', 'renderer', '--workspace', '.'],
    {
      cwd,
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (d: Buffer) => {
      stderr += d;
      const m = /on (http:\/\/127\.0\.0\.1:\d+\/)\?token=(\S+)/.exec(stderr);
      if (m && stderr.includes('competition k.saikoro:')) resolve({ child, origin: m[1], organiser: m[2], stderr: () => stderr });
    });
    child.on('exit', (code) => reject(new Error(`serve exited (${code}) before it served:\n${stderr}`)));
  });
}

function kill(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

async function entrantRuns(origin: string): Promise<{ problem: string; seed: number; evaluations: number; state: string }[]> {
  const view = await (await fetch(`${origin}api/competition`, { headers: { Authorization: `Bearer ${token}` } })).json();
  return view.problems.flatMap((p: { id: string; runs: { seed: number; evaluations: number; state: string }[] }) =>
    p.runs.map((r) => ({ problem: p.id, seed: r.seed, evaluations: r.evaluations, state: r.state })),
  );
}

/** The served standings without the moment they were made (everything else must stay the same). */
async function standings(origin: string, organiser: string): Promise<unknown> {
  const { generatedAt, ...rest } = await (await fetch(`${origin}api/competition/standings`, { headers: { Authorization: `Bearer ${organiser}` } })).json();
  expect(typeof generatedAt).toBe('string');
  return rest;
}

beforeAll(async () => {
  cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-competition-kill-'));
  fs.mkdirSync(path.join(cwd, 'renderer'));
  fs.writeFileSync(path.join(cwd, 'renderer', 'index.html'), '<!doctype html><title>renderer</title>');
  const made = await cli(
    'competition',
    'new',
    'k.saikoro',
    '--tracks',
    'so,mo2',
    '--n',
    '60',
    '--instances',
    '1',
    '--budget',
    String(BUDGET),
    '--seeds',
    '1',
    '--secret',
    'kill-test-secret',
  );
  expect(made.code, made.stderr).toBe(0);
  expect((await cli('competition', 'enter', 'k.saikoro', '--name', 'node', '--remote')).code).toBe(0);
  token = (await cli('competition', 'token', 'k.saikoro', '--entrant', 'node')).stdout.trim();
  expect((await cli('competition', 'enter', 'k.saikoro', '--name', 'rnd', '--solver', 'random')).code).toBe(0);
  expect((await cli('competition', 'run', 'k.saikoro', '--jobs', '1')).code).toBe(0);
}, 120_000);

afterAll(async () => {
  if (server) await kill(server.child);
  fs.rmSync(cwd, { recursive: true, force: true });
});

describe('a competition server killed with -9 and started again', () => {
  it('loses no evaluation, counts none twice, keeps its standings, and the entrant resumes to the local run', async () => {
    // 1. Played 6 batches, then idle: killed between two requests.
    let s = await serve();
    server = s;
    const first = await playRandomSearch(s.origin, token, 'so-n60-i1', { stopAfter: 6 });
    expect(first.answered).toBe(600);
    const before = await standings(s.origin, s.organiser);
    expect(await entrantRuns(s.origin)).toEqual([
      { problem: 'so-n60-i1', seed: 1, evaluations: 600, state: 'playing' },
      { problem: 'mo2-n60-i1', seed: 1, evaluations: 0, state: 'new' },
    ]);
    await kill(s.child);
    expect(fs.existsSync(path.join(cwd, 'k.saikoro-remote.lock'))).toBe(true);

    s = await serve();
    server = s;
    expect(await entrantRuns(s.origin)).toEqual([
      { problem: 'so-n60-i1', seed: 1, evaluations: 600, state: 'playing' },
      { problem: 'mo2-n60-i1', seed: 1, evaluations: 0, state: 'new' },
    ]);
    expect(await standings(s.origin, s.organiser)).toEqual(before);

    // 2. Killed with requests in flight: each is counted once or not at all.
    const socket = new Socket(wsUrl(s.origin, 'mo2-n60-i1'), { Authorization: `Bearer ${token}` });
    expect(await socket.opened).toBe(true);
    const hello = (await socket.next<Hello>())!;
    let answered = 0;
    const roll = (() => {
      // The Node entrant's stream (playRandomSearch resumes it from the hello below).
      let state = hello.seed % 2 ** 32 >>> 0;
      return () => {
        state = (state + 0x9e3779b9) >>> 0;
        let z = state;
        z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
        z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
        return 1 + Math.floor((((z ^ (z >>> 16)) >>> 0) / 2 ** 32) * 6);
      };
    })();
    const request = () => socket.send({ evaluate: Array.from({ length: 100 }, () => Array.from({ length: 60 }, roll).join('')) });
    for (let k = 0; k < 4; k++) {
      request();
      answered += (await socket.next())!.results!.length;
    }
    request();
    request();
    await kill(s.child);
    await waitFor('the socket to close', () => socket.closed !== null);
    const stderrBefore = s.stderr();
    expect(stderrBefore).not.toContain('Error');

    s = await serve();
    server = s;
    const counted = (await entrantRuns(s.origin)).find((r) => r.problem === 'mo2-n60-i1')!.evaluations;
    expect([answered, answered + 100, answered + 200]).toContain(counted);
    expect(counted % 100).toBe(0);

    // 3. Both runs played to the end by the resuming entrant.
    const so = await playRandomSearch(s.origin, token, 'so-n60-i1');
    expect([so.hello.remaining, so.answered, so.stop]).toEqual([BUDGET - 600, BUDGET - 600, 'budget']);
    const mo = await playRandomSearch(s.origin, token, 'mo2-n60-i1');
    expect([mo.hello.remaining, mo.answered, mo.stop]).toEqual([BUDGET - counted, BUDGET - counted, 'budget']);
    expect(await entrantRuns(s.origin)).toEqual([
      { problem: 'so-n60-i1', seed: 1, evaluations: BUDGET, state: 'done' },
      { problem: 'mo2-n60-i1', seed: 1, evaluations: BUDGET, state: 'done' },
    ]);
    await kill(s.child);
    server = null;

    // Every run as the local run of random_search.mjs with the same seed; the file holds every request once.
    const project = Project.open(path.join(cwd, 'k.saikoro'));
    try {
      const competition = competitionOf(project);
      const grid = competitionGrid(project).filter((r) => r.remote);
      const counts = project.remoteRunCounts();
      for (const run of grid) {
        const stored = project.run(run.id)!;
        expect(stored.status).toBe('done');
        expect(counts.get(run.id)!.evaluations).toBe(BUDGET);
        expect(comparable(stored.result)).toEqual(
          comparable(await localRun(competition, run.instance, 'node', NODE_LOCAL.command, run.seed, NODE_LOCAL.files)),
        );
      }
    } finally {
      project.close();
    }
  }, 300_000);
});
