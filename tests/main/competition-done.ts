// Issue 26's "Done means" competition, shared by its CLI test (tests/main/cli/competition-done.test.ts)
// and its app test (tests/main/api/competition-done.test.ts): the five tracks at N = 840 with 5
// secret instances and four entrants (the built-in defaults, blind; a Python program; a Node
// program; a hostile program), made and entered with the CLI; the hostile program's targets
// (a port that counts connections, a file outside its folder, a token its children carry); and
// the checks of the stored runs and of the hostile attempts.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { Project } from '../../src-main/project/store.ts';
import { evaluateDice } from '../../src-shared/problems/dice/evaluate.ts';
import { expandGrid } from '../../src-shared/experiments/grid.ts';
import { killAll, processesWithArgument, waitFor } from './processes.ts';
import type { runCli } from './cli/io.ts';

export const REPO = path.resolve(import.meta.dirname, '../..');
const HOSTILE = path.join(REPO, 'tests/fixtures/external/hostile-solver.mjs');
export const TRACKS = ['so', 'mo2', 'mo3', 'mo5', 'mo7'];
export const BUDGET = 300;
export const ENTRANTS = ['defaults', 'python', 'node', 'hostile'];
export const RUNS = TRACKS.length * 5 * ENTRANTS.length;
export const COMMANDS: Record<string, string[]> = {
  python: ['python3', 'local_search.py', '--climbers', '10'],
  node: ['node', 'random_search.mjs', '--batch', '25'],
  hostile: ['node', 'run.mjs'],
};

type Cli = (...argv: string[]) => ReturnType<typeof runCli>;

/** What the hostile program aims at: a listening port that counts connections, a file outside, a token in its children's arguments. */
export interface HostileTargets {
  port: number;
  outside: string;
  token: string;
  connections(): number;
  /** No child of a hostile run outlives it (its PID namespace ends with it). */
  noChildrenLeft(): Promise<void>;
  close(): void;
}

export async function hostileTargets(tag: string): Promise<HostileTargets> {
  let connections = 0;
  const server = net.createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const token = `hostile-${tag}-${process.pid}`;
  const outside = path.join(fs.existsSync('/var/tmp') ? '/var/tmp' : os.homedir(), `saikoro-${tag}-outside-${process.pid}.txt`);
  return {
    port: (server.address() as net.AddressInfo).port,
    outside,
    token,
    connections: () => connections,
    async noChildrenLeft() {
      await waitFor('the hostile children to end', () => processesWithArgument(token).length === 0, { withinMs: 10_000 }).catch(() => undefined);
      expect(processesWithArgument(token)).toEqual([]);
    },
    close() {
      server.close();
      killAll(processesWithArgument(token));
      fs.rmSync(outside, { force: true });
    },
  };
}

/**
 * Makes the competition `file` in `cwd` with the CLI and enters the four entrants, each program
 * from its own folder holding only what it needs. The hostile program reads its targets from its
 * folder (an entrant's command has no environment of its own), aiming at `file`.
 */
export async function makeDoneCompetition(cli: Cli, cwd: string, file: string, targets: HostileTargets): Promise<void> {
  fs.mkdirSync(path.join(cwd, 'python'));
  fs.copyFileSync(path.join(REPO, 'examples/solvers/local_search.py'), path.join(cwd, 'python/local_search.py'));
  fs.copyFileSync(path.join(REPO, 'clients/python/saikoro_client.py'), path.join(cwd, 'python/saikoro_client.py'));
  fs.mkdirSync(path.join(cwd, 'node'));
  fs.copyFileSync(path.join(REPO, 'examples/solvers/random_search.mjs'), path.join(cwd, 'node/random_search.mjs'));
  fs.mkdirSync(path.join(cwd, 'hostile'));
  fs.copyFileSync(HOSTILE, path.join(cwd, 'hostile/hostile-solver.mjs'));
  const env = { HOSTILE_PROJECT: path.join(cwd, file), HOSTILE_PORT: String(targets.port), HOSTILE_OUTSIDE: targets.outside, HOSTILE_TOKEN: targets.token };
  fs.writeFileSync(path.join(cwd, 'hostile/targets.json'), JSON.stringify(env));
  fs.writeFileSync(
    path.join(cwd, 'hostile/run.mjs'),
    "import fs from 'node:fs';\nObject.assign(process.env, JSON.parse(fs.readFileSync('targets.json', 'utf8')));\nawait import('./hostile-solver.mjs');\n",
  );

  const made = await cli(
    'competition',
    'new',
    file,
    '--tracks',
    TRACKS.join(','),
    '--n',
    '840',
    '--instances',
    '5',
    '--budget',
    String(BUDGET),
    '--seeds',
    '1',
    '--secret',
    'done-means-secret',
  );
  expect(made.code, made.stderr).toBe(0);
  for (const args of [
    ['--name', 'defaults', '--solver', 'default'],
    ...Object.entries(COMMANDS).map(([name, command]) => ['--name', name, '--dir', name, '--command', command.join(' ')]),
  ]) {
    const entered = await cli('competition', 'enter', file, ...args);
    expect(entered.code, entered.stderr).toBe(0);
  }
}

/** The standings as `competition standings --json` prints them, without when and where they were made. */
export async function cliStandings(cli: Cli, file: string): Promise<Record<string, unknown>> {
  const r = await cli('competition', 'standings', file, '--json');
  expect(r.code, r.stderr).toBe(0);
  const { generatedAt, file: _file, ...rest } = JSON.parse(r.stdout);
  expect(typeof generatedAt).toBe('string');
  return rest;
}

/** The attempts the hostile program reported in a run's log: name -> [done, detail]. */
export function attempts(log: string): Record<string, [boolean, string]> {
  const found: Record<string, [boolean, string]> = {};
  for (const m of log.matchAll(/^attempt ([\w-]+): (done|failed) (.*)$/gm)) found[m[1]] = [m[2] === 'done', m[3]];
  return found;
}

/**
 * The runs stored in `file` (the competition's path, as the hostile targets name it): all
 * RUNS done at the budget, every best of one objective the exact evaluator's, every entrant
 * blind; the hostile entrant's 25 runs stored and scored, each of its attempts failed by its
 * own report, and nothing of it shows outside (no connection, no file written).
 */
export function expectRunsScoredAndHostileContained(file: string, targets: HostileTargets): void {
  const project = Project.open(file, { readOnly: true });
  const runs = project.runs();
  const grid = new Map(
    project
      .experiments()
      .flatMap((e) => expandGrid(e.spec))
      .map((g) => [g.id, g]),
  );
  project.close();
  expect(runs).toHaveLength(RUNS);
  for (const run of runs) {
    expect(run.status, `${run.instance} ${run.label}`).toBe('done');
    expect(run.evaluations).toBe(BUDGET);
    // Every best (one objective) is what the exact evaluator gives its sequence on the secret instance.
    const best = run.result!.best;
    if (run.instance.startsWith('so-') && best) expect(evaluateDice(best.x, grid.get(run.id)!.config).objectives).toEqual(best.objectives);
    // Blind: a built-in's run says so itself (part of its id), a program's in its program record.
    if (run.label === 'defaults') expect(run.blind).toBe(true);
    else expect(run.result!.program).toMatchObject({ blind: true, command: COMMANDS[run.label] });
  }

  // The hostile entrant: every attempt, in every run, failed by its own report.
  const hostile = runs.filter((r) => r.label === 'hostile');
  expect(hostile).toHaveLength(25);
  for (const run of hostile) {
    const tried = attempts(run.result!.log ?? '');
    expect(tried['read-project'], run.instance).toEqual([false, `${file}: ENOENT`]);
    expect(tried.network).toEqual([false, 'ECONNREFUSED']);
    for (const [name, target] of [
      ['write-outside', targets.outside],
      ['write-project', path.join(path.dirname(file), 'hostile-was-here.txt')],
    ]) {
      expect(tried[name][0], name).toBe(false);
      expect(tried[name][1]).toMatch(/: E(NOENT|ROFS|ACCES)$/);
      expect(tried[name][1].startsWith(`${target}: `)).toBe(true);
    }
    // Its children were started (and none is left: noChildrenLeft).
    expect(tried.children[0]).toBe(true);
  }
  expect(targets.connections()).toBe(0);
  expect(fs.existsSync(targets.outside)).toBe(false);
  expect(fs.existsSync(path.join(path.dirname(file), 'hostile-was-here.txt'))).toBe(false);
}

/** The standings' own checks: the four entrants ranked over the 25 problems, the hostile one scored on what it evaluated. */
export function expectCompleteStandings(whole: Record<string, unknown>): void {
  expect(whole).toMatchObject({ complete: true, runs: { total: RUNS, done: RUNS, failed: 0, missing: 0 }, contradictions: [] });
  const lines = whole.standings as {
    entrant: string;
    rank: number;
    score: number;
    problems: Record<string, { best: { evaluations: number | null } | null }>;
  }[];
  expect(lines.map((l) => l.entrant).sort()).toEqual([...ENTRANTS].sort());
  for (const line of lines) {
    expect(Object.keys(line.problems)).toHaveLength(25);
    expect(line.score).toBeGreaterThanOrEqual(1);
    expect(line.score).toBeLessThanOrEqual(ENTRANTS.length);
  }
  const hostileLine = lines.find((l) => l.entrant === 'hostile')!;
  expect(Object.values(hostileLine.problems).every((p) => p.best !== null)).toBe(true);
  // The ranks of the entrants average to the middle rank on every problem.
  expect(lines.reduce((s, l) => s + l.score, 0)).toBeCloseTo((ENTRANTS.length * (ENTRANTS.length + 1)) / 2, 9);
}
