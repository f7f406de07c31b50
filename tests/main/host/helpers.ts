// What the host tests of every kind of run share: waiting for a run's snapshot or status.
import type { HostRun } from '../../../src-main/host/pool.ts';
import type { RunRequest, SnapshotOf } from '../../../src-shared/runtime/kinds/index.ts';

/** Resolves with the first snapshot for which `accept` holds; rejects if the run ends first. */
export function snapshotWhere<R extends RunRequest>(run: HostRun<R>, accept: (s: SnapshotOf<R>) => boolean): Promise<SnapshotOf<R>> {
  return new Promise((resolve, reject) => {
    const listener = run.onSnapshot((s) => {
      if (!accept(s)) return;
      listener.dispose();
      resolve(s);
    });
    void run.outcome.then((o) => reject(new Error(`run ended (${o.status}: ${o.reason}) before the snapshot`)));
  });
}

/** Resolves once the run has the status; rejects if it ends in another. */
export function statusBecomes<R extends RunRequest>(run: HostRun<R>, status: string): Promise<void> {
  if (run.status === status) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const listener = run.onStatus((s) => {
      if (s !== status) return;
      listener.dispose();
      resolve();
    });
    void run.outcome.then((o) => {
      if (o.status !== status) reject(new Error(`run ended (${o.status}: ${o.reason}) before it was ${status}`));
    });
  });
}
