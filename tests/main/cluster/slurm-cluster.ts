/**
 * A private single-node Slurm for tests: munged, slurmctld and slurmd started directly (no
 * systemd), in the foreground as children of the test process, with every file (config, munge
 * key and socket, state, spool, logs, pid files) in one temporary directory and free TCP ports,
 * so nothing on the machine is read or changed and two of them can run side by side.
 *
 * What it takes to run in a container or VM without a cgroup hierarchy of its own:
 * ProctrackType=proctrack/linuxproc (tracks a job's processes by parent pid; proctrack/cgroup
 * needs a writable cgroup tree), TaskPlugin=task/none (no cgroup or affinity binding, so no
 * cgroup.conf), JobAcctGatherType=jobacct_gather/none and AccountingStorageType=
 * accounting_storage/none (no slurmdbd: `scontrol show job` reports task states, sacct does
 * not), and SelectType=select/cons_tres with CR_CPU. The node line is `slurmd -C`'s, so the
 * node's CPUs and RealMemory are what the machine has (a job's --mem above RealMemory is
 * refused at submission). Daemons run as the current user (SlurmUser/SlurmdUser); jobs run as
 * the submitting user, which as root is always allowed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** The programs the cluster needs, and where Debian's slurm-wlm and munge install them. */
export const SLURM_TOOLS: Record<string, string> = {
  munged: '/usr/sbin/munged',
  slurmctld: '/usr/sbin/slurmctld',
  slurmd: '/usr/sbin/slurmd',
  sbatch: '/usr/bin/sbatch',
  squeue: '/usr/bin/squeue',
  scancel: '/usr/bin/scancel',
  scontrol: '/usr/bin/scontrol',
  sinfo: '/usr/bin/sinfo',
};
const SEARCH_PATH = [...(process.env.PATH ?? '').split(path.delimiter), '/usr/sbin', '/sbin', '/usr/bin', '/bin'];

export function which(tool: string): string | null {
  if (path.isAbsolute(tool)) return tool;
  for (const dir of SEARCH_PATH) {
    if (!dir) continue;
    const candidate = path.join(dir, tool);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // next
    }
  }
  return null;
}

export interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `probe` every `everyMs` until it returns a value other than undefined, or throws naming `what` at the deadline. */
export async function waitFor<T>(what: string, withinMs: number, probe: () => Promise<T | undefined>, everyMs = 200): Promise<T> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${withinMs / 1000} s waiting for ${what}`);
    await sleep(everyMs);
  }
}

export class SlurmCluster {
  readonly dir: string;
  readonly conf: string;
  readonly node: string;
  private readonly daemons: { name: string; child: ChildProcess }[] = [];

  private constructor(dir: string, node: string) {
    this.dir = dir;
    this.conf = path.join(dir, 'slurm.conf');
    this.node = node;
  }

  /** The environment for Slurm commands and, through sbatch, for the jobs: a login shell's, nothing of the test runner's. */
  env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
    return {
      PATH: [path.dirname(process.execPath), ...SEARCH_PATH].join(path.delimiter),
      HOME: process.env.HOME ?? os.homedir(),
      LANG: 'C.UTF-8',
      USER: os.userInfo().username,
      SLURM_CONF: this.conf,
      ...extra,
    };
  }

  /** Runs a command against this cluster (SLURM_CONF set), killed after `timeoutMs`. */
  run(command: string, args: string[], options: { cwd?: string; timeoutMs?: number; env?: Record<string, string> } = {}): Promise<CommandResult> {
    return new Promise((resolve) => {
      const child = spawn(which(command) ?? command, args, { cwd: options.cwd ?? this.dir, env: this.env(options.env), stdio: ['ignore', 'pipe', 'pipe'] });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout.on('data', (c: Buffer) => out.push(c));
      child.stderr.on('data', (c: Buffer) => err.push(c));
      const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 30_000);
      child.on('error', (e) => err.push(Buffer.from(String(e))));
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
      });
    });
  }

  /** Like run, but throws with the command's output unless it exits 0. */
  async check(command: string, args: string[], options: { cwd?: string; timeoutMs?: number; env?: Record<string, string> } = {}): Promise<string> {
    const r = await this.run(command, args, options);
    if (r.code !== 0) throw new Error(`${command} ${args.join(' ')} exited ${r.code}:\n${r.stdout}${r.stderr}`);
    return r.stdout;
  }

  /** Starts munged, slurmctld and slurmd in a new temporary directory and waits until the node is idle. */
  static async start(): Promise<SlurmCluster> {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-slurm-'));
    const node = os.hostname().split('.')[0];
    const cluster = new SlurmCluster(root, node);
    try {
      await cluster.boot();
    } catch (e) {
      const logs = cluster.logTails();
      await cluster.stop();
      throw new Error(`${(e as Error).message}\n${logs}`);
    }
    return cluster;
  }

  /** Throws if a daemon has ended: a readiness wait then fails at once instead of at its deadline. */
  private checkDaemons(): void {
    for (const { name, child } of this.daemons) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${name} ended (${child.exitCode ?? child.signalCode}) while starting`);
    }
  }

  private async boot(): Promise<void> {
    const d = (...p: string[]) => path.join(this.dir, ...p);
    // munged refuses a socket directory others cannot enter, and a key others can read.
    fs.chmodSync(this.dir, 0o755);
    for (const sub of ['run', 'state', 'spool', 'log']) fs.mkdirSync(d(sub), { mode: 0o755 });
    fs.mkdirSync(d('munge'), { mode: 0o700 });
    fs.writeFileSync(d('munge', 'munge.key'), randomBytes(1024), { mode: 0o600 });
    fs.writeFileSync(d('plugstack.conf'), '');
    const socket = d('run', 'munge.sock');

    this.daemon('munged', [
      '--foreground',
      `--socket=${socket}`,
      `--key-file=${d('munge', 'munge.key')}`,
      `--pid-file=${d('run', 'munged.pid')}`,
      `--log-file=${d('log', 'munged.log')}`,
      `--seed-file=${d('munge', 'munged.seed')}`,
    ]);
    await waitFor('munged to create its socket', 10_000, async () => (this.checkDaemons(), fs.existsSync(socket) ? true : undefined), 50);

    // The node line as slurmd sees the machine (CPUs, sockets, cores, RealMemory).
    const probe = await this.check('slurmd', ['-C']);
    const nodeLine = probe.split('\n').find((l) => l.startsWith('NodeName='));
    if (!nodeLine) throw new Error(`slurmd -C printed no NodeName line:\n${probe}`);
    const hardware = nodeLine.replace(/^NodeName=\S+\s*/, '');
    const [ctldPort, slurmdPort] = [await freePort(), await freePort()];
    const user = os.userInfo().username;
    fs.writeFileSync(
      this.conf,
      [
        'ClusterName=saikorotest',
        `SlurmctldHost=${this.node}(127.0.0.1)`,
        `SlurmctldPort=${ctldPort}`,
        `SlurmdPort=${slurmdPort}`,
        `SlurmUser=${user}`,
        `SlurmdUser=${user}`,
        'AuthType=auth/munge',
        'CredType=cred/munge',
        `AuthInfo=socket=${socket}`,
        'MpiDefault=none',
        'ProctrackType=proctrack/linuxproc',
        'TaskPlugin=task/none',
        'SelectType=select/cons_tres',
        'SelectTypeParameters=CR_CPU',
        'SchedulerType=sched/backfill',
        'SwitchType=switch/none',
        'JobAcctGatherType=jobacct_gather/none',
        'AccountingStorageType=accounting_storage/none',
        'JobCompType=jobcomp/none',
        'MailProg=/bin/true',
        `PlugStackConfig=${d('plugstack.conf')}`,
        `StateSaveLocation=${d('state')}`,
        `SlurmdSpoolDir=${d('spool')}`,
        `SlurmctldPidFile=${d('run', 'slurmctld.pid')}`,
        `SlurmdPidFile=${d('run', 'slurmd.pid')}`,
        `SlurmctldLogFile=${d('log', 'slurmctld.log')}`,
        `SlurmdLogFile=${d('log', 'slurmd.log')}`,
        'SlurmctldDebug=info',
        'SlurmdDebug=info',
        'ReturnToService=2',
        // Finished jobs stay visible to `scontrol show job` (there is no accounting database).
        'MinJobAge=600',
        // A cancelled task gets SIGKILL 2 s after SIGTERM.
        'KillWait=2',
        `NodeName=${this.node} NodeAddr=127.0.0.1 NodeHostname=${this.node} ${hardware} State=UNKNOWN`,
        `PartitionName=debug Nodes=${this.node} Default=YES MaxTime=INFINITE State=UP`,
        '',
      ].join('\n'),
    );

    this.daemon('slurmctld', ['-D', '-c', '-f', this.conf]);
    await waitFor(
      'slurmctld to answer scontrol ping',
      20_000,
      async () => (this.checkDaemons(), (await this.run('scontrol', ['ping'], { timeoutMs: 5_000 })).stdout.includes('is UP') ? true : undefined),
    );
    this.daemon('slurmd', ['-D', '-N', this.node, '-f', this.conf]);
    await waitFor(`node ${this.node} to be idle`, 30_000, async () => {
      this.checkDaemons();
      const state = (await this.run('sinfo', ['-h', '-n', this.node, '-o', '%T'], { timeoutMs: 5_000 })).stdout.trim();
      return state === 'idle' ? true : undefined;
    });
  }

  private daemon(name: string, args: string[]): void {
    const log = fs.openSync(path.join(this.dir, 'log', `${name}.out`), 'a');
    const child = spawn(which(name) ?? name, args, { cwd: this.dir, env: this.env(), stdio: ['ignore', log, log] });
    fs.closeSync(log);
    child.on('error', () => {}); // reported through the readiness wait that follows
    this.daemons.push({ name, child });
  }

  /** Waits until none of the given job's tasks is pending, running or completing. */
  async waitForJob(jobId: string, withinMs: number): Promise<void> {
    await waitFor(`job ${jobId} to finish\n${this.logTails()}`, withinMs, async () => {
      const r = await this.run('squeue', ['-h', '-r', '-j', jobId, '-o', '%i %T'], { timeoutMs: 10_000 });
      // An unknown job id (already purged) is an error with no output: finished too.
      if (r.code !== 0 && !/Invalid job id/i.test(r.stderr)) return undefined;
      return r.stdout.trim() === '' ? true : undefined;
    });
  }

  /** The state of each task of an array job, by task id, from `scontrol show job` (no accounting needed). */
  async taskStates(jobId: string): Promise<Record<string, { state: string; exitCode: string }>> {
    const out = await this.check('scontrol', ['show', 'job', '-o', jobId]);
    const states: Record<string, { state: string; exitCode: string }> = {};
    for (const line of out.split('\n')) {
      const task = /\bArrayTaskId=(\d+)\b/.exec(line)?.[1];
      const state = /\bJobState=(\S+)/.exec(line)?.[1];
      const exitCode = /\bExitCode=(\S+)/.exec(line)?.[1];
      if (task && state) states[task] = { state, exitCode: exitCode ?? '?' };
    }
    return states;
  }

  /** The last lines of every daemon log, for failure messages. */
  logTails(lines = 15): string {
    const dir = path.join(this.dir, 'log');
    if (!fs.existsSync(dir)) return '';
    return fs
      .readdirSync(dir)
      .map((f) => `--- ${f}\n${fs.readFileSync(path.join(dir, f), 'utf8').trimEnd().split('\n').slice(-lines).join('\n')}`)
      .join('\n');
  }

  /**
   * Cancels every job left, waits for them to end, stops slurmd, slurmctld and munged (SIGTERM,
   * then SIGKILL at a deadline) and removes the directory. Safe to call on a half-started cluster.
   */
  async stop(): Promise<void> {
    const alive = (c: ChildProcess) => c.exitCode === null && c.signalCode === null;
    const ctld = this.daemons.find((x) => x.name === 'slurmctld');
    if (ctld && alive(ctld.child)) {
      await this.run('scancel', ['--user', os.userInfo().username], { timeoutMs: 10_000 });
      await waitFor('the cancelled jobs to end', 20_000, async () => {
        const r = await this.run('squeue', ['-h', '-o', '%i'], { timeoutMs: 5_000 });
        return r.code !== 0 || r.stdout.trim() === '' ? true : undefined;
      }).catch(() => {});
    }
    for (const { child } of [...this.daemons].reverse()) {
      if (!alive(child)) continue;
      const ended = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await ended;
      clearTimeout(timer);
    }
    this.daemons.length = 0;
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
