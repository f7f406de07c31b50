/**
 * What an API call knows of the request that carries it, without a parameter in the contract
 * (src-shared/api.ts): the transport runs the call inside `withRequestSignal`, and a service
 * that starts something long asks `requestSignal()` whether the caller is still there. The web
 * server aborts the signal when the client's connection closes before the answer; Electron's
 * IPC and in-process callers set none.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const current = new AsyncLocalStorage<AbortSignal>();

/** Runs `call` with `signal` as its request's signal (for requestSignal()). */
export function withRequestSignal<T>(signal: AbortSignal, call: () => T): T {
  return current.run(signal, call);
}

/** The signal of the request this call serves, aborted once its client has gone; undefined outside one. */
export function requestSignal(): AbortSignal | undefined {
  return current.getStore();
}
