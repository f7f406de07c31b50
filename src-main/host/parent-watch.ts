/**
 * A worker ends with its parent, even while it is busy. An idle worker hears its IPC channel
 * close when the host dies and exits (worker.ts), but a worker in a long synchronous step does
 * not run its event loop, so it would go on computing for nobody. Importing this module (the
 * worker does) starts a small thread that checks every 250 ms whether the parent is still there
 * and, once it is gone, ends the whole process with SIGKILL. The module exports nothing.
 *
 * "Gone" means this process has been given another parent (an orphan is re-parented to init
 * or a subreaper on Linux and macOS), or the parent's pid no longer exists (Windows does not
 * re-parent). It does not depend on the transport, so it works the same under
 * child_process.fork and in an Electron utility process (whose parent is the main process, or
 * on Linux possibly Chromium's zygote, which ends with the main process too).
 *
 * The thread's source is inline (`eval`), so it loads under tsx and from the Electron bundle
 * alike, and runs without the worker's execArgv (no tsx loader, no heap limit); it costs about
 * 10 MB of resident memory. It is unref'd: it never keeps the process alive.
 */
import { Worker } from 'node:worker_threads';

/** How often the thread looks at the parent. */
const INTERVAL_MS = 250;

const WATCH_SOURCE = `
const { workerData } = require('node:worker_threads');
const { parent, intervalMs } = workerData;
function parentGone() {
  if (process.ppid !== parent) return true;
  try {
    process.kill(parent, 0);
    return false;
  } catch (e) {
    return e.code === 'ESRCH';
  }
}
setInterval(() => {
  if (parentGone()) process.kill(process.pid, 'SIGKILL');
}, intervalMs);
`;

// Should the thread fail to start or die, the worker goes on without the watch (and still exits
// when its channel closes while it is idle).
try {
  const thread = new Worker(WATCH_SOURCE, {
    eval: true,
    name: 'parent-watch',
    workerData: { parent: process.ppid, intervalMs: INTERVAL_MS },
    execArgv: [],
  });
  thread.unref();
  thread.on('error', () => {});
} catch {
  // no watch
}
