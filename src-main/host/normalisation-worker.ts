/**
 * The default hypervolume normalisation of a dice config (src-shared/problems/dice/hv-reference.ts),
 * computed in a worker process of its own, so the main process stays free: it costs 1000
 * evaluations of a random sequence (seconds at N = 27,720, minutes at 10^7). The worker is the
 * solver host's worker entry (a `normalise` message answered by `normalisation`), started for
 * this alone, outside the pool's count, with the host's memory limit; the numbers are exactly
 * diceHvNormalisation's.
 *
 * Ownership: the computation's DisposableStore (the worker and its listeners) is added to the
 * `owner` store and removed once the computation settles; disposing of the owner (the host shutting
 * down) kills the worker and rejects.
 */
import { DisposableStore } from '../../src-shared/base/disposable.ts';
import type { HvNormalisation } from '../../src-shared/problems/dice/hv-reference.ts';
import type { DiceConfig } from '../../src-shared/problems/dice/config.ts';
import { describeExit } from './exit-reason.ts';
import type { WorkerChannel, WorkerSpawner } from './spawner.ts';

export interface NormalisationWorkerOptions {
  spawn: WorkerSpawner;
  memoryLimitMb: number | null;
  /** Owns the computation while it runs. */
  owner: DisposableStore;
  /** A unique id for the request. */
  id: string;
}

/** Resolves with the normalisation; an abort kills the worker and rejects with the signal's reason. */
export function computeHvNormalisationInWorker(config: DiceConfig, options: NormalisationWorkerOptions, signal?: AbortSignal): Promise<HvNormalisation> {
  const { spawn, memoryLimitMb, owner, id } = options;
  if (owner.isDisposed) return Promise.reject(new Error('the solver host has been disposed'));
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const store = new DisposableStore();
    // The first outcome settles the promise; disposing of the store then kills the worker.
    const settle = (action: () => void) => {
      if (store.isDisposed) return;
      action();
      owner.delete(store);
    };
    owner.add(store);
    store.defer(() => reject(new Error('the solver host shut down')));
    let channel: WorkerChannel;
    try {
      channel = store.add(spawn({ memoryLimitMb }));
    } catch (e) {
      settle(() => reject(new Error(`could not start a worker: ${e instanceof Error ? e.message : String(e)}`)));
      return;
    }
    store.add(
      channel.onMessage((m) => {
        if (m.type !== 'normalisation' || m.id !== id) return;
        settle(() => (m.normalisation ? resolve(m.normalisation) : reject(new Error(m.reason ?? 'the normalisation failed'))));
      }),
    );
    store.add(channel.onExit((exit) => settle(() => reject(new Error(describeExit(exit, memoryLimitMb))))));
    if (signal) {
      const onAbort = () => settle(() => reject(signal.reason));
      signal.addEventListener('abort', onAbort, { once: true });
      store.defer(() => signal.removeEventListener('abort', onAbort));
    }
    channel.send({ type: 'init', memoryLimitMb });
    channel.send({ type: 'normalise', id, config });
  });
}
