// Issue 13: when the host (the CLI, say) is killed with SIGTERM or SIGKILL, a worker busy in a
// long synchronous step cannot hear its IPC channel close; src-main/host/parent-watch.ts must
// end it all the same. Each case starts a real parent process, which forks the real worker
// entry through nodeSpawner (tsx, its own process group); the worker then never yields again.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

const source = (path: string) => new URL(`../../../src-main/host/${path}`, import.meta.url).href;
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
/** parent-watch.ts looks every 250 ms. */
const WATCH_INTERVAL_MS = 250;

// The real worker entry (which must start the watch itself), then a synchronous step that
// never ends. Just before that it leaves a file named after its pid. The watch has noted its
// parent's pid by then; its thread comes up even while the main thread spins.
const BUSY_WORKER = `
import { writeFileSync } from 'node:fs';
import ${JSON.stringify(source('worker.ts'))};
writeFileSync(new URL('./busy-' + process.pid, import.meta.url), '');
for (;;);
`;

// A host: forks the busy worker as the solver host does, says its pid and waits to be killed.
const PARENT = (workerPath: string) => `
import { nodeSpawner } from ${JSON.stringify(source('spawner.ts'))};
const channel = nodeSpawner({ workerPath: ${JSON.stringify(workerPath)} })({ memoryLimitMb: null });
console.log(JSON.stringify({ worker: channel.pid }));
setInterval(() => {}, 60_000);
`;

const onLinux = existsSync('/proc/self/stat');

/** /proc/<pid>/stat split after the command name: [state, ppid, ...]. */
function procStat(pid: number): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** Whether the process runs; a zombie (ended, not yet reaped by its new parent) does not. */
function isRunning(pid: number): boolean {
  if (onLinux) {
    const stat = procStat(pid);
    return stat !== null && stat[0] !== 'Z' && stat[0] !== 'X';
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls until `condition` holds; fails with what it waited for at the deadline. */
async function waitUntil(what: string, condition: () => boolean, withinMs: number): Promise<void> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const expired = Date.now() >= deadline;
    if (condition()) return;
    if (expired) throw new Error(`timed out after ${withinMs} ms waiting for ${what}`);
    await sleep(25);
  }
}

function firstLine(child: ChildProcess, withinMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    let errors = '';
    const timer = setTimeout(() => reject(new Error(`no line from the parent within ${withinMs} ms; stderr: ${errors}`)), withinMs);
    child.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    child.stdout!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const end = text.indexOf('\n');
      if (end < 0) return;
      clearTimeout(timer);
      resolve(text.slice(0, end));
    });
    child.once('exit', (code, signal) => reject(new Error(`the parent exited (${code ?? signal}) before its first line; stderr: ${errors}`)));
  });
}

let dir: string;
let parentScript: string;
const leftovers: number[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'saikoro-parent-watch-'));
  const workerPath = join(dir, 'busy-worker.mjs');
  writeFileSync(workerPath, BUSY_WORKER);
  parentScript = join(dir, 'parent.mjs');
  writeFileSync(parentScript, PARENT(workerPath));
});
afterEach(() => {
  // A failed case must not leave a process spinning on a shared machine.
  for (const pid of leftovers.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a busy worker ends with its parent (parent-watch.ts, issue 13)', () => {
  for (const signal of ['SIGKILL', 'SIGTERM'] as const) {
    it(`when the parent is killed with ${signal}`, async () => {
      const parent = spawn(process.execPath, ['--import', tsxLoader, parentScript], { stdio: ['ignore', 'pipe', 'pipe'] });
      leftovers.push(parent.pid!);
      const { worker } = JSON.parse(await firstLine(parent, 60_000)) as { worker: number };
      leftovers.push(worker);
      await waitUntil(`worker ${worker} to be busy with the watch running`, () => existsSync(join(dir, `busy-${worker}`)), 60_000);
      if (onLinux) expect(Number(procStat(worker)![1]), 'the worker is a child of the parent').toBe(parent.pid);

      // Not a false alarm: while the parent lives, the watch leaves the busy worker alone.
      await sleep(3 * WATCH_INTERVAL_MS);
      expect(isRunning(worker)).toBe(true);

      parent.kill(signal);
      await waitUntil('the parent to end', () => parent.exitCode !== null || parent.signalCode !== null, 10_000);
      expect(parent.signalCode).toBe(signal);
      // The worker's own 'disconnect' handler cannot run: only the watch can end it.
      await waitUntil(`worker ${worker} to end after its parent`, () => !isRunning(worker), 10_000);
    }, 120_000);
  }
});
