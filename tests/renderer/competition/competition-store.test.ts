// @vitest-environment happy-dom
// The competition store: the standings are computed again only when runs were stored since
// they were computed; while the competition's sessions run, at most every
// STANDINGS_WHILE_RUNNING_MS (the main side scores every stored run each time), and at once
// once no session goes.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createApp, nextTick } from 'vue';
import { createPinia, setActivePinia } from 'pinia';
import { provideApi } from '../../../src-renderer/api/index.ts';
import { STANDINGS_WHILE_RUNNING_MS, useCompetitionStore } from '../../../src-renderer/stores/competition.ts';
import type { CompetitionOverview, CompetitionStandings, ExperimentSession } from '../../../src-shared/api.ts';
import { fakeRunApi } from '../fake-run-api.ts';

const session = (status: ExperimentSession['status']): ExperimentSession => ({
  experiment: 'so',
  status,
  jobs: 1,
  todo: 4,
  finished: 0,
  failed: 0,
  running: [],
  paused: 0,
  progress: 0,
  etaMs: null,
  startedAt: '2026-12-06T12:00:00.000Z',
  finishedAt: null,
  error: null,
});
let done = 0;
let status: ExperimentSession['status'] | null = null;
let standingsCalls = 0;

function overview(): CompetitionOverview {
  return {
    file: 'c.saikoro',
    definition: { tracks: ['so'], ns: [48], instances: 1, withPublic: false, evaluations: 100, seeds: 4 },
    revealed: false,
    revealedAt: null,
    createdAt: '',
    problems: [{ id: 'so-n48-i1', track: 'so', n: 48, instance: 1, hidden: true }],
    entrants: [{ name: 'a', kind: 'built-in', what: 'random', createdAt: '' }],
    progress: [{ entrant: 'a', track: 'so', total: 4, done, failed: 0, running: 0, left: 4 - done }],
    totals: { total: 4, done, failed: 0, running: 0, left: 4 - done },
    sandboxRefusal: null,
    readOnly: false,
    sessions: status ? { so: session(status) } : {},
  };
}
function standings(): CompetitionStandings {
  standingsCalls++;
  return {
    file: 'c.saikoro',
    runs: { total: 4, done, failed: 0, missing: 4 - done },
    standings: [{ entrant: 'a', rank: 1, score: 1, tracks: { so: 1 }, problems: {} }],
  } as unknown as CompetitionStandings;
}

const settle = async () => {
  for (let i = 0; i < 5; i++) {
    await Promise.resolve();
    await nextTick();
  }
};

beforeEach(() => {
  done = 0;
  status = null;
  standingsCalls = 0;
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the competition store', () => {
  it('computes the standings when runs were stored, at most every few seconds while sessions run, at once when they end', async () => {
    const env = fakeRunApi({ getCompetition: async () => overview(), getCompetitionStandings: async () => standings() });
    const app = createApp({ render: () => null });
    provideApi(app, env.api);
    const pinia = createPinia();
    app.use(pinia);
    setActivePinia(pinia);
    const store = app.runWithContext(() => useCompetitionStore());
    await store.refresh();
    await settle();
    const first = standingsCalls;
    expect(first).toBeGreaterThanOrEqual(1);
    expect(store.standings?.runs.done).toBe(0);
    // Nothing stored since: not computed again.
    await store.refresh();
    expect(standingsCalls).toBe(first);

    // A session runs and stores runs: computed (the last computation is long ago), then held
    // back until the interval has passed.
    vi.advanceTimersByTime(STANDINGS_WHILE_RUNNING_MS);
    status = 'running';
    done = 1;
    await store.refresh();
    await settle();
    expect(store.active).toBe(true);
    expect(standingsCalls).toBe(first + 1);
    done = 2;
    await store.refresh();
    expect(standingsCalls).toBe(first + 1);
    expect(store.standings?.runs.done).toBe(1);
    vi.advanceTimersByTime(STANDINGS_WHILE_RUNNING_MS);
    await settle();
    expect(standingsCalls).toBe(first + 2);
    expect(store.standings?.runs.done).toBe(2);

    // The session ends: at once.
    done = 4;
    status = 'done';
    await store.refresh();
    await settle();
    expect(store.active).toBe(false);
    expect(store.standings?.runs.done).toBe(4);
    app.unmount?.();
  });
});
