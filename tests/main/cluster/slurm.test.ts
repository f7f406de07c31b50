// The cluster path end to end on a real (private, single-node) Slurm: the documented job array
// of docs/examples/slurm-experiment.sh, two tasks cancelled, re-submitted as the docs say,
// merged as the docs say, and the merged project equal to a local run of the same experiment.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import type { RunRecord } from '../../../src-main/project/project-records.ts';
import { Project } from '../../../src-main/project/store.ts';
import { reproducible } from '../../../src-main/app/experiment-verify.ts';
import { requireTool } from '../../e2e/tools.ts';
import { SLURM_TOOLS, SlurmCluster, which } from './slurm-cluster.ts';
import { installPackage } from '../../e2e/package.ts';

const REPO = fileURLToPath(new URL('../../..', import.meta.url));
const CLI = path.join(REPO, 'bin', 'saikoro.mjs');
const SHARDS = 4;

// The shared policy: skipped with a message when Slurm is missing, a failing test under CI.
const tools = Object.entries(SLURM_TOOLS).map(([name, debianPath]) => requireTool(name, which(name) ?? debianPath, 'apt-get install slurm-wlm munge'));
const slurm = tools.find((t) => !t.present) ?? tools[0];

// 8 runs of a few milliseconds each: 2 per shard.
const spec = {
  name: 'tiny',
  instances: [{ name: 'so-n30', track: 'so', n: 30 }],
  solvers: [{ name: 'random' }, { name: 'hill-climbing' }],
  seeds: { count: 4 },
  budget: { evaluations: 200 },
};

slurm.describe('docs/examples/slurm-experiment.sh on a private single-node Slurm', () => {
  let cluster: SlurmCluster | undefined;
  let work = '';
  const cleanupDirs: string[] = [];

  afterAll(async () => {
    await cluster?.stop();
    if (work) fs.rmSync(work, { recursive: true, force: true });
    for (const dir of cleanupDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  const node = (args: string[], cwd: string) => cluster!.check(process.execPath, [CLI, ...args], { cwd, timeoutMs: 60_000 });
  const bash = (line: string, cwd: string) => cluster!.check('bash', ['-c', line], { cwd, timeoutMs: 60_000 });
  const logs = () =>
    fs
      .readdirSync(work)
      .filter((f) => f.endsWith('.log'))
      .map((f) => `--- ${f}\n${fs.readFileSync(path.join(work, f), 'utf8')}`)
      .join('\n');

  it('runs the documented array; cancelled tasks re-submitted as documented; the merge equals a local run', async () => {
    // Started here, not in beforeAll, so that a cluster that does not come up is a failed test
    // (a failing beforeAll only marks the test skipped).
    cluster = await SlurmCluster.start();

    // The submit directory looks like the Saikoro checkout the docs submit from (bin,
    // node_modules and the script, linked), with the project in it. No SAIKORO_HOME: the
    // script must find Saikoro from the submit directory, not from its spool copy's path.
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-slurm-work-'));
    fs.symlinkSync(path.join(REPO, 'bin'), path.join(work, 'bin'));
    fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(work, 'node_modules'));
    fs.mkdirSync(path.join(work, 'docs'));
    fs.symlinkSync(path.join(REPO, 'docs', 'examples'), path.join(work, 'docs', 'examples'));
    fs.writeFileSync(path.join(work, 'spec.json'), JSON.stringify(spec));
    await node(['project', 'new', 'study.saikoro'], work);
    await node(['experiment', 'add', 'study.saikoro', '--spec', 'spec.json'], work);
    // The same experiment run locally, in its own directory, for the comparison at the end.
    const local = path.join(work, 'local');
    fs.mkdirSync(local);
    await node(['project', 'new', 'study.saikoro'], local);
    await node(['experiment', 'add', 'study.saikoro', '--spec', '../spec.json'], local);
    await node(['experiment', 'run', 'study.saikoro', '--jobs', '2'], local);

    // The documented submission (docs: `sbatch --array=1-32%8 docs/examples/slurm-experiment.sh
    // study.saikoro 32`) with N = 4, held so that tasks 2 and 4 can be cancelled before they
    // start, deterministically; then the rest is released.
    const submit = (array: string, ...extra: string[]) =>
      cluster!.check('sbatch', ['--parsable', ...extra, `--array=${array}`, 'docs/examples/slurm-experiment.sh', 'study.saikoro', String(SHARDS)], {
        cwd: work,
      });
    const job = (await submit('1-4', '--hold')).trim().split(';')[0];
    await cluster!.check('scancel', [`${job}_2`, `${job}_4`]);
    await cluster!.check('scontrol', ['release', job]);
    await cluster!.waitForJob(job, 60_000);
    // A pending task that is cancelled leaves the array without a trace (no accounting here).
    expect(await cluster!.taskStates(job), logs()).toEqual({ '1': { state: 'COMPLETED', exitCode: '0:0' }, '3': { state: 'COMPLETED', exitCode: '0:0' } });
    expect(fs.readdirSync(path.join(work, 'results')).sort()).toEqual(['study.shard-1-of-4.saikoro', 'study.shard-3-of-4.saikoro']);

    // Merge what there is, as documented; status shows the cancelled tasks' runs missing.
    const merge = `node bin/saikoro.mjs merge study.saikoro results/study.shard-*-of-${SHARDS}.saikoro`;
    const firstMerge = await bash(merge, work);
    expect(await node(['experiment', 'status', 'study.saikoro'], work)).toContain('tiny: 4/8 done, 0 failed, 4 missing');
    // Merge itself says what is still missing: the runs of shards 2 and 4 (every other run of the grid).
    expect(firstMerge).toContain('tiny: 4/8 runs done; still to run: 4 missing (saikoro experiment run study.saikoro tiny):');
    expect(firstMerge.split('\n').filter((l) => l.startsWith('  missing ')).length).toBe(4);

    // Re-submit just the cancelled tasks, as documented: task ids 2 and 4 are shards 2 and 4
    // of the same N (the submission itself has 2 tasks, so SLURM_ARRAY_TASK_COUNT is 2).
    const again = (await submit('2,4')).trim().split(';')[0];
    await cluster!.waitForJob(again, 60_000);
    expect(await cluster!.taskStates(again), logs()).toEqual({ '2': { state: 'COMPLETED', exitCode: '0:0' }, '4': { state: 'COMPLETED', exitCode: '0:0' } });
    expect(fs.readFileSync(path.join(work, `saikoro-${again}_4.log`), 'utf8')).toContain(
      'tiny: 2 runs in shard 4/4: 0 already done, 2 done now, 0 failed, 0 not run',
    );
    expect(fs.readdirSync(path.join(work, 'results')).sort()).toEqual([1, 2, 3, 4].map((k) => `study.shard-${k}-of-4.saikoro`));

    // The same merge again: it adds the new shards' runs (the others are already there).
    expect(await bash(merge, work)).toContain('tiny: all 8 runs done');
    expect(await node(['experiment', 'status', 'study.saikoro'], work)).toContain('tiny: 8/8 done, 0 failed, 0 missing');

    // Run for run, the merged project is the local run: same ids, inputs and results (wall
    // times aside).
    const comparable = (r: RunRecord) => {
      const { startedAt, finishedAt, elapsedMs, result, ...rest } = r;
      (void startedAt, void finishedAt, void elapsedMs);
      return { ...rest, result: result && reproducible(result) };
    };
    const read = (file: string) => {
      const project = Project.open(file, { readOnly: true });
      try {
        return {
          experiments: project.experiments().map((e) => e.spec),
          runs: project
            .runs()
            .map(comparable)
            .sort((a, b) => a.id.localeCompare(b.id)),
        };
      } finally {
        project.close();
      }
    };
    const fromSlurm = read(path.join(work, 'study.saikoro'));
    const fromLocal = read(path.join(local, 'study.saikoro'));
    expect(fromSlurm.runs).toHaveLength(8);
    expect(fromSlurm.runs.every((r) => r.status === 'done')).toBe(true);
    expect(fromSlurm).toEqual(fromLocal);
  }, 120_000);

  it('runs the array with the installed saikoro (npm install -g of the tarball), from a folder that is no checkout', async () => {
    cluster ??= await SlurmCluster.start();
    const pkg = await installPackage();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-slurm-installed-'));
    try {
      // A login shell's PATH with the installed saikoro on it; the script, copied out of the
      // package as the docs say, finds saikoro there (no SAIKORO_HOME, no checkout around).
      const env = { PATH: [path.join(pkg.prefix, 'bin'), cluster.env().PATH].join(path.delimiter) };
      const saikoro = (args: string[]) => cluster!.check(path.join(pkg.prefix, 'bin', 'saikoro'), args, { cwd: dir, env, timeoutMs: 60_000 });
      // cp "$(saikoro help slurm --path)" . (a --prefix install: $(npm root -g) would be wrong here)
      const script = (await saikoro(['help', 'slurm', '--path'])).trim();
      expect(script).toBe(path.join(pkg.home, 'docs', 'examples', 'slurm-experiment.sh'));
      fs.copyFileSync(script, path.join(dir, 'slurm-experiment.sh'));
      fs.writeFileSync(path.join(dir, 'spec.json'), JSON.stringify(spec));
      await saikoro(['project', 'new', 'study.saikoro']);
      await saikoro(['experiment', 'add', 'study.saikoro', '--spec', 'spec.json']);
      const job = (await cluster.check('sbatch', ['--parsable', '--array=1-2', 'slurm-experiment.sh', 'study.saikoro', '2'], { cwd: dir, env }))
        .trim()
        .split(';')[0];
      await cluster.waitForJob(job, 60_000);
      const log = (k: number) => fs.readFileSync(path.join(dir, `saikoro-${job}_${k}.log`), 'utf8');
      expect(await cluster.taskStates(job), log(1)).toEqual({ '1': { state: 'COMPLETED', exitCode: '0:0' }, '2': { state: 'COMPLETED', exitCode: '0:0' } });
      for (const k of [1, 2]) {
        expect(log(k)).toContain(`(Saikoro: installed ${path.join(pkg.prefix, 'bin', 'saikoro')}, host `);
        expect(log(k)).toContain(`tiny: 4 runs in shard ${k}/2: 0 already done, 4 done now, 0 failed, 0 not run`);
      }
      expect(await saikoro(['merge', 'study.saikoro', 'results/study.shard-1-of-2.saikoro', 'results/study.shard-2-of-2.saikoro'])).toContain(
        'tiny: all 8 runs done',
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
      fs.rmSync(path.dirname(pkg.prefix), { recursive: true, force: true });
    }
  }, 600_000);

  it("runs a competition as the documented array (its program entrant in the sandbox on the node); the merge has the local run's standings", async () => {
    cluster ??= await SlurmCluster.start();
    // A checkout-like submit directory, as in the first test, with a competition file in it:
    // two tracks, two secret instances, the defaults and a Node program entrant.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-slurm-competition-'));
    cleanupDirs.push(dir);
    fs.symlinkSync(path.join(REPO, 'bin'), path.join(dir, 'bin'));
    fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'));
    fs.mkdirSync(path.join(dir, 'docs'));
    fs.symlinkSync(path.join(REPO, 'docs', 'examples'), path.join(dir, 'docs', 'examples'));
    fs.mkdirSync(path.join(dir, 'node-entrant'));
    fs.copyFileSync(path.join(REPO, 'examples', 'solvers', 'random_search.mjs'), path.join(dir, 'node-entrant', 'random_search.mjs'));
    await node(
      [
        'competition',
        'new',
        'comp.saikoro',
        '--tracks',
        'so,mo2',
        '--n',
        '60',
        '--instances',
        '2',
        '--budget',
        '200',
        '--seeds',
        '2',
        '--secret',
        'slurm-competition',
      ],
      dir,
    );
    await node(['competition', 'enter', 'comp.saikoro', '--name', 'defaults', '--solver', 'default'], dir);
    await node(['competition', 'enter', 'comp.saikoro', '--name', 'node', '--dir', 'node-entrant', '--command', 'node random_search.mjs --batch 20'], dir);
    fs.copyFileSync(path.join(dir, 'comp.saikoro'), path.join(dir, 'local.saikoro'));
    await node(['competition', 'run', 'local.saikoro', '--jobs', '2'], dir);

    const job = (await cluster!.check('sbatch', ['--parsable', '--array=1-2', 'docs/examples/slurm-experiment.sh', 'comp.saikoro', '2'], { cwd: dir }))
      .trim()
      .split(';')[0];
    await cluster!.waitForJob(job, 120_000);
    const log = (k: number) => fs.readFileSync(path.join(dir, `saikoro-${job}_${k}.log`), 'utf8');
    expect(await cluster!.taskStates(job), `${log(1)}\n${log(2)}`).toEqual({
      '1': { state: 'COMPLETED', exitCode: '0:0' },
      '2': { state: 'COMPLETED', exitCode: '0:0' },
    });
    // The script saw a competition: competition run's lines ("finished before").
    for (const k of [1, 2]) expect(log(k)).toContain(`so: 4 runs in shard ${k}/2: 0 finished before, 4 done now, 0 failed, 0 not run`);
    expect(await bash('node bin/saikoro.mjs merge comp.saikoro results/comp.shard-*-of-2.saikoro', dir)).toContain('mo2: all 8 runs done');
    const standings = async (file: string) => {
      const { generatedAt, file: _file, ...rest } = JSON.parse(await node(['competition', 'standings', file, '--json'], dir));
      (void generatedAt, void _file);
      return rest;
    };
    const merged = await standings('comp.saikoro');
    expect(merged).toMatchObject({ complete: true, runs: { total: 16, done: 16, failed: 0, missing: 0 } });
    expect(merged.standings.map((l: { entrant: string }) => l.entrant).sort()).toEqual(['defaults', 'node']);
    expect(merged).toEqual(await standings('local.saikoro'));
  }, 600_000);
});
