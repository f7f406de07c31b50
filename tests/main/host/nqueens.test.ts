// N-Queens runs through the solver host with real worker processes: the same result as the
// in-process driver and as the methods called directly, snapshots, pause / resume / cancel,
// failures with reasons, and `saikoro nqueens` through a worker against --inline.
import { afterEach, describe, expect, it } from 'vitest';
import { SolverHost } from '../../../src-main/host/pool.ts';
import type { NqueensResult, NqueensRunRequest, NqueensSnapshot } from '../../../src-shared/runtime/kinds/index.ts';
import { nodeSpawner } from '../../../src-main/host/spawner.ts';
import { frameworkParams } from '../../../src-shared/problems/nqueens/request.ts';
import { executeRun } from '../../../src-shared/runtime/kinds/index.ts';
import { waitFor } from '../processes.ts';
import { snapshotWhere, statusBecomes } from './helpers.ts';
import { defaultMinConflictsParams, MinConflicts, runMinConflicts } from '../../../src-shared/problems/nqueens/minconflicts.ts';
import { defaultNeuralParams, NeuralNet, runNeural, slidesNeuralParams } from '../../../src-shared/problems/nqueens/neural.ts';
import { verifySolution } from '../../../src-shared/problems/nqueens/verify.ts';
import { runCli } from '../cli/io.ts';

let host: SolverHost | null = null;
afterEach(() => {
  host?.dispose();
  host = null;
});

function newHost(parallelism = 2): SolverHost {
  host = new SolverHost({ spawn: nodeSpawner(), parallelism });
  return host;
}

/**
 * Synchronous updates, bounded U, no kicks: at N = 10 the whole board flips between empty and
 * full and never solves (the oscillation pinned down in tests/shared/problems/nqueens/), so
 * the run goes on until cancelled.
 */
function endless(seed = 1, extra: Partial<NqueensRunRequest> = {}): NqueensRunRequest {
  return {
    kind: 'nqueens',
    method: 'neural',
    n: 10,
    params: { update: 'sync', clamp: 3, kickLength: 0, maxSteps: 1_000_000_000 },
    seed,
    snapshotIntervalMs: 50,
    ...extra,
  };
}

const withoutTime = (r: NqueensResult) => ({ ...r, seconds: 0 });

describe('N-Queens runs on the solver host', () => {
  it('gives the same verified result in a worker as in-process and as the methods called directly', async () => {
    const h = newHost();
    const requests: NqueensRunRequest[] = [
      { kind: 'nqueens', method: 'neural', n: 12, params: {}, seed: 3 },
      { kind: 'nqueens', method: 'neural', n: 16, params: { update: 'sync', clamp: 0, kickEvery: 50, A: 0.6, B: 0.6 }, seed: 4 },
      { kind: 'nqueens', method: 'minconflicts', n: 200, params: {}, seed: 4 },
      { kind: 'nqueens', method: 'minconflicts', n: 50, params: { samples: 4, noise: 0.1 }, seed: 9 },
    ];
    const outcomes = await h.runAll(requests);
    for (const [i, request] of requests.entries()) {
      const outcome = outcomes[i];
      expect(outcome.status, JSON.stringify(request)).toBe('done');
      const inProcess = await executeRun(request, { yieldToHost: () => Promise.resolve() });
      expect(withoutTime(outcome.result!)).toEqual(withoutTime(inProcess));
      const r = outcome.result!;
      expect(Object.keys(r).slice(0, 6)).toEqual(['n', 'method', 'solved', 'steps', 'seconds', 'queens']);
      expect(r).toMatchObject({ n: request.n, method: request.method, kind: 'nqueens', seed: request.seed, stopReason: 'solver' });
      if (r.solved) expect(verifySolution(r.queens!)).toBe(true);
      else expect(r.queens).toBeNull();
    }
    // The methods themselves, outside any driver, agree on steps and queens.
    const neural = runNeural(defaultNeuralParams(12), 3);
    expect([outcomes[0].result!.solved, outcomes[0].result!.steps, outcomes[0].result!.queens]).toEqual([neural.solved, neural.steps, neural.queens]);
    const slides = runNeural({ ...slidesNeuralParams(16), A: 0.6, B: 0.6 }, 4);
    expect([outcomes[1].result!.solved, outcomes[1].result!.steps, outcomes[1].result!.queens]).toEqual([slides.solved, slides.steps, slides.queens]);
    const mc = runMinConflicts(defaultMinConflictsParams(200), 4);
    expect(outcomes[2].result!.solved).toBe(true);
    expect([outcomes[2].result!.steps, outcomes[2].result!.queens]).toEqual([mc.steps, [...mc.queens]]);
  });

  it('sends throttled snapshots with steps, queens, conflicts and (network) energy', async () => {
    const h = newHost();
    const run = h.start(endless(1, { limits: { steps: 30_000 }, snapshotIntervalMs: 20 }));
    const seen: NqueensSnapshot[] = [];
    run.onSnapshot((s) => seen.push(s));
    const outcome = await run.outcome;
    expect(outcome.status).toBe('done');
    expect(outcome.result).toMatchObject({
      solved: false,
      steps: 30_000,
      stopReason: 'evaluations',
      queens: null,
      message: 'stopped by the step budget after 30000 steps',
    });
    expect(seen.length).toBeGreaterThanOrEqual(1);
    const last = seen[seen.length - 1];
    expect(last.steps).toBe(30_000);
    expect(last.progress).toBe(1);
    for (const [i, s] of seen.entries()) {
      expect(s.paused).toBe(false);
      if (i > 0) expect(s.steps).toBeGreaterThanOrEqual(seen[i - 1].steps);
      expect(s.queens).toBeGreaterThanOrEqual(0);
      expect(s.queens).toBeLessThanOrEqual(100);
      // E = 0 exactly at a solution, and this board never gets there.
      expect(typeof s.energy).toBe('number');
      expect(s.energy!).toBeGreaterThan(0);
    }

    // A solved network ends at energy 0 with N queens and no conflicts; min-conflicts has no energy.
    const solved = h.start({ kind: 'nqueens', method: 'neural', n: 20, params: {}, seed: 2 });
    const mc = h.start({ kind: 'nqueens', method: 'minconflicts', n: 500, params: {}, seed: 2 });
    const finals: NqueensSnapshot[] = [];
    const mcFinals: NqueensSnapshot[] = [];
    solved.onSnapshot((s) => finals.push(s));
    mc.onSnapshot((s) => mcFinals.push(s));
    const [a, b] = await Promise.all([solved.outcome, mc.outcome]);
    expect(a.result!.solved && b.result!.solved).toBe(true);
    expect(finals.at(-1)).toMatchObject({ steps: a.result!.steps, queens: 20, conflicts: 0, energy: 0, progress: 1 });
    expect(mcFinals.at(-1)).toMatchObject({ steps: b.result!.steps, queens: 500, conflicts: 0, progress: 1 });
    expect(mcFinals.at(-1)!.energy).toBeUndefined();
  });

  it('pauses, resumes and cancels a run; the cancelled run reports its steps', async () => {
    const h = newHost();
    const run = h.start(endless(5));
    await snapshotWhere(run, (s) => s.steps > 0);

    run.pause();
    const paused = await snapshotWhere(run, (s) => s.paused);
    await statusBecomes(run, 'paused');

    run.resume();
    await statusBecomes(run, 'running');
    const resumed = await snapshotWhere(run, (s) => s.steps > paused.steps);
    expect(resumed.paused).toBe(false);

    // Paused again and cancelled while paused: exactly the paused snapshot's steps, so no step
    // ran between the pause and the cancel (no waiting window of the test's own).
    run.pause();
    const again = await snapshotWhere(run, (s) => s.paused && s.steps >= resumed.steps);
    await statusBecomes(run, 'paused');
    run.cancel();
    const outcome = await run.outcome;
    expect(outcome.status).toBe('cancelled');
    expect(outcome.result).toMatchObject({ solved: false, stopReason: 'cancelled', queens: null });
    expect(outcome.result!.steps).toBe(again.steps);
    expect(outcome.result!.message).toBe(`cancelled after ${outcome.result!.steps} steps`);
  });

  it('a killed worker fails its run with the reason while another N-Queens run finishes', async () => {
    const h = newHost(2);
    const doomed = h.start(endless(2));
    const survivor = h.start({ kind: 'nqueens', method: 'minconflicts', n: 1000, params: {}, seed: 1 });
    const queued = h.start({ kind: 'nqueens', method: 'neural', n: 8, params: {}, seed: 3 });
    expect(queued.status).toBe('queued');
    await snapshotWhere(doomed, (s) => s.steps > 0);
    process.kill(doomed.pid!, 'SIGKILL');
    const [d, s, q] = await Promise.all([doomed.outcome, survivor.outcome, queued.outcome]);
    expect(d).toEqual({ status: 'failed', result: null, reason: 'the worker was killed (SIGKILL)' });
    expect(s.status).toBe('done');
    expect(s.result!.solved).toBe(true);
    expect(verifySolution(s.result!.queens!)).toBe(true);
    // The docs' example: N = 8, seed 3 is solved in 21 steps.
    expect(q.result).toMatchObject({ solved: true, steps: 21, queens: [2, 5, 1, 6, 0, 3, 7, 4] });
  });

  it('fails a bad request with a reason naming the problem; the worker stays for the next run', async () => {
    const h = newHost(1);
    const cases: [NqueensRunRequest, string][] = [
      [{ kind: 'nqueens', method: 'neural', n: 3, params: {}, seed: 1 }, 'n: must be an integer >= 4, got 3'],
      [
        { kind: 'nqueens', method: 'neural', n: 8, params: { samples: 4 }, seed: 1 },
        'solver nqueens-neural: parameter samples is unknown (parameters of nqueens-neural: A, B, C, kick, kickEvery, kickLength, update, threshold, clamp, maxSteps)',
      ],
      [
        { kind: 'nqueens', method: 'minconflicts', n: 8, params: { noise: 2 }, seed: 1 },
        'solver nqueens-minconflicts: parameter noise must be >= 0 and <= 1, got 2',
      ],
      [{ kind: 'nqueens', method: 'annealing' as 'neural', n: 8, params: {}, seed: 1 }, 'nqueens: unknown method "annealing" (known: neural, minconflicts)'],
      [{ kind: 'nqueens', method: 'neural', n: 8, params: {}, seed: 1, limits: { steps: 0 } }, 'nqueens: limits.steps must be a positive integer, got 0'],
    ];
    const runs = cases.map(([request]) => h.start(request));
    const pid = runs[0].pid;
    expect(pid).toBeDefined();
    for (const [i, run] of runs.entries()) expect(await run.outcome).toEqual({ status: 'failed', result: null, reason: cases[i][1], partial: null });
    const ok = h.start({ kind: 'nqueens', method: 'neural', n: 8, params: {}, seed: 3 });
    expect(ok.pid).toBe(pid);
    expect((await ok.outcome).result!.solved).toBe(true);
    expect(h.workerCount).toBe(1);
  });

  it('runs dice and N-Queens runs side by side on one host', async () => {
    const { trackConfig } = await import('../../../src-shared/problems/dice/config.ts');
    const h = newHost(1);
    const dice = h.start({ kind: 'dice', solver: 'random', params: {}, seed: 1, config: trackConfig('so', 20), termination: { maxEvaluations: 500 } });
    const queens = h.start({ kind: 'nqueens', method: 'minconflicts', n: 100, params: {}, seed: 1 });
    const [a, b] = await Promise.all([dice.outcome, queens.outcome]);
    expect(a.result!.evaluations).toBe(500);
    expect(b.result!.solved).toBe(true);
  });
});

describe('saikoro nqueens through the host', () => {
  const strip = (stdout: string) => ({ ...JSON.parse(stdout), seconds: 0 });
  const seedOf = (argv: string[]) => (argv.includes('--seed') ? Number(argv[argv.indexOf('--seed') + 1]) : 1);

  it('prints the same JSON from a worker as --inline and as the direct methods', async () => {
    const cases = [
      ['--n', '12', '--seed', '3'],
      ['--n', '15', '--preset', 'slides', '--A', '0.6', '--B', '0.7', '--kick-every', '40', '--kick-length', '2', '--seed', '2'],
      ['--n', '10', '--update', 'sync', '--kick-every', '0', '--max-steps', '50'],
      // No kicks at all: 92 steps; with kicks on repeat (the default) this seed takes 31.
      ['--n', '8', '--kick-every', '0', '--seed', '1'],
      ['--n', '10', '--update', 'sync', '--kick-every', 'auto', '--max-steps', '200', '--seed', '4'],
      ['--n', '300', '--method', 'minconflicts', '--samples', '8', '--noise', '0.05', '--seed', '7'],
    ];
    for (const argv of cases) {
      const worker = await runCli(['nqueens', ...argv, '--json']);
      const inline = await runCli(['nqueens', ...argv, '--json', '--inline']);
      expect(inline.code, argv.join(' ')).toBe(worker.code);
      expect(strip(inline.stdout), argv.join(' ')).toEqual(strip(worker.stdout));
      // The method itself, run straight with the printed params (no driver): the same board.
      const o = JSON.parse(worker.stdout);
      const direct = o.method === 'neural' ? new NeuralNet(o.params, seedOf(argv)).run() : new MinConflicts(o.params, seedOf(argv)).run();
      expect([o.solved, o.steps, o.queens], argv.join(' ')).toEqual([
        direct.solved,
        direct.steps,
        direct.solved && direct.queens ? Array.from(direct.queens) : null,
      ]);
    }
  }, 60_000);

  it('maps the CLI parameters to the framework names', () => {
    expect(frameworkParams('neural', { ...defaultNeuralParams(8), kick: { value: 5, every: 0, length: 3 } })).toMatchObject({
      kick: 5,
      kickEvery: 0,
      kickLength: 0,
    });
    expect(frameworkParams('neural', defaultNeuralParams(8))).toEqual({
      A: 1,
      B: 1,
      C: 1,
      kick: 4,
      kickEvery: 0,
      kickLength: 3,
      update: 'seq',
      threshold: 0,
      clamp: 3,
      maxSteps: 5000,
    });
    expect(frameworkParams('minconflicts', defaultMinConflictsParams(100))).toEqual({ samples: 32, greedyTries: 64, noise: 0.02, maxSteps: 100_000 });
  });

  for (const inline of [false, true]) {
    it(`Ctrl-C cancels the run and prints where it stopped, exit 130${inline ? ' (--inline)' : ''}`, async () => {
      const before = new Set(process.listeners('SIGINT'));
      // A terminal on stderr, so the command draws its progress line: the run is going once it counts steps.
      const stderrSoFar = { text: '' };
      const running = runCli(['nqueens', '--n', '10', '--update', 'sync', '--kick-every', '0', '--max-steps', '1000000000', ...(inline ? ['--inline'] : [])], {
        stderrIsTTY: true,
        stderrSoFar,
      });
      // The command's own SIGINT listener, called directly: no real signal reaches the test runner.
      const handler = await waitFor(
        'the command to listen for SIGINT',
        () => process.listeners('SIGINT').find((l) => !before.has(l)) as (() => void) | undefined,
      );
      await waitFor('the progress line to count steps', () => /[1-9][\d,]* steps/.test(stderrSoFar.text));
      handler();
      const r = await running;
      expect(r.code).toBe(130);
      expect(r.stdout).toMatch(/^Not solved: N = 10 with neural \(seed 1\) cancelled after \d+ steps, [\d.]+ s\.\n$/);
      expect(process.listeners('SIGINT').filter((l) => !before.has(l))).toEqual([]);
    }, 30_000);
  }
});
