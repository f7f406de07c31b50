/**
 * A solver program's cgroup (docs/external-solvers.md, "The sandbox"): where this machine lets
 * Saikoro make control groups, each program run gets one of its own, and every process of the
 * program is in it (the sandboxed command's first process joins it before it execs bwrap or the
 * program, sandbox.ts; children inherit it). The rlimits hold per process; the cgroup holds
 * for all of them together:
 * - memory: the run's memory limit for every process of the program at once (heap, stack,
 *   files it maps, its /tmp), no swap; past it the kernel ends one of them (the OOM killer),
 *   and the run's exit says so (`ProgramExit.limit`);
 * - tasks (processes and threads): at most PROGRAM_MAX_TASKS, so a fork bomb stops there;
 * - CPU time: what the group's processes used together, read by the program's process
 *   (program-process.ts) every CPU_WATCH_MS, which stops the program at its CPU-time limit;
 * - and a list of every process of the program, which the end of the run kills.
 *
 * cgroup v1 (the memory, pids and cpuacct hierarchies, as Docker and older systems mount them)
 * and v2 (a unified hierarchy whose memory controller Saikoro's own cgroup passes to its
 * children: root in a container, or a systemd scope with Delegate=yes) are both used; the folder
 * made is a child of Saikoro's own cgroup, named saikoro-<pid>-<n>, and removed after the run
 * (folders of processes that are gone are removed by the next run). Where none can be made
 * (not Linux, cgroups mounted read-only, v2 without the memory controller delegated, or
 * SAIKORO_CGROUP=none) `cgroupSupport()` says why, and only the rlimits hold.
 */
import fs from 'node:fs';
import path from 'node:path';

/** `none`: make no cgroup (as if the machine had none). */
export const CGROUP_VARIABLE = 'SAIKORO_CGROUP';
/** The most tasks (processes and threads) a program may have at once in its cgroup. */
export const PROGRAM_MAX_TASKS = 1024;
/** How often the program's CPU time (and the OOM killer's count) is read while it runs. */
export const CPU_WATCH_MS = 500;

type Role = 'memory' | 'pids' | 'cpu';

export type CgroupSupport =
  | { available: true; version: 1 | 2; /** Saikoro's own cgroup folder per role (v2: the same folder for all). */ parents: Partial<Record<Role, string>> }
  | { available: false; reason: string };

/** A program run's cgroup: its folders, and where its first process writes its pid. */
export interface ProgramCgroup {
  version: 1 | 2;
  /** The folders made for the run, one per role (v2: one folder). */
  dirs: Partial<Record<Role, string>>;
  /** The cgroup.procs files the program's first process joins (one per v1 hierarchy). */
  procs: string[];
  /** The memory limit set (MB), or null. */
  memoryMb: number | null;
}

let support: { key: string; value: CgroupSupport } | null = null;
let made = 0;
let swept = false;

/** Whether program runs get a cgroup here, and where; remembered per process. */
export function cgroupSupport(): CgroupSupport {
  const key = `${process.platform}:${process.env[CGROUP_VARIABLE] ?? ''}`;
  if (support?.key === key) return support.value;
  const value = detect();
  support = { key, value };
  return value;
}

interface Mount {
  point: string;
  root: string;
  type: string;
  options: string[];
}

function mounts(): Mount[] {
  const found: Mount[] = [];
  for (const line of fs.readFileSync('/proc/self/mountinfo', 'utf8').split('\n')) {
    const [left, right] = line.split(' - ');
    if (!right) continue;
    const fields = left.split(' ');
    const [type, , superOptions] = right.split(' ');
    if (type !== 'cgroup' && type !== 'cgroup2') continue;
    found.push({ point: unescapeMount(fields[4]), root: unescapeMount(fields[3]), type, options: (superOptions ?? '').split(',') });
  }
  return found;
}

/** mountinfo writes a space, a tab, a newline and a backslash as octal escapes. */
function unescapeMount(text: string): string {
  return text.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8)));
}

/** The folder of this process's cgroup in a hierarchy mounted at `mount`, given its path in /proc/self/cgroup. */
function folderOf(mount: Mount, cgroupPath: string): string | null {
  const rel = path.posix.relative(mount.root, cgroupPath);
  if (rel.startsWith('..')) return null;
  return path.join(mount.point, rel);
}

/** Makes and removes a folder in `parent`: whether children can be made there. */
function canMakeChild(parent: string, check?: string): boolean {
  const probe = path.join(parent, `saikoro-probe-${process.pid}`);
  try {
    fs.mkdirSync(probe);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') return false;
  }
  try {
    return check === undefined || fs.existsSync(path.join(probe, check));
  } finally {
    try {
      fs.rmdirSync(probe);
    } catch {
      // left for the sweep
    }
  }
}

function detect(): CgroupSupport {
  if (process.platform !== 'linux') return { available: false, reason: `no cgroups on ${process.platform}` };
  if (process.env[CGROUP_VARIABLE] === 'none') return { available: false, reason: `cgroups are switched off (${CGROUP_VARIABLE}=none)` };
  let all: Mount[];
  let own: { controllers: string[]; path: string }[];
  try {
    all = mounts();
    own = fs
      .readFileSync('/proc/self/cgroup', 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [, controllers, ...rest] = line.split(':');
        return { controllers: controllers ? controllers.split(',') : [], path: rest.join(':') };
      });
  } catch (e) {
    return { available: false, reason: `cgroups cannot be read here (${(e as Error).message})` };
  }
  // cgroup v1: a hierarchy per controller (memory is needed; pids and cpuacct are used when there).
  const v1 = (controller: string): string | null => {
    const mount = all.find((m) => m.type === 'cgroup' && m.options.includes(controller));
    const mine = own.find((c) => c.controllers.includes(controller));
    const dir = mount && mine ? folderOf(mount, mine.path) : null;
    return dir && canMakeChild(dir) ? dir : null;
  };
  if (all.some((m) => m.type === 'cgroup' && m.options.includes('memory'))) {
    const memory = v1('memory');
    if (memory) {
      const parents: Partial<Record<Role, string>> = { memory };
      const pids = v1('pids');
      const cpu = v1('cpuacct');
      if (pids) parents.pids = pids;
      if (cpu) parents.cpu = cpu;
      return { available: true, version: 1, parents };
    }
  }
  // cgroup v2: one hierarchy; the memory controller must reach the children of our cgroup.
  const unified = all.find((m) => m.type === 'cgroup2');
  const mine = own.find((c) => c.controllers.length === 0);
  const dir = unified && mine ? folderOf(unified, mine.path) : null;
  if (dir) {
    const control = path.join(dir, 'cgroup.subtree_control');
    const enabled = () => {
      try {
        return fs.readFileSync(control, 'utf8').trim().split(/\s+/);
      } catch {
        return [];
      }
    };
    for (const controller of ['memory', 'pids'])
      if (!enabled().includes(controller))
        try {
          // Allowed where our cgroup holds no process of its own (a container's root, a delegated scope).
          fs.writeFileSync(control, `+${controller}`);
        } catch {
          // not ours to enable
        }
    if (enabled().includes('memory') && canMakeChild(dir, 'memory.max')) {
      const parents: Partial<Record<Role, string>> = { memory: dir, cpu: dir };
      if (enabled().includes('pids')) parents.pids = dir;
      return { available: true, version: 2, parents };
    }
    if (!all.some((m) => m.type === 'cgroup' && m.options.includes('memory')))
      return {
        available: false,
        reason: `the cgroup v2 memory controller is not delegated to Saikoro's cgroup (${dir}: cgroup.subtree_control has no "memory"; run it in a systemd scope with Delegate=yes)`,
      };
  }
  return { available: false, reason: 'no writable memory cgroup here (cgroups not mounted, or mounted read-only)' };
}

function write(dir: string, file: string, value: string): void {
  fs.writeFileSync(path.join(dir, file), value);
}

/** Writes a file of the cgroup if the kernel has it (optional knobs: swap). */
function writeIfThere(dir: string, file: string, value: string): void {
  if (fs.existsSync(path.join(dir, file)))
    try {
      write(dir, file, value);
    } catch {
      // the kernel refuses it: the other limits hold
    }
}

/** Removes the cgroups left by processes that are gone (a worker killed with SIGKILL cannot remove its own). */
function sweep(parents: readonly string[]): void {
  if (swept) return;
  swept = true;
  for (const parent of new Set(parents)) {
    let names: string[] = [];
    try {
      names = fs.readdirSync(parent);
    } catch {
      continue;
    }
    for (const name of names) {
      const m = /^saikoro-(\d+)-/.exec(name);
      if (!m || Number(m[1]) === process.pid) continue;
      try {
        process.kill(Number(m[1]), 0);
        continue;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ESRCH') continue;
      }
      const dir = path.join(parent, name);
      killIn(dir);
      try {
        fs.rmdirSync(dir);
      } catch {
        // still busy: the next process tries again
      }
    }
  }
}

/**
 * A cgroup for one program run, with its limits set: memory (null: none) and tasks. Null when
 * this machine has none (`cgroupSupport()` says why); an Error when making it failed.
 */
export function makeProgramCgroup(limits: { memoryMb: number | null }): ProgramCgroup | null {
  const s = cgroupSupport();
  if (!s.available) return null;
  sweep(Object.values(s.parents));
  const name = `saikoro-${process.pid}-${++made}`;
  const group: ProgramCgroup = { version: s.version, dirs: {}, procs: [], memoryMb: limits.memoryMb };
  const byParent = new Map<string, string>();
  try {
    for (const role of ['memory', 'pids', 'cpu'] as const) {
      const parent = s.parents[role];
      if (!parent) continue;
      let dir = byParent.get(parent);
      if (!dir) {
        dir = path.join(parent, name);
        fs.mkdirSync(dir);
        byParent.set(parent, dir);
        group.procs.push(path.join(dir, 'cgroup.procs'));
      }
      group.dirs[role] = dir;
    }
    const memory = group.dirs.memory!;
    if (limits.memoryMb !== null) {
      const bytes = String(Math.round(limits.memoryMb * 1024 * 1024));
      if (s.version === 1) {
        write(memory, 'memory.limit_in_bytes', bytes);
        // memory and swap together: the same number, so no swap.
        writeIfThere(memory, 'memory.memsw.limit_in_bytes', bytes);
      } else {
        write(memory, 'memory.max', bytes);
        writeIfThere(memory, 'memory.swap.max', '0');
      }
    }
    if (group.dirs.pids) write(group.dirs.pids, 'pids.max', String(PROGRAM_MAX_TASKS));
    return group;
  } catch (e) {
    removeProgramCgroup(group);
    throw new Error(`could not make the program's cgroup ${name}: ${(e as Error).message}`);
  }
}

function readNumbers(file: string): number[] {
  try {
    return fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => Number(l));
  } catch {
    return [];
  }
}

/** SIGKILL to every process in a cgroup's folder (a program's, from ProgramProcesses.cgroups). */
export function killCgroupFolder(dir: string): void {
  if (/^saikoro-\d+-\d+$/.test(path.basename(dir))) killIn(dir);
}

function killIn(dir: string): void {
  if (fs.existsSync(path.join(dir, 'cgroup.kill'))) {
    try {
      write(dir, 'cgroup.kill', '1');
      return;
    } catch {
      // fall back to one process at a time
    }
  }
  // New processes may be forked while we kill: a few rounds until none is left.
  for (let round = 0; round < 10; round++) {
    const pids = readNumbers(path.join(dir, 'cgroup.procs'));
    if (pids.length === 0) return;
    for (const pid of pids)
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
  }
}

/** SIGKILL to every process in the program's cgroup. */
export function killProgramCgroup(group: ProgramCgroup): void {
  for (const dir of new Set(Object.values(group.dirs))) killIn(dir);
}

/** The CPU time (seconds) the program's processes used together, or null where it cannot be read. */
export function cgroupCpuSeconds(group: ProgramCgroup): number | null {
  const dir = group.dirs.cpu;
  if (!dir) return null;
  try {
    if (group.version === 1) return Number(fs.readFileSync(path.join(dir, 'cpuacct.usage'), 'utf8').trim()) / 1e9;
    const m = /^usage_usec (\d+)$/m.exec(fs.readFileSync(path.join(dir, 'cpu.stat'), 'utf8'));
    return m ? Number(m[1]) / 1e6 : null;
  } catch {
    return null;
  }
}

/** How many processes of the program the kernel's OOM killer ended (its memory limit). */
export function cgroupOomKills(group: ProgramCgroup): number {
  const dir = group.dirs.memory;
  if (!dir) return 0;
  try {
    const text = fs.readFileSync(path.join(dir, group.version === 1 ? 'memory.oom_control' : 'memory.events'), 'utf8');
    const m = /^oom_kill (\d+)$/m.exec(text);
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

/** Kills what is left in the cgroup and removes its folders; false when one could not be removed yet. */
export function removeProgramCgroup(group: ProgramCgroup): boolean {
  let removed = true;
  for (const dir of new Set(Object.values(group.dirs))) {
    killIn(dir);
    for (let attempt = 0; ; attempt++) {
      try {
        fs.rmdirSync(dir);
        break;
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') break;
        // EBUSY: a process killed a moment ago is still leaving.
        if (attempt >= 20) {
          removed = false;
          break;
        }
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
      }
    }
  }
  return removed;
}
