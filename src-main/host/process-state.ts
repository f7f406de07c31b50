/**
 * What the host can see of a worker process from outside it, where the system tells (Linux's
 * /proc): its resident memory and whether it is stopped (SIGSTOP, SIGTSTP). A worker busy in
 * one long step cannot watch itself, and a stopped one cannot say anything: the host looks.
 * Elsewhere both answers are null, and the host relies on the worker's own watchdog and
 * heartbeat. Also which processes belong to a solver program (program-kill.ts): those that
 * carry its marker in their environment, and those in its sandbox's PID namespace.
 */
import fs from 'node:fs';

const PAGE_BYTES = 4096;

export interface ProcessState {
  /** Resident memory in bytes, or null where unknown. */
  rssBytes: number | null;
  /** True when stopped by a signal ('T'), false when not, null where unknown. */
  stopped: boolean | null;
}

export function processState(pid: number): ProcessState {
  let rssBytes: number | null = null;
  let stopped: boolean | null = null;
  try {
    // statm: size resident shared text lib data dt, in pages.
    const statm = fs.readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ');
    rssBytes = Number(statm[1]) * PAGE_BYTES;
  } catch {
    // not Linux, or the process is gone
  }
  try {
    // stat: "pid (comm) S ..."; the command may hold spaces and parentheses, the state follows the last ')'.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    stopped = state === 'T' || state === 't';
  } catch {
    // not Linux, or the process is gone
  }
  return { rssBytes: Number.isFinite(rssBytes) ? rssBytes : null, stopped };
}

/** The numeric entries of /proc (every process this system shows), or none where there is no /proc. */
function processIds(): number[] {
  try {
    return fs
      .readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .map(Number);
  } catch {
    return [];
  }
}

/**
 * The processes whose environment holds `variable=value` (Linux's /proc/PID/environ: the
 * environment each process started with, which its children inherit). [] elsewhere.
 */
export function processesMarked(variable: string, value: string): number[] {
  const needle = Buffer.from(`${variable}=${value}\0`);
  const found: number[] = [];
  for (const pid of processIds()) {
    if (pid === process.pid) continue;
    try {
      const environ = fs.readFileSync(`/proc/${pid}/environ`);
      if (environ.subarray(0, needle.length).equals(needle) || environ.includes(Buffer.concat([Buffer.from([0]), needle]))) found.push(pid);
    } catch {
      // gone, or not ours to read
    }
  }
  return found;
}

/** The processes in the PID namespace whose inode (the number in `pid:[N]`) is `namespace`. [] where there is no /proc. */
export function processesInPidNamespace(namespace: number): number[] {
  const link = `pid:[${namespace}]`;
  const found: number[] = [];
  for (const pid of processIds()) {
    try {
      if (fs.readlinkSync(`/proc/${pid}/ns/pid`) === link) found.push(pid);
    } catch {
      // gone, or not ours to look at
    }
  }
  return found;
}
