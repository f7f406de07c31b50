// A run queued with a preparation (HostStartOptions.prepare: the app's startRun computes a
// multi-objective run's normalisation there, after answering): it waits in the queue, listed as
// queued, and reaches a worker only with the prepared request; pause holds it, cancel aborts the
// preparation, and a failed preparation fails the run with the reason. A spawner that starts
// nothing records what reaches a worker.
import { afterEach, describe, expect, it } from 'vitest';
import { SolverHost } from '../../../src-main/host/pool.ts';
import type { HostMessage } from '../../../src-main/host/protocol.ts';
import type { WorkerChannel, WorkerSpawner } from '../../../src-main/host/spawner.ts';
import { trackConfig } from '../../../src-shared/problems/dice/config.ts';
import type { DiceRunRequest } from '../../../src-shared/runtime/kinds/index.ts';

function recordingSpawner() {
  const sent: HostMessage[] = [];
  const spawn: WorkerSpawner = () =>
    ({
      pid: 4242,
      send: (m: HostMessage) => void sent.push(m),
      onMessage: () => ({ dispose() {} }),
      onExit: () => ({ dispose() {} }),
      kill() {},
      dispose() {},
    }) as WorkerChannel;
  return { spawn, starts: () => sent.filter((m) => m.type === 'start') };
}

const request: DiceRunRequest = { kind: 'dice', solver: 'random', params: {}, seed: 1, config: trackConfig('mo2', 30), termination: { maxEvaluations: 10 } };
const norm = { ideal: [0, 0], nadir: [5, 6], reference: [1.1, 1.1], method: 'test' };

/** A preparation the test resolves or rejects, with the signal it was given. */
function heldPreparation() {
  const held: { signal?: AbortSignal; resolve?: (r: DiceRunRequest) => void; reject?: (e: Error) => void } = {};
  const prepare = (given: DiceRunRequest, signal: AbortSignal) =>
    new Promise<DiceRunRequest>((resolve, reject) => Object.assign(held, { signal, resolve: (r: DiceRunRequest) => resolve({ ...given, ...r }), reject }));
  return { held, prepare };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

let host: SolverHost | null = null;
afterEach(() => {
  host?.dispose();
  host = null;
});

describe('a run with a preparation', () => {
  it('waits, queued, and reaches a worker with the prepared request; a run behind it is not held up', async () => {
    const { spawn, starts } = recordingSpawner();
    host = new SolverHost({ spawn, parallelism: 2, memoryLimitMb: null });
    const { held, prepare } = heldPreparation();
    const run = host.start(request, { prepare });
    const other = host.start({ ...request, seed: 2 });
    await turn();
    expect([run.status, other.status]).toEqual(['queued', 'running']);
    expect(starts().map((m) => m.type === 'start' && m.runId)).toEqual([other.id]);
    held.resolve!({ ...request, hvNormalisation: norm });
    await turn();
    expect(run.status).toBe('running');
    expect(starts().find((m) => m.type === 'start' && m.runId === run.id)).toMatchObject({ request: { hvNormalisation: norm } });
    expect(run.request.hvNormalisation).toEqual(norm);
  });

  it('paused meanwhile, it stays paused once prepared, and starts when resumed', async () => {
    const { spawn, starts } = recordingSpawner();
    host = new SolverHost({ spawn, parallelism: 1, memoryLimitMb: null });
    const { held, prepare } = heldPreparation();
    const run = host.start(request, { prepare });
    run.pause();
    expect(run.status).toBe('paused');
    await turn();
    held.resolve!({ ...request, hvNormalisation: norm });
    await turn();
    expect([run.status, starts()]).toEqual(['paused', []]);
    run.resume();
    expect(run.status).toBe('running');
    expect(starts()).toHaveLength(1);
  });

  it('cancelled meanwhile, it aborts the preparation and ends cancelled without a worker', async () => {
    const { spawn, starts } = recordingSpawner();
    host = new SolverHost({ spawn, parallelism: 1, memoryLimitMb: null });
    const { held, prepare } = heldPreparation();
    const run = host.start(request, { prepare });
    await turn();
    run.cancel();
    expect(held.signal!.aborted).toBe(true);
    expect(await run.outcome).toEqual({ status: 'cancelled', result: null, reason: 'cancelled' });
    held.resolve!({ ...request, hvNormalisation: norm });
    await turn();
    expect(starts()).toEqual([]);
  });

  it('a failed preparation fails the run with the reason; the host shutting down aborts one', async () => {
    const { spawn, starts } = recordingSpawner();
    host = new SolverHost({ spawn, parallelism: 1, memoryLimitMb: null });
    const failing = heldPreparation();
    const run = host.start(request, { prepare: failing.prepare });
    await turn();
    failing.held.reject!(new Error('the worker ran out of memory (limit 64 MB)'));
    expect(await run.outcome).toEqual({ status: 'failed', result: null, reason: 'the run could not be prepared: the worker ran out of memory (limit 64 MB)' });
    const pending = heldPreparation();
    const last = host.start(request, { prepare: pending.prepare });
    await turn();
    host.dispose();
    expect(pending.held.signal!.aborted).toBe(true);
    expect((await last.outcome).status).toBe('cancelled');
    expect(starts()).toEqual([]);
  });
});
