// The application layer's dice runs: one planner for the CLI, the API and the benchmarks.
import { describe, expect, it } from 'vitest';
import { chooseSolver, hvNormalisationFor, planDiceRun, withHvNormalisation } from '../../../src-main/app/dice.ts';
import { planRun } from '../../../src-main/app/runs.ts';
import { MemoryLimitError, memoryRefusal } from '../../../src-shared/solvers/memory.ts';
import { diceHvNormalisation } from '../../../src-shared/problems/dice/hv-reference.ts';
import { diceConfig, trackConfig } from '../../../src-shared/problems/dice/config.ts';
import { createDiceProblem } from '../../../src-shared/problems/dice/problem.ts';
import { randomDiceConfig } from '../../../src-shared/problems/dice/random-config.ts';
import { executeRunSync } from '../../../src-shared/runtime/kinds/index.ts';

describe('planning a dice run', () => {
  it('chooses the strongest solver for the track and says when a named one does not fit', () => {
    expect(chooseSolver(createDiceProblem(trackConfig('so', 30))).name).toBe('barrier-ls');
    expect(chooseSolver(createDiceProblem(trackConfig('mo5', 30))).name).toBe('barrier-mo');
    expect(() => chooseSolver(createDiceProblem(trackConfig('so', 30)), 'nsga3')).toThrow('solver nsga3 is multi-objective; this problem has one objective');
    expect(() => chooseSolver(createDiceProblem(trackConfig('mo2', 30)), 'tabu')).toThrow('solver tabu is single-objective; this problem has 2 objectives');
  });

  it('applies the stopping policy and fills every parameter, showing sizes the setup derives', () => {
    const so = planDiceRun({ config: trackConfig('so', 30), seed: 4, evaluations: 900 });
    expect(so.request).toMatchObject({ kind: 'dice', solver: 'barrier-ls', seed: 4, termination: { maxEvaluations: 900, target: 0 } });
    expect(so.request.hvNormalisation).toBeUndefined();
    expect(so.started).toMatchObject({ target: 0, hvNormalisation: null, title: 'barrier-ls on SO, N = 30, seed 4', track: 'so' });
    const whole = planDiceRun({ config: trackConfig('so', 30), seed: 4, evaluations: 900, wholeBudget: true });
    expect(whole.request.termination).toEqual({ maxEvaluations: 900 });
    expect(whole.started.target).toBeNull();
    const nsga3 = planDiceRun({ config: trackConfig('mo3', 30), solver: 'nsga3', seed: 1, evaluations: 900 });
    // The request keeps what was asked (0 = automatic); RunStarted shows what is used.
    expect(nsga3.request.params).toMatchObject({ populationSize: 0, divisions: 0 });
    expect(nsga3.started.params).toMatchObject({ populationSize: 92, divisions: 12 });
    expect(nsga3.request.termination).toEqual({ maxEvaluations: 900 });
    expect(nsga3.started.title).toBe('nsga3 on M = 3, N = 30, seed 1');
    const custom = planDiceRun({ config: diceConfig({ n: 30, objectives: [[1, 2], [3]] }), seed: 1, evaluations: 100 });
    expect(custom.started.title).toBe('barrier-mo on 2 custom objectives, N = 30, seed 1');
    expect(() => planDiceRun({ config: trackConfig('mo3', 30), solver: 'nsga3', params: { populationSize: 2 }, seed: 1, evaluations: 10 })).toThrow(
      'solver nsga3: parameter populationSize must be 0 (automatic) or at least 4, got 2',
    );
  });

  it('marks a blind run in its request, and the run it becomes gives the solver the blind problem', () => {
    const config = randomDiceConfig(2, 'so', 60);
    const blind = planDiceRun({ config, seed: 3, evaluations: 3000, wholeBudget: true, blind: true });
    const sighted = planDiceRun({ config, seed: 3, evaluations: 3000, wholeBudget: true });
    expect(blind.request.blind).toBe(true);
    expect('blind' in sighted.request).toBe(false);
    // barrier-ls aims with the bands: blind, it aims with what it learns, so the runs differ.
    const a = executeRunSync(blind.request);
    const b = executeRunSync(sighted.request);
    expect(a.evaluations).toBe(3000);
    expect(b.evaluations).toBe(3000);
    expect(a.best!.x).not.toBe(b.best!.x);
    expect(executeRunSync(blind.request)).toMatchObject({ best: a.best, evaluations: 3000 });
  });

  it('takes the HV normalisation from a launcher (a worker computes it), once per config; never computes it itself', async () => {
    const config = trackConfig('mo2', 400);
    const norm = diceHvNormalisation(config);
    const asked: AbortSignal[] = [];
    let finish!: () => void;
    const launcher = {
      computeHvNormalisation: (_c: typeof config, signal?: AbortSignal) => {
        asked.push(signal!);
        return new Promise<typeof norm>((resolve, reject) => {
          finish = () => resolve(norm);
          signal?.addEventListener('abort', () => reject(signal.reason));
        });
      },
    };
    const both = Promise.all([hvNormalisationFor(launcher, config), hvNormalisationFor(launcher, config)]);
    finish();
    const [a, b] = await both;
    expect(a).toBe(norm);
    expect(b).toBe(a);
    expect(await hvNormalisationFor(launcher, config)).toBe(a);
    expect(asked).toHaveLength(1);
    // A plan without one carries none (the run's worker computes the same); with one, both parts carry it.
    const plan = planDiceRun({ config, seed: 1, evaluations: 10 });
    expect([plan.request.hvNormalisation, plan.started.hvNormalisation]).toEqual([undefined, null]);
    const given = withHvNormalisation(plan, a);
    expect([given.request.hvNormalisation, given.started.hvNormalisation]).toEqual([a, a]);
    expect(planDiceRun({ config, seed: 1, evaluations: 10 }, { hvNormalisation: a }).request.hvNormalisation).toBe(a);
  });

  it('stops the computation when every caller has gone, not before', async () => {
    const config = trackConfig('mo3', 50);
    const asked: AbortSignal[] = [];
    const launcher = { computeHvNormalisation: (_c: typeof config, signal?: AbortSignal) => (asked.push(signal!), new Promise<never>(() => {})) };
    const first = new AbortController();
    const second = new AbortController();
    const waits = [hvNormalisationFor(launcher, config, first.signal), hvNormalisationFor(launcher, config, second.signal)];
    first.abort(new Error('first gone'));
    await expect(waits[0]).rejects.toThrow('first gone');
    expect(asked).toHaveLength(1);
    expect(asked[0].aborted).toBe(false);
    second.abort(new Error('second gone'));
    await expect(waits[1]).rejects.toThrow('second gone');
    expect(asked[0].aborted).toBe(true);
    // Nothing half-done is remembered: the next call asks again.
    void hvNormalisationFor(launcher, config).catch(() => {});
    expect(asked).toHaveLength(2);
  });
});

describe('settings that cannot fit in the worker memory limit', () => {
  it('planDiceRun refuses them against the limit the worker will have, naming it', () => {
    const input = { config: trackConfig('so', 1_000_000), solver: 'ga', params: { populationSize: 100000 }, seed: 1, evaluations: 10 };
    expect(() => planDiceRun({ ...input, workerMemoryLimitMb: 4096 })).toThrow(
      new MemoryLimitError(memoryRefusal({ solver: 'ga', params: { ...planDiceRun(input).request.params }, n: 1_000_000, objectiveCount: 1 }, 4096)!),
    );
    expect(() => planDiceRun({ ...input, workerMemoryLimitMb: 4096 })).toThrow(/^ga at N = 1,000,000 needs about 190,\d{3} MB .*memory limit of 4,096 MB$/);
    // The run's own limit wins; no limit at all lets anything through.
    expect(() => planDiceRun({ ...input, memoryLimitMb: 64, params: {}, workerMemoryLimitMb: 100_000 })).toThrow(/memory limit of 64 MB$/);
    expect(planDiceRun({ ...input, workerMemoryLimitMb: null }).request.params.populationSize).toBe(100000);
  });

  it("the app's startRun refuses them as a bad params field, against its host's limit", async () => {
    const start = { config: { n: 1_000_000 }, solver: 'ga', params: { populationSize: 100000 }, seed: 1, evaluations: 10 };
    await expect(planRun(start, { memoryLimitMb: 4096 })).rejects.toMatchObject({
      name: 'RunRequestError',
      field: 'params',
      message: expect.stringMatching(/^params: ga at N = 1,000,000 needs about .* limit of 4,096 MB$/),
    });
    await expect(planRun({ ...start, params: { populationSize: 100 } }, { memoryLimitMb: 4096 })).resolves.toMatchObject({ kind: 'dice' });
  });
});
