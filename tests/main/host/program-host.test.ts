// Solver programs through the solver host, like any run, in the sandbox and without it: a
// worker killed while its program runs fails only that run, and its program ends with it (the
// host kills it, even one that ignores its stdin and SIGTERM); the other runs, built-in and
// program alike, finish; pause and cancel reach the program through the worker, and a cancel
// waits for the program's stop sequence, so the run keeps what it found.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { SolverHost } from '../../../src-main/host/pool.ts';
import type { DiceRunRequest } from '../../../src-shared/runtime/kinds/index.ts';
import { nodeSpawner } from '../../../src-main/host/spawner.ts';
import { trackConfig } from '../../../src-shared/problems/dice/config.ts';
import { killAll, processesWithArgument, waitFor } from '../processes.ts';
import { BWRAP_VARIABLE, SHARE_VARIABLE } from '../../../src-main/host/sandbox.ts';
import { requireTool } from '../../e2e/tools.ts';
import { snapshotWhere, statusBecomes } from './helpers.ts';

const FAKE = path.join(import.meta.dirname, '../../fixtures/external/fake-solver.mjs');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-program-host-'));
// The programs' own folder (copied into each sandbox); `dir` is shared with them for their records.
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-program-host-work-'));
process.env[SHARE_VARIABLE] = dir;
const leftovers: number[] = [];
afterAll(() => {
  delete process.env[SHARE_VARIABLE];
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(work, { recursive: true, force: true });
});
const newToken = () => Math.random().toString(36).slice(2);

/** Fails the test if a process with the argument is still there once the run has ended (and kills it). */
async function noProcessLeft(argument: string): Promise<void> {
  await waitFor(`every process of the program (${argument}) to end`, () => processesWithArgument(argument).length === 0, { withinMs: 5000 }).catch(() =>
    leftovers.push(...processesWithArgument(argument)),
  );
  expect(processesWithArgument(argument)).toEqual([]);
}

let host: SolverHost | null = null;
afterEach(() => {
  host?.dispose();
  host = null;
  killAll(leftovers.splice(0));
});

function programRequest(evaluations: number, env: Record<string, string> = {}, mode: string[] = ['random', '10'], token = 'none'): DiceRunRequest {
  return {
    kind: 'dice',
    solver: 'fake',
    params: {},
    seed: 3,
    config: trackConfig('so', 40),
    termination: { maxEvaluations: evaluations },
    snapshotIntervalMs: 50,
    program: { command: [process.execPath, FAKE, ...mode, `--token=${token}`], cwd: work, env, grace: 1 },
  };
}

const bwrap = requireTool('bubblewrap', '/usr/bin/bwrap', 'apt-get install bubblewrap');
const modes: [string, NodeJS.ProcessEnv][] = [
  ['in the sandbox', process.env],
  ['without a sandbox', { ...process.env, [BWRAP_VARIABLE]: 'none' }],
];

for (const [where, env] of modes) {
  const block = env[BWRAP_VARIABLE] === 'none' ? describe : bwrap.describe;
  block(`solver programs in the solver host, ${where}`, () => {
    it('a worker killed mid-run fails that run; its program ends too, even one that ignores its stdin and SIGTERM; the other runs finish', async () => {
      host = new SolverHost({ spawn: nodeSpawner({ env }), parallelism: 2 });
      const token = newToken();
      const doomed = host.start(programRequest(100_000_000, {}, ['stubborn'], token));
      const other = host.start(programRequest(300));
      const builtIn = host.start({ kind: 'dice', solver: 'random', params: {}, seed: 1, config: trackConfig('so', 40), termination: { maxEvaluations: 2000 } });
      await snapshotWhere(doomed, (s) => s.evaluations > 0);
      // The program (and, sandboxed, bwrap and its init, whose command lines hold the program's).
      expect(processesWithArgument(`--token=${token}`).length).toBeGreaterThan(0);
      process.kill(doomed.pid!, 'SIGKILL');
      const [d, o, b] = await Promise.all([doomed.outcome, other.outcome, builtIn.outcome]);
      expect(d).toEqual({ status: 'failed', result: null, reason: 'the worker was killed (SIGKILL)' });
      expect(o.status).toBe('done');
      expect(o.result!.evaluations).toBe(300);
      expect(b.status).toBe('done');
      await noProcessLeft(`--token=${token}`);
    });

    it('pause and resume reach the program through the worker; cancel ends it with what it found', async () => {
      host = new SolverHost({ spawn: nodeSpawner({ env }), parallelism: 1 });
      const record = path.join(dir, `paused-${newToken()}.jsonl`);
      const run = host.start(programRequest(100_000_000, { FAKE_SOLVER_RECORD: record }));
      const answers = () =>
        fs.existsSync(record)
          ? fs
              .readFileSync(record, 'utf8')
              .split('\n')
              .filter((l) => l.includes('"results"')).length
          : 0;
      await waitFor('answers', () => answers() >= 3);
      run.pause();
      const paused = await snapshotWhere(run, (s) => s.paused);
      await statusBecomes(run, 'paused');
      run.resume();
      await waitFor('answers after resume', () => answers() > paused.evaluations / 10 + 3);
      // Paused again and cancelled while paused: the run ends with exactly the paused snapshot's
      // count, so nothing was answered in between (no waiting window of the test's own).
      run.pause();
      const again = await snapshotWhere(run, (s) => s.paused && s.evaluations > paused.evaluations);
      await statusBecomes(run, 'paused');
      run.cancel();
      const outcome = await run.outcome;
      expect(outcome.status).toBe('cancelled');
      expect(outcome.result!.evaluations).toBe(again.evaluations);
      const last = JSON.parse(fs.readFileSync(record, 'utf8').trim().split('\n').pop()!);
      expect(last.stop).toBe('cancelled');
      expect(outcome.result!.evaluations).toBeGreaterThan(30);
    });

    it('cancel waits for the stop sequence of a program that ignores its stdin and SIGTERM, kills it, and keeps what the run found', async () => {
      // The host's own grace (2 s) is shorter than the program's stop sequence (2 x 1 s, then SIGKILL).
      host = new SolverHost({ spawn: nodeSpawner({ env }), parallelism: 1, cancelGraceMs: 500 });
      const token = newToken();
      const run = host.start(programRequest(100_000_000, {}, ['stubborn'], token));
      await snapshotWhere(run, (s) => s.evaluations > 0);
      run.cancel();
      const outcome = await run.outcome;
      expect(outcome.status).toBe('cancelled');
      expect(outcome.result!.evaluations).toBeGreaterThan(0);
      expect(outcome.result!.program!.exit).toEqual({ code: null, signal: 'SIGKILL', how: 'killed' });
      await noProcessLeft(`--token=${token}`);
    });
  });
}
