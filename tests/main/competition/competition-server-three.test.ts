// saikoro serve --competition with three remote entrants at once (issue 29, "Tests"), over real
// WebSockets on 127.0.0.1: the Python client playing examples/solvers/local_search.py, a Node
// entrant playing random_search.mjs's requests, and a hostile entrant whose attacks run while the
// two play (wrong tokens, another entrant's runs, half messages and requests over the limits, a
// connection stalled mid-frame, connection and reconnect storms, batches past the budget, a
// flood). The attacks run one after the other, each in a turn an honest entrant gives: the Node
// entrant mid-run (its socket open, between two requests), the Python client at each start (its
// process playing meanwhile). Then:
// - every honest run used exactly its budget, in exactly its requests, was never refused, and its
//   stored result equals the local run of the same program with the same seed;
// - the hostile's counts are exactly what it was answered, run by run (each answer's `remaining`
//   checked as it came), and each attack was refused with its documented message;
// - `competition standings --json` on the served file equals the local `competition run` of the
//   same three entrants as programs (the hostile's twin: fake-solver.mjs `same`, the one sequence
//   the hostile evaluates whenever it evaluates anything).
// The server's limits are the same for every token (docs/competition.md, "Limits"), so they are
// set for the honest entrants to stay within (a burst of 100 requests holds every request an
// honest entrant makes; batches of 100; one connection each) while the hostile goes past each.
// Nothing waits a fixed time: the test waits on states (a socket closed, a connection given back,
// a run stored), and the hostile, refused for the rate, waits the `retry` the refusal names, as
// the Python client does. The heartbeat is 3 s: a stalled connection is closed within two beats.
import net from 'node:net';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppServer } from '../../../src-main/server/app-server.ts';
import { waitFor } from '../processes.ts';
import {
  bearer,
  comparable,
  competitionCli,
  competitionView,
  enterRemote,
  expectSameStandings,
  FAKE_SOLVER,
  LOCAL_SEARCH,
  localCompetition,
  newCompetition,
  NODE_PROGRAM,
  openPlay,
  playRandomSearch,
  PY_PROGRAM,
  runPython,
  sameSequence,
  serveCompetition,
  Socket,
  storedRuns,
  wsUrl,
  type Answer,
} from './remote-helpers.ts';

const SECRET = 'three-entrants-secret-29';
const ORGANISER = 'organiser-token-of-the-three-entrants-test';
const N = 60;
const BUDGET = 300;
const PROBLEMS = ['so-n60-i1', 'mo2-n60-i1'];
const LIMITS = { maxBatch: 100, requestsPerSecond: 5, burst: 100, maxConnections: 3, maxMessageBytes: 16 * 1024 };
const INVALID_TOKEN = "this token is not valid here (revoked, replaced by a newer one, or not this competition's); ask the organiser for a token";
const RATE = /^too many requests: at most 5 per second \(bursts of 100\) for this token; try again in [0-9.]+ s; nothing was evaluated$/;

let cwd: string;
let app: AppServer;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-competition-three-'));
  await newCompetition(cwd, 'c.saikoro', SECRET);
  for (const name of ['py', 'node', 'hostile']) tokens[name] = await enterRemote(cwd, 'c.saikoro', name);
  app = await serveCompetition(cwd, 'c.saikoro', ORGANISER, { limits: LIMITS, heartbeatSeconds: 3 });
}, 60_000);

afterAll(async () => {
  await app?.close();
  fs.rmSync(cwd, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------------------------
// The hostile entrant: whatever it evaluates is the one sequence D, so what it stores does not
// depend on how many of its requests got through, only on how many evaluations: the counts.

const D = sameSequence(N);
const same = (size: number) => ({ evaluate: Array<string>(size).fill(D) });
/** Evaluations the hostile was answered, per run ("problem seed"): what the server must count. */
const answered = new Map<string, number>();
const left = (problem: string, seed: number) => BUDGET - (answered.get(`${problem} ${seed}`) ?? 0);

/** Counts what an answer evaluated on the hostile's run, and checks the server's `remaining` says the same. */
function tally(problem: string, seed: number, answer: Answer): Answer {
  const evaluated = (answer.results ?? []).filter((r) => !('error' in r)).length;
  answered.set(`${problem} ${seed}`, (answered.get(`${problem} ${seed}`) ?? 0) + evaluated);
  if (answer.results) expect(answer.remaining, `remaining on ${problem} seed ${seed}`).toBe(left(problem, seed));
  return answer;
}

interface Play {
  socket: Socket;
  problem: string;
  seed: number;
}

async function hostilePlay(problem: string, query = ''): Promise<Play> {
  const { socket, hello } = await openPlay(app.origin, tokens.hostile, problem, query);
  expect(hello.remaining, `the hello of ${problem} seed ${hello.seed}`).toBe(left(problem, hello.seed));
  return { socket, problem, seed: hello.seed };
}

const pause = (seconds: number) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));

/** One message on the play and its answer; a refusal for the rate is waited out as the server says and sent again (it cost nothing). */
async function ask(play: Play, message: unknown): Promise<Answer> {
  for (;;) {
    play.socket.send(message);
    const answer = await play.socket.next();
    expect(answer, 'an answer before the socket closed').not.toBeNull();
    if (answer!.retry === undefined) return tally(play.problem, play.seed, answer!);
    expect(answer!.error).toMatch(RATE);
    await pause(answer!.retry);
  }
}

/** A POST of one message to the hostile's run `seed` of the problem (`query` added): status and answer; a rate refusal is waited out. */
async function post(problem: string, seed: number, message: unknown, query = ''): Promise<{ status: number; answer: Answer }> {
  for (;;) {
    const res = await fetch(`${app.origin}api/competition/${problem}?seed=${seed}${query}`, {
      method: 'POST',
      headers: { ...bearer(tokens.hostile), 'Content-Type': 'application/json' },
      body: JSON.stringify(message),
    });
    const answer: Answer = await res.json();
    if (res.status !== 429) return { status: res.status, answer: res.status === 200 ? tally(problem, seed, answer) : answer };
    expect(answer.error).toMatch(RATE);
    await pause(answer.retry!);
  }
}

const hostileConnectionsClosed = () => waitFor("the server to let go of the hostile's connections", () => app.competition!.connectionsOf('hostile') === 0);

async function refusedSocket(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  const socket = new Socket(url, headers);
  expect(await socket.opened).toBe(false);
  return socket.refused;
}

const attacks: [string, () => Promise<void>][] = [
  [
    'wrong tokens',
    async () => {
      const wrong = ['skt_wrong', tokens.hostile.slice(0, -1), ORGANISER.toUpperCase(), `${tokens.node.slice(0, -1)}${tokens.node.endsWith('A') ? 'B' : 'A'}`];
      for (const token of wrong) {
        expect(await refusedSocket(wsUrl(app.origin, 'so-n60-i1'), bearer(token))).toEqual({ status: 401, body: JSON.stringify({ error: INVALID_TOKEN }) });
        expect((await refusedSocket(wsUrl(app.origin, 'so-n60-i1', `?token=${token}`), {})).status).toBe(401);
        const res = await fetch(`${app.origin}api/competition/so-n60-i1`, {
          method: 'POST',
          headers: { ...bearer(token), 'Content-Type': 'application/json' },
          body: JSON.stringify(same(1)),
        });
        expect([res.status, (await res.json()).error]).toEqual([401, INVALID_TOKEN]);
        expect((await fetch(`${app.origin}api/competition`, { headers: bearer(token) })).status).toBe(401);
      }
      expect(JSON.parse((await refusedSocket(wsUrl(app.origin, 'so-n60-i1'), {})).body).error).toBe(
        "this endpoint needs an entrant's token (Authorization: Bearer <token>, or ?token=)",
      );
    },
  ],
  [
    "another entrant's runs",
    async () => {
      // ?entrant= is the organiser's: the hostile's token plays its own run whatever it names.
      const play = await hostilePlay('so-n60-i1', '?entrant=node');
      expect(play.seed).toBe(1);
      expect((await ask(play, same(20))).results).toHaveLength(20);
      await play.socket.close();
      const { status, answer } = await post('so-n60-i1', 1, same(10), '&entrant=py');
      expect([status, answer.results?.length, answer.remaining]).toEqual([200, 10, BUDGET - 30]);
      // Its view is its own, whichever entrant it names; the organiser sees the same of it.
      const named = await (await fetch(`${app.origin}api/competition?entrant=py`, { headers: bearer(tokens.hostile) })).json();
      expect(named.entrant).toBe('hostile');
      const organiser = await competitionView(app.origin, ORGANISER);
      expect(named).toEqual(organiser.entrants.find((e: { entrant: string }) => e.entrant === 'hostile'));
      const standings = await fetch(`${app.origin}api/competition/standings`, { headers: bearer(tokens.hostile) });
      expect([standings.status, (await standings.json()).error]).toEqual([
        403,
        "the leaderboard is the organiser's on this server (it was started without --public-leaderboard)",
      ]);
      for (const problem of ['mo3-n60-i1', 'so-n60-i2'])
        expect(await refusedSocket(wsUrl(app.origin, problem), bearer(tokens.hostile))).toEqual({
          status: 404,
          body: JSON.stringify({ error: `this competition has no problem "${problem}" (GET /api/competition lists its problems)` }),
        });
      expect((await fetch(`${app.origin}api/competition/..%2Fc.saikoro`, { headers: bearer(tokens.hostile) })).status).toBe(404);
      const badSeed = await fetch(`${app.origin}api/competition/so-n60-i1?seed=7`, { headers: bearer(tokens.hostile) });
      expect([badSeed.status, (await badSeed.json()).error]).toEqual([404, 'problem so-n60-i1 has seeds 1 to 2, not 7']);
      expect((await fetch(`${app.origin}api/competition/so-n60-i1?seed=-1`, { headers: bearer(tokens.hostile) })).status).toBe(400);
    },
  ],
  [
    'half messages, requests over the limits and invalid ones',
    async () => {
      const play = await hostilePlay('so-n60-i1');
      const refused: [unknown, string | RegExp][] = [
        [same(LIMITS.maxBatch + 1), 'this request holds 101 sequences; at most 100 per request on this server (send several requests); nothing was evaluated'],
        [`{"evaluate": ["${D.slice(0, 25)}`, /^this message is not JSON: .*; nothing was evaluated$/],
        ['{"optimise": []}', /^this message is not a protocol message \(\{"evaluate": \[\.\.\.\]\} or \{"log": "\.\.\."\}\)/],
        [{ evaluate: 'all of them' }, 'this message: "evaluate" must be a list of strings, got "all of them"; nothing was evaluated'],
      ];
      for (const [message, error] of refused) expect((await ask(play, message)).error).toMatch(error);
      play.socket.ws.send(Buffer.from(JSON.stringify(same(1))), { binary: true });
      expect(tally(play.problem, play.seed, (await play.socket.next())!)).toEqual({
        error: 'send each request as a text message of JSON; nothing was evaluated',
      });
      expect(await ask(play, { evaluate: [1, null, '7'.repeat(N), D.slice(1)] })).toEqual({
        results: [
          { error: 'the sequence must be a string of digits 1-6, got number' },
          { error: 'the sequence must be a string of digits 1-6, got null' },
          { error: 'character "7" at position 1 is not a die face 1-6' },
          { error: `the sequence has ${N - 1} characters, expected N = ${N}` },
        ],
        remaining: BUDGET - 30,
      });
      const mixed = await ask(play, { evaluate: [D, 'x', D] });
      expect([mixed.results!.map((r) => 'error' in r), mixed.remaining]).toEqual([[false, true, false], BUDGET - 32]);
      await play.socket.close();
    },
  ],
  [
    'a connection stalled in the middle of a frame',
    async () => {
      const play = await hostilePlay('so-n60-i1');
      // A raw client: the handshake, then half of a frame's header, then silence.
      const raw = net.connect(app.port, '127.0.0.1');
      let head = '';
      let closed = false;
      raw.on('data', (d: Buffer) => (head += d.toString('latin1')));
      raw.on('close', () => (closed = true));
      raw.write(
        `GET /api/competition/so-n60-i1 HTTP/1.1\r\nHost: 127.0.0.1:${app.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nAuthorization: Bearer ${tokens.hostile}\r\n\r\n`,
      );
      await waitFor('the handshake', () => head.includes('\r\n\r\n'));
      expect(head).toMatch(/^HTTP\/1\.1 101/);
      raw.write(Buffer.from([0x81]));
      // The other socket plays on while the raw one stalls, until the heartbeat closes it.
      expect((await ask(play, same(2))).results).toHaveLength(2);
      await waitFor('the heartbeat to close the stalled connection', () => closed, { withinMs: 30_000 });
      await play.socket.close();
    },
  ],
  [
    'connection and reconnect storms',
    async () => {
      await hostileConnectionsClosed();
      const storm = Array.from({ length: 8 }, () => new Socket(wsUrl(app.origin, 'so-n60-i1'), bearer(tokens.hostile)));
      const opened = await Promise.all(storm.map((s) => s.opened));
      expect(opened.filter(Boolean)).toHaveLength(LIMITS.maxConnections);
      for (const [i, s] of storm.entries())
        if (opened[i]) expect((await s.next())!.remaining).toBe(left('so-n60-i1', 1));
        else
          expect(await s.refused).toEqual({
            status: 429,
            body: JSON.stringify({ error: 'too many connections: at most 3 at once for this token (close one first)' }),
          });
      await Promise.all(storm.map((s) => s.close()));
      // Dropped mid-run without a closing handshake, the run resumes where it was.
      const play = await hostilePlay('so-n60-i1');
      expect((await ask(play, same(4))).remaining).toBe(BUDGET - 38);
      play.socket.ws.terminate();
      // Open and drop, again and again: each closed connection gives its place back, and costs nothing.
      for (let k = 0; k < 12; k++) {
        await hostileConnectionsClosed();
        await (await hostilePlay('so-n60-i1')).socket.close();
      }
    },
  ],
  [
    'a message larger than the limit',
    async () => {
      const play = await hostilePlay('so-n60-i1');
      play.socket.send(same(300));
      await waitFor('the socket to close', () => play.socket.closed !== null);
      expect(play.socket.closed!.code).toBe(1009);
      const body = JSON.stringify(same(300));
      const big = await fetch(`${app.origin}api/competition/so-n60-i1`, {
        method: 'POST',
        headers: { ...bearer(tokens.hostile), 'Content-Type': 'application/json' },
        body,
      });
      expect([big.status, (await big.json()).error]).toEqual([
        413,
        `the request is ${body.length} bytes; at most ${LIMITS.maxMessageBytes} bytes per message on this server; nothing was evaluated`,
      ]);
      const text = await fetch(`${app.origin}api/competition/so-n60-i1`, {
        method: 'POST',
        headers: { ...bearer(tokens.hostile), 'Content-Type': 'text/plain' },
        body: JSON.stringify(same(1)),
      });
      expect([text.status, (await text.json()).error]).toEqual([415, 'a request is JSON: send Content-Type: application/json']);
      await (await hostilePlay('so-n60-i1')).socket.close();
    },
  ],
  [
    'batches past the budget',
    async () => {
      // so, seed 1: batches of 100, the last cut to what is left; "stop" ends the run and closes the socket.
      let play = await hostilePlay('so-n60-i1');
      for (let answer: Answer | null = null; !answer?.stop; ) {
        const before = left(play.problem, play.seed);
        answer = await ask(play, same(100));
        expect(answer.results).toHaveLength(Math.min(100, before));
      }
      expect(left('so-n60-i1', 1)).toBe(0);
      await waitFor('the socket to close', () => play.socket.closed !== null);
      expect(play.socket.closed!.code).toBe(1000);
      const over = await post('so-n60-i1', 1, same(1));
      expect([over.status, over.answer.error]).toEqual([409, `hostile's run of so-n60-i1 with seed 1 is over: its budget of ${BUDGET} evaluations is used`]);
      // so, seed 2 (the next connection's): batches of 70, the fifth cut to 20.
      play = await hostilePlay('so-n60-i1');
      expect(play.seed).toBe(2);
      const sizes = [];
      for (let answer: Answer | null = null; !answer?.stop; ) {
        answer = await ask(play, same(70));
        sizes.push(answer.results!.length);
      }
      expect(sizes).toEqual([70, 70, 70, 70, 20]);
      await play.socket.close();
    },
  ],
  [
    'requests at once on one run, from two sockets and a POST',
    async () => {
      // mo2, seed 1: 7 batches of 70 at once (3 on each socket, one POST: a connection each, the
      // limit), 490 evaluations asked of 300. The run takes them one at a time whatever they came
      // by: four whole, one cut to 20 with "stop", the others nothing (or no answer: a socket is
      // closed after its "stop"; or 409 for a POST that comes once the run is over).
      await hostileConnectionsClosed();
      const plays = await Promise.all([0, 1].map(() => hostilePlay('mo2-n60-i1')));
      expect(plays.map((p) => p.seed)).toEqual([1, 1]);
      for (const p of plays) for (let k = 0; k < 3; k++) p.socket.send(same(70));
      const answers: Answer[] = [];
      const read = async (socket: Socket) => {
        for (let k = 0; k < 3; k++) {
          const answer = await socket.next();
          if (answer === null) return;
          answers.push(answer);
          if (answer.stop) return;
        }
      };
      const postOne = async () => {
        const res = await fetch(`${app.origin}api/competition/mo2-n60-i1?seed=1`, {
          method: 'POST',
          headers: { ...bearer(tokens.hostile), 'Content-Type': 'application/json' },
          body: JSON.stringify(same(70)),
        });
        // Taken after the run ended, the POST is refused as any request to a run that is over.
        if (res.status === 409)
          expect((await res.json()).error).toBe(`hostile's run of mo2-n60-i1 with seed 1 is over: its budget of ${BUDGET} evaluations is used`);
        else {
          expect(res.status).toBe(200);
          answers.push(await res.json());
        }
      };
      await Promise.all([...plays.map((p) => read(p.socket)), postOne()]);
      const sized = (size: number) => answers.filter((a) => a.results!.length === size);
      expect(
        sized(70)
          .map((a) => [a.remaining, a.stop ?? null])
          .sort(([a], [b]) => Number(b) - Number(a)),
      ).toEqual([
        [230, null],
        [160, null],
        [90, null],
        [20, null],
      ]);
      expect(sized(20).map((a) => [a.remaining, a.stop])).toEqual([[0, 'budget']]);
      expect(sized(0).map((a) => [a.remaining, a.stop])).toEqual(sized(0).map(() => [0, 'budget']));
      expect(sized(70).length + sized(20).length + sized(0).length).toBe(answers.length);
      answered.set(
        'mo2-n60-i1 1',
        answers.reduce((sum, a) => sum + a.results!.length, 0),
      );
      expect(answered.get('mo2-n60-i1 1')).toBe(BUDGET);
      await Promise.all(plays.map((p) => p.socket.close()));
    },
  ],
  [
    'a flood',
    async () => {
      const play = await hostilePlay('mo2-n60-i1');
      expect([play.seed, left(play.problem, play.seed)]).toEqual([2, BUDGET]);
      const flood = 200;
      for (let k = 0; k < flood; k++) play.socket.send(same(1));
      let refused = 0;
      for (let k = 0; k < flood; k++) {
        const answer = (await play.socket.next())!;
        if (answer.error === undefined) tally(play.problem, play.seed, answer);
        else {
          expect(answer.error).toMatch(RATE);
          expect(answer.retry).toBeGreaterThan(0);
          refused++;
        }
      }
      // Refused past the burst; every answered one counted (fewer than the budget: the run goes on).
      expect(refused).toBeGreaterThan(0);
      expect(answered.get('mo2-n60-i1 2')).toBe(flood - refused);
      expect((await competitionView(app.origin, tokens.hostile)).refusedForRate).toBeGreaterThanOrEqual(refused);
      // Then to the end, each refusal for the rate waited out.
      for (let answer: Answer | null = null; !answer?.stop; ) answer = await ask(play, same(100));
      await play.socket.close();
    },
  ],
];

/** What ran of the attacks, in order, and the chain of those started. */
const ran: string[] = [];
let started = 0;
let chain: Promise<void> = Promise.resolve();

/** An honest entrant's turn: starts the next attack after those started (if any is left); resolves once it has run. */
function turn(): Promise<void> {
  const next = attacks[started++];
  if (next)
    chain = chain.then(async () => {
      await next[1]();
      ran.push(next[0]);
    });
  return chain;
}

describe('three remote entrants on one server, the hostile one attacking while the others play', () => {
  it('plays all three at once: the honest entrants to the end of every run, the hostile through every attack and every run', async () => {
    const python = (async () => {
      const starts = [];
      // One run per start (the fifth finds nothing left), each start with an attack beside it.
      for (let k = 0; k < 5; k++) starts.push((await Promise.all([runPython([LOCAL_SEARCH, '--remote', app.origin, '--token', tokens.py]), turn()]))[0]);
      return starts;
    })();
    const node = (async () => {
      const runs = [];
      for (const problem of PROBLEMS)
        for (let seed = 1; seed <= 2; seed++) {
          // Its first run is dropped after a request and resumed; an attack runs before the second request of each socket.
          const first = problem === PROBLEMS[0] && seed === 1 ? await playRandomSearch(app.origin, tokens.node, problem, { stopAfter: 1 }) : null;
          const played = await playRandomSearch(app.origin, tokens.node, problem, { beforeRequest: (k) => (k === 1 ? turn() : Promise.resolve()) });
          runs.push([played.hello.seed, (first?.answered ?? 0) + played.answered, played.stop]);
        }
      return runs;
    })();
    const [starts, runs] = await Promise.all([python, node]);
    while (started < attacks.length) await turn();
    await chain;
    expect(ran).toEqual(attacks.map(([name]) => name));

    expect(starts.slice(0, 4).map((s) => [s.code, s.stderr])).toEqual(Array(4).fill([0, '']));
    expect([starts[4].code, starts[4].stderr]).toEqual([1, expect.stringContaining('saikoro_client.NothingLeft: nothing left to play on')]);
    expect(runs).toEqual([
      [1, BUDGET, 'budget'],
      [2, BUDGET, 'budget'],
      [1, BUDGET, 'budget'],
      [2, BUDGET, 'budget'],
    ]);
  }, 120_000);

  it('the budgets are exact: every run counted what it was answered, the honest entrants never refused nor touched', async () => {
    const views = (await competitionView(app.origin, ORGANISER)).entrants as {
      entrant: string;
      refusedForRate: number;
      problems: { id: string; runs: { seed: number; state: string; evaluations: number; remaining: number }[] }[];
    }[];
    const runsOf = (entrant: string) =>
      views.find((v) => v.entrant === entrant)!.problems.flatMap((p) => p.runs.map((r) => [p.id, r.seed, r.state, r.evaluations, r.remaining]));
    const full = PROBLEMS.flatMap((p) => [1, 2].map((seed) => [p, seed, 'done', BUDGET, 0]));
    expect(runsOf('py')).toEqual(full);
    expect(runsOf('node')).toEqual(full);
    expect(runsOf('hostile')).toEqual(full);
    // What the hostile was answered, run by run, is what the server counted: the whole budget of each.
    expect(Object.fromEntries(answered)).toEqual(Object.fromEntries(PROBLEMS.flatMap((p) => [1, 2].map((seed) => [`${p} ${seed}`, BUDGET]))));
    expect(views.map((v) => [v.entrant, v.refusedForRate > 0])).toEqual([
      ['py', false],
      ['node', false],
      ['hostile', true],
    ]);
    // Every connection given back.
    await waitFor('every connection to be released', () => ['py', 'node', 'hostile'].every((e) => app.competition!.connectionsOf(e) === 0));
    // The file holds each answered request once: local_search.py's 15 batches of 20 per run, the Node entrant's 3 of 100.
    await waitFor('every run to be stored', () =>
      ['py', 'node', 'hostile'].every((e) => storedRuns(path.join(cwd, 'c.saikoro'), e).every((r) => r.record?.status === 'done')),
    );
    app.competition!.fold();
    const counts = [...app.competition!.project.remoteRunCounts().values()];
    for (const [entrant, requests] of [
      ['py', 15],
      ['node', 3],
    ] as const)
      expect(counts.filter((c) => c.entrant === entrant).map((c) => [c.requests, c.evaluations])).toEqual(Array(4).fill([requests, BUDGET]));
    expect(counts.filter((c) => c.entrant === 'hostile').map((c) => c.evaluations)).toEqual(Array(4).fill(BUDGET));
  });

  it('the standings of the served file equal those of the same entrants run locally by competition run, and each run its local run', async () => {
    const expected = await localCompetition(cwd, 'local.saikoro', SECRET, [
      PY_PROGRAM,
      NODE_PROGRAM,
      { name: 'hostile', command: 'node fake-solver.mjs same 100', files: [FAKE_SOLVER] },
    ]);
    expectSameStandings(JSON.parse(await competitionCli(cwd, 'standings', 'c.saikoro', '--json')), expected, ['py', 'node', 'hostile'], 12);
    // The leaderboard says the same.
    expectSameStandings(
      await (await fetch(`${app.origin}api/competition/standings`, { headers: bearer(ORGANISER) })).json(),
      expected,
      ['py', 'node', 'hostile'],
      12,
    );
    for (const entrant of ['py', 'node', 'hostile']) {
      const local = storedRuns(path.join(cwd, 'local.saikoro'), entrant);
      const remote = storedRuns(path.join(cwd, 'c.saikoro'), entrant);
      expect(remote.map((r) => [r.problem, r.seed, r.record?.remote])).toEqual(PROBLEMS.flatMap((p) => [1, 2].map((seed) => [p, seed, true])));
      for (const [i, r] of remote.entries())
        expect(comparable(r.record!.result), `${entrant} on ${r.problem} seed ${r.seed}`).toEqual(comparable(local[i].record!.result));
    }
  }, 120_000);
});
