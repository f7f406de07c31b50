// @vitest-environment happy-dom
// The project store's sessions: the answer to runExperiment ("queued") can arrive after the
// session's own events ("running", progress); it must not put the session back in the queue.
import { describe, expect, it } from 'vitest';
import { createApp } from 'vue';
import { createPinia, setActivePinia } from 'pinia';
import { provideApi } from '../../../src-renderer/api/index.ts';
import { isBehind, useProjectStore } from '../../../src-renderer/stores/project.ts';
import type { ExperimentSession, SaikoroApi } from '../../../src-shared/api.ts';

const session = (fields: Partial<ExperimentSession>): ExperimentSession => ({
  experiment: 'e',
  status: 'queued',
  jobs: 1,
  todo: 3,
  finished: 0,
  failed: 0,
  running: [],
  paused: 0,
  progress: 0,
  etaMs: null,
  startedAt: '2026-01-01T00:00:00.000Z',
  finishedAt: null,
  error: null,
  ...fields,
});

describe('project store sessions', () => {
  it('an answer its own events overtook does not turn a running session back to queued', async () => {
    let emit: (s: ExperimentSession) => void = () => {};
    const api = {
      getProject: async () => ({ path: 'p.saikoro', name: 'p', experiments: [], notes: [], labRuns: [] }),
      listProjectFiles: async () => [],
      onProjectChanged: () => () => {},
      onExperimentSession: (l: (s: ExperimentSession) => void) => ((emit = l), () => {}),
      // The main side queues the session, starts it and sends its events before the answer arrives.
      runExperiment: async () => {
        emit(session({ status: 'running', progress: 0.2, running: ['run-1'] }));
        return session({ status: 'queued' });
      },
    } as unknown as SaikoroApi;
    const app = createApp({ render: () => null });
    provideApi(app, api);
    const pinia = createPinia();
    app.use(pinia);
    setActivePinia(pinia);
    const store = app.runWithContext(() => useProjectStore());
    await store.refresh();
    await store.runExperiment('e');
    expect(store.sessions.get('e')).toMatchObject({ status: 'running', progress: 0.2 });
    expect(store.activeSessions.map((s) => s.status)).toEqual(['running']);
  });

  it('a session only moves forward: stage, then runs finished and progress; a newer session wins', () => {
    const running = session({ status: 'running', progress: 0.5 });
    expect(isBehind(session({ status: 'queued' }), running)).toBe(true);
    expect(isBehind(session({ status: 'running', progress: 0.4 }), running)).toBe(true);
    expect(isBehind(session({ status: 'running', finished: 1, progress: 0.4 }), running)).toBe(false);
    expect(isBehind(session({ status: 'stopping', progress: 0.5 }), running)).toBe(false);
    expect(isBehind(session({ status: 'cancelled', progress: 0.5 }), session({ status: 'stopping', progress: 0.5 }))).toBe(false);
    expect(isBehind(running, session({ status: 'cancelled' }))).toBe(true);
    expect(isBehind(session({ status: 'queued', startedAt: '2026-01-01T00:01:00.000Z' }), session({ status: 'done', finished: 3 }))).toBe(false);
  });
});
