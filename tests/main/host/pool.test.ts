// The solver host with real worker processes (child_process.fork through tsx): failures end
// one run with a reason while the others finish, pause / resume / cancel, and results that are
// bit-identical to the in-process driver for the same seed.
import { afterEach, describe, expect, it } from 'vitest';
import { hasEnded, isAlive } from '../processes.ts';
import { SolverHost, type HostRun } from '../../../src-main/host/pool.ts';
import type { DiceRunRequest } from '../../../src-shared/runtime/kinds/index.ts';
import { executeRunSync } from '../../../src-shared/runtime/kinds/index.ts';
import { snapshotWhere, statusBecomes } from './helpers.ts';
import { nodeSpawner } from '../../../src-main/host/spawner.ts';
import { trackConfig, type TrackName } from '../../../src-shared/problems/dice/config.ts';
import { evaluateDice } from '../../../src-shared/problems/dice/evaluate.ts';
import { diceHvNormalisation, normalisedHypervolume } from '../../../src-shared/problems/dice/hv-reference.ts';
import { solvers } from '../../../src-shared/solvers/registry.ts';
import type { Snapshot as RunSnapshot, SolverResult } from '../../../src-shared/solvers/types.ts';

let host: SolverHost | null = null;
afterEach(() => {
  host?.dispose();
  host = null;
});

function newHost(options: Partial<ConstructorParameters<typeof SolverHost>[0]> = {}): SolverHost {
  host = new SolverHost({ spawn: nodeSpawner(), parallelism: 2, ...options });
  return host;
}

function request(seed: number, maxEvaluations: number, extra: Partial<DiceRunRequest> = {}): DiceRunRequest {
  return { kind: 'dice', solver: 'random', params: {}, seed, config: trackConfig('so', 50), termination: { maxEvaluations }, ...extra };
}

/** Everything but wall-clock times, which differ between any two runs. */
function withoutTimes(result: SolverResult) {
  return { ...result, seconds: 0, trace: result.trace.map((p) => ({ ...p, seconds: 0 })) };
}

describe('solver host with worker processes', () => {
  it('a worker killed mid-run fails that run with the reason; the other runs finish', async () => {
    const h = newHost();
    const doomed = h.start(request(1, 50_000_000));
    const survivor = h.start(request(2, 3000));
    const queued = h.start(request(3, 2000)); // waits for a free worker (parallelism 2)
    expect(queued.status).toBe('queued');
    expect(h.workerCount).toBe(2);

    const seen = await snapshotWhere(doomed, (s) => s.evaluations > 0);
    expect(seen.evaluations).toBeLessThan(50_000_000);
    const pid = doomed.pid!;
    expect(isAlive(pid)).toBe(true);
    process.kill(pid, 'SIGKILL');

    const [d, s, q] = await Promise.all([doomed.outcome, survivor.outcome, queued.outcome]);
    expect(d).toEqual({ status: 'failed', result: null, reason: 'the worker was killed (SIGKILL)' });
    expect(doomed.status).toBe('failed');
    expect(s.status).toBe('done');
    expect(s.result!.evaluations).toBe(3000);
    expect(q.status).toBe('done');
    expect(q.result!.evaluations).toBe(2000);
    expect(h.workerCount).toBeLessThanOrEqual(2);
  });

  it('pauses, resumes and cancels a run; the cancelled run returns what it found so far', async () => {
    const h = newHost();
    const run = h.start(request(7, 50_000_000, { snapshotIntervalMs: 50 }));
    await snapshotWhere(run, (s) => s.evaluations > 0);

    run.pause();
    const paused = await snapshotWhere(run, (s) => s.paused);
    await statusBecomes(run, 'paused');

    run.resume();
    await statusBecomes(run, 'running');
    const resumed = await snapshotWhere(run, (s) => s.evaluations > paused.evaluations);
    expect(resumed.paused).toBe(false);

    // Paused again and cancelled while paused: the result holds exactly the paused snapshot's
    // count, so no step ran between the pause and the cancel (no waiting window of the test's own).
    run.pause();
    const again = await snapshotWhere(run, (s) => s.paused && s.evaluations >= resumed.evaluations);
    await statusBecomes(run, 'paused');
    run.cancel();
    const outcome = await run.outcome;
    expect(outcome.status).toBe('cancelled');
    expect(outcome.result!.stopReason).toBe('cancelled');
    expect(outcome.result!.evaluations).toBe(again.evaluations);
    expect(outcome.result!.evaluations).toBeLessThan(50_000_000);
    expect(outcome.result!.best).not.toBeNull();
  });

  it('sends about 5 snapshots per second carrying evaluations, time, progress, best or front, and feasibility', async () => {
    const h = newHost();
    const so = h.start({ ...request(3, 4000), config: trackConfig('so', 840) });
    const mo = h.start({ ...request(3, 4000), config: trackConfig('mo2', 840) });
    const seen = new Map<HostRun<DiceRunRequest>, RunSnapshot[]>([
      [so, []],
      [mo, []],
    ]);
    for (const [run, list] of seen) run.onSnapshot((s) => list.push(s));
    const [a, b] = await Promise.all([so.outcome, mo.outcome]);
    expect([a.status, b.status]).toEqual(['done', 'done']);
    for (const [run, list] of seen) {
      const final = list[list.length - 1];
      expect(list.length).toBeGreaterThanOrEqual(2);
      expect(final.evaluations).toBe(4000);
      expect(final.progress).toBe(1);
      // Throttled by the worker's clock: at least 200 ms between snapshots (the last one, sent at
      // the end, is not throttled).
      for (let k = 1; k < list.length - 1; k++) expect(list[k].seconds - list[k - 1].seconds).toBeGreaterThanOrEqual(0.2 - 1e-9);
      for (let k = 1; k < list.length; k++) {
        expect(list[k].evaluations).toBeGreaterThanOrEqual(list[k - 1].evaluations);
        expect(list[k].progress).toBeGreaterThanOrEqual(list[k - 1].progress);
      }
      const result = (await run.outcome).result!;
      if (run === so) {
        expect(final.best!.x).toBe(result.best!.x);
        expect(final.best!.objectives).toEqual(result.best!.objectives);
        expect(final.feasibleFound).toBe(result.firstFeasibleAt !== null);
        expect(final.front).toEqual([]);
      } else {
        expect(final.front).toEqual(expect.arrayContaining(result.front.map((s) => s.objectives)));
        expect(final.front).toHaveLength(result.front.length);
        expect(final.feasibleFound).toBe(result.front.length > 0);
      }
    }
  });

  it('cancels a run whose worker is still loading without killing it: the run stops at its first step', async () => {
    const h = newHost({ parallelism: 1, cancelGraceMs: 1000 });
    const run = h.start(request(9, 50_000_000));
    expect(run.status).toBe('running');
    run.cancel(); // the worker has not loaded yet; the grace period starts when it is ready
    const outcome = await run.outcome;
    expect(outcome.status).toBe('cancelled');
    expect(outcome.reason).toBe('cancelled');
    expect(outcome.result!.stopReason).toBe('cancelled');
    expect(outcome.result!.evaluations).toBeLessThan(50_000_000);
    expect(h.workerCount).toBe(1); // not killed: it finished the run and is idle
  });

  it('cancels and pauses queued runs without starting them', async () => {
    const h = newHost({ parallelism: 1 });
    const first = h.start(request(1, 4000));
    const cancelled = h.start(request(2, 4000));
    const held = h.start(request(3, 1000));
    cancelled.cancel();
    held.pause();
    expect(held.status).toBe('paused');
    expect(await cancelled.outcome).toEqual({ status: 'cancelled', result: null, reason: 'cancelled' });
    expect((await first.outcome).status).toBe('done');
    // The paused queued run does not start until resumed: a run queued after it gets the one
    // worker and ends while it waits (an event, not a pause of the test's own).
    const after = h.start(request(4, 500));
    expect((await after.outcome).status).toBe('done');
    expect(held.status).toBe('paused');
    held.resume();
    const o = await held.outcome;
    expect(o.status).toBe('done');
    expect(o.result!.evaluations).toBe(1000);
    expect(h.workerCount).toBe(1); // the worker was reused
  });

  it('a run over its memory limit fails with the reason; the other run finishes', async () => {
    const h = newHost();
    // A worker's resident memory is far above 8 MB from the start, so the watchdog fires.
    const over = h.start(request(1, 50_000_000, { memoryLimitMb: 8 }));
    const fine = h.start(request(2, 2000));
    const [o, f] = await Promise.all([over.outcome, fine.outcome]);
    expect(o.status).toBe('failed');
    expect(o.reason).toMatch(/^memory limit exceeded: the worker used \d+ MB, the limit is 8 MB$/);
    expect(f.status).toBe('done');
    expect(f.result!.evaluations).toBe(2000);
  });

  it('a run with bad parameters fails with the parameter named, and the worker stays usable', async () => {
    const h = newHost({ parallelism: 1 });
    const bad = await h.start(request(1, 1000, { params: { batch: 0 } })).outcome;
    expect(bad.status).toBe('failed');
    expect(bad.reason).toBe('solver random: parameter batch must be >= 1 and <= 100000, got 0');
    const unknown = await h.start(request(1, 1000, { solver: 'no-such-solver' })).outcome;
    expect(unknown.reason).toMatch(/^unknown solver "no-such-solver" \(known: .*random/);
    const good = await h.start(request(1, 1000)).outcome;
    expect(good.status).toBe('done');
    expect(h.workerCount).toBe(1);
  });

  it('dispose ends every worker process and cancels unfinished runs', async () => {
    const h = newHost();
    const a = h.start(request(1, 50_000_000));
    const b = h.start(request(2, 50_000_000));
    const c = h.start(request(3, 1000));
    await Promise.all([snapshotWhere(a, () => true), snapshotWhere(b, () => true)]);
    const pids = [a.pid!, b.pid!];
    h.dispose();
    for (const run of [a, b, c]) expect((await run.outcome).status).toBe('cancelled');
    expect((await c.outcome).reason).toBe('the solver host shut down');
    for (const pid of pids) expect(await hasEnded(pid)).toBe(true);
    expect(() => h.start(request(4, 10))).toThrow(/disposed/);
  });

  it('gives, for every solver, the same result in a worker as in-process for the same seed', async () => {
    const h = newHost();
    const cases: { track: TrackName; solver: string }[] = [];
    for (const s of solvers) {
      if (s.objectives !== 'multi') cases.push({ track: 'so', solver: s.name });
      if (s.objectives !== 'single') cases.push({ track: 'mo2', solver: s.name });
    }
    const budget = 1500;
    const requests = cases.map(
      ({ track, solver }): DiceRunRequest => ({
        kind: 'dice',
        solver,
        params: {},
        seed: 20201,
        config: trackConfig(track, 60),
        termination: { maxEvaluations: budget },
      }),
    );
    const outcomes = await h.runAll(requests);
    outcomes.forEach((o, i) => {
      expect(o.status, `${cases[i].solver} on ${cases[i].track}: ${o.reason}`).toBe('done');
      const r = requests[i];
      const local = executeRunSync(r);
      const [inWorker, inProcess] = [withoutTimes(o.result!), withoutTimes(local)];
      for (const key of Object.keys(inProcess) as (keyof typeof inProcess)[])
        expect(inWorker[key], `${r.solver} on ${cases[i].track}: ${key}`).toEqual(inProcess[key]);
      expect(inWorker).toEqual(inProcess);
      // M = 2: the trace records the hypervolume of the feasible front, which never decreases.
      if (cases[i].track === 'mo2' && o.result!.front.length) {
        const hv = o.result!.trace.filter((p) => p.indicator !== null).map((p) => p.indicator!);
        expect(hv.length).toBeGreaterThan(0);
        hv.slice(1).forEach((v, k) => expect(v).toBeGreaterThanOrEqual(hv[k]));
        const norm = diceHvNormalisation(r.config);
        expect(hv[hv.length - 1]).toBeCloseTo(
          normalisedHypervolume(
            o.result!.front.map((s) => s.objectives),
            norm,
          ),
          12,
        );
      }
      // The reported values are the full evaluation of x, as `saikoro eval` gives them.
      for (const s of [o.result!.best, ...o.result!.front]) {
        if (!s) continue;
        const full = evaluateDice(s.x, r.config);
        expect(s.objectives).toEqual(full.objectives);
        expect(s.constraints).toEqual(full.constraints);
        expect(s.feasible).toBe(full.feasible);
      }
    });
  });
});
