// Every worker has a memory limit unless one is switched off: the default share of the machine
// reaches the spawner (V8's heap flag) and the worker (its watchdog), and a dice request whose
// settings cannot fit in it fails at once, without a worker (src-shared/solvers/memory.ts).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { DisposableStore } from '../../../src-shared/base/disposable.ts';
import { SolverHost } from '../../../src-main/host/pool.ts';
import { defaultMemoryLimitMb } from '../../../src-main/host/memory-limit.ts';
import type { HostMessage } from '../../../src-main/host/protocol.ts';
import type { DiceRunRequest } from '../../../src-shared/runtime/kinds/index.ts';
import type { SpawnOptions, WorkerChannel, WorkerSpawner } from '../../../src-main/host/spawner.ts';
import { trackConfig } from '../../../src-shared/problems/dice/config.ts';
import { dispatchCall } from '../../../src-main/api/dispatch.ts';
import { createAppCore } from '../../../src-main/api/core.ts';
import { workspacePaths } from '../../../src-main/app/project-paths.ts';

const GB = 1024 * 1024 * 1024;

/** A spawner that starts nothing: it records what the host asks of it and sends. */
function recordingSpawner() {
  const spawned: SpawnOptions[] = [];
  const sent: HostMessage[] = [];
  const spawn: WorkerSpawner = (options) => {
    spawned.push(options);
    const store = new DisposableStore();
    const channel: WorkerChannel = {
      pid: 4242,
      send: (m) => void sent.push(m),
      onMessage: () => ({ dispose() {} }),
      onExit: () => ({ dispose() {} }),
      kill() {},
      dispose: () => store.dispose(),
    };
    return channel;
  };
  return { spawn, spawned, sent };
}

const request = (extra: Partial<DiceRunRequest> = {}): DiceRunRequest => ({
  kind: 'dice',
  solver: 'ga',
  params: {},
  seed: 1,
  config: trackConfig('so', 1_000_000),
  termination: { maxEvaluations: 10 },
  ...extra,
});

let host: SolverHost | null = null;
afterEach(() => {
  host?.dispose();
  host = null;
});

describe('defaultMemoryLimitMb', () => {
  it("is half of the machine's memory shared by the workers at once, at least 256 MB", () => {
    expect(defaultMemoryLimitMb(1, 16 * GB)).toBe(8192);
    expect(defaultMemoryLimitMb(2, 16 * GB)).toBe(4096);
    expect(defaultMemoryLimitMb(8, 4 * GB)).toBe(256);
    expect(defaultMemoryLimitMb(3, 24105 * 1024 * 1024)).toBe(4017);
    expect(defaultMemoryLimitMb(1)).toBe(Math.floor(os.totalmem() / 2 / 1024 / 1024));
  });
});

describe('the host and its workers', () => {
  it('gives every worker the default limit when none is given: the V8 flag and the watchdog', () => {
    const { spawn, spawned, sent } = recordingSpawner();
    host = new SolverHost({ spawn, parallelism: 2 });
    expect(host.memoryLimitMb).toBe(defaultMemoryLimitMb(2));
    host.start(request({ solver: 'random' }));
    expect(spawned).toEqual([{ memoryLimitMb: defaultMemoryLimitMb(2) }]);
    expect(sent[0]).toEqual({ type: 'init', memoryLimitMb: defaultMemoryLimitMb(2) });
  });

  it('takes a given limit, and null for none', () => {
    const given = recordingSpawner();
    host = new SolverHost({ spawn: given.spawn, parallelism: 1, memoryLimitMb: 700 });
    host.start(request({ solver: 'random' }));
    expect(given.spawned).toEqual([{ memoryLimitMb: 700 }]);
    host.dispose();
    const none = recordingSpawner();
    host = new SolverHost({ spawn: none.spawn, parallelism: 1, memoryLimitMb: null });
    host.start(request({ solver: 'ga', params: { populationSize: 100000 } }));
    expect(none.spawned).toEqual([{ memoryLimitMb: null }]);
  });

  it('fails a run whose settings cannot fit at once, naming them, without starting a worker', async () => {
    const { spawn, spawned } = recordingSpawner();
    host = new SolverHost({ spawn, parallelism: 1, memoryLimitMb: 4096 });
    const run = host.start(request({ params: { populationSize: 100000 } }));
    expect(await run.outcome).toEqual({
      status: 'failed',
      result: null,
      reason: expect.stringMatching(
        /^ga at N = 1,000,000 needs about 190,\d{3} MB \(populationSize 100000: 200000 sequences \(parents and offspring\)\), more than the worker's memory limit of 4,096 MB$/,
      ),
    });
    // The run's own limit counts; the solver's default population (100) fits in 4 GB.
    const own = host.start(request({ params: {}, memoryLimitMb: 100 }));
    expect((await own.outcome).reason).toMatch(/^ga at N = 1,000,000 needs about \d+ MB \(populationSize 100: .*limit of 100 MB$/);
    expect(spawned).toEqual([]);
    host.start(request({ params: {} }));
    expect(spawned).toHaveLength(1);
  });
});

/** The app wired as the desktop and the web server wire it (createAppCore), over a spawner that starts nothing. */
function appCore(spawn: WorkerSpawner, options: { memoryLimitMb?: number; workspace?: string } = {}) {
  const core = createAppCore({
    appInfo: { name: 'saikoro', version: '0', platform: 'test', runtime: 'web' },
    spawn,
    parallelism: 2,
    ...(options.memoryLimitMb !== undefined ? { memoryLimitMb: options.memoryLimitMb } : {}),
    paths: options.workspace ? workspacePaths(options.workspace) : null,
  });
  onTestFinished(() => core.dispose());
  return core;
}

describe('the API', () => {
  it("getAppInfo shows the workers' limit, and startRun refuses what cannot fit as a bad params field", async () => {
    const { spawn, spawned } = recordingSpawner();
    const { api } = appCore(spawn);
    expect((await api.getAppInfo()).workerMemoryLimitMb).toBe(defaultMemoryLimitMb(2));
    const refused = await dispatchCall(api, 'startRun', [
      { config: { n: 1_000_000 }, solver: 'ga', params: { populationSize: 100000 }, seed: 1, evaluations: 10 },
    ]);
    expect(refused).toMatchObject({
      ok: false,
      error: {
        name: 'RunRequestError',
        field: 'params',
        message: expect.stringContaining(`memory limit of ${defaultMemoryLimitMb(2).toLocaleString('en-US')} MB`),
      },
    });
    expect(spawned).toEqual([]);
  });
});

describe("the app's experiment sessions", () => {
  it('refuse an experiment whose settings cannot fit before the session starts, storing nothing', async () => {
    const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-memory-app-'));
    onTestFinished(() => fs.rmSync(workspace, { recursive: true, force: true }));
    const { spawn, spawned } = recordingSpawner();
    const { api } = appCore(spawn, { memoryLimitMb: 4096, workspace });
    expect(await dispatchCall(api, 'createProject', ['p.saikoro'])).toMatchObject({ ok: true });
    const spec = {
      name: 'big',
      instances: [{ name: 'so-big', track: 'so', n: 1_000_000 }],
      solvers: [{ name: 'ga', label: 'ga-huge', params: { populationSize: 100000 } }],
      seeds: [1, 2],
      budget: { evaluations: 10 },
    };
    expect(await dispatchCall(api, 'addExperiment', [spec])).toMatchObject({ ok: true });
    const refused = await dispatchCall(api, 'runExperiment', ['big']);
    expect(refused).toMatchObject({
      ok: false,
      error: {
        field: 'experiment',
        message: expect.stringMatching(/^experiment: big: ga-huge on so-big: ga at N = 1,000,000 needs about 190,\d{3} MB .*memory limit of 4,096 MB$/),
      },
    });
    expect(spawned).toEqual([]);
    const listed = await dispatchCall(api, 'listExperimentRuns', ['big']);
    if (listed.ok) expect(JSON.stringify(listed.value)).not.toContain('failed');
  });
});
