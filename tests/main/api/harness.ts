// The app's API with a real solver host (worker processes), and a way to follow one run's
// events: what the API run tests of every kind share.
import type { RunFinishedEvent, RunSnapshotEvent } from '../../../src-shared/api.ts';
import { createAppCore } from '../../../src-main/api/core.ts';
import { workspacePaths } from '../../../src-main/app/project-paths.ts';
import { nodeSpawner } from '../../../src-main/host/spawner.ts';
import type { ProgramPolicy } from '../../../src-main/app/program-policy.ts';

export function apiHarness(parallelism = 1, options: { workspace?: string; programs?: ProgramPolicy } = {}) {
  // The app wired as the desktop and the web server wire it.
  const core = createAppCore({
    appInfo: { name: 'saikoro', version: '0', platform: 'test', runtime: 'web' },
    spawn: nodeSpawner(),
    parallelism,
    paths: options.workspace ? workspacePaths(options.workspace) : null,
    ...(options.programs ? { programs: options.programs } : {}),
  });
  const { events, launcher, runs, api } = core;
  const projects = core.projects ?? undefined;

  /** Collects one run's events (its id known once started) until it finishes. */
  function follow<K extends RunSnapshotEvent['kind']>(runId: () => string | undefined) {
    type Snap = Extract<RunSnapshotEvent, { kind: K }>;
    type End = Extract<RunFinishedEvent, { kind: K }>;
    const snapshots: Snap[] = [];
    const waiters: { accept: (e: Snap) => boolean; resolve: (e: Snap) => void }[] = [];
    const finished = new Promise<End>((resolve) => {
      const detach = events.attach((m) => {
        const payload = m.payload as { runId?: string };
        if (!payload || payload.runId !== runId()) return;
        if (m.event === 'onRunSnapshot') {
          const e = payload as Snap;
          snapshots.push(e);
          for (const w of waiters.splice(0))
            if (w.accept(e)) w.resolve(e);
            else waiters.push(w);
        }
        if (m.event === 'onRunFinished') {
          detach();
          resolve(payload as End);
        }
      });
    });
    const snapshotWhere = (accept: (e: Snap) => boolean) => new Promise<Snap>((resolve) => waiters.push({ accept, resolve }));
    return { snapshots, finished, snapshotWhere };
  }

  return {
    events,
    launcher,
    runs,
    projects,
    api,
    follow,
    dispose() {
      core.dispose();
    },
  };
}

/** Rejects when `promise` has not settled within `ms` (no test waits without a deadline). */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: nothing within ${ms} ms`)), ms)));
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}
