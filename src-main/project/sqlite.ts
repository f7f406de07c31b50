/**
 * The SQLite binding (node-sqlite3-wasm: real SQLite compiled to WebAssembly, with a VFS on
 * Node's fs, so the same node_modules serve Node and Electron without a native rebuild).
 * Only src-main/project uses it; the rest of the app talks to store.ts.
 *
 * Its VFS locks a database by creating the directory `FILE.lock` (held for the length of a
 * transaction or statement, for readers and writers alike) and has no sleep, so SQLite's
 * busy_timeout cannot wait: withBusyRetry retries "database is locked" itself.
 */
import { createRequire } from 'node:module';

type Binding = typeof import('node-sqlite3-wasm');
const binding = createRequire(import.meta.url)('node-sqlite3-wasm') as Binding;

export const Database = binding.Database;
export type Database = InstanceType<Binding['Database']>;
/** A row as the binding returns it: column name to value. */
export type Row = Record<string, unknown>;

const sleeper = new Int32Array(new SharedArrayBuffer(4));
export function sleepSync(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}

export function isBusyError(e: unknown): boolean {
  return e instanceof Error && /database is locked|SQLITE_BUSY|database table is locked/i.test(e.message);
}

/**
 * Runs fn, retrying while another connection holds the lock, for up to timeoutMs. `onWait` is
 * called with the milliseconds waited so far before each retry.
 */
export function withBusyRetry<T>(fn: () => T, timeoutMs = 15_000, onWait?: (waitedMs: number) => void): T {
  const start = Date.now();
  let wait = 2;
  for (;;) {
    try {
      return fn();
    } catch (e) {
      if (!isBusyError(e) || Date.now() - start >= timeoutMs) throw e;
      onWait?.(Date.now() - start);
      sleepSync(wait);
      wait = Math.min(wait * 2, 100);
    }
  }
}
