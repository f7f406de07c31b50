// Issue 26's "Done means", from the app: the competition of the CLI's done test (five tracks at
// N = 840, 5 secret instances, the built-in defaults, a Python program, a Node program and a
// hostile program; tests/main/competition-done.ts), made and entered with the CLI, runs through
// the app core's runCompetition under a policy that asks once and is answered Allow, is
// cancelled in the middle and resumed by a second runCompetition. Its standings in the app are
// `saikoro competition standings --json` on the same file, and the standings of the same
// competition run wholly by `saikoro competition run` in another folder (the runs are
// deterministic by seed). The hostile entrant's runs are stored and scored, and its own logs
// show that each attempt failed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { askOncePerProject } from '../../../src-main/app/program-policy.ts';
import type { CompetitionOverview, ExperimentSession } from '../../../src-shared/api.ts';
import { requireTool } from '../../e2e/tools.ts';
import { waitFor } from '../processes.ts';
import { runCli } from '../cli/io.ts';
import {
  RUNS,
  TRACKS,
  cliStandings,
  expectCompleteStandings,
  expectRunsScoredAndHostileContained,
  hostileTargets,
  makeDoneCompetition,
  type HostileTargets,
} from '../competition-done.ts';
import { apiHarness } from './harness.ts';

const bwrap = requireTool('bubblewrap', '/usr/bin/bwrap', 'apt-get install bubblewrap');

let root = '';
let targets: HostileTargets | null = null;
/** The app's folder (the competition made there and run from the app) and the CLI's (a copy of it, run wholly by the CLI). */
const appDir = () => path.join(root, 'app');
const cliDir = () => path.join(root, 'cli');
const cliIn =
  (cwd: string) =>
  (...argv: string[]) =>
    runCli(argv, { cwd, env: process.env });

afterAll(() => {
  targets?.close();
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

const finishedStates: ExperimentSession['status'][] = ['done', 'cancelled', 'failed'];
/** Waits until every track's session of this app has ended, and returns the overview then. */
async function allEnded(api: ReturnType<typeof apiHarness>['api'], what: string): Promise<CompetitionOverview> {
  return waitFor(
    what,
    async () => {
      const o = (await api.getCompetition())!;
      const sessions = Object.values(o.sessions);
      return sessions.length > 0 && sessions.every((s) => finishedStates.includes(s!.status)) ? o : null;
    },
    { withinMs: 1_500_000, intervalMs: 250 },
  );
}

bwrap.describe('issue 26 done, from the app: the five tracks and four entrants run, cancelled, resumed; the standings are the CLI’s', () => {
  beforeAll(async () => {
    if (!bwrap.present) return;
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-app-competition-done-'));
    fs.mkdirSync(appDir());
    fs.mkdirSync(cliDir());
    targets = await hostileTargets('app-done');
    await makeDoneCompetition(cliIn(appDir()), appDir(), 'done.saikoro', targets);
    // The same competition, run wholly by the CLI in another folder.
    fs.copyFileSync(path.join(appDir(), 'done.saikoro'), path.join(cliDir(), 'done.saikoro'));
  }, 300_000);

  it('runs from the app with a cancel in the middle and a resume; the standings equal the CLI’s on the same file and on a whole CLI run', async () => {
    // The app asks a person about the programs (once per program and project), who clicks Allow.
    const asked: string[][] = [];
    const policy = askOncePerProject(async ({ programs }) => {
      asked.push(programs.map((p) => p.name).sort());
      return true;
    });
    const app = apiHarness(2, { workspace: appDir(), programs: policy });
    const sessions: ExperimentSession[] = [];
    app.events.attach((m) => {
      if (m.event === 'onExperimentSession') sessions.push(m.payload as ExperimentSession);
    });
    try {
      expect((await app.api.openProject('done.saikoro')).competition).toBe(true);
      const before = (await app.api.getCompetition())!;
      expect(before.sandboxRefusal).toBeNull();
      expect(before.entrants.map((e) => [e.name, e.kind])).toEqual([
        ['defaults', 'built-in'],
        ['python', 'program'],
        ['node', 'program'],
        ['hostile', 'program'],
      ]);
      expect(before.totals).toEqual({ total: RUNS, done: 0, failed: 0, running: 0, left: RUNS });

      // Run, and cancel in the middle: once the second track has finished some of its runs.
      const started = await app.api.runCompetition({ jobs: 2 });
      expect(started.map((s) => [s.experiment, s.todo])).toEqual(TRACKS.map((t) => [t, 20]));
      await waitFor(
        'the second track to finish 5 runs',
        () => {
          const failed = sessions.find((s) => s.status === 'failed');
          if (failed) throw new Error(`track ${failed.experiment}'s session failed: ${failed.error}`);
          return sessions.some((s) => s.experiment === 'mo2' && s.finished >= 5);
        },
        {
          withinMs: 1_500_000,
          intervalMs: 50,
        },
      );
      expect(await app.api.cancelCompetition()).toBe(true);
      const half = await allEnded(app.api, 'the cancelled sessions to end');
      await targets!.noChildrenLeft();
      expect(half.sessions.so?.status).toBe('done');
      expect(half.sessions.mo2?.status).toBe('cancelled');
      expect(half.sessions.mo7).toMatchObject({ status: 'cancelled', finished: 0 });
      expect(half.totals.failed).toBe(0);
      expect(half.totals.done).toBeGreaterThanOrEqual(25);
      expect(half.totals.left).toBe(RUNS - half.totals.done);
      expect(half.totals.left).toBeGreaterThan(0);

      // Resumed by a second runCompetition: every run left runs, nothing done runs again.
      const resumed = await app.api.runCompetition({ jobs: 2 });
      expect(resumed.map((s) => s.experiment)).toEqual(TRACKS.slice(1));
      expect(resumed.reduce((n, s) => n + s.todo, 0)).toBe(half.totals.left);
      const after = await allEnded(app.api, 'the resumed sessions to end');
      await targets!.noChildrenLeft();
      for (const t of TRACKS.slice(1)) expect(after.sessions[t as keyof CompetitionOverview['sessions']]?.status, t).toBe('done');
      expect(after.totals).toEqual({ total: RUNS, done: RUNS, failed: 0, running: 0, left: 0 });

      // The person was asked about the three programs, and only those.
      expect([...new Set(asked.flat())].sort()).toEqual(['hostile', 'node', 'python']);

      // Every run stored and scored; the hostile entrant's attempts each failed by its own logs.
      expectRunsScoredAndHostileContained(path.join(appDir(), 'done.saikoro'), targets!);

      // The app's standings are the CLI's on the same file ...
      const { generatedAt, file, ...fromApp } = await app.api.getCompetitionStandings();
      expect(typeof generatedAt).toBe('string');
      expect(file).toBeDefined();
      const fromCli = await cliStandings(cliIn(appDir()), 'done.saikoro');
      expect(fromApp).toEqual(fromCli);
      expectCompleteStandings(fromApp);

      // ... and those of the same competition run wholly by `saikoro competition run` in another folder.
      const ran = await cliIn(cliDir())('competition', 'run', 'done.saikoro', '--jobs', '2');
      expect(ran.code, ran.stderr).toBe(0);
      expect(ran.stdout).toBe(TRACKS.map((t) => `${t}: 20 runs: 0 finished before, 20 done now, 0 failed, 0 not run\n`).join(''));
      await targets!.noChildrenLeft();
      expect(await cliStandings(cliIn(cliDir()), 'done.saikoro')).toEqual(fromApp);
    } finally {
      app.dispose();
    }
  }, 1_800_000);
});
