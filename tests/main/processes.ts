/** Test helpers about operating-system processes (shared by the host and CLI tests). */

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
  const deadline = Date.now() + withinMs;
  while (isAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  return !isAlive(pid);
}
