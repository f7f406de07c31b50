// A multi-objective startRun does no heavy work in the main process (issue 21: M = 2 at
// N = 300,000 took 258 s to answer and held up every other request): the HV normalisation's
// 1000 random sequences are computed in a worker process, with exactly the numbers the main
// side computed before; other calls are answered while it runs; a call whose client has gone
// launches nothing.
import { afterAll, describe, expect, it, vi } from 'vitest';
import type * as HvReference from '../../../src-shared/metrics/hv-reference.ts';
import { trackConfig } from '../../../src-shared/problems/dice/config.ts';
import { withRequestSignal } from '../../../src-main/api/request-context.ts';
import { hvNormalisationFor } from '../../../src-main/app/dice.ts';
import { planRun } from '../../../src-main/app/runs.ts';
import { apiHarness, within } from './harness.ts';

// Counts every call of the normalisation in this (the main) process; workers are other processes.
const calls = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../../src-shared/metrics/hv-reference.ts', async (importOriginal) => {
  const real = await importOriginal<typeof HvReference>();
  return {
    ...real,
    diceHvNormalisation: (...args: Parameters<typeof real.diceHvNormalisation>) => {
      calls.count++;
      return real.diceHvNormalisation(...args);
    },
    diceHvNormalisationSteps: (...args: Parameters<typeof real.diceHvNormalisationSteps>) => {
      calls.count++;
      return real.diceHvNormalisationSteps(...args);
    },
  };
});

const harness = apiHarness(1);
afterAll(() => harness.dispose());

/** The normalisation as the main side computed it before (the real function, not counted). */
async function expected(config: ReturnType<typeof trackConfig>) {
  const real = await vi.importActual<typeof HvReference>('../../../src-shared/metrics/hv-reference.ts');
  return real.diceHvNormalisation(config);
}

describe('the normalisation of a multi-objective run', () => {
  it('is computed in a worker, with exactly the numbers of diceHvNormalisation, once per config', async () => {
    calls.count = 0;
    for (const config of [trackConfig('mo2', 840), trackConfig('mo3', 120), trackConfig('mo7', 30)]) {
      const [a, b] = await within(Promise.all([hvNormalisationFor(harness.launcher, config), hvNormalisationFor(harness.launcher, config)]), 60_000, 'normalisation');
      expect(a).toEqual(await expected(config));
      expect(b).toBe(a);
      expect(await hvNormalisationFor(harness.launcher, config)).toBe(a);
    }
    expect(calls.count).toBe(0);
  });

  it('startRun and planRun never compute it in this process; the run reports the same numbers', async () => {
    calls.count = 0;
    const config = { n: 2520, objectives: trackConfig('mo2', 2520).objectives };
    const started = await within(harness.api.startRun({ config, solver: 'random', seed: 3, evaluations: 200 }), 60_000, 'startRun');
    expect(started.kind === 'dice' && started.hvNormalisation).toEqual(await expected(trackConfig('mo2', 2520)));
    const plan = await planRun({ config: { n: 600, objectives: trackConfig('mo3', 600).objectives }, solver: 'random', seed: 1, evaluations: 10 }, { launcher: harness.launcher });
    expect(plan.kind === 'dice' && plan.request.hvNormalisation).toEqual(await expected(trackConfig('mo3', 600)));
    expect(calls.count).toBe(0);
  });

  it('other calls are answered while a run is being planned', async () => {
    const order: string[] = [];
    const config = { n: 27_720, objectives: trackConfig('mo2', 27_720).objectives };
    const start = harness.api.startRun({ config, solver: 'random', seed: 5, evaluations: 100 }).then(() => order.push('startRun'));
    // Asked after startRun, answered before it: the main process is free while the worker computes.
    const others = Promise.all([harness.api.listRuns().then(() => order.push('listRuns')), harness.api.getAppInfo().then(() => order.push('getAppInfo'))]);
    await within(Promise.all([start, others]), 120_000, 'calls');
    expect(order).toEqual(['listRuns', 'getAppInfo', 'startRun']);
  });

  it('a startRun whose client has gone launches nothing, and leaves nothing half-computed behind', async () => {
    const before = (await harness.api.listRuns()).length;
    const gone = new AbortController();
    const config = { n: 20_000, objectives: trackConfig('mo3', 20_000).objectives };
    const start = withRequestSignal(gone.signal, () => harness.api.startRun({ config, solver: 'random', seed: 9, evaluations: 100 }));
    setTimeout(() => gone.abort(new Error('the client has gone')), 50);
    await expect(within(start, 60_000, 'startRun')).rejects.toThrow('the client has gone');
    expect(await harness.api.listRuns()).toHaveLength(before);
    // Nothing was remembered for that config: a later call computes it afresh (and gets the real numbers).
    calls.count = 0;
    expect(await within(hvNormalisationFor(harness.launcher, trackConfig('mo3', 20_000)), 120_000, 'again')).toEqual(await expected(trackConfig('mo3', 20_000)));
    expect(calls.count).toBe(0);
  });
});
