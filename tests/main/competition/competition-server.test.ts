// saikoro serve --competition (issue 29): remote entrants over real WebSockets on 127.0.0.1,
// each with its token and its budget, against the same competition run locally.
// - The Python client (--remote URL --token T) runs examples/solvers/local_search.py unchanged
//   and plays every run of its entrant, one per start; the Node entrant plays random_search.mjs's
//   requests. Each remote run's stored result equals the local run of the same program with the
//   same seed (best, front, exact trace, front log: what the standings read).
// - The standings the server shows equal those of the same competition with the same entrants
//   entered as programs and run by saikoro competition run.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppServer } from '../../../src-main/server/app-server.ts';
import { runCli } from '../cli/io.ts';
import {
  CLIENT,
  comparable,
  competitionCli,
  enterRemote,
  expectSameStandings,
  LOCAL_SEARCH,
  localCompetition,
  localRun,
  newCompetition,
  NODE_LOCAL,
  NODE_PROGRAM,
  playRandomSearch,
  PY_LOCAL,
  PY_PROGRAM,
  runPython as python,
  serveCompetition,
  Socket,
  storedRuns,
  wsUrl,
  type Hello,
} from './remote-helpers.ts';

const SECRET = 'service-test-secret-29';
const ORGANISER = 'organiser-token-of-the-test-server';

let cwd: string;
let app: AppServer;
const tokens: Record<string, string> = {};
const cli = (...argv: string[]) => runCli(argv, { cwd });

const get = (p: string, token?: string) => fetch(`${app.origin}${p}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} });

beforeAll(async () => {
  cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-competition-server-'));
  await newCompetition(cwd, 'c.saikoro', SECRET);
  for (const name of ['py', 'node']) tokens[name] = await enterRemote(cwd, 'c.saikoro', name);
  await competitionCli(cwd, 'enter', 'c.saikoro', '--name', 'rnd', '--solver', 'random');
  app = await serveCompetition(cwd, 'c.saikoro', ORGANISER);
  // The built-in entrant runs while the server serves the file (as docs/competition.md allows): the standings below read its runs.
  await competitionCli(cwd, 'run', 'c.saikoro', '--jobs', '1');
}, 120_000);

afterAll(async () => {
  await app?.close();
  fs.rmSync(cwd, { recursive: true, force: true });
});

const storedRemoteResults = (entrant: string) => storedRuns(path.join(cwd, 'c.saikoro'), entrant);

describe('remote entrants over real WebSockets', () => {
  it('the Python client runs local_search.py unchanged with --remote and --token, one run per start, and each run equals the local run', async () => {
    const starts = [];
    for (let i = 0; i < 5; i++) starts.push(await python([LOCAL_SEARCH, '--remote', app.origin, '--token', tokens.py]));
    expect(starts.slice(0, 4).map((s) => [s.code, s.stderr])).toEqual(Array(4).fill([0, '']));
    expect(starts[4].code).toBe(1);
    expect(starts[4].stderr).toContain('saikoro_client.NothingLeft: nothing left to play on');
    const competition = app.competition!.competition;
    const runs = storedRemoteResults('py');
    expect(runs.map((r) => [r.problem, r.seed, r.record?.status, r.record?.remote, r.record?.evaluations])).toEqual([
      ['so-n60-i1', 1, 'done', true, 300],
      ['so-n60-i1', 2, 'done', true, 300],
      ['mo2-n60-i1', 1, 'done', true, 300],
      ['mo2-n60-i1', 2, 'done', true, 300],
    ]);
    for (const r of runs) {
      const local = await localRun(competition, r.problem, 'py', PY_LOCAL.command, r.seed, PY_LOCAL.files);
      expect(comparable(r.record!.result), `${r.problem} seed ${r.seed}`).toEqual(comparable(local));
    }
  }, 240_000);

  it('the client takes its two options out of sys.argv, reads them from the environment too, and says what the server refused', async () => {
    const probe = [
      '-c',
      [
        'import sys, json',
        `sys.path.insert(0, ${JSON.stringify(path.dirname(CLIENT))})`,
        'import saikoro_client as c',
        'print(json.dumps(sys.argv))',
        'try:',
        '    c.connect()',
        'except c.RemoteError as e:',
        '    print(json.dumps([type(e).__name__, e.status, str(e)]))',
      ].join('\n'),
    ];
    const wrong = await python([...probe, 'a', '--remote', app.origin, '-x', '--token=skt_wrong', 'b']);
    expect(wrong.stderr).toBe('');
    const [argv, refused] = wrong.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(argv).toEqual(['-c', 'a', '-x', 'b']);
    expect(refused).toEqual([
      'RemoteError',
      401,
      "the server refused (401): this token is not valid here (revoked, replaced by a newer one, or not this competition's); ask the organiser for a token",
    ]);
    const used = await python([...probe], { SAIKORO_REMOTE: `${app.origin}api/competition/so-n60-i1`, SAIKORO_TOKEN: tokens.py });
    expect(JSON.parse(used.stdout.trim().split('\n')[1])).toEqual([
      'NothingLeft',
      409,
      'the server refused (409): py has used its whole budget on so-n60-i1: 2 run(s) of 300 evaluations',
    ]);
    const missing = await python([...probe, '--remote', app.origin]);
    expect([missing.code, missing.stderr.trim()]).toEqual([1, 'saikoro_client: --remote needs --token T (or SAIKORO_TOKEN): the token the organiser gave you']);
  });

  it("the Node entrant plays random_search.mjs's requests over ws and each run equals the local run of random_search.mjs", async () => {
    for (const problem of ['so-n60-i1', 'mo2-n60-i1'])
      for (const seed of [1, 2]) {
        const played = await playRandomSearch(app.origin, tokens.node, problem);
        expect([played.hello.seed, played.hello.remaining, played.answered, played.stop]).toEqual([seed, 300, 300, 'budget']);
        // The hello is the blind first line of a pipe run, with what is left of the budget.
        expect(played.hello).toEqual({
          protocol: 1,
          problem: { n: 60, lower: 1, upper: 6, objectives: problem.startsWith('so') ? 1 : 2, constraints: 12 },
          budget: { evaluations: 300 },
          seed,
          remaining: 300,
        });
      }
    const competition = app.competition!.competition;
    for (const r of storedRemoteResults('node')) {
      const local = await localRun(competition, r.problem, 'node', NODE_LOCAL.command, r.seed, NODE_LOCAL.files);
      expect(comparable(r.record!.result), `${r.problem} seed ${r.seed}`).toEqual(comparable(local));
    }
  }, 240_000);

  it("an entrant reads its own history (evaluations used and left, the best so far) and nobody else's", async () => {
    const own = await (await get('api/competition', tokens.node)).json();
    expect(own.entrant).toBe('node');
    expect(
      own.problems.map((p: { id: string; runs: { seed: number; state: string; evaluations: number; remaining: number }[] }) => [
        p.id,
        p.runs.map((r) => [r.seed, r.state, r.evaluations, r.remaining]),
      ]),
    ).toEqual([
      [
        'so-n60-i1',
        [
          [1, 'done', 300, 0],
          [2, 'done', 300, 0],
        ],
      ],
      [
        'mo2-n60-i1',
        [
          [1, 'done', 300, 0],
          [2, 'done', 300, 0],
        ],
      ],
    ]);
    // The best so far of a finished run is its score in the standings (the entrant's best run of the problem is one of its two).
    const line = app.competition!.standings().report.standings.find((s) => s.entrant === 'node')!;
    expect([own.problems[0].runs[0].best, own.problems[0].runs[1].best]).toContainEqual(line.problems['so-n60-i1'].best);
    // The organiser sees every remote entrant; an entrant cannot name another.
    const all = await (await get('api/competition', ORGANISER)).json();
    expect(all.entrants.map((e: { entrant: string }) => e.entrant)).toEqual(['py', 'node']);
    expect((await (await get('api/competition?entrant=py', tokens.node)).json()).entrant).toBe('node');
  });

  it('the standings and ECDFs equal those of the same entrants entered as programs and run by competition run', async () => {
    const expected = await localCompetition(cwd, 'local.saikoro', SECRET, [PY_PROGRAM, NODE_PROGRAM, { name: 'rnd', solver: 'random' }]);
    // The server's standings are competition standings' report (one computation), with progress.
    const served = await (await get('api/competition/standings', ORGANISER)).json();
    expect(served.format).toBe('saikoro-competition');
    expectSameStandings(served, expected, ['py', 'node', 'rnd'], 12);
    // And the CLI's standings of the served file say the same.
    const cliStandings = await cli('competition', 'standings', 'c.saikoro', '--json');
    expect(cliStandings.code, cliStandings.stderr).toBe(0);
    expect(JSON.parse(cliStandings.stdout).standings).toEqual(expected.standings);
    expect(served.progress).toEqual([
      { entrant: 'py', done: 4, failed: 0, live: 0, missing: 0, evaluations: 1200 },
      { entrant: 'node', done: 4, failed: 0, live: 0, missing: 0, evaluations: 1200 },
      { entrant: 'rnd', done: 4, failed: 0, live: 0, missing: 0, evaluations: 1200 },
    ]);
  }, 240_000);

  it("the leaderboard is the organiser's by default: an entrant sees only its own runs there, nobody else anything", async () => {
    expect((await get('api/competition/standings')).status).toBe(401);
    expect((await get('api/competition/standings', tokens.py)).status).toBe(403);
    const page = await get(`competition?token=${tokens.py}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Your runs (py)');
    expect(html).not.toContain('id="standings"');
    const organiserPage = await (await get('competition', ORGANISER)).text();
    expect(organiserPage).toContain('id="standings"');
    expect(organiserPage).toContain('Runtime ECDF: so');
    expect(organiserPage).not.toContain('Your runs');
    // No answer names the organiser's folder.
    for (const text of [
      html,
      organiserPage,
      await (await get('api/competition/standings', ORGANISER)).text(),
      await (await get('api/competition', ORGANISER)).text(),
    ])
      expect(text).not.toContain(cwd);
  });

  it('a hello is the same over a POST: GET the problem, then POST one batch at a time', async () => {
    // Every run of py is over: the problem refuses with what is left (nothing).
    const over = await get('api/competition/so-n60-i1', tokens.py);
    expect(over.status).toBe(409);
    expect((await over.json()).error).toBe('py has used its whole budget on so-n60-i1: 2 run(s) of 300 evaluations');
    const socket = new Socket(wsUrl(app.origin, 'so-n60-i1'), { Authorization: `Bearer ${tokens.py}` });
    expect(await socket.opened).toBe(false);
    expect(await socket.refused).toEqual({
      status: 409,
      body: JSON.stringify({ error: 'py has used its whole budget on so-n60-i1: 2 run(s) of 300 evaluations' }),
    });
    const hello: Hello = await (await get('api/competition/so-n60-i1?entrant=py', ORGANISER)).json().catch(() => null);
    expect(hello).toEqual({ error: 'py has used its whole budget on so-n60-i1: 2 run(s) of 300 evaluations' });
  });
});
