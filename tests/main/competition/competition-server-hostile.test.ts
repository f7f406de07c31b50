// A hostile remote entrant against saikoro serve --competition: wrong and revoked tokens,
// another entrant's data, batches past the budget and over the limits, floods, half messages,
// stalled connections and reconnect storms. Every refusal says what and costs no evaluation:
// the budgets stay exact (what the server counted is what it answered), and the other entrant,
// who never played, has evaluated nothing.
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppServer } from '../../../src-main/server/app-server.ts';
import { runCli } from '../cli/io.ts';
import { bearer as auth, competitionView, enterRemote, openPlay, serveCompetition, Socket, wsUrl, type Answer } from './remote-helpers.ts';
import { waitFor } from '../processes.ts';

const ORGANISER = 'organiser-token-of-the-hostile-test';
const N = 60;
const BUDGET = 500;
const LIMITS = { maxBatch: 200, requestsPerSecond: 20, burst: 10, maxConnections: 3, maxMessageBytes: 32 * 1024 };

let cwd: string;
let app: AppServer;
const tokens: Record<string, string> = {};
const cli = (...argv: string[]) => runCli(argv, { cwd });
/** Evaluations the hostile entrant was answered, by seed: what the server must have counted. */
const answered = new Map<number, number>();

const seq = (k: number) => Array.from({ length: N }, (_, i) => String(1 + ((i * 7 + k * 13) % 6))).join('');
const batch = (size: number, from = 0) => ({ evaluate: Array.from({ length: size }, (_, k) => seq(from + k)) });

function count(seed: number, answer: Answer | null): void {
  const evaluated = (answer?.results ?? []).filter((r) => !('error' in r)).length;
  answered.set(seed, (answered.get(seed) ?? 0) + evaluated);
}

const open = (token: string, problem = 'so-n60-i1', query = '') => openPlay(app.origin, token, problem, query);

/** Waits out the rate limit: the bucket refills (the tests never assert a time). */
async function rested(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, (LIMITS.burst / LIMITS.requestsPerSecond) * 1000 + 100));
}

const own = (token: string) => competitionView(app.origin, token);

beforeAll(async () => {
  cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-competition-hostile-'));
  const made = await cli(
    'competition',
    'new',
    'h.saikoro',
    '--tracks',
    'so',
    '--n',
    String(N),
    '--instances',
    '1',
    '--budget',
    String(BUDGET),
    '--seeds',
    '2',
    '--secret',
    'hostile-test-secret',
  );
  expect(made.code, made.stderr).toBe(0);
  for (const name of ['hostile', 'victim', 'pyflood']) tokens[name] = await enterRemote(cwd, 'h.saikoro', name);
  app = await serveCompetition(cwd, 'h.saikoro', ORGANISER, { limits: LIMITS, heartbeatSeconds: 1 });
}, 60_000);

afterAll(async () => {
  await app?.close();
  fs.rmSync(cwd, { recursive: true, force: true });
});

describe('a hostile entrant', () => {
  it('is refused with a wrong token everywhere, with a message and nothing evaluated', async () => {
    for (const token of ['skt_wrong', tokens.hostile.slice(0, -1), ORGANISER.toUpperCase()]) {
      const socket = new Socket(wsUrl(app.origin, 'so-n60-i1'), auth(token));
      expect(await socket.opened).toBe(false);
      const refused = await socket.refused;
      expect(refused.status).toBe(401);
      expect(JSON.parse(refused.body).error).toMatch(/this token is not valid here/);
      expect((await fetch(`${app.origin}api/competition`, { headers: auth(token) })).status).toBe(401);
      const post = await fetch(`${app.origin}api/competition/so-n60-i1`, {
        method: 'POST',
        headers: { ...auth(token), 'Content-Type': 'application/json' },
        body: JSON.stringify(batch(1)),
      });
      expect(post.status).toBe(401);
    }
    // A token in the query works as in the header; no token at all is refused.
    expect((await fetch(`${app.origin}api/competition?token=${tokens.hostile}`)).status).toBe(200);
    expect((await fetch(`${app.origin}api/competition/so-n60-i1`)).status).toBe(401);
  });

  it('is refused from another Host (DNS rebinding) or a foreign Origin, as the web mode refuses it, with a valid token and nothing evaluated', async () => {
    const before = (await own(tokens.hostile)).problems[0].runs.map((r: { evaluations: number }) => r.evaluations);
    const target = `${app.origin}api/competition/so-n60-i1`;
    const request = (method: string, headers: Record<string, string>) =>
      new Promise<number>((resolve, reject) => {
        const req = http.request(target, { method, headers: { ...auth(tokens.hostile), 'Content-Type': 'application/json', ...headers } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.end(method === 'POST' ? JSON.stringify(batch(5)) : undefined);
      });
    // The same token from the server's own Host and no Origin reads the hello (the control).
    expect(await request('GET', {})).toBe(200);
    expect(await request('GET', { Host: 'evil.example' })).toBe(421);
    expect(await request('POST', { Host: `evil.example:${app.port}` })).toBe(421);
    expect(await request('POST', { Origin: 'http://evil.example' })).toBe(403);
    for (const headers of [{ Host: 'evil.example' }, { Origin: 'http://evil.example' }] as Record<string, string>[]) {
      const socket = new Socket(wsUrl(app.origin, 'so-n60-i1'), { ...auth(tokens.hostile), ...headers });
      expect(await socket.opened).toBe(false);
      expect((await socket.refused).status).toBe(403);
    }
    expect((await own(tokens.hostile)).problems[0].runs.map((r: { evaluations: number }) => r.evaluations)).toEqual(before);
  });

  it('reaches only its own runs: another entrant, another problem and a bad seed are refused or ignored', async () => {
    const view = await own(tokens.hostile);
    expect(view.entrant).toBe('hostile');
    expect(JSON.stringify(view)).not.toContain('victim');
    // ?entrant= is the organiser's: an entrant's token plays its own run whatever it says.
    const { socket, hello } = await open(tokens.hostile, 'so-n60-i1', '?entrant=victim');
    expect([hello.seed, hello.remaining]).toEqual([1, BUDGET]);
    socket.send(batch(100));
    const answer = await socket.next();
    count(1, answer);
    expect(answer!.remaining).toBe(BUDGET - 100);
    await socket.close();
    expect((await own(tokens.victim)).problems[0].runs.map((r: { evaluations: number }) => r.evaluations)).toEqual([0, 0]);
    for (const [problem, status, message] of [
      ['mo2-n60-i1', 404, 'this competition has no problem "mo2-n60-i1"'],
      ['so-n60-i9', 404, 'this competition has no problem "so-n60-i9"'],
    ] as const) {
      const s = new Socket(wsUrl(app.origin, problem), auth(tokens.hostile));
      expect(await s.opened).toBe(false);
      expect(await s.refused).toEqual({ status, body: JSON.stringify({ error: `${message} (GET /api/competition lists its problems)` }) });
    }
    expect((await fetch(`${app.origin}api/competition/..%2F..%2Fh.saikoro`, { headers: auth(tokens.hostile) })).status).toBe(404);
    const badSeed = await fetch(`${app.origin}api/competition/so-n60-i1?seed=7`, { headers: auth(tokens.hostile) });
    expect([badSeed.status, (await badSeed.json()).error]).toEqual([404, 'problem so-n60-i1 has seeds 1 to 2, not 7']);
    expect((await fetch(`${app.origin}api/competition/so-n60-i1?seed=-1`, { headers: auth(tokens.hostile) })).status).toBe(400);
    await rested();
  });

  it('sends batches over the limit, invalid ones, half messages and binary frames: each is refused or answered with errors, costing nothing', async () => {
    const { socket, hello } = await open(tokens.hostile);
    expect(hello.remaining).toBe(BUDGET - 100);
    socket.send(batch(LIMITS.maxBatch + 1));
    expect((await socket.next())!.error).toBe(
      `this request holds ${LIMITS.maxBatch + 1} sequences; at most ${LIMITS.maxBatch} per request on this server (send several requests); nothing was evaluated`,
    );
    socket.send('{"evaluate": ["1234');
    expect((await socket.next())!.error).toMatch(/^this message is not JSON: .*; nothing was evaluated$/);
    socket.send('{"optimise": []}');
    expect((await socket.next())!.error).toMatch(/^this message is not a protocol message \(\{"evaluate": \[\.\.\.\]\} or \{"log": "\.\.\."\}\)/);
    socket.send({ evaluate: 'all of them' });
    expect((await socket.next())!.error).toBe('this message: "evaluate" must be a list of strings, got "all of them"; nothing was evaluated');
    socket.send({ evaluate: [1, null] });
    expect(await socket.next()).toEqual({
      results: [{ error: 'the sequence must be a string of digits 1-6, got number' }, { error: 'the sequence must be a string of digits 1-6, got null' }],
      remaining: BUDGET - 100,
    });
    socket.ws.send(Buffer.from(JSON.stringify(batch(1))), { binary: true });
    expect((await socket.next())!.error).toBe('send each request as a text message of JSON; nothing was evaluated');
    socket.send({ evaluate: ['7'.repeat(N), seq(0).slice(1)] });
    const invalid = await socket.next();
    expect(invalid).toEqual({
      results: [{ error: 'character "7" at position 1 is not a die face 1-6' }, { error: `the sequence has ${N - 1} characters, expected N = ${N}` }],
      remaining: BUDGET - 100,
    });
    await rested();
    socket.send({ evaluate: [seq(1), 'x', seq(2)] });
    const mixed = await socket.next();
    count(1, mixed);
    expect(mixed!.results!.map((r) => 'error' in r)).toEqual([false, true, false]);
    expect(mixed!.remaining).toBe(BUDGET - 102);
    await socket.close();
    await rested();
  });

  it('floods: requests past the rate are refused with when to try again, and only the answered ones count', async () => {
    const { socket, hello } = await open(tokens.hostile);
    const before = hello.remaining;
    const flood = 40;
    for (let k = 0; k < flood; k++) socket.send(batch(1, 1000 + k));
    let refused = 0;
    let evaluated = 0;
    for (let k = 0; k < flood; k++) {
      const answer = (await socket.next())!;
      if (answer.error) {
        expect(answer.error).toMatch(
          /^too many requests: at most 20 per second \(bursts of 10\) for this token; try again in [0-9.]+ s; nothing was evaluated$/,
        );
        expect(answer.retry).toBeGreaterThan(0);
        refused++;
      } else {
        evaluated += answer.results!.length;
        count(1, answer);
      }
    }
    expect(refused).toBeGreaterThan(0);
    expect(evaluated + refused).toBe(flood);
    expect((await own(tokens.hostile)).refusedForRate).toBeGreaterThanOrEqual(refused);
    expect((await own(tokens.hostile)).problems[0].runs[0].remaining).toBe(before - evaluated);
    await socket.close();
    await rested();
  });

  it('a message larger than the limit closes the socket (1009) and costs nothing; a POST says 413', async () => {
    const { socket, hello } = await open(tokens.hostile);
    socket.send({ evaluate: Array.from({ length: 600 }, () => seq(0)) });
    await waitFor('the socket to close', () => socket.closed !== null);
    expect(socket.closed!.code).toBe(1009);
    const big = await fetch(`${app.origin}api/competition/so-n60-i1`, {
      method: 'POST',
      headers: { ...auth(tokens.hostile), 'Content-Type': 'application/json' },
      body: JSON.stringify({ evaluate: Array.from({ length: 600 }, () => seq(0)) }),
    });
    expect(big.status).toBe(413);
    expect((await big.json()).error).toMatch(/at most 32768 bytes per message on this server; nothing was evaluated/);
    const text = await fetch(`${app.origin}api/competition/so-n60-i1`, {
      method: 'POST',
      headers: { ...auth(tokens.hostile), 'Content-Type': 'text/plain' },
      body: JSON.stringify(batch(1)),
    });
    expect(text.status).toBe(415);
    expect((await own(tokens.hostile)).problems[0].runs[0].remaining).toBe(hello.remaining);
    await rested();
  });

  it('a connection stalled in the middle of a frame holds nothing for long: the heartbeat closes it, and the others go on', async () => {
    const { socket: first } = await open(tokens.hostile);
    // A raw client: the WebSocket handshake, then half of a frame's header, then silence.
    const raw = net.connect(app.port, '127.0.0.1');
    await new Promise((resolve) => raw.once('connect', resolve));
    raw.write(
      `GET /api/competition/so-n60-i1 HTTP/1.1\r\nHost: 127.0.0.1:${app.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nAuthorization: Bearer ${tokens.hostile}\r\n\r\n`,
    );
    let rawClosed = false;
    let head = '';
    raw.on('data', (d: Buffer) => (head += d.toString('latin1')));
    raw.on('close', () => (rawClosed = true));
    await waitFor('the handshake', () => head.includes('\r\n\r\n'));
    expect(head).toMatch(/^HTTP\/1\.1 101/);
    raw.write(Buffer.from([0x81]));
    // The first socket still plays while the raw one stalls.
    first.send(batch(2, 2000));
    const answer = await first.next();
    count(1, answer);
    expect(answer!.results).toHaveLength(2);
    await waitFor('the heartbeat to close the stalled connection', () => rawClosed, { withinMs: 20_000 });
    await first.close();
    await rested();
  });

  it('reconnect storms: connections past the limit are refused (429), and none of it costs an evaluation', async () => {
    const before = (await own(tokens.hostile)).problems[0].runs[0].remaining;
    const storm = Array.from({ length: 8 }, () => new Socket(wsUrl(app.origin, 'so-n60-i1'), auth(tokens.hostile)));
    const opened = await Promise.all(storm.map((s) => s.opened));
    expect(opened.filter(Boolean).length).toBe(LIMITS.maxConnections);
    for (const s of storm.filter((_, i) => !opened[i])) {
      const r = await s.refused;
      expect(r.status).toBe(429);
      expect(JSON.parse(r.body).error).toMatch(/^too many (connections: at most 3 at once for this token \(close one first\)|requests: at most 20 per second)/);
    }
    await Promise.all(storm.map((s) => s.close()));
    await rested();
    // Open and drop, again and again: each closed connection gives its place back.
    for (let k = 0; k < 12; k++) {
      const s = new Socket(wsUrl(app.origin, 'so-n60-i1'), auth(tokens.hostile));
      if (await s.opened) await s.close();
      else expect((await s.refused).status).toBe(429);
      if (k % 5 === 4) await rested();
    }
    await rested();
    const { socket, hello } = await open(tokens.hostile);
    expect(hello.remaining).toBe(before);
    await socket.close();
    expect((await own(tokens.hostile)).problems[0].runs[0].remaining).toBe(before);
    await rested();
  });

  it('batches past the budget: the one that would pass it is cut, "stop": "budget" ends the run, the next connection plays seed 2', async () => {
    const { socket, hello } = await open(tokens.hostile);
    let remaining = hello.remaining;
    let from = 3000;
    let last: Answer | null = null;
    while (!last?.stop) {
      socket.send(batch(LIMITS.maxBatch, from));
      from += LIMITS.maxBatch;
      last = await socket.next();
      if (last?.error) {
        await new Promise((resolve) => setTimeout(resolve, (last!.retry ?? 0.1) * 1000));
        last = null;
        continue;
      }
      count(1, last);
      const got = last!.results!.length;
      expect(got).toBe(Math.min(LIMITS.maxBatch, remaining));
      remaining -= got;
      expect(last!.remaining).toBe(remaining);
    }
    expect([last.stop, last.remaining]).toEqual(['budget', 0]);
    await waitFor('the socket to close', () => socket.closed !== null);
    expect(socket.closed!.code).toBe(1000);
    const over = await fetch(`${app.origin}api/competition/so-n60-i1?seed=1`, {
      method: 'POST',
      headers: { ...auth(tokens.hostile), 'Content-Type': 'application/json' },
      body: JSON.stringify(batch(1)),
    });
    expect([over.status, (await over.json()).error]).toEqual([
      409,
      `hostile's run of so-n60-i1 with seed 1 is over: its budget of ${BUDGET} evaluations is used`,
    ]);
    await rested();
    // Seed 2 over POSTs, one batch at a time.
    const hello2 = await (await fetch(`${app.origin}api/competition/so-n60-i1`, { headers: auth(tokens.hostile) })).json();
    expect([hello2.seed, hello2.remaining]).toEqual([2, BUDGET]);
    const post = await fetch(`${app.origin}api/competition/so-n60-i1?seed=2`, {
      method: 'POST',
      headers: { ...auth(tokens.hostile), 'Content-Type': 'application/json' },
      body: JSON.stringify(batch(50)),
    });
    expect(post.status).toBe(200);
    const answer: Answer = await post.json();
    count(2, answer);
    expect([answer.results!.length, answer.remaining]).toEqual([50, BUDGET - 50]);
  });

  it('the budgets are exact: the server counted what it answered, and the entrant who never played evaluated nothing', async () => {
    const runs = (await own(tokens.hostile)).problems[0].runs;
    expect(runs.map((r: { evaluations: number }) => r.evaluations)).toEqual([answered.get(1), answered.get(2)]);
    expect(answered.get(1)).toBe(BUDGET);
    expect(runs[0].state).toBe('done');
    const victim = (await own(tokens.victim)).problems[0].runs;
    // (pyflood plays after this: its own test counts it.)
    expect(victim.map((r: { evaluations: number; state: string }) => [r.evaluations, r.state])).toEqual([
      [0, 'new'],
      [0, 'new'],
    ]);
    // What the file holds says the same once folded.
    app.competition!.fold();
    const counts = app.competition!.project.remoteRunCounts();
    expect([...counts.values()].map((c) => [c.entrant, c.evaluations]).sort((a, b) => Number(b[1]) - Number(a[1]))).toEqual([
      ['hostile', answered.get(1)],
      ['hostile', answered.get(2)],
    ]);
  });

  it('the Python client waits out a rate refusal and sends again: every request answered once', async () => {
    const script = [
      'import sys, json',
      `sys.path.insert(0, ${JSON.stringify(path.join(import.meta.dirname, '..', '..', '..', 'clients', 'python'))})`,
      'from saikoro_client import connect',
      'p = connect()',
      `seq = ${JSON.stringify(seq(1))}`,
      'for k in range(100):',
      '    assert len(p.evaluate([seq])) == 1',
      'print(json.dumps([p.evaluated, p.remaining]))',
    ].join('\n');
    const out = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn('python3', ['-c', script, '--remote', `${app.origin}api/competition/so-n60-i1`, '--token', tokens.pyflood]);
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d));
      child.stderr.on('data', (d: Buffer) => (stderr += d));
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
    expect([out.code, out.stderr]).toEqual([0, '']);
    expect(JSON.parse(out.stdout)).toEqual([100, BUDGET - 100]);
    const view = await own(tokens.pyflood);
    expect(view.problems[0].runs[0].evaluations).toBe(100);
    // It was refused (a burst of 10 at 20 a second), and each refusal was waited out.
    expect(view.refusedForRate).toBeGreaterThan(0);
    await rested();
  });

  it('a revoked token is refused within a second, on a new connection and on the next request', async () => {
    const { socket } = await open(tokens.victim);
    const revoked = await cli('competition', 'token', 'h.saikoro', '--entrant', 'victim', '--revoke');
    expect(revoked.code, revoked.stderr).toBe(0);
    await waitFor(
      'the revocation to reach the server',
      async () => (await fetch(`${app.origin}api/competition`, { headers: auth(tokens.victim) })).status === 401,
    );
    const s = new Socket(wsUrl(app.origin, 'so-n60-i1'), auth(tokens.victim));
    expect(await s.opened).toBe(false);
    expect((await s.refused).status).toBe(401);
    socket.send(batch(1));
    expect(await socket.next()).toEqual({ error: 'this token has been revoked or replaced; nothing was evaluated' });
    await socket.close();
  });
});
