// Solver programs through the solver host, like any run: a worker killed while its program
// runs fails only that run (the program ends with it: its stdin closes), the other runs,
// built-in and program alike, finish; pause and cancel reach the program through the worker.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { SolverHost } from '../../../src-main/host/pool.ts';
import type { DiceRunRequest } from '../../../src-shared/runtime/kinds/index.ts';
import { nodeSpawner } from '../../../src-main/host/spawner.ts';
import { trackConfig } from '../../../src-shared/problems/dice/config.ts';
import { hasEnded, isAlive, waitFor } from '../processes.ts';
import { snapshotWhere, statusBecomes } from './helpers.ts';

const FAKE = path.join(import.meta.dirname, '../../fixtures/external/fake-solver.mjs');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-program-host-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

let host: SolverHost | null = null;
afterEach(() => {
  host?.dispose();
  host = null;
});

function programRequest(evaluations: number, env: Record<string, string> = {}): DiceRunRequest {
  return { kind: 'dice', solver: 'fake', params: {}, seed: 3, config: trackConfig('so', 40), termination: { maxEvaluations: evaluations }, snapshotIntervalMs: 50, program: { command: [process.execPath, FAKE, 'random', '10'], env, grace: 1 } };
}

describe('solver programs in the solver host', () => {
  it('a worker killed mid-run fails that run; its program ends too; the other runs finish', async () => {
    host = new SolverHost({ spawn: nodeSpawner(), parallelism: 2 });
    const pidFile = path.join(dir, 'doomed.pid');
    const doomed = host.start(programRequest(100_000_000, { FAKE_SOLVER_PID: pidFile }));
    const other = host.start(programRequest(300));
    const builtIn = host.start({ kind: 'dice', solver: 'random', params: {}, seed: 1, config: trackConfig('so', 40), termination: { maxEvaluations: 2000 } });
    await snapshotWhere(doomed, (s) => s.evaluations > 0);
    const programPid = Number(await waitFor('the program pid', () => fs.existsSync(pidFile) && fs.readFileSync(pidFile, 'utf8')));
    expect(isAlive(programPid)).toBe(true);
    process.kill(doomed.pid!, 'SIGKILL');
    const [d, o, b] = await Promise.all([doomed.outcome, other.outcome, builtIn.outcome]);
    expect(d).toEqual({ status: 'failed', result: null, reason: 'the worker was killed (SIGKILL)' });
    expect(o.status).toBe('done');
    expect(o.result!.evaluations).toBe(300);
    expect(b.status).toBe('done');
    await waitFor('the orphaned program to end', () => hasEnded(programPid));
  });

  it('pause and resume reach the program through the worker; cancel ends it with what it found', async () => {
    host = new SolverHost({ spawn: nodeSpawner(), parallelism: 1 });
    const record = path.join(dir, 'paused.jsonl');
    const run = host.start(programRequest(100_000_000, { FAKE_SOLVER_RECORD: record }));
    const answers = () => (fs.existsSync(record) ? fs.readFileSync(record, 'utf8').split('\n').filter((l) => l.includes('"results"')).length : 0);
    await waitFor('answers', () => answers() >= 3);
    run.pause();
    await statusBecomes(run, 'paused');
    await new Promise((r) => setTimeout(r, 100));
    const before = answers();
    await new Promise((r) => setTimeout(r, 400));
    expect(answers()).toBe(before);
    run.resume();
    await waitFor('answers after resume', () => answers() > before + 3);
    run.cancel();
    const outcome = await run.outcome;
    expect(outcome.status).toBe('cancelled');
    const last = JSON.parse(fs.readFileSync(record, 'utf8').trim().split('\n').pop()!);
    expect(last.stop).toBe('cancelled');
    expect(outcome.result!.evaluations).toBeGreaterThan(30);
  });
});
