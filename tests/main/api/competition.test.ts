// The API's competition calls (docs/app.md, "Competition"): a competition file made and entered
// with the CLI, opened in the app; its overview (problems by id, entrants, progress per entrant
// and track), a run from the app through the experiment sessions (events, cancel, resume), the
// standings equal to `saikoro competition standings --json` on the same file, and no band,
// weight or normalisation of a hidden instance in any answer.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { runCli } from '../cli/io.ts';
import { apiHarness, within } from './harness.ts';
import { dispatchCall } from '../../../src-main/api/dispatch.ts';
import { Project } from '../../../src-main/project/store.ts';
import { enterArchivedProgram } from '../../../src-main/app/competition.ts';
import { competitionOverview, programsRefusal } from '../../../src-main/app/competition-overview.ts';
import type { Entrant, StoredProblem } from '../../../src-shared/competition/competition.ts';
import { allowPrograms } from '../../../src-main/app/program-policy.ts';
import type { CompetitionOverview, CompetitionStandings, ExperimentSession } from '../../../src-shared/api.ts';

const SECRET = 'app-competition-secret';
let cwd: string;
let hidden: StoredProblem[];
const cli = (...argv: string[]) => runCli(argv, { cwd });

/** The ways a hidden problem's bands, weights or normalisation could be written. */
function signatures(p: StoredProblem): string[] {
  const out: string[] = [];
  for (const list of [p.bands.alpha, p.bands.beta, p.bands.gamma]) out.push(JSON.stringify(list), list.join(', '), list.join(','));
  if (p.normalisation) out.push(JSON.stringify(p.normalisation.nadir), JSON.stringify(p.normalisation.ideal));
  return [...new Set(out)].filter((s) => s.length >= 4);
}
function leak(text: string, problems: readonly StoredProblem[] = hidden): string | null {
  for (const p of problems) for (const s of signatures(p)) if (text.includes(s)) return `${p.id}: ${s}`;
  return null;
}
/** Any object naming a problem that carries bands, weights, a config or a normalisation. */
function structuredLeak(value: unknown): string | null {
  const visit = (v: unknown): string | null => {
    if (Array.isArray(v)) return v.map(visit).find((x) => x !== null) ?? null;
    if (typeof v !== 'object' || v === null) return null;
    const r = v as Record<string, unknown>;
    for (const k of ['alpha', 'beta', 'gamma', 'bands', 'config', 'normalisation', 'errors'])
      if (k in r) return `a field ${k} beside ${Object.keys(r).join(',')}`;
    return (
      Object.values(r)
        .map(visit)
        .find((x) => x !== null) ?? null
    );
  };
  return visit(value);
}

beforeAll(async () => {
  cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-app-competition-'));
  const made = await cli(
    'competition',
    'new',
    'c.saikoro',
    '--tracks',
    'so,mo2',
    '--n',
    '48',
    '--instances',
    '2',
    '--with-public',
    '--budget',
    '300',
    '--seeds',
    '2',
    '--secret',
    SECRET,
  );
  expect(made.code, made.stderr).toBe(0);
  for (const [name, solver] of [
    ['defaults', 'default'],
    ['rnd', 'random'],
  ])
    expect((await cli('competition', 'enter', 'c.saikoro', '--name', name, '--solver', solver)).code).toBe(0);
  fs.copyFileSync(path.join(cwd, 'c.saikoro'), path.join(cwd, 'fresh.saikoro'));
  const project = Project.open(path.join(cwd, 'c.saikoro'), { readOnly: true });
  hidden = project.competition()!.problems.filter((p) => p.hidden);
  project.close();
  expect(hidden).toHaveLength(4);
}, 120_000);

afterAll(() => {
  fs.rmSync(cwd, { recursive: true, force: true });
});

describe('the competition through the API', () => {
  it('a project that is no competition has none; standings and run are refused with why', async () => {
    const app = apiHarness(1, { workspace: cwd });
    try {
      expect(await app.api.getCompetition()).toBeNull();
      expect((await app.api.createProject('plain.saikoro')).competition).toBe(false);
      expect(await app.api.getCompetition()).toBeNull();
      for (const call of ['getCompetitionStandings', 'runCompetition'] as const) {
        const answer = await dispatchCall(app.api, call, []);
        expect(answer).toMatchObject({
          ok: false,
          error: { name: 'ProjectRequestError', message: 'project: plain.saikoro is not a competition file (make one with saikoro competition new)' },
        });
      }
      expect(await app.api.cancelCompetition()).toBe(false);
    } finally {
      app.dispose();
    }
  });

  it('overview, a run with its sessions, cancel and resume, and the standings of the CLI', async () => {
    const app = apiHarness(2, { workspace: cwd });
    const sessions: ExperimentSession[] = [];
    app.events.attach((m) => {
      if (m.event === 'onExperimentSession') sessions.push(m.payload as ExperimentSession);
    });
    const ended = (track: string, after: number) =>
      within(
        new Promise<ExperimentSession>((resolve) => {
          const check = () => {
            const s = sessions.slice(after).find((x) => x.experiment === track && (x.status === 'done' || x.status === 'cancelled' || x.status === 'failed'));
            if (s) resolve(s);
            else setTimeout(check, 20);
          };
          check();
        }),
        120_000,
        `track ${track}'s session to end`,
      );
    try {
      expect((await app.api.openProject('c.saikoro')).competition).toBe(true);
      const before = (await app.api.getCompetition())!;
      expect(before.file).toBe('c.saikoro');
      expect(before.definition).toMatchObject({ tracks: ['so', 'mo2'], ns: [48], instances: 2, withPublic: true, evaluations: 300, seeds: 2 });
      expect(before.problems.map((p) => p.id)).toEqual(['so-n48-i0', 'so-n48-i1', 'so-n48-i2', 'mo2-n48-i0', 'mo2-n48-i1', 'mo2-n48-i2']);
      expect(before.problems.filter((p) => p.hidden).map((p) => p.id)).toEqual(hidden.map((p) => p.id));
      expect(before.entrants.map((e) => [e.name, e.kind, e.what])).toEqual([
        ['defaults', 'built-in', 'default'],
        ['rnd', 'built-in', 'random'],
      ]);
      // 3 problems x 2 seeds per entrant and track, none run yet.
      expect(before.progress).toEqual(
        ['defaults', 'rnd'].flatMap((entrant) => ['so', 'mo2'].map((track) => ({ entrant, track, total: 6, done: 0, failed: 0, running: 0, left: 6 }))),
      );
      expect(before.totals).toEqual({ total: 24, done: 0, failed: 0, running: 0, left: 24 });
      expect(before.sandboxRefusal).toBeNull();
      expect(before.sessions).toEqual({});

      // An experiment session of a competition file is refused: it runs under the competition's policy.
      expect(await dispatchCall(app.api, 'runExperiment', ['so'])).toMatchObject({
        ok: false,
        error: { name: 'ProjectRequestError', message: expect.stringContaining('is a competition file: run it from the Competition view') },
      });

      // Started, then cancelled at once: the second track's session never starts.
      let mark = sessions.length;
      const started = await app.api.runCompetition({ jobs: 2 });
      expect(started.map((s) => [s.experiment, s.todo])).toEqual([
        ['so', 12],
        ['mo2', 12],
      ]);
      // Asked again while they go: the same sessions.
      expect((await app.api.runCompetition()).map((s) => s.startedAt)).toEqual(started.map((s) => s.startedAt));
      expect(await app.api.cancelCompetition()).toBe(true);
      const cancelledMo2 = await ended('mo2', mark);
      expect(cancelledMo2).toMatchObject({ status: 'cancelled', finished: 0 });
      await ended('so', mark);
      const half = (await app.api.getCompetition())!;
      expect(half.totals.left).toBeGreaterThan(0);
      expect(half.sessions.mo2?.status).toBe('cancelled');

      // Resumed: every run left runs, and nothing that was done runs again.
      mark = sessions.length;
      const resumed = await app.api.runCompetition({ jobs: 2 });
      // (A track with nothing left gets no session.)
      expect(resumed.map((s) => s.todo)).toEqual(
        (['so', 'mo2'] as const).map((t) => half.progress.filter((p) => p.track === t).reduce((n, p) => n + p.left, 0)).filter((n) => n > 0),
      );
      expect(resumed.reduce((s, x) => s + x.todo, 0)).toBe(half.totals.left);
      for (const s of resumed) expect((await ended(s.experiment, mark)).status).toBe('done');
      const after = (await app.api.getCompetition())!;
      expect(after.totals).toEqual({ total: 24, done: 24, failed: 0, running: 0, left: 0 });
      expect(after.progress.every((p) => p.done === 6)).toBe(true);
      expect(after.sessions.mo2?.status).toBe('done');
      // Nothing left: nothing starts, and the answer says why.
      expect(await dispatchCall(app.api, 'runCompetition', [])).toMatchObject({
        ok: false,
        error: {
          name: 'ProjectRequestError',
          message: "competition: c.saikoro: every run that runs here has run (a remote entrant's runs play against saikoro serve --competition)",
        },
      });

      // The standings are the CLI's, number for number.
      const standings = await app.api.getCompetitionStandings();
      const printed = await cli('competition', 'standings', 'c.saikoro', '--json');
      expect(printed.code, printed.stderr).toBe(0);
      const fromCli = JSON.parse(printed.stdout) as CompetitionStandings;
      expect({ ...standings, generatedAt: null }).toEqual({ ...fromCli, generatedAt: null });
      expect(standings.complete).toBe(true);
      expect(standings.standings.map((s) => s.entrant).sort()).toEqual(['defaults', 'rnd']);
      expect(standings.ecdfs.map((g) => g.group)).toEqual(['so', 'mo2', 'suite']);
      for (const g of standings.ecdfs) expect(g.ecdfs.map((e) => e.solver).sort()).toEqual(['defaults', 'rnd']);

      // No answer carries a hidden instance's bands, weights or normalisation.
      for (const answer of [before, half, after, standings, resumed, started]) {
        expect(leak(JSON.stringify(answer))).toBeNull();
        expect(structuredLeak(answer)).toBeNull();
      }
      // The detector sees them where they are.
      const project = Project.open(path.join(cwd, 'c.saikoro'), { readOnly: true });
      expect(leak(JSON.stringify(project.experiments()))).not.toBeNull();
      project.close();
    } finally {
      app.dispose();
    }
  }, 300_000);

  it('a program entrant runs from the app through the program gate and in the sandbox; a policy that runs no program refuses first', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-app-competition-programs-'));
    const here = (...argv: string[]) => runCli(argv, { cwd: dir });
    try {
      expect(
        (
          await here(
            'competition',
            'new',
            'p.saikoro',
            '--tracks',
            'so',
            '--n',
            '48',
            '--instances',
            '1',
            '--budget',
            '300',
            '--seeds',
            '2',
            '--secret',
            SECRET,
          )
        ).code,
      ).toBe(0);
      fs.mkdirSync(path.join(dir, 'node'));
      fs.copyFileSync(path.join(import.meta.dirname, '../../../examples/solvers/random_search.mjs'), path.join(dir, 'node/random_search.mjs'));
      const entered = await here('competition', 'enter', 'p.saikoro', '--name', 'node', '--dir', 'node', '--command', 'node random_search.mjs --batch 25');
      expect(entered.code, entered.stderr).toBe(0);
      expect((await here('competition', 'enter', 'p.saikoro', '--name', 'defaults', '--solver', 'default')).code).toBe(0);

      // The app's default policy (a web server without --allow-commands) runs no program: refused before anything starts.
      const refusing = apiHarness(1, { workspace: dir });
      try {
        await refusing.api.openProject('p.saikoro');
        const overview = (await refusing.api.getCompetition())!;
        expect(overview.entrants.map((e) => [e.name, e.kind, e.what])).toEqual([
          ['node', 'program', 'node random_search.mjs --batch 25'],
          ['defaults', 'built-in', 'default'],
        ]);
        expect(overview.sandboxRefusal).toBeNull();
        const answer = await dispatchCall(refusing.api, 'runCompetition', []);
        expect(answer).toMatchObject({ ok: false, error: { name: 'ProgramNotAllowedError', message: expect.stringContaining('does not run programs') } });
        expect((await refusing.api.getCompetition())!.sessions).toEqual({});
      } finally {
        refusing.dispose();
      }

      const app = apiHarness(1, { workspace: dir, programs: allowPrograms() });
      try {
        await app.api.openProject('p.saikoro');
        const started = await app.api.runCompetition();
        expect(started.map((s) => [s.experiment, s.todo])).toEqual([['so', 4]]);
        const ended = await within(
          new Promise<CompetitionOverview>((resolve) => {
            const check = async () => {
              const o = (await app.api.getCompetition())!;
              if (o.sessions.so && ['done', 'failed', 'cancelled'].includes(o.sessions.so.status)) resolve(o);
              else setTimeout(() => void check(), 100);
            };
            void check();
          }),
          120_000,
          'the competition to end',
        );
        expect(ended.sessions.so).toMatchObject({ status: 'done', finished: 4, failed: 0 });
        expect(ended.progress).toEqual([
          { entrant: 'node', track: 'so', total: 2, done: 2, failed: 0, running: 0, left: 0 },
          { entrant: 'defaults', track: 'so', total: 2, done: 2, failed: 0, running: 0, left: 0 },
        ]);
        const standings = await app.api.getCompetitionStandings();
        const printed = await here('competition', 'standings', 'p.saikoro', '--json');
        expect(printed.code, printed.stderr).toBe(0);
        expect({ ...standings, generatedAt: null }).toEqual({ ...JSON.parse(printed.stdout), generatedAt: null });
        // The program's runs evaluated their budget (random search spends it all).
        for (const line of standings.standings) expect(line.problems['so-n48-i1'].best?.evaluations).toBe(300);
      } finally {
        app.dispose();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);

  it('a program entrant runs only in the sandbox: without it, the overview and the run say why, naming the package', async () => {
    const sha = (text: string) => createHash('sha256').update(text).digest('hex');
    const file = path.join(cwd, 'fresh.saikoro');
    const program: Entrant = {
      name: 'py',
      entry: {
        kind: 'program',
        command: ['python3', 'solver.py'],
        folder: {
          sha256: 'a'.repeat(64),
          files: 1,
          bytes: 5,
          entries: [{ path: 'solver.py', kind: 'file', bytes: 5, sha256: sha('print'), executable: false }],
        },
        interpreter: null,
      },
      createdAt: '2026-12-01T00:00:01.000Z',
    };
    const project = Project.open(file);
    enterArchivedProgram(project, program, [{ path: 'solver.py', mode: 0o644, sha256: sha('print'), content: new Uint8Array(Buffer.from('print')) }]);
    // The overview with a sandbox that is missing, and one that is there.
    const missing = competitionOverview(project, 'fresh.saikoro', new Map(), new Map(), () => 'bubblewrap is not installed (install the package bubblewrap)');
    expect(missing!.sandboxRefusal).toBe('1 program entrant(s) (py) cannot run here: bubblewrap is not installed (install the package bubblewrap)');
    expect(missing!.entrants.map((e) => [e.name, e.kind, e.what])).toEqual([
      ['defaults', 'built-in', 'default'],
      ['rnd', 'built-in', 'random'],
      ['py', 'program', 'python3 solver.py'],
    ]);
    expect(competitionOverview(project, 'fresh.saikoro', new Map(), new Map(), () => null)!.sandboxRefusal).toBeNull();
    expect(programsRefusal([program], () => null)).toBeNull();
    project.close();

    const saved = process.env.SAIKORO_BWRAP;
    process.env.SAIKORO_BWRAP = 'none';
    const app = apiHarness(1, { workspace: cwd });
    try {
      await app.api.openProject('fresh.saikoro');
      const overview = (await app.api.getCompetition()) as CompetitionOverview;
      expect(overview.sandboxRefusal).toContain(
        '1 program entrant(s) (py) cannot run here: bubblewrap is switched off (SAIKORO_BWRAP=none); a competition runs its entrants only in the sandbox (Debian: apt-get install bubblewrap)',
      );
      const answer = await dispatchCall(app.api, 'runCompetition', []);
      expect(answer).toMatchObject({ ok: false, error: { name: 'ProjectRequestError', field: 'sandbox', message: `sandbox: ${overview.sandboxRefusal}` } });
      // Nothing started.
      expect((await app.api.getCompetition())!.sessions).toEqual({});
    } finally {
      app.dispose();
      if (saved === undefined) delete process.env.SAIKORO_BWRAP;
      else process.env.SAIKORO_BWRAP = saved;
    }
  });
});
