/**
 * Test helpers about waiting: for a condition (any test) and for operating-system processes
 * (the host and CLI tests). A loaded CI machine can be far slower than a laptop, so tests never
 * sleep a fixed time and hope: they poll a condition up to a generous deadline and fail with a
 * message saying what they waited for.
 */

import fs from 'node:fs';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export interface WaitOptions {
  /** The deadline, in milliseconds from the call (default 10 s). */
  withinMs?: number;
  /** Milliseconds between two polls (default 20). */
  intervalMs?: number;
}

/**
 * Polls `condition` until it returns a truthy value and returns that value. Throws
 * "timed out after N ms waiting for <what>" once `withinMs` have passed without one.
 * The condition is always polled once more at the deadline, so a slow poll cannot lose it.
 */
export async function waitFor<T>(what: string, condition: () => T | Promise<T>, options: WaitOptions = {}): Promise<NonNullable<T>> {
  const withinMs = options.withinMs ?? 10_000;
  const intervalMs = options.intervalMs ?? 20;
  const deadline = Date.now() + withinMs;
  for (;;) {
    const expired = Date.now() >= deadline;
    const value = await condition();
    if (value) return value as NonNullable<T>;
    if (expired) throw new Error(`timed out after ${withinMs} ms waiting for ${what}`);
    await sleep(Math.max(0, Math.min(intervalMs, deadline - Date.now())));
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Waits until the process has ended, polling up to `withinMs` (a generous bound: a loaded CI
 * machine can take a while to reap a killed process). Returns whether it ended.
 */
export async function hasEnded(pid: number, withinMs = 10_000): Promise<boolean> {
  return waitFor(`process ${pid} to end`, () => !isAlive(pid), { withinMs, intervalMs: 50 }).catch(() => false);
}

/**
 * The processes whose command line holds `token` as one of its arguments (Linux's
 * /proc/PID/cmdline, which shows every process, in every PID namespace): how a test finds a
 * program's children without their help, sandboxed or not.
 */
export function processesWithArgument(token: string): number[] {
  const found: number[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').includes(token)) found.push(Number(name));
    } catch {
      // gone
    }
  }
  return found;
}

/** SIGKILL to each process (a test's cleanup of what a failing case left running). */
export function killAll(pids: readonly number[]): void {
  for (const pid of pids)
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
}
