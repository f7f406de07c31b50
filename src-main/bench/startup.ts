/**
 * `saikoro bench startup [--reference rngbias.py] [--quick]`: what one call of `saikoro` costs,
 * as a harness or a Slurm array pays it. Each case is a fresh process, timed from spawn to exit
 * (wall time) with its peak resident memory (/usr/bin/time's %M, when there is one); the cases
 * run interleaved, round after round, so a change in the machine's load hits them all alike.
 *
 * Cases: `node -e 0` (the floor); `saikoro --help`; `saikoro rngbias` on the reference's sample;
 * `saikoro eval` of one line; `saikoro project info` on an empty project (what every command
 * that opens a project pays: the SQLite binding, the file's checks); `saikoro solve` of 1,000
 * evaluations at N = 50 (a worker process);
 * a Slurm array task with nothing left to do (docs/examples/slurm-experiment.sh on a finished
 * shard); and, with --reference and a python3 with scipy, the reference evaluator: a fresh
 * python3 that runs rngbias.py's code above its `@click.command` line (Debian's click 8 refuses
 * to build its command line) and evaluates the sample with the default config.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { DEFAULT_ALPHA, DEFAULT_BETA, DEFAULT_GAMMA, DEFAULT_LOWER, DEFAULT_UPPER } from '../../src-shared/problems/dice/config.ts';
import { PROJECT_ROOT } from '../server/renderer-dir.ts';
import type { BenchContext, BenchSuite, BenchTable } from './suite.ts';

/** The reference's own sample (rand50.json); rngbias gives objective 76.8. */
const SAMPLE = '31552264665432613134314646226624645162511461153216';
const TIME = '/usr/bin/time';

/** One fresh python3 running the reference's evaluation code (see the header). */
const REFERENCE_DRIVER = `
import inspect, json, sys
path, seq, cfg = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
src = open(path).read()
cut = src.find('@click.command')
if cut < 0: sys.exit(path + ': no @click.command line')
ns = {'__name__': 'rngbias_reference', '__file__': path}
exec(compile(src[:cut], path, 'exec'), ns)
errs = [ns['make_error_function'](ns['f%d' % (i + 1)], cfg['alpha'][i], cfg['beta'][i], cfg['gamma'][i]) for i in range(15)]
g = ns['g']
bounds = len(inspect.signature(g).parameters) == 4
cons = [g(d, seq, cfg['lower'], cfg['upper']) if bounds else g(d, seq) for d in range(1, 13)]
print(json.dumps({'objective': sum(e(seq) for e in errs), 'constraint': cons, 'error': None}))
`;

interface Case {
  name: string;
  /** The command as a user would type it, for the table. */
  shown: string;
  file: string;
  args: string[];
  input?: string;
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** Checks one run's output; returns a problem, or null. */
  check(stdout: string): string | null;
}

interface Sample {
  wallMs: number;
  rssMb: number | null;
  /** User + system CPU time of the process and its children, ms (null without /usr/bin/time). */
  cpuMs: number | null;
}

export interface StartupCaseResult {
  name: string;
  command: string;
  rounds: number;
  wallMs: { median: number; min: number; max: number };
  /** Peak resident memory, MB (null without /usr/bin/time). */
  rssMb: { median: number; max: number } | null;
  /** User + system CPU time, ms: what the call costs whatever the machine's load (null without /usr/bin/time). */
  cpuMs: { median: number } | null;
  /** Median wall time over `node -e 0`'s. */
  overNode: number;
}

export interface StartupReport {
  machine: { cpu: string; cores: number; node: string; loadAverage: number[] };
  rounds: number;
  rssSource: string | null;
  cases: StartupCaseResult[];
  /** The targets of issues 19 and 27, each with whether this run met it (null when not measured). */
  targets: { name: string; value: number | null; limit: string; met: boolean | null }[];
  /** What the reference printed for the sample (its version may differ from the golden one's). */
  referenceOutput: unknown;
  /** The python3 that ran the reference: its path, version and scipy's (null without --reference). */
  python: string | null;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

function hasTime(): boolean {
  return spawnSync(TIME, ['-f', '%M', 'true'], { stdio: 'ignore' }).status === 0;
}

function runOnce(c: Case, withTime: boolean, scratch: string): Sample {
  const rssFile = path.join(scratch, 'rss');
  const [file, args] = withTime ? [TIME, ['-o', rssFile, '-f', '%M %U %S', c.file, ...c.args]] : [c.file, c.args];
  const start = performance.now();
  const run = spawnSync(file, args, { input: c.input ?? '', cwd: c.cwd, env: c.env ?? process.env, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  const wallMs = performance.now() - start;
  if (run.error) throw new Error(`${c.name}: ${run.error.message}`);
  if (run.status !== 0) throw new Error(`${c.name}: exit status ${run.status}\n${run.stderr.slice(-2000)}`);
  const problem = c.check(run.stdout);
  if (problem) throw new Error(`${c.name}: ${problem}`);
  let rssMb: number | null = null;
  let cpuMs: number | null = null;
  if (withTime) {
    const [kb, user, system] = fs.readFileSync(rssFile, 'utf8').trim().split('\n').pop()!.split(' ').map(Number);
    if (Number.isFinite(kb)) rssMb = kb / 1024;
    if (Number.isFinite(user) && Number.isFinite(system)) cpuMs = (user + system) * 1000;
  }
  return { wallMs, rssMb, cpuMs };
}

function which(program: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const p = path.join(dir, program);
    if (dir && fs.existsSync(p)) return p;
  }
  return null;
}

/** A project whose one experiment's only shard is done: the Slurm task finds nothing to do. */
function finishedShard(cli: string, dir: string): void {
  const saikoro = (...args: string[]) => {
    const r = spawnSync(process.execPath, [cli, ...args], { cwd: dir, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`saikoro ${args.join(' ')}: ${r.stderr}`);
  };
  fs.writeFileSync(
    path.join(dir, 'spec.json'),
    JSON.stringify({
      name: 'tiny',
      instances: [{ name: 'so-n30', track: 'so', n: 30 }],
      solvers: [{ name: 'random' }],
      seeds: { count: 2 },
      budget: { evaluations: 100 },
    }),
  );
  fs.mkdirSync(path.join(dir, 'results'));
  saikoro('project', 'new', 'study.saikoro');
  saikoro('experiment', 'add', 'study.saikoro', '--spec', 'spec.json');
  saikoro('experiment', 'run', 'study.saikoro', '--shard', '1/1', '--out', path.join('results', 'study.shard-1-of-1.saikoro'));
}

export async function measureStartup(context: BenchContext): Promise<StartupReport> {
  const rounds = context.quick ? 2 : 10;
  const cli = path.join(PROJECT_ROOT, 'bin', 'saikoro.mjs');
  const node = process.execPath;
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-bench-startup-'));
  try {
    const empty = path.join(scratch, 'empty');
    fs.mkdirSync(empty);
    const slurmDir = path.join(scratch, 'slurm');
    fs.mkdirSync(slurmDir);
    context.progress('startup: preparing a finished shard for the Slurm case...');
    finishedShard(cli, slurmDir);
    const made = spawnSync(process.execPath, [cli, 'project', 'new', 'empty.saikoro'], { cwd: scratch, encoding: 'utf8' });
    if (made.status !== 0) throw new Error(`saikoro project new: ${made.stderr}`);
    const jsonOf = (stdout: string) => JSON.parse(stdout.trim().split('\n').pop()!);
    const cases: Case[] = [
      { name: 'node -e 0', shown: 'node -e 0', file: node, args: ['-e', '0'], cwd: empty, check: () => null },
      {
        name: 'saikoro --help',
        shown: 'saikoro --help',
        file: node,
        args: [cli, '--help'],
        cwd: empty,
        check: (out) => (out.includes('rngbias') ? null : 'no command list'),
      },
      {
        name: 'saikoro rngbias',
        shown: `echo '"<the sample>"' | saikoro rngbias`,
        file: node,
        args: [cli, 'rngbias'],
        input: JSON.stringify(SAMPLE) + '\n',
        cwd: empty,
        check: (out) => (jsonOf(out).objective === 76.8 ? null : `objective ${jsonOf(out).objective}, expected 76.8`),
      },
      {
        name: 'saikoro eval (1 line)',
        shown: `echo '{"x": "<the sample>"}' | saikoro eval`,
        file: node,
        args: [cli, 'eval'],
        input: JSON.stringify({ x: SAMPLE }) + '\n',
        cwd: empty,
        check: (out) => (jsonOf(out).objectives?.[0] === 76.8 ? null : `objectives ${JSON.stringify(jsonOf(out).objectives)}, expected [76.8]`),
      },
      {
        name: 'saikoro project info (empty project)',
        shown: 'saikoro project info empty.saikoro',
        file: node,
        args: [cli, 'project', 'info', 'empty.saikoro', '--json'],
        cwd: scratch,
        check: (out) =>
          Array.isArray(jsonOf(out).experiments) && jsonOf(out).experiments.length === 0
            ? null
            : `experiments ${JSON.stringify(jsonOf(out).experiments)}, expected []`,
      },
      {
        name: 'saikoro solve (1,000 evals, N = 50)',
        shown: 'saikoro solve --track so --n 50 --evals 1000 --whole-budget --seed 1 --json',
        file: node,
        args: [cli, 'solve', '--track', 'so', '--n', '50', '--evals', '1000', '--whole-budget', '--seed', '1', '--json'],
        cwd: empty,
        check: (out) => (jsonOf(out).evaluations === 1000 ? null : `${jsonOf(out).evaluations} evaluations, expected 1000`),
      },
      {
        name: 'Slurm array task, nothing to do',
        shown: 'SLURM_ARRAY_TASK_ID=1 bash docs/examples/slurm-experiment.sh study.saikoro 1',
        file: 'bash',
        args: [path.join(PROJECT_ROOT, 'docs', 'examples', 'slurm-experiment.sh'), 'study.saikoro', '1'],
        cwd: slurmDir,
        env: { ...process.env, SLURM_ARRAY_TASK_ID: '1', SAIKORO_HOME: PROJECT_ROOT },
        check: () => null,
      },
    ];
    let referenceOutput: unknown = null;
    let pythonInfo: string | null = null;
    const python = which('python3');
    if (context.reference !== undefined) {
      const reference = path.resolve(context.reference);
      if (!fs.existsSync(reference)) throw new Error(`--reference ${reference}: no such file`);
      if (!python) throw new Error('--reference: python3 is not on the PATH');
      const info = spawnSync(python, ['-c', 'import sys, scipy; print(sys.executable, sys.version.split()[0], "scipy", scipy.__version__)'], {
        encoding: 'utf8',
      });
      if (info.status !== 0) throw new Error(`--reference: ${python} cannot import scipy: ${info.stderr.trim().split('\n').pop()}`);
      pythonInfo = info.stdout.trim();
      const config = JSON.stringify({ alpha: DEFAULT_ALPHA, beta: DEFAULT_BETA, gamma: DEFAULT_GAMMA, lower: DEFAULT_LOWER, upper: DEFAULT_UPPER });
      cases.push({
        name: 'reference rngbias.py (python3)',
        shown: 'python3: rngbias.py above @click.command, the sample, default config',
        file: python,
        args: ['-c', REFERENCE_DRIVER, reference, SAMPLE, config],
        cwd: empty,
        check: (out) => {
          referenceOutput = jsonOf(out);
          return null;
        },
      });
    }
    const withTime = hasTime();
    const samples = new Map<string, Sample[]>(cases.map((c) => [c.name, []]));
    for (let round = 1; round <= rounds; round++) {
      context.progress(`startup: round ${round} of ${rounds}`);
      for (const c of cases) samples.get(c.name)!.push(runOnce(c, withTime, scratch));
    }
    const nodeMedian = median(samples.get('node -e 0')!.map((s) => s.wallMs));
    const results: StartupCaseResult[] = cases.map((c) => {
      const list = samples.get(c.name)!;
      const wall = list.map((s) => s.wallMs);
      const rss = list.map((s) => s.rssMb).filter((v): v is number => v !== null);
      const cpu = list.map((s) => s.cpuMs).filter((v): v is number => v !== null);
      return {
        name: c.name,
        command: c.shown,
        rounds,
        wallMs: { median: median(wall), min: Math.min(...wall), max: Math.max(...wall) },
        rssMb: rss.length ? { median: median(rss), max: Math.max(...rss) } : null,
        cpuMs: cpu.length ? { median: median(cpu) } : null,
        overNode: median(wall) / nodeMedian,
      };
    });
    const byName = (name: string) => results.find((r) => r.name === name);
    const help = byName('saikoro --help')!;
    const rngbias = byName('saikoro rngbias')!;
    const slurm = byName('Slurm array task, nothing to do')!;
    const info = byName('saikoro project info (empty project)')!;
    const reference = byName('reference rngbias.py (python3)');
    const targets: StartupReport['targets'] = [
      { name: '--help wall time over node -e 0', value: help.overNode, limit: '<= 3', met: help.overNode <= 3 },
      { name: 'rngbias wall time over node -e 0', value: rngbias.overNode, limit: '<= 3', met: rngbias.overNode <= 3 },
      { name: '--help peak RSS (MB)', value: help.rssMb?.max ?? null, limit: '<= 80', met: help.rssMb ? help.rssMb.max <= 80 : null },
      { name: 'rngbias peak RSS (MB)', value: rngbias.rssMb?.max ?? null, limit: '<= 80', met: rngbias.rssMb ? rngbias.rssMb.max <= 80 : null },
      {
        name: 'reference rngbias.py time over rngbias',
        value: reference ? reference.wallMs.median / rngbias.wallMs.median : null,
        limit: '>= 3',
        met: reference ? reference.wallMs.median / rngbias.wallMs.median >= 3 : null,
      },
      { name: 'Slurm task with nothing to do (s)', value: slurm.wallMs.median / 1000, limit: '< 2', met: slurm.wallMs.median < 2000 },
      // Issue 27: a command that opens a project costs at most twice a rngbias call.
      {
        name: 'project info wall time over rngbias',
        value: info.wallMs.median / rngbias.wallMs.median,
        limit: '<= 2',
        met: info.wallMs.median / rngbias.wallMs.median <= 2,
      },
      {
        name: 'project info CPU time over rngbias',
        value: info.cpuMs && rngbias.cpuMs ? info.cpuMs.median / rngbias.cpuMs.median : null,
        limit: '<= 2',
        met: info.cpuMs && rngbias.cpuMs ? info.cpuMs.median / rngbias.cpuMs.median <= 2 : null,
      },
    ];
    return {
      machine: {
        cpu: os.cpus()[0]?.model ?? 'unknown',
        cores: os.cpus().length,
        node: process.version,
        loadAverage: os.loadavg().map((l) => Math.round(l * 100) / 100),
      },
      rounds,
      rssSource: withTime ? `${TIME} -f '%M %U %S'` : null,
      cases: results,
      targets,
      referenceOutput,
      python: pythonInfo,
    };
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

function tables(report: StartupReport): BenchTable[] {
  const fixed = (v: number, digits: number) => v.toFixed(digits);
  return [
    {
      title: `Start-up: one fresh process per call (median of ${report.rounds} interleaved rounds)`,
      columns: ['call', 'wall ms (median)', 'min-max', 'x node -e 0', 'CPU ms (median)', 'peak RSS MB'],
      rows: report.cases.map((c) => [
        c.name,
        fixed(c.wallMs.median, 0),
        `${fixed(c.wallMs.min, 0)}-${fixed(c.wallMs.max, 0)}`,
        fixed(c.overNode, 2),
        c.cpuMs ? fixed(c.cpuMs.median, 0) : 'n/a',
        c.rssMb ? fixed(c.rssMb.max, 0) : 'n/a',
      ]),
      notes: [
        `Machine: ${report.machine.cores} cores, ${report.machine.cpu}, Node ${report.machine.node}, load average ${report.machine.loadAverage.join(' ')} at the end.`,
        ...(report.python ? [`Reference run by ${report.python}; it printed ${JSON.stringify(report.referenceOutput)}.`] : []),
        report.rssSource
          ? `Peak RSS: the largest of the rounds; CPU: user + system time (the process and its children); both from ${report.rssSource}.`
          : 'Peak RSS and CPU time: not measured (no /usr/bin/time).',
      ],
    },
    {
      title: 'Start-up targets (issues 19 and 27)',
      columns: ['target', 'measured', 'limit', 'met'],
      rows: report.targets.map((t) => [t.name, t.value === null ? 'n/a' : fixed(t.value, 2), t.limit, t.met === null ? 'not measured' : t.met ? 'yes' : 'no']),
    },
  ];
}

export const startupBench: BenchSuite = {
  async run(context) {
    const report = await measureStartup(context);
    return { tables: tables(report), json: report };
  },
};
