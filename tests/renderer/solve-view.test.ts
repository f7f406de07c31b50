// @vitest-environment happy-dom
// The Solve view shows the HV normalisation (ideal, nadir, reference point) next to the
// hypervolume chart of a multi-objective run (issue 4: "shown wherever HV appears").
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApp, nextTick, type App as VueApp } from 'vue';
import { createPinia, setActivePinia } from 'pinia';
import SolveView from '../../src-renderer/views/solve/SolveView.vue';
import { provideApi } from '../../src-renderer/api/index.ts';
import { useRunsStore } from '../../src-renderer/stores/runs.ts';
import type { RunFinishedEvent, RunSnapshotEvent, SaikoroApi, StartRunRequest } from '../../src-shared/api.ts';
import { diceHvNormalisation, formatHvNormalisation } from '../../src-shared/metrics/hv-reference.ts';
import { trackConfig } from '../../src-shared/problems/dice/config.ts';

/** A solver host that accepts every run and lets the test send its events. */
function fakeApi() {
  const snapshotListeners = new Set<(e: RunSnapshotEvent) => void>();
  const finishedListeners = new Set<(e: RunFinishedEvent) => void>();
  const requests: StartRunRequest[] = [];
  const api = {
    listSolvers: async () => [],
    startRun: async (request: StartRunRequest) => {
      requests.push(request);
      return { runId: `r${requests.length}`, solver: 'nsga2', params: {}, objectiveCount: request.config.objectives!.length };
    },
    pauseRun: async () => undefined,
    cancelRun: async () => undefined,
    onRunSnapshot: (l: (e: RunSnapshotEvent) => void) => (snapshotListeners.add(l), () => snapshotListeners.delete(l)),
    onRunFinished: (l: (e: RunFinishedEvent) => void) => (finishedListeners.add(l), () => finishedListeners.delete(l)),
  } as unknown as SaikoroApi;
  return { api, requests, snapshot: (e: RunSnapshotEvent) => snapshotListeners.forEach((l) => l(e)) };
}

const caption = () => document.querySelector('[data-testid="hv-normalisation"]');

let app: VueApp;
let env: ReturnType<typeof fakeApi>;
let runs: ReturnType<typeof useRunsStore>;

beforeEach(() => {
  document.body.innerHTML = '<div id="app"></div>';
  env = fakeApi();
  app = createApp(SolveView);
  provideApi(app, env.api);
  const pinia = createPinia();
  app.use(pinia);
  setActivePinia(pinia);
  app.mount('#app');
  runs = app.runWithContext(() => useRunsStore());
});
afterEach(() => app.unmount());

async function startRun(track: 'so' | 'mo2' | 'mo3' | 'mo7', n: number) {
  runs.track = track;
  runs.n = n;
  await runs.start();
  await nextTick();
}

describe('Solve view: HV normalisation caption', () => {
  it('a mo2 run shows ideal, nadir and reference point under the hypervolume chart', async () => {
    expect(caption()).toBeNull();
    await startRun('mo2', 840);
    // diceHvNormalisation(mo2, N = 840): nadir = medians of 1000 random sequences (seed 2020),
    // 539.2857... and 940.5, shown to 4 significant digits.
    expect(caption()?.textContent?.trim()).toBe('HV normalised: ideal (0, 0), nadir (539.3, 940.5), reference (1.1, 1.1)');
    const norm = diceHvNormalisation(trackConfig('mo2', 840));
    expect(caption()?.textContent?.trim()).toBe(`HV normalised: ${formatHvNormalisation(norm)}`);
    expect(caption()?.getAttribute('title')).toBe(norm.method);
    expect(caption()?.closest('section')?.querySelector('.card-title')?.textContent).toContain('normalised hypervolume');

    // It stays with the chart once snapshots arrive.
    env.snapshot({ runId: 'r1', snapshot: { evaluations: 100, seconds: 0.1, progress: 0.1, paused: false, feasibleFound: true, best: null, front: [[300, 500], [500, 300]] } });
    await nextTick();
    expect(runs.points[0].value).toBeGreaterThan(0);
    expect(caption()?.textContent?.trim()).toBe('HV normalised: ideal (0, 0), nadir (539.3, 940.5), reference (1.1, 1.1)');
  });

  it('a mo3 run shows three coordinates, an M = 7 run (HV from the final trace) seven; a single-objective run none', async () => {
    await startRun('mo3', 100);
    // diceHvNormalisation(mo3, N = 100): nadir (15.48, 51, 60).
    expect(caption()?.textContent?.trim()).toBe('HV normalised: ideal (0, 0, 0), nadir (15.48, 51, 60), reference (1.1, 1.1, 1.1)');
    runs.phase = 'done';
    await startRun('so', 50);
    expect(caption()).toBeNull();
    runs.phase = 'done';
    // M = 7: the hypervolume comes with the final trace (at doublings), under this normalisation.
    await startRun('mo7', 50);
    expect(caption()?.textContent?.trim()).toBe('HV normalised: ideal (0, 0, 0, 0, 0, 0, 0), nadir (3.6, 4.8, 5, 1, 4, 12, 12), reference (1.1, 1.1, 1.1, 1.1, 1.1, 1.1, 1.1)');
  });
});
