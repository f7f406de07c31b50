/**
 * The sandbox of a solver program (docs/external-solvers.md, "The sandbox"): one function,
 * `sandboxCommand`, turns the command the spawn would run into the sandboxed command (binds,
 * namespaces, limits), as Flatpak's bubblewrap is used; program-process.ts spawns what it
 * returns, and the protocol code never knows whether a program is sandboxed.
 *
 * On Linux with bubblewrap (`bwrap`, Debian's package `bubblewrap`) a program sees:
 * - a copy of its folder (its working directory), made for the run in a fresh scratch folder
 *   outside the project's folder and shown at the folder's usual path, each file checked against
 *   the hash the program gate took (program-folder.ts); it may write there and in a /tmp of its
 *   own, and nowhere else;
 * - read-only copies of the files its command names outside that folder (a script given by an
 *   absolute path), checked the same way;
 * - the system (/usr, /etc, and /bin, /lib... as they lead into /usr) and its interpreter's
 *   installation when it lies elsewhere (a venv, pyenv, nvm), read-only;
 * - no network (a network namespace of its own), its own PID namespace (every process it starts
 *   dies with it), its own session, IPC and host name;
 * and it runs under rlimits: CPU time (SIGXCPU at the limit, SIGKILL 5 s later) and data
 * memory (RLIMIT_DATA: heap and private mappings), its /tmp as large as its memory limit; and,
 * where the machine lets Saikoro make cgroups, in a cgroup of its own (cgroup.ts) that caps the
 * memory and the tasks of all its processes together and counts their CPU time.
 *
 * Without bubblewrap (not installed, or user namespaces disabled) a program runs in its folder
 * as it is, under the same rlimits, in a process group of its own that Saikoro kills at the end
 * (program-process.ts); `sandboxSupport()` says why, and a competition refuses to run
 * (`requireSandbox()`). macOS and Windows: no sandbox (and on Windows no rlimits).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ProgramView } from '../../src-shared/solvers/program/admission.ts';
import { shellQuote } from '../../src-shared/solvers/program/protocol.ts';
import { cgroupSupport } from './cgroup.ts';
import { copyCheckedFile, copyFolder, hashFolder, sha256OfFile } from './program-folder.ts';

/** The Debian (and Ubuntu, Fedora, Arch) package that provides `bwrap`. */
export const SANDBOX_PACKAGE = 'bubblewrap';

/**
 * Where `bwrap` is looked for first (tests and unusual installs): a path to use, or `none` to
 * run as if bubblewrap were not installed. Unset: `bwrap` on the PATH.
 */
export const BWRAP_VARIABLE = 'SAIKORO_BWRAP';
/**
 * Folders (separated by the path delimiter) that every sandboxed program may also write, at
 * their own paths: for tests and debugging (a program's record of what it saw). A competition
 * refuses to run with it set.
 */
export const SHARE_VARIABLE = 'SAIKORO_SANDBOX_SHARE';

export type SandboxSupport = { available: true; bwrap: string; version: string } | { available: false; reason: string };

/** A competition cannot run without the sandbox; the message names the package. */
export class SandboxUnavailableError extends Error {
  override name = 'SandboxUnavailableError';
}

const SYSTEM_FOLDERS = ['/usr', '/etc'];
const SYSTEM_LINKS = ['/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];

let support: { key: string; value: SandboxSupport } | null = null;

function findOnPath(word: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const full = path.join(dir, word);
    try {
      if (fs.statSync(full).isFile()) {
        fs.accessSync(full, fs.constants.X_OK);
        return full;
      }
    } catch {
      // not here
    }
  }
  return null;
}

/**
 * Whether programs run sandboxed on this machine, and with which `bwrap`; or why not. bwrap is
 * tried once (a sandbox that runs `true`), so a bwrap that user namespaces keep from working
 * counts as missing, with its message. Remembered per process (and per SAIKORO_BWRAP value).
 */
export function sandboxSupport(): SandboxSupport {
  const override = process.env[BWRAP_VARIABLE];
  const key = `${process.platform}:${override ?? ''}`;
  if (support?.key === key) return support.value;
  const value = detect(override);
  support = { key, value };
  return value;
}

function detect(override: string | undefined): SandboxSupport {
  if (process.platform !== 'linux')
    return {
      available: false,
      reason: `programs are not sandboxed on ${process.platform === 'darwin' ? 'macOS' : process.platform === 'win32' ? 'Windows' : process.platform} (bubblewrap is Linux only)`,
    };
  if (override === 'none') return { available: false, reason: `bubblewrap is switched off (${BWRAP_VARIABLE}=none)` };
  const bwrap = override || findOnPath('bwrap');
  if (!bwrap)
    return {
      available: false,
      reason: `bubblewrap is not installed (no bwrap on the PATH; install the package ${SANDBOX_PACKAGE}: apt-get install ${SANDBOX_PACKAGE})`,
    };
  const tried = spawnSync(bwrap, [...systemBinds(), '--unshare-all', '--die-with-parent', '--new-session', '--proc', '/proc', '--dev', '/dev', '--', 'true'], {
    encoding: 'utf8',
    timeout: 20_000,
  });
  if (tried.error || tried.status !== 0) {
    const why = tried.error ? tried.error.message : (tried.stderr.trim().split('\n').pop() ?? `exit code ${tried.status}`);
    return {
      available: false,
      reason: `bubblewrap (${bwrap}) cannot make a sandbox here: ${why} (user namespaces may be disabled: sysctl kernel.unprivileged_userns_clone=1)`,
    };
  }
  const version = spawnSync(bwrap, ['--version'], { encoding: 'utf8', timeout: 10_000 }).stdout?.trim() || 'bubblewrap';
  return { available: true, bwrap, version };
}

/**
 * The line a command prints before it runs programs where there is no sandbox, or null where
 * there is one: the runs go on (a competition's do not: requireSandbox).
 */
export function sandboxWarning(): string | null {
  const s = sandboxSupport();
  if (s.available) return null;
  return `warning: solver programs run without a sandbox here: ${s.reason}; a program can read and write what you can and reach the network, and only its process group is killed at the end of its run (docs/external-solvers.md, "The sandbox")`;
}

/**
 * How programs run here, in a line (what `competition run` prints before its programs run): the
 * sandbox, and whether each run has a cgroup of its own (cgroup.ts), or why not.
 */
export function isolationSummary(): string {
  const s = sandboxSupport();
  const groups = cgroupSupport();
  const box = s.available ? `in the sandbox (${s.version})` : `without a sandbox (${s.reason})`;
  const caps = groups.available
    ? `each in a cgroup of its own (cgroup v${groups.version}: memory, CPU time and tasks for all its processes together)`
    : `with rlimits per process only (no cgroup: ${groups.reason})`;
  return `programs run ${box}, ${caps}`;
}

/** The bwrap to use, or SandboxUnavailableError naming the package (what a competition calls before it runs). */
export function requireSandbox(): string {
  const s = sandboxSupport();
  if (!s.available)
    throw new SandboxUnavailableError(`${s.reason}; a competition runs its entrants only in the sandbox (Debian: apt-get install ${SANDBOX_PACKAGE})`);
  if (process.env[SHARE_VARIABLE])
    throw new SandboxUnavailableError(`${SHARE_VARIABLE} is set: a competition's entrants may not share folders with the machine`);
  return s.bwrap;
}

/** The system's folders, read-only, and the links into them (Debian's /bin -> usr/bin). */
function systemBinds(): string[] {
  const args: string[] = [];
  for (const dir of SYSTEM_FOLDERS) if (fs.existsSync(dir)) args.push('--ro-bind', dir, dir);
  for (const dir of SYSTEM_LINKS) {
    let st: fs.Stats;
    try {
      st = fs.lstatSync(dir);
    } catch {
      continue;
    }
    if (st.isSymbolicLink()) args.push('--symlink', fs.readlinkSync(dir), dir);
    else if (st.isDirectory()) args.push('--ro-bind', dir, dir);
  }
  return args;
}

function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** Whether a path (and where its links lead) lies in the system's folders, which every sandbox shows read-only. */
export function isSystemPath(file: string): boolean {
  let real = file;
  try {
    real = fs.realpathSync(file);
  } catch {
    // keep the path as given
  }
  const system = [...SYSTEM_FOLDERS, ...SYSTEM_LINKS];
  return system.some((dir) => isInside(file, dir)) && system.some((dir) => isInside(real, dir));
}

/** The interpreter named by a script's first line (`#!/path/to/python3`), if any. */
function shebang(file: string): string | null {
  let fd: number | null = null;
  try {
    fd = fs.openSync(file, 'r');
    const head = Buffer.alloc(256);
    const n = fs.readSync(fd, head, 0, head.length, 0);
    const text = head.subarray(0, n).toString('latin1');
    if (!text.startsWith('#!')) return null;
    const word = text.slice(2).split('\n')[0].trim().split(/\s+/)[0];
    return word && path.isAbsolute(word) ? word : null;
  } catch {
    return null;
  } finally {
    if (fd !== null) fs.closeSync(fd);
  }
}

export interface ViewOptions {
  /** Paths a program never sees (the project file): an installation folder holding one is not shown. */
  hidden?: readonly string[];
  /** Paths left out of the folder's copy and of the files shown (the project file and its side files). */
  exclude?: (absolute: string) => boolean;
}

/**
 * What a program may see besides the system: its folder (`cwd`, hashed), the files its command
 * names outside it (hashed), and the installation of its executable (and of the interpreter
 * that executable's first line names) when outside the system: the folder above its `bin` (a
 * venv, ~/.pyenv/versions/3.11.7, an nvm node; pyenv's shims: ~/.pyenv), read-only. An
 * installation folder that would show a hidden path is not shown; the executable alone is
 * copied instead. The program gate computes this with the project's files hidden.
 */
export function programView(executable: string, args: readonly string[], cwd: string, options: ViewOptions = {}): ProgramView {
  const hidden = (options.hidden ?? []).map((p) => path.resolve(p));
  const exclude = (p: string) => hidden.some((h) => isInside(p, h)) || (options.exclude?.(p) ?? false);
  const folder = hashFolder(cwd, { exclude });
  const files = new Map<string, string>();
  const readOnly = new Set<string>();
  const outside = (file: string) => !isInside(file, folder.root) && !isSystemPath(file);
  const addFile = (file: string) => {
    if (!files.has(file) && !exclude(file)) files.set(file, sha256OfFile(file));
  };
  for (const arg of args) {
    if (arg === '' || arg.startsWith('-')) continue;
    const full = path.resolve(cwd, arg);
    try {
      if (fs.statSync(full).isFile() && outside(full)) addFile(full);
    } catch {
      // not a file: an option's value, a module name, ...
    }
  }
  const executables = [executable];
  try {
    executables.push(fs.realpathSync(executable));
  } catch {
    // the spawn will say it is missing
  }
  const interpreter = shebang(executable);
  if (interpreter) executables.push(interpreter);
  for (const exe of executables) {
    if (!outside(exe)) continue;
    const home = path.dirname(path.dirname(exe));
    const showable = home !== path.dirname(home) && !isInside(folder.root, home) && !hidden.some((h) => isInside(h, home));
    if (showable) readOnly.add(home);
    else if (fs.existsSync(exe) && fs.statSync(exe).isFile()) addFile(exe);
  }
  return { folder, files: [...files].map(([p, sha256]) => ({ path: p, sha256 })), readOnly: [...readOnly] };
}

/** A program's scratch folder, made for one run: the copy of its folder and of its outside files. */
export interface Scratch {
  /** The scratch folder itself (removed by disposeScratch). */
  dir: string;
  /** The copy of the program's folder, and where the program sees it. */
  copy: string;
  folder: string;
  /** Read-only copies of files outside the folder, and where the program sees each. */
  files: { copy: string; path: string }[];
  readOnly: string[];
}

const SCRATCH_PREFIX = 'saikoro-sandbox-';
let swept = false;

/** Removes the scratch folders of processes that are gone (a worker killed with SIGKILL cannot remove its own). */
function sweepScratch(): void {
  if (swept) return;
  swept = true;
  let names: string[] = [];
  try {
    names = fs.readdirSync(os.tmpdir());
  } catch {
    return;
  }
  for (const name of names) {
    const m = name.startsWith(SCRATCH_PREFIX) ? /^(\d+)-/.exec(name.slice(SCRATCH_PREFIX.length)) : null;
    if (!m || Number(m[1]) === process.pid) continue;
    try {
      process.kill(Number(m[1]), 0);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ESRCH') fs.rmSync(path.join(os.tmpdir(), name), { recursive: true, force: true });
    }
  }
}

/**
 * Makes a fresh scratch folder outside the project's folder (in the system's temporary folder)
 * and copies the view's folder and outside files into it, each checked against its hash
 * (ProgramFolderError when one changed since the gate hashed it).
 */
export function makeScratch(view: ProgramView): Scratch {
  sweepScratch();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `${SCRATCH_PREFIX}${process.pid}-`));
  try {
    const copy = path.join(dir, 'folder');
    fs.mkdirSync(copy);
    copyFolder(view.folder, copy);
    const files = view.files.map((f, i) => {
      const target = path.join(dir, `file-${i}`);
      copyCheckedFile(f.path, target, f.sha256, true, `${f.path} (named by the program's command)`);
      return { copy: target, path: f.path };
    });
    return { dir, copy, folder: view.folder.root, files, readOnly: [...view.readOnly] };
  } catch (e) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}

export function disposeScratch(scratch: Scratch): void {
  fs.rmSync(scratch.dir, { recursive: true, force: true });
}

/** A program's own limits: CPU seconds and data memory (MB); null: none. */
export interface ProgramLimits {
  cpuSeconds: number | null;
  memoryMb: number | null;
}

/** A command as the spawn runs it: the file, its arguments, its working directory. */
export interface SpawnCommand {
  file: string;
  args: string[];
  cwd: string;
}

/** Where the sandbox runs: the bwrap to use and the scratch of the run. */
export interface SandboxPlace {
  bwrap: string;
  scratch: Scratch;
  /** File descriptor bwrap writes its JSON status to (the PID namespace, to signal the program inside). */
  statusFd: number | null;
}

/** Seconds between SIGXCPU (the CPU limit) and SIGKILL. */
export const CPU_KILL_AFTER_SECONDS = 5;

function shared(): string[] {
  return (process.env[SHARE_VARIABLE] ?? '').split(path.delimiter).filter((p) => p && path.isAbsolute(p) && fs.existsSync(p));
}

/**
 * THE function: the command the spawn runs, sandboxed in `place` (null: not sandboxed), under
 * `limits`, and in the run's cgroup (`cgroup`: the cgroup.procs files its first process joins,
 * cgroup.ts; empty: none). Without a sandbox only the cgroup and the limits wrap it (a POSIX
 * shell joins the cgroup, sets its ulimits, then execs).
 */
export function sandboxCommand(command: SpawnCommand, place: SandboxPlace | null, limits: ProgramLimits, cgroup: readonly string[] = []): SpawnCommand {
  let inner: SpawnCommand = command;
  if (place) {
    const { scratch } = place;
    const args = ['--unshare-all', '--die-with-parent', '--new-session', ...systemBinds(), '--proc', '/proc', '--dev', '/dev'];
    if (limits.memoryMb !== null) args.push('--size', String(Math.round(limits.memoryMb * 1024 * 1024)));
    args.push('--tmpfs', '/tmp');
    for (const dir of scratch.readOnly) args.push('--ro-bind', dir, dir);
    args.push('--bind', scratch.copy, scratch.folder);
    for (const f of scratch.files) args.push('--ro-bind', f.copy, f.path);
    for (const dir of shared()) args.push('--bind', dir, dir);
    if (place.statusFd !== null) args.push('--json-status-fd', String(place.statusFd));
    args.push('--chdir', isInside(command.cwd, scratch.folder) ? command.cwd : scratch.folder, '--', command.file, ...command.args);
    inner = { file: place.bwrap, args, cwd: scratch.dir };
  }
  if (process.platform === 'win32' || (limits.cpuSeconds === null && limits.memoryMb === null && cgroup.length === 0)) return inner;
  const steps: string[] = [];
  // The shell itself joins the cgroup, so the program it execs and every child start inside.
  for (const procs of cgroup)
    steps.push(`{ echo $$ > ${shellQuote(procs)}; } 2>/dev/null || { echo "saikoro: could not join the program's cgroup (${procs})" >&2; exit 126; }`);
  // The soft limit first: a hard limit below the soft one (unlimited) is refused.
  if (limits.cpuSeconds !== null)
    steps.push(`ulimit -S -t ${Math.ceil(limits.cpuSeconds)}`, `ulimit -H -t ${Math.ceil(limits.cpuSeconds) + CPU_KILL_AFTER_SECONDS}`);
  if (limits.memoryMb !== null) steps.push(`ulimit -d ${Math.round(limits.memoryMb * 1024)}`);
  return { file: '/bin/sh', args: ['-c', `${steps.join(' && ')} && exec "$@"`, 'saikoro-limits', inner.file, ...inner.args], cwd: inner.cwd };
}
